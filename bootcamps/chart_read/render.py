"""Draws a chart identity as a PNG content part: axes 0..100, one colour per series, every value labelled,
a legend, Pillow's bitmap font (the same pixels on every machine)."""
from __future__ import annotations

from typing import Any

from bc_common.drawing import draw_text, text_size
from bc_common.images import image_part

WIDTH, HEIGHT = 640, 400
LEFT, RIGHT, TOP, BOTTOM = 56, 150, 24, 48  # plot margins (the legend sits in the right one)
COLORS = [(31, 119, 180), (214, 39, 40), (44, 160, 44), (148, 103, 189)]
MARKERS = ("circle", "square", "triangle", "diamond")


def render_chart(identity: dict[str, Any]) -> dict[str, Any]:
    from PIL import Image, ImageDraw

    image = Image.new("RGB", (WIDTH, HEIGHT), "white")
    draw = ImageDraw.Draw(image)
    x0, y0, x1, y1 = LEFT, TOP, WIDTH - RIGHT, HEIGHT - BOTTOM
    for tick in range(0, 101, 20):
        y = _y(tick)
        draw.line([(x0, y), (x1, y)], fill=(225, 225, 225))
        draw_text(image, (x0 - 6, y - 7), str(tick), fill=(90, 90, 90), scale=1, anchor="ra")
    draw.line([(x0, y0), (x0, y1), (x1, y1)], fill="black", width=2)
    labels, series, kind = identity["x"], identity["series"], identity["kind"]
    slot = (x1 - x0) / len(labels)
    for i, label in enumerate(labels):
        draw_text(image, (int(x0 + slot * (i + 0.5)), y1 + 8), label, scale=2, anchor="ma")
    k = len(series)
    points: list[list[tuple[int, int]]] = []
    for s, item in enumerate(series):
        color = COLORS[s]
        points.append([])
        for i, value in enumerate(item["values"]):
            centre = x0 + slot * (i + 0.5)
            if kind == "bar":
                width = slot * 0.8 / k
                left = int(centre - slot * 0.4 + width * s)
                draw.rectangle([left + 1, _y(value), int(left + width) - 1, y1 - 1], fill=color)
                draw_text(image, (int(left + width / 2), _y(value) - 13), str(value), scale=1, anchor="ma")
            else:
                offset = (s - (k - 1) / 2) * 4 if kind == "scatter" else 0  # scatter: keep equal values apart
                points[s].append((int(centre + offset), _y(value)))
        if kind == "line":
            draw.line(points[s], fill=color, width=2)
    if kind != "bar":
        for s in range(k):
            for px, py in points[s]:
                _marker(draw, px, py, MARKERS[s], COLORS[s])
        for i in range(len(labels)):  # every value readable: labels at one x are pushed apart, top to bottom
            column = sorted((points[s][i][1], s) for s in range(k))
            right = max(points[s][i][0] for s in range(k)) + 7  # right of every marker at this x
            free = 0
            for py, s in column:
                top = max(py - 14, free)
                draw_text(image, (right, top), str(series[s]["values"][i]), fill=COLORS[s], scale=1)
                free = top + 11
    for s, item in enumerate(series):  # legend
        ly = y0 + 10 + 26 * s
        lx = x1 + 16
        if kind == "bar":
            draw.rectangle([lx, ly, lx + 14, ly + 14], fill=COLORS[s])
        else:
            _marker(draw, lx + 7, ly + 7, MARKERS[s], COLORS[s])
        draw_text(image, (lx + 22, ly), item["name"], fill=COLORS[s], scale=2)
    title = f"{kind} chart"
    draw_text(image, ((x0 + x1) // 2 - text_size(title, 1)[0] // 2, 4), title, scale=1)
    return image_part(image)


def _y(value: float) -> int:
    return int(round(HEIGHT - BOTTOM - (HEIGHT - BOTTOM - TOP) * value / 100))


def _marker(draw: Any, x: int, y: int, shape: str, color: Any) -> None:
    r = 4
    if shape == "circle":
        draw.ellipse([x - r, y - r, x + r, y + r], fill=color)
    elif shape == "square":
        draw.rectangle([x - r, y - r, x + r, y + r], fill=color)
    elif shape == "triangle":
        draw.polygon([(x, y - r - 1), (x - r - 1, y + r), (x + r + 1, y + r)], fill=color)
    else:
        draw.polygon([(x, y - r - 1), (x + r + 1, y), (x, y + r + 1), (x - r - 1, y)], fill=color)

"""Draws the bars: grey columns on a grid, bar tags below, heights on top when labelled (Pillow's bitmap font)."""
from __future__ import annotations

from typing import Any

from bc_common.drawing import draw_text
from bc_common.images import image_part

LEFT, RIGHT, TOP, BOTTOM = 44, 16, 16, 36


def render_bars(heights: list[int], labelled: bool, tags: list[str] | None = None) -> dict[str, Any]:
    """The chart as an image part; `tags` under the bars (their numbers 1..n when not given)."""
    from PIL import Image, ImageDraw

    n, top = len(heights), max(heights)
    step = 10 if top > 50 else 5
    axis = -(-top // step) * step
    slot = max(18, min(48, 640 // n))
    width, height = LEFT + slot * n + RIGHT, 360
    image = Image.new("RGB", (width, height), "white")
    draw = ImageDraw.Draw(image)
    x0, y1 = LEFT, height - BOTTOM
    scale = (y1 - TOP) / axis

    def y(v: float) -> int:
        return int(round(y1 - v * scale))

    for tick in range(0, axis + 1, step):
        draw.line([(x0, y(tick)), (width - RIGHT, y(tick))], fill=(215, 215, 215))
        draw_text(image, (x0 - 5, y(tick) - 6), str(tick), fill=(80, 80, 80), scale=1, anchor="ra")
    for i, h in enumerate(heights):
        left = x0 + slot * i + slot // 5
        right = x0 + slot * (i + 1) - slot // 5
        draw.rectangle([left, y(h), right, y1], fill=(96, 125, 160))
        name = tags[i] if tags else str(i + 1)
        draw_text(image, ((left + right) // 2, y1 + 6), name, scale=1 if slot < 28 else 2, anchor="ma")
        if labelled:
            draw_text(image, ((left + right) // 2, y(h) - 12), str(h), scale=1, anchor="ma")
    draw.line([(x0, TOP), (x0, y1), (width - RIGHT, y1)], fill="black", width=2)
    return image_part(image)

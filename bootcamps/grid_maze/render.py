"""Draws a maze: walls as black lines, S and G as coloured cells, row and column numbers (bitmap font)."""
from __future__ import annotations

from typing import Any

from bc_common.drawing import draw_text
from bc_common.images import image_part

from .maze import decode

MARGIN = 28


def render_maze(identity: dict[str, Any]) -> dict[str, Any]:
    from PIL import Image, ImageDraw

    rows, cols = identity["rows"], identity["cols"]
    open_ = decode(identity["open"])
    cell = max(16, min(44, 560 // max(rows, cols)))
    image = Image.new("RGB", (MARGIN + cols * cell + 8, MARGIN + rows * cell + 8), "white")
    draw = ImageDraw.Draw(image)

    def box(r: int, c: int) -> tuple[int, int, int, int]:
        return MARGIN + c * cell, MARGIN + r * cell, MARGIN + (c + 1) * cell, MARGIN + (r + 1) * cell

    for (r, c), color, label in ((identity["start"], (120, 200, 120), "S"), (identity["goal"], (230, 120, 120), "G")):
        x0, y0, x1, y1 = box(r, c)
        draw.rectangle([x0, y0, x1, y1], fill=color)
        draw_text(image, ((x0 + x1) // 2, (y0 + y1) // 2 - 10), label, scale=2, anchor="ma")
    for c in range(cols):
        draw_text(image, (MARGIN + c * cell + cell // 2, 6), str(c), scale=1, anchor="ma", fill=(90, 90, 90))
    for r in range(rows):
        draw_text(image, (MARGIN - 6, MARGIN + r * cell + cell // 2 - 6), str(r), scale=1, anchor="ra",
                  fill=(90, 90, 90))
    for r in range(rows):
        for c in range(cols):
            x0, y0, x1, y1 = box(r, c)
            mask = open_[r][c]
            if not mask & 1:
                draw.line([(x0, y0), (x1, y0)], fill="black", width=3)
            if not mask & 2:
                draw.line([(x1, y0), (x1, y1)], fill="black", width=3)
            if not mask & 4:
                draw.line([(x0, y1), (x1, y1)], fill="black", width=3)
            if not mask & 8:
                draw.line([(x0, y0), (x0, y1)], fill="black", width=3)
    return image_part(image)

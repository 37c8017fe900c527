"""Text on task pictures with Pillow's built-in bitmap font: the same pixels on every machine, no system font.

    image = Image.new("RGB", (200, 100), "white")
    draw_text(image, (100, 10), "Q3 2024", scale=2, anchor="ma")
"""
from __future__ import annotations

from typing import Any


def draw_text(image: Any, xy: tuple[int, int], text: str, fill: Any = (0, 0, 0), scale: int = 2,
              anchor: str = "la") -> None:
    """Draw `text` with Pillow's built-in bitmap font, scaled by an integer factor (nearest neighbour): the same
    pixels on every machine, no system font. `anchor`: 'la' left/top, 'ma' centred, 'ra' right-aligned."""
    from PIL import Image, ImageDraw

    font = _bitmap_font()
    left, top, right, bottom = font.getbbox(text)
    w, h = max(1, right), max(1, bottom)
    mask = Image.new("L", (w, h), 0)
    ImageDraw.Draw(mask).text((0, 0), text, fill=255, font=font)
    mask = mask.resize((w * scale, h * scale), Image.Resampling.NEAREST)
    x, y = xy
    if anchor[0] == "m":
        x -= mask.width // 2
    elif anchor[0] == "r":
        x -= mask.width
    if anchor[1] == "m":
        y -= mask.height // 2
    image.paste(Image.new(image.mode, mask.size, fill), (x, y), mask)


def text_size(text: str, scale: int = 2) -> tuple[int, int]:
    """(width, height) `draw_text` covers."""
    left, top, right, bottom = _bitmap_font().getbbox(text)
    return right * scale, bottom * scale


_FONT: Any = None


def _bitmap_font() -> Any:
    global _FONT
    if _FONT is None:
        from PIL import ImageFont

        _FONT = ImageFont.load_default_imagefont()
    return _FONT

"""Answer blocks in model text: the last `<answer>...</answer>` and grids written inside it. Linear time, so
a verifier stays fast on hostile text (megabytes, thousands of blocks).

>>> last_tagged("draft <answer>1</answer> final <answer>2</answer>")
'2'
"""
from __future__ import annotations

_GRID_SEPARATORS = str.maketrans("", "", " \t\r|,+-=")


def last_tagged(text: str, tag: str = "answer", max_length: int = 65536) -> str | None:
    """The body of the last complete `<tag>...</tag>` in `text`, or None; None too when the body is longer
    than `max_length` (a real answer is short, and a huge one is not worth parsing)."""
    if not isinstance(text, str):
        return None
    close = f"</{tag}>"
    opening = f"<{tag}>"
    end = text.rfind(close)
    start = text.rfind(opening, 0, end) if end >= 0 else -1
    if start < 0:
        return None
    body = text[start + len(opening):end]
    return body if len(body) <= max_length else None


def grid_lines(body: str) -> list[str]:
    """The rows of a grid written one per line: spaces and the usual separators (`| , + - =`) are dropped and
    lines left empty (rules like `------+------`) skipped. `"1 2 | 3\\n---\\n4 5 | 6"` -> `["123", "456"]`."""
    return [line for line in (raw.translate(_GRID_SEPARATORS) for raw in body.split("\n")) if line]

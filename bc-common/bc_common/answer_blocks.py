"""Answers in model text, parsed the same way by every bootcamp: the last `<answer>...</answer>`, grids, ```
fenced JSON blocks, and bounded integer lists (`{"items": [1, 2]}`). Linear time, so a verifier stays fast on
hostile text (megabytes, thousands of blocks).

>>> last_tagged("draft <answer>1</answer> final <answer>2</answer>")
'2'
>>> last_int_list('first {"items": [1]} then {"items": [3, 4]}', "items")
[3, 4]
"""
from __future__ import annotations

import re

_GRID_SEPARATORS = str.maketrans("", "", " \t\r|,+-=")
# number bombs: `Fraction("1e999999999")`, sympy's `2**99999999` or `99999!` compute for minutes. Written to search in
# linear time: a factorial's digit run is matched from its first digit (`\d{4,}\s*!` alone is quadratic on a long
# run of digits with no "!": 0.17 s for 4,096 digits), and the power's gap is one class (`\s*[(+\s]*` is
# quadratic on a long run of spaces). Every alternative needs four digits in a row: that cheaper search goes first.
_BOMB = re.compile(r"\d\s*[eE]\s*[+-]?\d{5,}|(\*\*|\^)[(+\s]*\d{4,}|(?<!\d)\d{4,}\s*!")
_FOUR_DIGITS = re.compile(r"\d\d\d\d")


def number_bomb(text: str) -> bool:
    """Does `text` hold a number that a parser (Fraction, sympy) would compute for minutes: a huge exponent
    (`1e99999`, `2**9999`, `9^99999`) or a factorial of a big number (`99999!`)? Verifiers refuse such an answer
    unless the stored one has one too."""
    return _FOUR_DIGITS.search(text) is not None and _BOMB.search(text) is not None


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


_FENCE_BODY = re.compile(r"\s*(?:json)?\s*(\{.*\})\s*", re.DOTALL)
_LIST_INT = re.compile(r"\s*([0-9]{1,%d})\s*")


def fenced_blocks(text: str, max_chars: int = 65536) -> list[str]:
    """The `{...}` bodies of ``` fences (optionally ```json), in order, in linear time; a body longer than
    `max_chars` is not an answer and is skipped. "```json\\n{"a": 1}\\n```" -> ['{"a": 1}']."""
    if not isinstance(text, str):
        return []
    parts = text.split("```")
    blocks, i = [], 1
    while i < len(parts) - 1:
        body = parts[i]
        match = _FENCE_BODY.fullmatch(body) if len(body) <= max_chars else None
        if match:
            blocks.append(match.group(1))
            i += 2
        else:
            i += 1
    return blocks


def parse_int_list(body: str, max_digits: int = 4) -> list[int] | None:
    """`"1, 2, 3"` -> [1, 2, 3]; `""` -> []; None unless every item is a plain ASCII integer of at most
    `max_digits` digits (no signs, no exponents, no other scripts' digits)."""
    if not body.strip():
        return []
    item_re = re.compile(_LIST_INT.pattern.replace("%d", str(max_digits)))
    out = []
    for item in body.split(","):
        m = item_re.fullmatch(item)
        if m is None:
            return None
        out.append(int(m[1]))
    return out


def last_int_list(text: str, key: str, *, max_chars: int = 600, max_digits: int = 4) -> list[int] | None:
    """The integers of the last `{"KEY": [i, j, ...]}` object in `text` (a list body of at most `max_chars`
    characters), or None when there is none or it holds anything but plain integers."""
    if not isinstance(text, str):
        return None
    pattern = re.compile(r'\{\s*"' + re.escape(key) + r'"\s*:\s*\[([^\[\]]{0,' + str(max_chars) + r'})\]\s*\}')
    found = None
    for found in pattern.finditer(text):  # noqa: B007  (the last match is the answer)
        pass
    return parse_int_list(found[1], max_digits) if found is not None else None


def last_code_block(text: str, languages: tuple[str, ...], max_chars: int = 65536) -> str | None:
    """The body of the last ``` fence whose info string is one of `languages` (```python ... ```), in linear
    time; None when there is none or it is longer than `max_chars`. "```sql\nSELECT 1\n```" -> "SELECT 1\n"."""
    if not isinstance(text, str):
        return None
    parts = text.split("```")
    found = None
    for i in range(1, len(parts) - 1, 2):  # odd parts are fence bodies
        head, newline, body = parts[i].partition("\n")
        if newline and head.strip().lower() in languages:
            found = body
    return found if found is not None and len(found) <= max_chars else None

"""Villain ranges: pokerkit's range notation, villain's strength order, and range expressions that narrow a range
by villain's actions ("22+,AKs | top 0.35 @ Ah7d2c | bottom 0.65 @ Ah7d2cKs").

A weighted range is a list of (combo, weight). `top s @ BOARD` keeps the strongest share s of the weighted range's
weight by villain's strength on BOARD (made-hand value; preflop the Chen score), hands tied at the boundary kept in
part; `bottom s` keeps the weakest share s. Shares are taken over the combos the board leaves possible.
"""
from __future__ import annotations

import functools
import re
from collections.abc import Sequence

from .evaluator import RANKS, BoardEvaluator, parse_cards

Combo = tuple[int, int]
MAX_EXPRESSION = 2000
_STEP = re.compile(r"^\s*(top|bottom)\s+([0-9]*\.?[0-9]+)\s*@\s*(preflop|[2-9TJQKAcdhs]{6,10})\s*$")


@functools.lru_cache(maxsize=256)
def parse_range(notation: str) -> tuple[Combo, ...]:
    """Combos (sorted card pairs) of a range in pokerkit's notation ("QQ+, AKs, T9s-76s"); ValueError if bad."""
    from pokerkit import parse_range as pk_parse_range

    if len(notation) > MAX_EXPRESSION or not notation.strip():
        raise ValueError("a range is a non-empty notation like 'QQ+, AKs, KQo'")
    try:
        combos = pk_parse_range(notation)
    except (ValueError, KeyError, IndexError) as exc:
        raise ValueError(f"cannot read range {notation[:60]!r}: {exc}") from None
    out = set()
    for combo in combos:
        cards = parse_cards("".join(repr(c) for c in combo))
        if len(cards) != 2:
            raise ValueError(f"range {notation[:60]!r} has a hand that is not two cards")
        out.add((min(cards), max(cards)))
    return tuple(sorted(out))


def chen_score(a: int, b: int) -> float:
    """Bill Chen's preflop score, without the final rounding (villain's preflop strength order)."""
    hi, lo = max(a >> 2, b >> 2), min(a >> 2, b >> 2)
    points = {12: 10.0, 11: 8.0, 10: 7.0, 9: 6.0}.get(hi, (hi + 2) / 2)
    if hi == lo:
        return max(points * 2, 5.0)
    if a & 3 == b & 3:
        points += 2
    gap = hi - lo - 1
    points -= (0, 1, 2, 4)[gap] if gap < 4 else 5
    if gap <= 1 and hi < RANKS.index("Q"):
        points += 1
    return points


def strengths(combos: Sequence[Combo], board: Sequence[int]) -> list[float]:
    """Villain's strength of each combo on `board` (made-hand value; the Chen score preflop)."""
    if not board:
        return [chen_score(a, b) for a, b in combos]
    ev = BoardEvaluator(board)
    return [ev.value(a, b) for a, b in combos]


def share_weights(combos: Sequence[Combo], weights: Sequence[float], board: Sequence[int], share: float,
                  top: bool = True) -> list[float]:
    """The part of each combo's weight in the strongest (top) or weakest share of the weighted range on `board`
    (combos the board blocks count nothing); a tie at the boundary is kept in proportion."""
    blocked = set(board)
    live = [i for i, (a, b) in enumerate(combos) if weights[i] > 0 and a not in blocked and b not in blocked]
    strength = strengths([combos[i] for i in live], board)
    order = sorted(range(len(live)), key=lambda k: strength[k], reverse=top)
    target = share * sum(weights[i] for i in live)
    out = [0.0] * len(combos)
    k = 0
    while k < len(order) and target > 1e-12:
        j = k
        while j < len(order) and strength[order[j]] == strength[order[k]]:
            j += 1
        group = [live[order[m]] for m in range(k, j)]
        group_weight = sum(weights[i] for i in group)
        part = min(1.0, target / group_weight)
        for i in group:
            out[i] = weights[i] * part
        target -= group_weight * part
        k = j
    return out


def parse_expression(expression: str) -> tuple[str, list[tuple[str, float, list[int]]]]:
    """(base notation, [(top|bottom, share, board)]) of a range expression; ValueError names the bad part."""
    if len(expression) > MAX_EXPRESSION:
        raise ValueError(f"a range expression has at most {MAX_EXPRESSION} characters")
    base, *steps = expression.split("|")
    parsed = []
    for step in steps:
        match = _STEP.match(step)
        if not match:
            raise ValueError(f"cannot read range step {step.strip()[:60]!r}; write 'top 0.35 @ Ah7d2c'")
        share = float(match.group(2))
        if not 0.0 <= share <= 1.0:
            raise ValueError(f"a share is between 0 and 1, got {share}")
        board = [] if match.group(3) == "preflop" else parse_cards(match.group(3))
        if len(board) not in (0, 3, 4, 5):
            raise ValueError("a step's board has 3, 4 or 5 cards, or is 'preflop'")
        parsed.append((match.group(1), share, board))
    return base.strip(), parsed


def weighted_range(expression: str) -> tuple[list[Combo], list[float]]:
    """The combos of a range expression and their weights after every narrowing step."""
    base, steps = parse_expression(expression)
    combos = list(parse_range(base))
    weights = [1.0] * len(combos)
    for kind, share, board in steps:
        weights = share_weights(combos, weights, board, share, top=kind == "top")
    return combos, weights


def narrow(expression: str, kind: str, share: float, board: Sequence[int]) -> str:
    """The expression with one more step (what the interaction tells the agent after villain acts)."""
    from .evaluator import cards_str

    where = cards_str(board) if board else "preflop"
    return f"{expression} | {kind} {share:.4f} @ {where}"

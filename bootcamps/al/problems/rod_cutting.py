"""al/rod_cutting: cut a rod into priced pieces for the largest revenue (any best set of pieces scores)."""
from __future__ import annotations

import random
from typing import Any

from ..core import Knob, Problem


def best_cuts(prices: list[int], length: int) -> tuple[int, list[int]]:
    """(largest revenue, piece lengths) by the classic DP; prices[i] is the price of a piece of length i + 1."""
    best, first = [0] * (length + 1), [0] * (length + 1)
    for total in range(1, length + 1):
        best[total] = -1
        for piece in range(1, min(total, len(prices)) + 1):
            if prices[piece - 1] + best[total - piece] > best[total]:
                best[total], first[total] = prices[piece - 1] + best[total - piece], piece
    pieces, left = [], length
    while left:
        pieces.append(first[left])
        left -= first[left]
    return best[length], sorted(pieces, reverse=True)


def best_ratio(prices: list[int], length: int) -> list[int]:
    """The piece with the best price per unit of length, as often as it fits, then the best that fits the rest."""
    pieces, left = [], length
    while left:
        piece = max(range(1, min(left, len(prices)) + 1), key=lambda k: (prices[k - 1] / k, k))
        pieces.append(piece)
        left -= piece
    return pieces


class RodCutting(Problem):
    name = "rod_cutting"
    title = "Rod cutting"
    knobs = {"length": Knob(50, 4, 500, "longest rod (each is length/2..length long)"), "sizes": Knob(8, 2, 30, "piece lengths priced (1..)"),
             "max_price": Knob(60, 10, 9999, "price scale")}
    # rods of many lengths: at one length the best pieces repeat across tasks (a constant answer would pay)
    groups = {"easy": {"length": 30, "sizes": 6, "max_price": 40}, "medium": {"length": 50, "sizes": 8,
                                                                               "max_price": 60},
              "hard": {"length": 80, "sizes": 10, "max_price": 99}}
    answer_format = "the lengths of your pieces, separated by spaces, e.g. <answer>3 3 2</answer>."
    baselines = {"best_ratio": "the piece with the best price per length, repeated, then the best that fits",
                 "longest": "the longest priced piece, repeated, then the longest that fits"}

    def validate(self, p: Any) -> None:
        if p.sizes > p.length:
            raise ValueError("sizes must be at most length")

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        unit = p.max_price / p.sizes
        prices = [max(1, round(k * unit * rng.uniform(0.5, 1.5))) for k in range(1, p.sizes + 1)]
        length = rng.randint(max(p.sizes, p.length // 2), p.length)
        best, pieces = best_cuts(prices, length)
        inst = {"length": length, "prices": prices, "optimum": best, "solution": pieces}
        if any(self.accepts(inst, self.baseline(b, inst, rng)) for b in self.baselines):
            return None
        return inst

    def statement(self, inst: dict[str, Any]) -> str:
        rows = "\n".join(f"a piece of length {k} sells for {price}" for k, price in enumerate(inst["prices"], 1))
        return (f"A rod of length {inst['length']} is cut into pieces of whole lengths, which sell at these prices "
                f"(no other piece length sells):\n{rows}\n\nCut the whole rod so that the pieces sell for as much as "
                "possible in total.")

    def check(self, inst: dict[str, Any], answer: list[int]) -> str | None:
        if any(not 1 <= k <= len(inst["prices"]) for k in answer):
            return f"piece lengths must be 1..{len(inst['prices'])}"
        if sum(answer) != inst["length"]:
            return f"the pieces add up to {sum(answer)}, not {inst['length']}"
        total = sum(inst["prices"][k - 1] for k in answer)
        return None if total == inst["optimum"] else f"revenue {total}; the most is {inst['optimum']}"

    def corrupt(self, inst: dict[str, Any], answer: list[int], rng: random.Random) -> list[int]:
        return self.baseline_best_ratio(inst, rng)

    def baseline_best_ratio(self, inst: dict[str, Any], rng: random.Random) -> list[int]:
        return best_ratio(inst["prices"], inst["length"])

    def baseline_longest(self, inst: dict[str, Any], rng: random.Random) -> list[int]:
        pieces, left, top = [], inst["length"], len(inst["prices"])
        while left:
            pieces.append(min(top, left))
            left -= pieces[-1]
        return pieces

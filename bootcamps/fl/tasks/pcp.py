"""fl/pcp: a solution of a Post correspondence instance with a short solution (any solution within the tile limit
scores)."""
from __future__ import annotations

import random
from collections import deque
from typing import Any

from ..core import Knob, Task


def shortest_solution(tiles: list[list[str]], limit: int) -> list[int] | None:
    """A shortest index sequence (1-based) whose tops and bottoms spell the same word, by breadth-first search
    over the unmatched overhang, up to `limit` tiles."""
    start = ("", "")
    todo = deque([(start, [])])
    seen = {start}
    while todo:
        (top, bottom), seq = todo.popleft()
        if len(seq) >= limit:
            continue
        for i, (t, b) in enumerate(tiles, start=1):
            nt, nb = top + t, bottom + b
            k = min(len(nt), len(nb))
            if nt[:k] != nb[:k]:
                continue
            state = (nt[k:], nb[k:])
            if state == ("", ""):
                return [*seq, i]
            if state not in seen and len(state[0]) + len(state[1]) <= 8:
                seen.add(state)
                todo.append((state, [*seq, i]))
    return None


class Pcp(Task):
    name = "pcp"
    title = "Post correspondence problem"
    knobs = {"tiles": Knob(4, 2, 8, "tiles (top word, bottom word)"),
             "min_length": Knob(4, 2, 10, "the shortest solution uses at least this many tiles"),
             "max_length": Knob(8, 2, 14, "the shortest solution uses at most this many tiles")}
    groups = {"easy": {"tiles": 4, "min_length": 3, "max_length": 6},
              "medium": {"tiles": 4, "min_length": 4, "max_length": 7},
              "hard": {"tiles": 5, "min_length": 5, "max_length": 10}}
    max_draws = 3000  # about 1 draw in 80 (hard) has a shortest solution in range; a draw costs under a millisecond
    answer_format = "the tile numbers in order, separated by spaces, e.g. <answer>2 1 3 2</answer>."
    baselines = {"each_once": "every tile once, in order", "first_tile": "the first tile alone"}

    def validate(self, p: Any) -> None:
        if p.min_length > p.max_length:
            raise ValueError("min_length must be at most max_length")

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        tiles = [["".join(rng.choice("ab") for _ in range(rng.randint(1, 3))) for _ in range(2)]
                 for _ in range(p.tiles)]
        if any(t == b for t, b in tiles):
            return None  # a one-tile solution
        found = shortest_solution(tiles, p.max_length)
        if found is None or len(found) < p.min_length:
            return None
        inst = {"tiles": tiles, "limit": len(found) + 2, "solution": found}
        return None if self.any_baseline_accepted(inst, rng) else inst

    def statement(self, inst: dict[str, Any]) -> str:
        rows = "\n".join(f"tile {i}: top {t}, bottom {b}" for i, (t, b) in enumerate(inst["tiles"], start=1))
        return (f"Dominoes, each with a word on top and one on the bottom (every tile may be used any number of "
                f"times):\n{rows}\n\nFind a sequence of at most {inst['limit']} tiles whose top words, written one "
                "after another, spell exactly the same word as their bottom words.")

    def check(self, inst: dict[str, Any], answer: list[int]) -> str | None:
        tiles = inst["tiles"]
        if not answer or len(answer) > inst["limit"]:
            return f"use between 1 and {inst['limit']} tiles"
        if not all(1 <= i <= len(tiles) for i in answer):
            return f"tile numbers run from 1 to {len(tiles)}"
        top = "".join(tiles[i - 1][0] for i in answer)
        bottom = "".join(tiles[i - 1][1] for i in answer)
        return None if top == bottom else f"the tops spell {top}, the bottoms {bottom}"

    def corrupt(self, inst: dict[str, Any], answer: list[int], rng: random.Random) -> list[int]:
        return answer[:-1] if len(answer) > 1 else answer

    def baseline_each_once(self, inst: dict[str, Any], rng: random.Random) -> list[int]:
        return list(range(1, len(inst["tiles"]) + 1))

    def baseline_first_tile(self, inst: dict[str, Any], rng: random.Random) -> list[int]:
        return [1]

"""al/bin_packing: items into the fewest bins of one capacity (any packing with the fewest bins scores)."""
from __future__ import annotations

import random
from typing import Any

from ..core import Knob, Problem


def pack(sizes: list[int], capacity: int, order: list[int], k: int) -> list[int] | None:
    """A packing into bins 1..k by backtracking along `order`: each item into a bin with room, once per distinct
    load (bins of equal load are alike), the empty bins counting as one; None when none fits."""
    load, where = [0] * k, [0] * len(sizes)

    def place(t: int) -> bool:
        if t == len(order):
            return True
        i, tried = order[t], set()
        for b in range(k):
            if load[b] + sizes[i] <= capacity and load[b] not in tried:
                tried.add(load[b])
                load[b] += sizes[i]
                where[i] = b + 1
                if place(t + 1):
                    return True
                load[b] -= sizes[i]
        return False

    return where if place(0) else None


def fewest_bins(sizes: list[int], capacity: int) -> list[int]:
    """An optimal packing (the bin of each item, bins 1..k) for k = the size bound, ..., largest items first."""
    order = sorted(range(len(sizes)), key=lambda i: (-sizes[i], i))
    for k in range(max(1, -(-sum(sizes) // capacity)), len(sizes) + 1):
        where = pack(sizes, capacity, order, k)
        if where is not None:
            return where
    raise AssertionError("unreachable: one bin per item always fits")


def first_fit(sizes: list[int], capacity: int, order: list[int]) -> list[int]:
    """Items in `order`, each into the first bin with room."""
    load: list[int] = []
    where = [0] * len(sizes)
    for i in order:
        b = next((b for b, used in enumerate(load) if used + sizes[i] <= capacity), len(load))
        if b == len(load):
            load.append(0)
        load[b] += sizes[i]
        where[i] = b + 1
    return where


class BinPacking(Problem):
    name = "bin_packing"
    title = "Bin packing"
    knobs = {"items": Knob(10, 3, 18, "items"), "capacity": Knob(100, 10, 10000, "bin capacity"),
             "min_share": Knob(15, 1, 99, "item sizes from this percent of the capacity"),
             "max_share": Knob(60, 1, 100, "to this percent")}
    groups = {"easy": {"items": 8, "capacity": 100, "min_share": 15, "max_share": 60},
              "medium": {"items": 10, "capacity": 100, "min_share": 15, "max_share": 60},
              "hard": {"items": 13, "capacity": 150, "min_share": 12, "max_share": 60}}
    answer_format = ("the bin of each item in order, bins numbered from 1, separated by spaces, e.g. "
                     "<answer>1 2 1 3</answer>.")
    baselines = {"first_fit": "items as listed, each into the first bin with room",
                 "first_fit_decreasing": "the same, largest items first"}

    def validate(self, p: Any) -> None:
        if p.min_share > p.max_share:
            raise ValueError("min_share must be at most max_share")

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        low, high = max(1, p.capacity * p.min_share // 100), max(1, p.capacity * p.max_share // 100)
        sizes = [rng.randint(low, high) for _ in range(p.items)]
        best = fewest_bins(sizes, p.capacity)
        inst = {"sizes": sizes, "capacity": p.capacity, "optimum": max(best), "solution": best}
        if any(self.accepts(inst, self.baseline(b, inst, rng)) for b in self.baselines):
            return None
        return inst

    def statement(self, inst: dict[str, Any]) -> str:
        rows = ", ".join(f"item {k}: {size}" for k, size in enumerate(inst["sizes"], 1))
        return (f"Items with their sizes: {rows}.\n\nPack every item into bins of capacity {inst['capacity']} (the "
                "sizes in one bin add up to at most the capacity), using as few bins as possible.")

    def check(self, inst: dict[str, Any], answer: list[int]) -> str | None:
        sizes = inst["sizes"]
        if len(answer) != len(sizes) or min(answer, default=0) < 1:
            return f"one bin (a number from 1) for each of the {len(sizes)} items"
        load: dict[int, int] = {}
        for size, b in zip(sizes, answer, strict=True):
            load[b] = load.get(b, 0) + size
        over = [b for b, used in load.items() if used > inst["capacity"]]
        if over:
            return f"bin {over[0]} holds {load[over[0]]}, over the capacity {inst['capacity']}"
        return None if len(load) == inst["optimum"] else f"{len(load)} bins; the fewest is {inst['optimum']}"

    def corrupt(self, inst: dict[str, Any], answer: list[int], rng: random.Random) -> list[int]:
        wrong = list(answer)
        wrong[rng.randrange(len(wrong))] = max(answer) + 1
        return wrong

    def baseline_first_fit(self, inst: dict[str, Any], rng: random.Random) -> list[int]:
        return first_fit(inst["sizes"], inst["capacity"], list(range(len(inst["sizes"]))))

    def baseline_first_fit_decreasing(self, inst: dict[str, Any], rng: random.Random) -> list[int]:
        sizes = inst["sizes"]
        return first_fit(sizes, inst["capacity"], sorted(range(len(sizes)), key=lambda i: (-sizes[i], i)))

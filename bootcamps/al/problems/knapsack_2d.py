"""al/knapsack_2d: items with a weight and a volume: the most valuable set within both limits (any best set
scores)."""
from __future__ import annotations

import random
from typing import Any

from ..core import Knob, Problem


def best_pack(items: list[list[int]], weight: int, volume: int) -> tuple[int, list[int]]:
    """(most value, item numbers) by the DP over (weight, volume) used, item by item."""
    best: dict[tuple[int, int], tuple[int, list[int]]] = {(0, 0): (0, [])}
    for k, (w, v, value) in enumerate(items, 1):
        for (used_w, used_v), (total, chosen) in list(best.items()):
            key = (used_w + w, used_v + v)
            if key[0] <= weight and key[1] <= volume and total + value > best.get(key, (-1, []))[0]:
                best[key] = (total + value, chosen + [k])
    return max(best.values(), key=lambda tc: (tc[0], -len(tc[1])))


def greedy(items: list[list[int]], weight: int, volume: int, key: Any) -> list[int]:
    """Items in `key` order, each taken when it still fits."""
    chosen, used_w, used_v = [], 0, 0
    for k in sorted(range(1, len(items) + 1), key=key):
        w, v, _ = items[k - 1]
        if used_w + w <= weight and used_v + v <= volume:
            chosen.append(k)
            used_w, used_v = used_w + w, used_v + v
    return sorted(chosen)


class Knapsack2d(Problem):
    name = "knapsack_2d"
    title = "Two-constraint knapsack"
    knobs = {"items": Knob(10, 3, 30, "items"), "max_size": Knob(20, 3, 99, "weights and volumes are 1..max_size"),
             "max_value": Knob(50, 5, 9999, "values are 1..max_value")}
    groups = {"easy": {"items": 7, "max_size": 15, "max_value": 30}, "medium": {"items": 10, "max_size": 20,
                                                                                 "max_value": 50},
              "hard": {"items": 14, "max_size": 20, "max_value": 90}}
    answer_format = "the numbers of the items you take, separated by spaces, e.g. <answer>a b c</answer>."
    baselines = {"density": "by value per share of both limits, each taken when it fits",
                 "most_valuable": "the most valuable first, each taken when it fits"}

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        items = [[rng.randint(1, p.max_size), rng.randint(1, p.max_size), rng.randint(1, p.max_value)]
                 for _ in range(p.items)]
        weight = sum(w for w, _, _ in items) * 2 // 5
        volume = sum(v for _, v, _ in items) * 2 // 5
        best, chosen = best_pack(items, weight, volume)
        inst = {"items": items, "weight": weight, "volume": volume, "optimum": best, "solution": chosen}
        if any(self.accepts(inst, self.baseline(b, inst, rng)) for b in self.baselines):
            return None
        return inst

    def statement(self, inst: dict[str, Any]) -> str:
        rows = "\n".join(f"item {k}: weight {w}, volume {v}, value {value}"
                         for k, (w, v, value) in enumerate(inst["items"], 1))
        return (f"Items, each to take whole or leave:\n{rows}\n\nTake items of total weight at most {inst['weight']} "
                f"and total volume at most {inst['volume']}, of the largest total value.")

    def check(self, inst: dict[str, Any], answer: list[int]) -> str | None:
        items = inst["items"]
        if len(set(answer)) != len(answer) or not set(answer) <= set(range(1, len(items) + 1)):
            return f"item numbers must be distinct, 1..{len(items)}"
        weight = sum(items[k - 1][0] for k in answer)
        volume = sum(items[k - 1][1] for k in answer)
        if weight > inst["weight"] or volume > inst["volume"]:
            return f"weight {weight} and volume {volume}: over a limit"
        total = sum(items[k - 1][2] for k in answer)
        return None if total == inst["optimum"] else f"value {total}; the most is {inst['optimum']}"

    def baseline_density(self, inst: dict[str, Any], rng: random.Random) -> list[int]:
        items, weight, volume = inst["items"], inst["weight"], inst["volume"]
        return greedy(items, weight, volume,
                      lambda k: (-items[k - 1][2] / (items[k - 1][0] / weight + items[k - 1][1] / volume), k))

    def baseline_most_valuable(self, inst: dict[str, Any], rng: random.Random) -> list[int]:
        items = inst["items"]
        return greedy(items, inst["weight"], inst["volume"], lambda k: (-items[k - 1][2], k))

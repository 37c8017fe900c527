"""The cheap knapsack heuristics a lazy policy finds first, and the floor they set for the score.

Greedy fills (by value/weight ratio, by value, lightest first, in the listed order), the best single item, and
each of them improved by one-item moves (add an item, or swap one in for one out) until no move helps. A task
is kept only when the best of them falls short of the optimum, and the score is the share of that gap closed.
"""
from __future__ import annotations

from collections.abc import Callable

Order = Callable[[int], tuple]


def greedy_fill(weights: list[int], values: list[int], capacity: int, key: Order) -> list[int]:
    """Items (1-based, sorted) taken in `key` order whenever they still fit."""
    chosen, room = [], capacity
    for i in sorted(range(len(weights)), key=key):
        if weights[i] <= room:
            chosen.append(i + 1)
            room -= weights[i]
    return sorted(chosen)


def by_ratio(weights: list[int], values: list[int]) -> Order:
    return lambda i: (-values[i] / weights[i] if weights[i] else float("-inf"), i)


def by_value(weights: list[int], values: list[int]) -> Order:
    return lambda i: (-values[i], weights[i], i)


def lightest(weights: list[int], values: list[int]) -> Order:
    return lambda i: (weights[i], -values[i], i)


def listed(weights: list[int], values: list[int]) -> Order:
    return lambda i: i


GREEDY_ORDERS = {"ratio": by_ratio, "value": by_value, "lightest": lightest, "listed": listed}


def best_single(weights: list[int], values: list[int], capacity: int) -> list[int]:
    """The most valuable item that fits alone (the classic half of the 1/2-approximation)."""
    fits = [i for i in range(len(weights)) if weights[i] <= capacity]
    return [max(fits, key=lambda i: (values[i], -i)) + 1] if fits else []


def improve(items: list[int], weights: list[int], values: list[int], capacity: int) -> list[int]:
    """Hill-climb from `items`: take the best single move (add one item, or swap one in for one out) that raises
    the value and still fits, until none does."""
    chosen = {i - 1 for i in items}
    weight = sum(weights[i] for i in chosen)
    n = len(weights)
    while True:
        room = capacity - weight
        inside = sorted(chosen, key=lambda i: (values[i], i))  # the cheapest item to give up first
        best_gain, best_move = 0, None
        for j in range(n):
            if j in chosen or values[j] <= best_gain:
                continue
            if weights[j] <= room:
                best_gain, best_move = values[j], (None, j)
                continue
            for i in inside:  # the first that makes room is the best swap for j
                if values[j] - values[i] <= best_gain:
                    break
                if weights[i] >= weights[j] - room:
                    best_gain, best_move = values[j] - values[i], (i, j)
                    break
        if best_move is None:
            return sorted(i + 1 for i in chosen)
        out, into = best_move
        if out is not None:
            chosen.discard(out)
            weight -= weights[out]
        chosen.add(into)
        weight += weights[into]


def heuristic_selections(weights: list[int], values: list[int], capacity: int) -> dict[str, list[int]]:
    """Every heuristic's selection by name (`greedy_ratio`, ..., `single`, and each `+swaps`)."""
    out = {f"greedy_{name}": greedy_fill(weights, values, capacity, order(weights, values))
           for name, order in GREEDY_ORDERS.items()}
    out["single"] = best_single(weights, values, capacity)
    for name, items in list(out.items()):
        out[f"{name}+swaps"] = improve(items, weights, values, capacity)
    return out


def heuristic_floor(weights: list[int], values: list[int], capacity: int) -> int:
    """The best total value any of the cheap heuristics reaches: the score's zero point."""
    return max(sum(values[i - 1] for i in items)
               for items in heuristic_selections(weights, values, capacity).values())

"""0/1 knapsack: selection checks and the exact optimum by dynamic programming over integer capacities."""
from __future__ import annotations

from collections import Counter


def selection_problem(items: list[int], weights: list[int], capacity: int) -> str | None:
    """Why `items` (1-based item numbers) is not a feasible selection; None when it is."""
    n = len(weights)
    counts = Counter(items)
    unknown = sorted(i for i in counts if not 1 <= i <= n)
    if unknown:
        return f"no such item: {', '.join(map(str, unknown[:10]))} (items are numbered 1-{n})"
    twice = sorted(i for i, k in counts.items() if k > 1)
    if twice:
        return f"each item can be taken once; listed more than once: {', '.join(map(str, twice[:10]))}"
    weight = sum(weights[i - 1] for i in items)
    if weight > capacity:
        return f"total weight {weight} is over the capacity {capacity} by {weight - capacity}"
    return None


def totals(items: list[int], weights: list[int], values: list[int]) -> tuple[int, int]:
    """(total weight, total value) of a selection of distinct valid item numbers."""
    return sum(weights[i - 1] for i in items), sum(values[i - 1] for i in items)


def best_selection(weights: list[int], values: list[int], capacity: int) -> tuple[int, list[int]]:
    """(optimal value, an optimal selection as sorted 1-based item numbers): DP over capacities 0..capacity."""
    best = [0] * (capacity + 1)  # best[c]: the most value within weight c using the items seen so far
    took: list[bytearray] = []
    for w, v in zip(weights, values, strict=True):
        if w > capacity:
            took.append(bytearray(capacity + 1))
            continue
        shifted = [b + v for b in best[: capacity + 1 - w]]
        keep = best[w:]
        mark = bytearray(w) + bytearray(s > k for s, k in zip(shifted, keep, strict=True))
        best = best[:w] + [s if s > k else k for s, k in zip(shifted, keep, strict=True)]
        took.append(mark)
    chosen, c = [], capacity
    for i in range(len(weights) - 1, -1, -1):
        if took[i][c]:
            chosen.append(i + 1)
            c -= weights[i]
    return best[capacity], sorted(chosen)

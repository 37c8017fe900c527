"""al/optimal_bst: a binary search tree over keys 1..n with access counts, of the least total search cost (the
interval DP; any cheapest tree scores). The answer is each key's parent."""
from __future__ import annotations

import random
from typing import Any

from ..core import Knob, Problem


def cheapest_tree(freq: list[int]) -> tuple[int, list[int]]:
    """(least cost, the parent of each key 1..n with 0 for the root) by the O(n^3) interval DP; the cost sums each
    key's count times its depth (the root at depth 1)."""
    n = len(freq)
    prefix = [0]
    for f in freq:
        prefix.append(prefix[-1] + f)
    cost = [[0] * (n + 2) for _ in range(n + 2)]  # cost[i][j]: keys i..j (1-based), 0 when empty
    root = [[0] * (n + 2) for _ in range(n + 2)]
    for size in range(1, n + 1):
        for i in range(1, n - size + 2):
            j = i + size - 1
            best = min(range(i, j + 1), key=lambda r: (cost[i][r - 1] + cost[r + 1][j], r))
            cost[i][j] = cost[i][best - 1] + cost[best + 1][j] + prefix[j] - prefix[i - 1]
            root[i][j] = best
    parent = [0] * (n + 1)

    def hang(i: int, j: int, above: int) -> None:
        if i > j:
            return
        r = root[i][j]
        parent[r] = above
        hang(i, r - 1, r)
        hang(r + 1, j, r)

    hang(1, n, 0)
    return cost[1][n], parent[1:]


def tree_cost(freq: list[int], parent: list[int]) -> int | str:
    """The search cost of the tree the parents describe, or why they are not a binary search tree on 1..n."""
    n = len(freq)
    if len(parent) != n or any(not 0 <= p <= n or p == k for k, p in enumerate(parent, 1)):
        return f"give one parent (0 for the root, else a key 1..{n} other than itself) for each of the {n} keys"
    roots = [k for k, p in enumerate(parent, 1) if p == 0]
    if len(roots) != 1:
        return f"{len(roots)} roots; a tree has one"
    left: dict[int, int] = {}
    right: dict[int, int] = {}
    for k, p in enumerate(parent, 1):
        if p:
            side = left if k < p else right
            if p in side:
                return f"key {p} has two children on its {'left' if k < p else 'right'}"
            side[p] = k
    order: list[int] = []
    depth, total, stack = {roots[0]: 1}, 0, [(roots[0], False)]
    while stack:  # in-order walk from the root: it must visit 1..n in order (and every key: no cycle)
        k, expanded = stack.pop()
        if expanded:
            order.append(k)
            continue
        total += freq[k - 1] * depth[k]
        for child, done in ((right.get(k), None), (k, True), (left.get(k), None)):
            if done:
                stack.append((k, True))
            elif child is not None:
                depth[child] = depth[k] + 1
                stack.append((child, False))
    if order != list(range(1, n + 1)):
        return "not a binary search tree on the keys (an in-order walk does not give 1, 2, ..., n)"
    return total


def split_tree(freq: list[int], pick: Any) -> list[int]:
    """The tree whose root over each range of keys is `pick(i, j)` (1-based), as parents."""
    parent = [0] * (len(freq) + 1)
    stack = [(1, len(freq), 0)]
    while stack:
        i, j, above = stack.pop()
        if i <= j:
            r = pick(i, j)
            parent[r] = above
            stack += [(i, r - 1, r), (r + 1, j, r)]
    return parent[1:]


class OptimalBst(Problem):
    name = "optimal_bst"
    title = "Optimal binary search tree"
    knobs = {"keys": Knob(8, 3, 40, "keys 1..keys"), "max_count": Knob(30, 2, 999, "access counts are 1..max_count, spread evenly over magnitudes")}
    groups = {"easy": {"keys": 11, "max_count": 50}, "medium": {"keys": 13, "max_count": 99},
              "hard": {"keys": 17, "max_count": 999}}
    answer_format = ("the parent of each key in key order (0 for the root), separated by spaces, e.g. "
                     "<answer>2 0 2</answer> (key 2 the root, keys 1 and 3 its children).")
    baselines = {"balanced": "the middle key of each range as its root",
                 "heaviest_root": "the most searched key of each range as its root"}

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        freq = [max(1, round(p.max_count ** rng.random())) for _ in range(p.keys)]  # spread over magnitudes
        total, parent = cheapest_tree(freq)
        inst = {"counts": freq, "optimum": total, "solution": parent}
        if any(self.accepts(inst, self.baseline(b, inst, rng)) for b in self.baselines):
            return None
        return inst

    def statement(self, inst: dict[str, Any]) -> str:
        freq = inst["counts"]
        rows = "\n".join(f"key {k}: searched {f} times" for k, f in enumerate(freq, 1))
        return (f"Keys 1..{len(freq)} and how often each is searched:\n{rows}\n\nBuild a binary search tree on these "
                "keys (smaller keys in a node's left subtree, larger in its right) with the least total search cost: "
                "the sum over keys of its count times its depth (the root has depth 1, its children 2, ...).")

    def check(self, inst: dict[str, Any], answer: list[int]) -> str | None:
        cost = tree_cost(inst["counts"], answer)
        if isinstance(cost, str):
            return cost
        return None if cost == inst["optimum"] else f"search cost {cost}; the least is {inst['optimum']}"

    def corrupt(self, inst: dict[str, Any], answer: list[int], rng: random.Random) -> list[int]:
        return self.baseline_balanced(inst, rng)

    def baseline_balanced(self, inst: dict[str, Any], rng: random.Random) -> list[int]:
        return split_tree(inst["counts"], lambda i, j: (i + j) // 2)

    def baseline_heaviest_root(self, inst: dict[str, Any], rng: random.Random) -> list[int]:
        freq = inst["counts"]
        return split_tree(freq, lambda i, j: max(range(i, j + 1), key=lambda k: (freq[k - 1], -k)))

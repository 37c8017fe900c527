"""al/vertex_cover_tree: a minimum-weight vertex cover of a tree with weighted nodes (any lightest cover scores)."""
from __future__ import annotations

import random
from typing import Any

from ..core import Knob, Problem, adjacency, bfs_parents, random_tree


def lightest_cover(n: int, edges: list[list[int]], weight: list[int]) -> tuple[int, list[int]]:
    """(least weight, a cover) by the tree DP from node 1: each node's best subtree cost with and without it."""
    back = bfs_parents(adjacency(edges, directed=False), 1)
    order = list(back)  # parents before children
    take, skip = {u: weight[u - 1] for u in order}, dict.fromkeys(order, 0)
    for u in reversed(order[1:]):
        parent = back[u]
        take[parent] += min(take[u], skip[u])
        skip[parent] += take[u]
    chosen, stack = [], [(1, False)]
    children: dict[int, list[int]] = {}
    for u in order[1:]:
        children.setdefault(back[u], []).append(u)
    while stack:
        u, must = stack.pop()
        if must or take[u] <= skip[u]:
            chosen.append(u)
            stack.extend((c, False) for c in children.get(u, []))
        else:
            stack.extend((c, True) for c in children.get(u, []))
    return min(take[1], skip[1]), sorted(chosen)


class VertexCoverTree(Problem):
    name = "vertex_cover_tree"
    title = "Minimum-weight vertex cover of a tree"
    knobs = {"nodes": Knob(14, 4, 80, "nodes"), "max_weight": Knob(20, 2, 999, "node weights are 1..max_weight")}
    groups = {"easy": {"nodes": 9, "max_weight": 12}, "medium": {"nodes": 14, "max_weight": 20},
              "hard": {"nodes": 22, "max_weight": 40}}
    answer_format = "the nodes of your cover, separated by spaces, e.g. <answer>a b c</answer>."
    baselines = {"inner": "every node that is not a leaf", "greedy_degree": "repeatedly the node covering the "
                 "most uncovered edges", "lighter_end": "for each edge in turn, its lighter end when uncovered"}

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        edges = random_tree(rng, p.nodes)
        weight = [rng.randint(1, p.max_weight) for _ in range(p.nodes)]
        best, cover = lightest_cover(p.nodes, edges, weight)
        inst = {"nodes": p.nodes, "edges": edges, "weights": weight, "optimum": best, "solution": cover}
        if any(self.accepts(inst, self.baseline(b, inst, rng)) for b in self.baselines):
            return None
        return inst

    def statement(self, inst: dict[str, Any]) -> str:
        rows = "\n".join(f"{u} - {v}" for u, v in inst["edges"])
        weights = ", ".join(f"node {u}: {w}" for u, w in enumerate(inst["weights"], 1))
        return (f"A tree on nodes 1..{inst['nodes']}, its edges:\n{rows}\n\nThe nodes' weights: {weights}.\n\nChoose "
                "nodes so that every edge has at least one chosen end, with the least total weight.")

    def check(self, inst: dict[str, Any], answer: list[int]) -> str | None:
        chosen = set(answer)
        if len(chosen) != len(answer) or not chosen <= set(range(1, inst["nodes"] + 1)):
            return f"nodes must be distinct numbers 1..{inst['nodes']}"
        open_edges = [(u, v) for u, v in inst["edges"] if u not in chosen and v not in chosen]
        if open_edges:
            return f"edge {open_edges[0][0]} - {open_edges[0][1]} has no chosen end"
        total = sum(inst["weights"][u - 1] for u in chosen)
        return None if total == inst["optimum"] else f"total weight {total}; the least is {inst['optimum']}"

    def baseline_inner(self, inst: dict[str, Any], rng: random.Random) -> list[int]:
        out = adjacency(inst["edges"], directed=False)
        return sorted(u for u, near in out.items() if len(near) > 1)

    def baseline_greedy_degree(self, inst: dict[str, Any], rng: random.Random) -> list[int]:
        left, chosen = [tuple(e) for e in inst["edges"]], []
        while left:
            count: dict[int, int] = {}
            for e in left:
                for u in e:
                    count[u] = count.get(u, 0) + 1
            u = max(sorted(count), key=lambda x: count[x])
            chosen.append(u)
            left = [e for e in left if u not in e]
        return sorted(chosen)

    def baseline_lighter_end(self, inst: dict[str, Any], rng: random.Random) -> list[int]:
        chosen: set[int] = set()
        for u, v in inst["edges"]:
            if u not in chosen and v not in chosen:
                chosen.add(min((u, v), key=lambda x: (inst["weights"][x - 1], x)))
        return sorted(chosen)

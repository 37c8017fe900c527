"""al/dominating_set_tree: a smallest set of tree nodes such that every node is in it or next to one (a tree DP
with three states a node; any smallest set scores)."""
from __future__ import annotations

import random
from typing import Any

from ..core import Knob, Problem, adjacency, bfs_parents, random_tree


def smallest_dominating(n: int, edges: list[list[int]]) -> list[int]:
    """One minimum dominating set of the tree, by DP from the leaves up (root 1). States of node u: 0 chosen; 1 not
    chosen, dominated by a child; 2 not chosen, not dominated below (its parent must be chosen)."""
    near = adjacency(edges, directed=False)
    parent = bfs_parents(near, 1)
    order = list(parent)  # breadth-first: parents before children
    kids = {u: [v for v in near.get(u, []) if parent.get(v) == u and v != u] for u in order}
    big = 1 << 30
    best: dict[int, list[int]] = {}
    for u in reversed(order):
        chosen = 1 + sum(min(best[c]) for c in kids[u])
        free = sum(min(best[c][0], best[c][1]) for c in kids[u])  # children dominated without u
        # state 1: at least one child chosen; pay the least extra to force one
        extra = min((best[c][0] - min(best[c][0], best[c][1]) for c in kids[u]), default=big)
        best[u] = [chosen, free + extra, free]
    out: list[int] = []
    stack = [(1, min((0, 1), key=lambda s: best[1][s]))]
    while stack:
        u, state = stack.pop()
        if state == 0:
            out.append(u)
            stack += [(c, min(range(3), key=lambda s, c=c: best[c][s])) for c in kids[u]]
            continue
        states = [min((0, 1), key=lambda s, c=c: best[c][s]) for c in kids[u]]
        if state == 1 and 0 not in states:
            forced = min(kids[u], key=lambda c: best[c][0] - min(best[c][0], best[c][1]))
            states[kids[u].index(forced)] = 0
        stack += list(zip(kids[u], states, strict=True))
    return sorted(out)


class DominatingSetTree(Problem):
    name = "dominating_set_tree"
    title = "Minimum dominating set of a tree"
    knobs = {"nodes": Knob(16, 4, 80, "nodes of the tree")}
    groups = {"easy": {"nodes": 12}, "medium": {"nodes": 18}, "hard": {"nodes": 28}}
    answer_format = "the nodes of your set in any order, separated by spaces, e.g. <answer>a b c</answer>."
    baselines = {"inner": "every node that is not a leaf",
                 "greedy": "again and again the node that dominates the most nodes not yet dominated"}

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        edges = random_tree(rng, p.nodes)
        best = smallest_dominating(p.nodes, edges)
        inst = {"nodes": p.nodes, "edges": edges, "optimum": len(best), "solution": best}
        if any(self.accepts(inst, self.baseline(b, inst, rng)) for b in self.baselines):
            return None
        return inst

    def statement(self, inst: dict[str, Any]) -> str:
        rows = ", ".join(f"{u}-{v}" for u, v in inst["edges"])
        return (f"A tree on nodes 1..{inst['nodes']} with the edges:\n{rows}\n\nChoose as few nodes as possible so "
                "that every node is chosen or joined by an edge to a chosen node.")

    def check(self, inst: dict[str, Any], answer: list[int]) -> str | None:
        chosen, n = set(answer), inst["nodes"]
        if len(chosen) < len(answer) or any(not 1 <= u <= n for u in chosen):
            return "a node out of range, or one listed twice"
        near = adjacency(inst["edges"], directed=False)
        alone = [u for u in range(1, n + 1) if u not in chosen and not chosen & set(near.get(u, []))]
        if alone:
            return f"node {alone[0]} is neither chosen nor next to a chosen node"
        if len(answer) != inst["optimum"]:
            return f"{len(answer)} nodes; the fewest is {inst['optimum']}"
        return None

    def baseline_inner(self, inst: dict[str, Any], rng: random.Random) -> list[int]:
        near = adjacency(inst["edges"], directed=False)
        return sorted(u for u, vs in near.items() if len(vs) > 1)

    def baseline_greedy(self, inst: dict[str, Any], rng: random.Random) -> list[int]:
        near = adjacency(inst["edges"], directed=False)
        left, out = set(range(1, inst["nodes"] + 1)), []
        while left:
            best = min(near, key=lambda u: (-len(({u} | set(near[u])) & left), u))
            out.append(best)
            left -= {best} | set(near[best])
        return sorted(out)

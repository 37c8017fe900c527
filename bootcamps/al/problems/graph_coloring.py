"""al/graph_coloring: a proper coloring of a graph with the fewest colors (any optimal coloring scores)."""
from __future__ import annotations

import random
from typing import Any

from ..core import Knob, Problem, adjacency, random_graph


def k_coloring(near: dict[int, list[int]], order: list[int], k: int) -> dict[int, int] | None:
    """A proper coloring with colors 1..k by backtracking along `order` (a new color only as the next number), or
    None."""
    color: dict[int, int] = {}

    def place(i: int) -> bool:
        if i == len(order):
            return True
        u = order[i]
        taken = {color[v] for v in near.get(u, []) if v in color}
        for c in range(1, min(k, max(color.values(), default=0) + 1) + 1):
            if c not in taken:
                color[u] = c
                if place(i + 1):
                    return True
                del color[u]
        return False

    return color if place(0) else None


def fewest_colors(n: int, near: dict[int, list[int]]) -> list[int]:
    """An optimal coloring (colors 1..k) for k = 1, 2, ..., the nodes by decreasing degree."""
    order = sorted(range(1, n + 1), key=lambda u: (-len(near.get(u, [])), u))
    for k in range(1, n + 1):
        color = k_coloring(near, order, k)
        if color is not None:
            return [color[u] for u in range(1, n + 1)]
    raise AssertionError("unreachable: n colors always suffice")


def first_fit(n: int, near: dict[int, list[int]], order: list[int]) -> list[int]:
    color: dict[int, int] = {}
    for u in order:
        taken = {color[v] for v in near.get(u, []) if v in color}
        color[u] = next(c for c in range(1, n + 1) if c not in taken)
    return [color[u] for u in range(1, n + 1)]


class GraphColoring(Problem):
    name = "graph_coloring"
    title = "Graph coloring with the fewest colors"
    knobs = {"nodes": Knob(11, 4, 16, "nodes"), "density": Knob(50, 10, 90, "percent of node pairs joined")}
    groups = {"easy": {"nodes": 9, "density": 50}, "medium": {"nodes": 11, "density": 50},
              "hard": {"nodes": 13, "density": 50}}
    answer_format = ("the color of each node 1..n in order, colors numbered from 1, separated by spaces, e.g. "
                     "<answer>1 2 1 3</answer>.")
    baselines = {"first_fit": "nodes in number order, each the smallest color its colored neighbours leave",
                 "largest_first": "the same, nodes by decreasing degree (Welsh-Powell)"}

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        edges = random_graph(rng, p.nodes, p.density / 100)
        best = fewest_colors(p.nodes, adjacency(edges, directed=False))
        inst = {"nodes": p.nodes, "edges": edges, "optimum": max(best), "solution": best}
        if max(best) < 3 or any(self.accepts(inst, self.baseline(b, inst, rng)) for b in self.baselines):
            return None
        return inst

    def statement(self, inst: dict[str, Any]) -> str:
        rows = "\n".join(f"{u} - {v}" for u, v in inst["edges"])
        return (f"An undirected graph on nodes 1..{inst['nodes']}, its edges:\n{rows}\n\nColor every node so that the "
                "two ends of each edge have different colors, using as few colors as possible.")

    def check(self, inst: dict[str, Any], answer: list[int]) -> str | None:
        if len(answer) != inst["nodes"] or min(answer, default=0) < 1:
            return f"one color (a number from 1) for each of the {inst['nodes']} nodes"
        clash = [(u, v) for u, v in inst["edges"] if answer[u - 1] == answer[v - 1]]
        if clash:
            return f"nodes {clash[0][0]} and {clash[0][1]} are joined and share a color"
        used = len(set(answer))
        return None if used == inst["optimum"] else f"{used} colors; the fewest is {inst['optimum']}"

    def corrupt(self, inst: dict[str, Any], answer: list[int], rng: random.Random) -> list[int]:
        wrong = list(answer)
        wrong[rng.randrange(len(wrong))] = max(answer) + 1
        return wrong

    def baseline_first_fit(self, inst: dict[str, Any], rng: random.Random) -> list[int]:
        n = inst["nodes"]
        return first_fit(n, adjacency(inst["edges"], directed=False), list(range(1, n + 1)))

    def baseline_largest_first(self, inst: dict[str, Any], rng: random.Random) -> list[int]:
        n, near = inst["nodes"], adjacency(inst["edges"], directed=False)
        return first_fit(n, near, sorted(range(1, n + 1), key=lambda u: (-len(near.get(u, [])), u)))

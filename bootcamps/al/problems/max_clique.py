"""al/max_clique: a largest clique of a graph (any largest one scores)."""
from __future__ import annotations

import random
from typing import Any

from ..core import Knob, Problem, adjacency, random_graph


def largest_clique(near: dict[int, set[int]]) -> list[int]:
    """Bron-Kerbosch with a pivot: a largest clique, sorted."""
    best: list[int] = []

    def expand(chosen: list[int], candidates: set[int], excluded: set[int]) -> None:
        nonlocal best
        if not candidates and not excluded:
            if len(chosen) > len(best):
                best = sorted(chosen)
            return
        if len(chosen) + len(candidates) <= len(best):
            return
        pivot = max(candidates | excluded, key=lambda u: (len(near[u] & candidates), -u))
        for u in sorted(candidates - near[pivot]):
            expand(chosen + [u], candidates & near[u], excluded & near[u])
            candidates = candidates - {u}
            excluded = excluded | {u}

    expand([], set(near), set())
    return best


def greedy_clique(near: dict[int, set[int]], order: list[int]) -> list[int]:
    chosen: list[int] = []
    for u in order:
        if all(u in near[v] for v in chosen):
            chosen.append(u)
    return sorted(chosen)


class MaxClique(Problem):
    name = "max_clique"
    title = "Maximum clique"
    knobs = {"nodes": Knob(14, 4, 40, "nodes"), "density": Knob(50, 10, 90, "percent of node pairs joined")}
    groups = {"easy": {"nodes": 10, "density": 45}, "medium": {"nodes": 14, "density": 50},
              "hard": {"nodes": 20, "density": 55}}
    answer_format = "the nodes of your clique, separated by spaces, e.g. <answer>a b c</answer>."
    baselines = {"by_degree": "nodes by decreasing degree, each kept when joined to every node kept so far",
                 "by_number": "the same, nodes in number order"}

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        edges = random_graph(rng, p.nodes, p.density / 100)
        near = {u: set(vs) for u, vs in adjacency(edges, directed=False).items()}
        near |= {u: set() for u in range(1, p.nodes + 1) if u not in near}
        best = largest_clique(near)
        inst = {"nodes": p.nodes, "edges": edges, "optimum": len(best), "solution": best}
        if len(best) < 3 or any(self.accepts(inst, self.baseline(b, inst, rng)) for b in self.baselines):
            return None
        return inst

    def statement(self, inst: dict[str, Any]) -> str:
        rows = "\n".join(f"{u} - {v}" for u, v in inst["edges"])
        return (f"An undirected graph on nodes 1..{inst['nodes']}, its edges:\n{rows}\n\nFind as many nodes as "
                "possible that are all joined to each other (every two of them by an edge).")

    def check(self, inst: dict[str, Any], answer: list[int]) -> str | None:
        chosen, n = set(answer), inst["nodes"]
        if len(chosen) != len(answer) or not chosen <= set(range(1, n + 1)):
            return f"nodes must be distinct numbers 1..{n}"
        edges = {(u, v) for u, v in inst["edges"]} | {(v, u) for u, v in inst["edges"]}
        apart = [(u, v) for u in answer for v in answer if u < v and (u, v) not in edges]
        if apart:
            return f"nodes {apart[0][0]} and {apart[0][1]} are not joined"
        return None if len(chosen) == inst["optimum"] else f"{len(chosen)} nodes; the most is {inst['optimum']}"

    def _near(self, inst: dict[str, Any]) -> dict[int, set[int]]:
        near = {u: set() for u in range(1, inst["nodes"] + 1)}
        for u, v in inst["edges"]:
            near[u].add(v)
            near[v].add(u)
        return near

    def baseline_by_degree(self, inst: dict[str, Any], rng: random.Random) -> list[int]:
        near = self._near(inst)
        return greedy_clique(near, sorted(near, key=lambda u: (-len(near[u]), u)))

    def baseline_by_number(self, inst: dict[str, Any], rng: random.Random) -> list[int]:
        return greedy_clique(self._near(inst), list(range(1, inst["nodes"] + 1)))

"""al/hamiltonian_path: a path visiting every node of a graph exactly once (any such path scores)."""
from __future__ import annotations

import random
from typing import Any

from ..core import Knob, Problem, adjacency, walk_arcs


def greedy_path(near: dict[int, list[int]], start: int, key: Any) -> list[int]:
    """From `start`, always the unvisited neighbour that `key(node, visited)` ranks first, until stuck."""
    path, seen = [start], {start}
    while options := [v for v in near.get(path[-1], []) if v not in seen]:
        v = min(options, key=lambda x: key(x, seen))
        path.append(v)
        seen.add(v)
    return path


class HamiltonianPath(Problem):
    name = "hamiltonian_path"
    title = "Hamiltonian path"
    knobs = {"nodes": Knob(12, 4, 40, "nodes"), "extra": Knob(6, 0, 200, "edges beyond a hidden path")}
    groups = {"easy": {"nodes": 9, "extra": 4}, "medium": {"nodes": 12, "extra": 6},
              "hard": {"nodes": 16, "extra": 9}}  # sparse: on denser graphs the greedy rules find a path
    answer_format = "every node once, in the order of your path, separated by spaces, e.g. <answer>c a b</answer>."
    baselines = {"smallest": "from node 1, always the smallest unvisited neighbour",
                 "warnsdorff": "from a node of least degree, always the unvisited neighbour with the fewest "
                               "unvisited neighbours (Warnsdorff's rule)"}

    def validate(self, p: Any) -> None:
        if p.extra > (p.nodes - 1) * (p.nodes - 2) // 2:
            raise ValueError("extra must be at most (nodes - 1) * (nodes - 2) / 2")

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        hidden = list(range(1, p.nodes + 1))
        rng.shuffle(hidden)
        edges = {(min(u, v), max(u, v)) for u, v in zip(hidden, hidden[1:], strict=False)}
        while len(edges) < p.nodes - 1 + p.extra:
            u, v = rng.sample(range(1, p.nodes + 1), 2)
            edges.add((min(u, v), max(u, v)))
        listed = [list(e) for e in sorted(edges)]
        rng.shuffle(listed)
        inst = {"nodes": p.nodes, "edges": listed, "solution": hidden}
        if any(self.accepts(inst, self.baseline(b, inst, rng)) for b in self.baselines):
            return None
        return inst

    def statement(self, inst: dict[str, Any]) -> str:
        rows = "\n".join(f"{u} - {v}" for u, v in inst["edges"])
        return (f"An undirected graph on nodes 1..{inst['nodes']}, its edges:\n{rows}\n\nFind a path along the edges "
                "that visits every node exactly once (it may start and end anywhere).")

    def check(self, inst: dict[str, Any], answer: list[int]) -> str | None:
        n = inst["nodes"]
        if sorted(answer) != list(range(1, n + 1)):
            return f"not every node 1..{n} exactly once"
        return walk_arcs(answer, {(u, v) for u, v in inst["edges"]} | {(v, u) for u, v in inst["edges"]})

    def baseline_smallest(self, inst: dict[str, Any], rng: random.Random) -> list[int]:
        return greedy_path(adjacency(inst["edges"], directed=False), 1, lambda v, seen: v)

    def baseline_warnsdorff(self, inst: dict[str, Any], rng: random.Random) -> list[int]:
        near = adjacency(inst["edges"], directed=False)
        start = min(sorted(near), key=lambda u: len(near[u]))
        return greedy_path(near, start, lambda v, seen: (sum(x not in seen for x in near[v]), v))

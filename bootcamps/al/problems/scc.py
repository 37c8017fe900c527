"""al/scc: the strongly connected components of a directed graph (a unique partition, listed in any order)."""
from __future__ import annotations

import random
from typing import Any

from ..core import Knob, Problem, adjacency, bfs_parents, groups


def components(n: int, arcs: list[list[int]], directed: bool = True) -> list[list[int]]:
    """The strongly (or, undirected, weakly) connected components, each sorted, by their smallest node: u and v
    share one when each reaches the other (a search from every node: the graphs are small)."""
    out = adjacency(arcs, directed)
    reach = {u: set(bfs_parents(out, u)) for u in range(1, n + 1)}
    found, placed = [], set()
    for u in range(1, n + 1):
        if u not in placed:
            part = sorted(v for v in reach[u] if u in reach[v])
            placed.update(part)
            found.append(part)
    return found


class Scc(Problem):
    name = "scc"
    title = "Strongly connected components"
    knobs = {"nodes": Knob(10, 4, 40, "nodes"), "arcs": Knob(14, 3, 200, "directed arcs")}
    groups = {"easy": {"nodes": 7, "arcs": 9}, "medium": {"nodes": 10, "arcs": 14}, "hard": {"nodes": 15, "arcs": 22}}
    answer_format = ("every component as a braced group of node numbers, e.g. <answer>{a, b} {c} {d, e, f}"
                     "</answer> (every node in exactly one group).")
    baselines = {"weak": "the weakly connected components (arc directions ignored)",
                 "singletons": "every node alone"}

    def validate(self, p: Any) -> None:
        if p.arcs > p.nodes * (p.nodes - 1):
            raise ValueError(f"arcs must be at most nodes * (nodes - 1) = {p.nodes * (p.nodes - 1)}")

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        chosen = set()
        while len(chosen) < p.arcs:
            chosen.add(tuple(rng.sample(range(1, p.nodes + 1), 2)))
        arcs = [list(a) for a in chosen]
        rng.shuffle(arcs)
        parts = components(p.nodes, arcs)
        together = sum(len(part) for part in parts if len(part) > 1)  # a lone 2-cycle is too easy to repeat
        if together < 4 or len(parts) == 1 or parts == components(p.nodes, arcs, directed=False):
            return None
        return {"nodes": p.nodes, "arcs": arcs, "solution": parts}

    def statement(self, inst: dict[str, Any]) -> str:
        rows = "\n".join(f"{u} -> {v}" for u, v in inst["arcs"])
        return (f"A directed graph on nodes 1..{inst['nodes']}, its arcs (one way only):\n{rows}\n\nSplit the nodes "
                "into strongly connected components: two nodes belong together exactly when each can reach the "
                "other along the arcs.")

    def show(self, answer: list[list[int]]) -> str:
        return " ".join("{" + ", ".join(map(str, part)) + "}" for part in answer)

    def read(self, body: str) -> list[list[int]] | None:
        return groups(body)

    def check(self, inst: dict[str, Any], answer: list[list[int]]) -> str | None:
        n = inst["nodes"]
        if sorted(v for part in answer for v in part) != list(range(1, n + 1)):
            return f"not every node 1..{n} in exactly one group"
        if sorted(sorted(part) for part in answer) != sorted(inst["solution"]):
            return "not the strongly connected components"
        return None

    def corrupt(self, inst: dict[str, Any], answer: list[list[int]], rng: random.Random) -> list[list[int]]:
        parts = [list(p) for p in answer]
        i, j = rng.sample(range(len(parts)), 2)
        return [p for k, p in enumerate(parts) if k not in (i, j)] + [parts[i] + parts[j]]

    def baseline_weak(self, inst: dict[str, Any], rng: random.Random) -> list[list[int]]:
        return components(inst["nodes"], inst["arcs"], directed=False)

    def baseline_singletons(self, inst: dict[str, Any], rng: random.Random) -> list[list[int]]:
        return [[u] for u in range(1, inst["nodes"] + 1)]

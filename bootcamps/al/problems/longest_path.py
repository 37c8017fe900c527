"""al/longest_path: a heaviest path between two nodes of a weighted directed acyclic graph (any heaviest one
scores)."""
from __future__ import annotations

import random
from typing import Any

from ..core import Knob, Problem, adjacency, bfs_parents, hidden_dag, kahn_order, walk_arcs


def heaviest_path(n: int, arcs: list[list[int]], source: int, target: int) -> tuple[int, list[int]]:
    """(largest weight, a path) source -> target along a topological order; (-1, []) when unreachable."""
    best, back = {source: 0}, {}
    out: dict[int, list[tuple[int, int]]] = {}
    for u, v, w in arcs:
        out.setdefault(u, []).append((v, w))
    for u in kahn_order(n, arcs, smallest=True):
        if u in best:
            for v, w in out.get(u, []):
                if best[u] + w > best.get(v, -1):
                    best[v], back[v] = best[u] + w, u
    if target not in best:
        return -1, []
    path = [target]
    while path[-1] != source:
        path.append(back[path[-1]])
    return best[target], path[::-1]


def greedy_heaviest(arcs: list[list[int]], source: int, target: int) -> list[int]:
    """From the source, always the heaviest arc to a node that still reaches the target."""
    reach_back = set(bfs_parents(adjacency([[v, u] for u, v, _ in arcs]), target))
    path = [source]
    while path[-1] != target:
        options = [(w, v) for u, v, w in arcs if u == path[-1] and v in reach_back]
        path.append(max(options)[1])
    return path


def weight(arcs: list[list[int]], path: list[int]) -> int:
    weights = {(u, v): w for u, v, w in arcs}
    return sum(weights[a] for a in zip(path, path[1:], strict=False))


class LongestPath(Problem):
    name = "longest_path"
    title = "Longest path in a DAG"
    knobs = {"nodes": Knob(11, 4, 60, "nodes"), "arcs": Knob(26, 3, 600, "directed arcs"),
             "max_weight": Knob(20, 2, 999, "weights are 1..max_weight")}
    groups = {"easy": {"nodes": 8, "arcs": 16, "max_weight": 12}, "medium": {"nodes": 11, "arcs": 26,
                                                                              "max_weight": 20},
              "hard": {"nodes": 16, "arcs": 45, "max_weight": 30}}
    answer_format = ("the nodes of your path from the start to the goal, separated by spaces, e.g. "
                     "<answer>s a b g</answer>.")
    baselines = {"heaviest_arc": "always the heaviest arc that can still reach the goal",
                 "fewest_arcs": "a path with the fewest arcs (breadth-first search)"}

    def validate(self, p: Any) -> None:
        if p.arcs > p.nodes * (p.nodes - 1) // 2:
            raise ValueError(f"arcs must be at most nodes * (nodes - 1) / 2 = {p.nodes * (p.nodes - 1) // 2}")

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        order, pairs = hidden_dag(rng, p.nodes, p.arcs)
        arcs = [[u, v, rng.randint(1, p.max_weight)] for u, v in pairs]
        source, target = order[0], order[-1]
        best, path = heaviest_path(p.nodes, arcs, source, target)
        if best < 0 or len(path) < 4:
            return None
        inst = {"nodes": p.nodes, "arcs": arcs, "start": source, "goal": target, "optimum": best, "solution": path}
        if any(self.accepts(inst, self.baseline(b, inst, rng)) for b in self.baselines):
            return None
        return inst

    def statement(self, inst: dict[str, Any]) -> str:
        rows = "\n".join(f"{u} -> {v}  weight {w}" for u, v, w in inst["arcs"])
        return (f"A directed graph without cycles on nodes 1..{inst['nodes']}, its arcs with their weights (one way "
                f"only):\n{rows}\n\nFind a path from node {inst['start']} to node {inst['goal']} along the arcs whose "
                "total weight is as large as possible.")

    def check(self, inst: dict[str, Any], answer: list[int]) -> str | None:
        if not answer or answer[0] != inst["start"] or answer[-1] != inst["goal"]:
            return f"the path must start at {inst['start']} and end at {inst['goal']}"
        why = walk_arcs(answer, {(u, v) for u, v, _ in inst["arcs"]})
        if why:
            return why
        total = weight(inst["arcs"], answer)
        return None if total == inst["optimum"] else f"total weight {total}; the largest is {inst['optimum']}"

    def corrupt(self, inst: dict[str, Any], answer: list[int], rng: random.Random) -> list[int]:
        return self.baseline_fewest_arcs(inst, rng)

    def baseline_heaviest_arc(self, inst: dict[str, Any], rng: random.Random) -> list[int]:
        return greedy_heaviest(inst["arcs"], inst["start"], inst["goal"])

    def baseline_fewest_arcs(self, inst: dict[str, Any], rng: random.Random) -> list[int]:
        back = bfs_parents(adjacency(inst["arcs"]), inst["start"])
        path = [inst["goal"]]
        while path[-1] != inst["start"]:
            path.append(back[path[-1]])
        return path[::-1]

"""al/shortest_path: a least-weight path in a weighted directed graph (any shortest path scores)."""
from __future__ import annotations

import heapq
import random
from typing import Any

from ..core import Knob, Problem, bfs_parents


def dijkstra(n: int, arcs: dict[int, list[tuple[int, int]]], source: int, target: int) -> tuple[int, list[int]]:
    """(least weight, a path) from source to target; (-1, []) when target is unreachable."""
    dist, back, heap = {source: 0}, {}, [(0, source)]
    while heap:
        d, u = heapq.heappop(heap)
        if d > dist[u]:
            continue
        for v, w in arcs.get(u, []):
            if d + w < dist.get(v, 1 << 60):
                dist[v], back[v] = d + w, u
                heapq.heappush(heap, (d + w, v))
    if target not in dist:
        return -1, []
    path = [target]
    while path[-1] != source:
        path.append(back[path[-1]])
    return dist[target], path[::-1]


def fewest_arcs(arcs: dict[int, list[tuple[int, int]]], source: int, target: int) -> list[int]:
    """A path with the fewest arcs (breadth-first, arcs in the listed order)."""
    back = bfs_parents({u: [v for v, _ in out] for u, out in arcs.items()}, source)
    path = [target]
    while path[-1] != source:
        path.append(back[path[-1]])
    return path[::-1]


def nearest_walk(arcs: dict[int, list[tuple[int, int]]], source: int, target: int) -> list[int]:
    """From the source, always the lightest arc to a node not visited yet, until the target or a dead end."""
    path = [source]
    while path[-1] != target:
        options = [(w, v) for v, w in arcs.get(path[-1], []) if v not in path]
        if not options:
            break
        path.append(min(options)[1])
    return path


def arcs_of(inst: dict[str, Any]) -> dict[int, list[tuple[int, int]]]:
    out: dict[int, list[tuple[int, int]]] = {}
    for u, v, w in inst["arcs"]:
        out.setdefault(u, []).append((v, w))
    return out


class ShortestPath(Problem):
    name = "shortest_path"
    title = "Weighted shortest path"
    knobs = {"nodes": Knob(10, 4, 60, "nodes"), "arcs": Knob(22, 4, 400, "directed arcs"),
             "max_weight": Knob(20, 2, 999, "weights are 1..max_weight")}
    groups = {"easy": {"nodes": 7, "arcs": 14, "max_weight": 12}, "medium": {"nodes": 10, "arcs": 24,
                                                                              "max_weight": 20},
              "hard": {"nodes": 15, "arcs": 40, "max_weight": 30}}
    answer_format = ("the nodes of your path from the start to the goal, separated by spaces, e.g. "
                     "<answer>s a b g</answer>.")
    baselines = {"fewest_arcs": "a path with the fewest arcs (breadth-first search)",
                 "nearest": "always the lightest arc to an unvisited node"}

    def validate(self, p: Any) -> None:
        if p.arcs > p.nodes * (p.nodes - 1):
            raise ValueError(f"arcs must be at most nodes * (nodes - 1) = {p.nodes * (p.nodes - 1)}")

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        pairs = set()
        while len(pairs) < p.arcs:
            pairs.add(tuple(rng.sample(range(1, p.nodes + 1), 2)))
        arcs = [[u, v, rng.randint(1, p.max_weight)] for u, v in sorted(pairs)]
        rng.shuffle(arcs)
        source, target = rng.sample(range(1, p.nodes + 1), 2)
        inst = {"nodes": p.nodes, "arcs": arcs, "start": source, "goal": target}
        best, path = dijkstra(p.nodes, arcs_of(inst), source, target)
        if best < 0 or len(path) < 3:
            return None
        inst.update(optimum=best, solution=path)
        if any(self.accepts(inst, self.baseline(b, inst, rng)) for b in self.baselines):
            return None
        return inst

    def statement(self, inst: dict[str, Any]) -> str:
        rows = "\n".join(f"{u} -> {v}  weight {w}" for u, v, w in inst["arcs"])
        return (f"A directed graph on nodes 1..{inst['nodes']}, its arcs with their weights (one way only):\n{rows}"
                f"\n\nFind a path from node {inst['start']} to node {inst['goal']} along the arcs whose total weight "
                "is as small as possible.")

    def check(self, inst: dict[str, Any], answer: list[int]) -> str | None:
        if not answer or answer[0] != inst["start"] or answer[-1] != inst["goal"]:
            return f"the path must start at {inst['start']} and end at {inst['goal']}"
        weights = {(u, v): w for u, v, w in inst["arcs"]}
        missing = [(u, v) for u, v in zip(answer, answer[1:], strict=False) if (u, v) not in weights]
        if missing:
            return f"no arc {missing[0][0]} -> {missing[0][1]}"
        total = sum(weights[a] for a in zip(answer, answer[1:], strict=False))
        if total != inst["optimum"]:
            return f"total weight {total}; the least is {inst['optimum']}"
        return None

    def corrupt(self, inst: dict[str, Any], answer: list[int], rng: random.Random) -> list[int]:
        return fewest_arcs(arcs_of(inst), inst["start"], inst["goal"])

    def baseline_fewest_arcs(self, inst: dict[str, Any], rng: random.Random) -> list[int]:
        return fewest_arcs(arcs_of(inst), inst["start"], inst["goal"])

    def baseline_nearest(self, inst: dict[str, Any], rng: random.Random) -> list[int]:
        return nearest_walk(arcs_of(inst), inst["start"], inst["goal"])

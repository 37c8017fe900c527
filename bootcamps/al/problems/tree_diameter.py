"""al/tree_diameter: a heaviest simple path of a weighted tree (its diameter; any heaviest path scores)."""
from __future__ import annotations

import random
from typing import Any

from ..core import Knob, Problem, random_tree, walk_arcs


def neighbours(edges: list[list[int]]) -> dict[int, list[tuple[int, int]]]:
    out: dict[int, list[tuple[int, int]]] = {}
    for u, v, w in edges:
        out.setdefault(u, []).append((v, w))
        out.setdefault(v, []).append((u, w))
    return out


def farthest(out: dict[int, list[tuple[int, int]]], start: int) -> list[int]:
    """The path from `start` to the node farthest from it (ties: the first found)."""
    dist, back, stack = {start: 0}, {start: start}, [start]
    while stack:
        u = stack.pop()
        for v, w in out[u]:
            if v not in dist:
                dist[v], back[v] = dist[u] + w, u
                stack.append(v)
    end = max(dist, key=lambda v: (dist[v], -v))
    path = [end]
    while path[-1] != start:
        path.append(back[path[-1]])
    return path[::-1]


def path_weight(edges: list[list[int]], path: list[int]) -> int:
    weights = {(u, v): w for u, v, w in edges} | {(v, u): w for u, v, w in edges}
    return sum(weights[a] for a in zip(path, path[1:], strict=False))


class TreeDiameter(Problem):
    name = "tree_diameter"
    title = "Diameter of a weighted tree"
    knobs = {"nodes": Knob(14, 4, 80, "nodes"), "max_weight": Knob(20, 2, 999, "edge weights are 1..max_weight")}
    groups = {"easy": {"nodes": 9, "max_weight": 12}, "medium": {"nodes": 14, "max_weight": 20},
              "hard": {"nodes": 22, "max_weight": 40}}
    answer_format = "the nodes of your path from one end to the other, separated by spaces, e.g. <answer>a b c</answer>."
    baselines = {"from_one": "the heaviest path that starts at node 1",
                 "heavy_walk": "from the heaviest edge, always the heaviest unused edge, on both sides"}

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        edges = [[u, v, rng.randint(1, p.max_weight)] for u, v in random_tree(rng, p.nodes)]
        out = neighbours(edges)
        path = farthest(out, farthest(out, 1)[-1])  # the classic double sweep
        inst = {"nodes": p.nodes, "edges": edges, "optimum": path_weight(edges, path), "solution": path}
        if len(path) < 4 or any(self.accepts(inst, self.baseline(b, inst, rng)) for b in self.baselines):
            return None
        return inst

    def statement(self, inst: dict[str, Any]) -> str:
        rows = "\n".join(f"{u} - {v}  weight {w}" for u, v, w in inst["edges"])
        return (f"A tree on nodes 1..{inst['nodes']}, its edges with their weights:\n{rows}\n\nFind a path in the tree "
                "(no node twice) whose total edge weight is as large as possible.")

    def check(self, inst: dict[str, Any], answer: list[int]) -> str | None:
        if len(set(answer)) != len(answer) or len(answer) < 2:
            return "a path visits at least two nodes, none twice"
        steps = {(u, v) for u, v, _ in inst["edges"]} | {(v, u) for u, v, _ in inst["edges"]}
        why = walk_arcs(answer, steps)
        if why:
            return why
        total = path_weight(inst["edges"], answer)
        return None if total == inst["optimum"] else f"total weight {total}; the largest is {inst['optimum']}"

    def baseline_from_one(self, inst: dict[str, Any], rng: random.Random) -> list[int]:
        return farthest(neighbours(inst["edges"]), 1)

    def baseline_heavy_walk(self, inst: dict[str, Any], rng: random.Random) -> list[int]:
        out = neighbours(inst["edges"])
        u, v, _ = max(inst["edges"], key=lambda e: e[2])
        used = {u, v}

        def extend(end: int) -> list[int]:
            side = []
            while options := [(w, x) for x, w in out[end] if x not in used]:
                end = max(options)[1]
                used.add(end)
                side.append(end)
            return side

        return extend(u)[::-1] + [u, v] + extend(v)

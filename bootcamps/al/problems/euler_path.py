"""al/euler_path: a walk using every edge of a graph exactly once (an Euler trail; any one scores)."""
from __future__ import annotations

import random
from typing import Any

from ..core import Knob, Problem


def euler_trail(edges: list[list[int]]) -> list[int]:
    """Hierholzer's algorithm from an odd-degree node (else the smallest node), smallest neighbours first."""
    near: dict[int, list[int]] = {}
    for u, v in edges:
        near.setdefault(u, []).append(v)
        near.setdefault(v, []).append(u)
    odd = sorted(u for u in near if len(near[u]) % 2)
    for u in near:
        near[u].sort(reverse=True)  # pop() takes the smallest
    used: set[tuple[int, int]] = set()
    stack, trail = [odd[0] if odd else min(near)], []
    while stack:
        u = stack[-1]
        while near[u] and (min(u, near[u][-1]), max(u, near[u][-1])) in used:
            near[u].pop()
        if near[u]:
            v = near[u].pop()
            used.add((min(u, v), max(u, v)))
            stack.append(v)
        else:
            trail.append(stack.pop())
    return trail[::-1]


def greedy_walk(edges: list[list[int]], start: int) -> list[int]:
    """From `start`, always the smallest neighbour along an unused edge, until stuck."""
    left = {(min(u, v), max(u, v)) for u, v in edges}
    walk = [start]
    while options := sorted(v for e in left for v in e if walk[-1] in e and v != walk[-1]):
        left.discard((min(walk[-1], options[0]), max(walk[-1], options[0])))
        walk.append(options[0])
    return walk


class EulerPath(Problem):
    name = "euler_path"
    title = "Euler trail"
    knobs = {"nodes": Knob(8, 4, 30, "nodes"), "edges": Knob(16, 4, 200, "edges")}
    groups = {"easy": {"nodes": 7, "edges": 12}, "medium": {"nodes": 8, "edges": 16},
              "hard": {"nodes": 11, "edges": 26}}
    answer_format = ("the nodes of your walk in order, separated by spaces (a walk over k edges lists k + 1 nodes), "
                     "e.g. <answer>a b c a</answer>.")
    baselines = {"greedy_odd": "from the smallest odd-degree node (else node 1), always the smallest neighbour along "
                               "an unused edge", "greedy_one": "the same from node 1"}

    def validate(self, p: Any) -> None:
        if p.edges > p.nodes * (p.nodes - 1) // 2 - p.nodes:
            raise ValueError("edges must be at most nodes * (nodes - 1) / 2 - nodes (room for a random walk)")

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        walk, used = [rng.randint(1, p.nodes)], set()
        while len(used) < p.edges:  # a random walk that never reuses an edge: its edges have an Euler trail
            options = [v for v in range(1, p.nodes + 1) if v != walk[-1]
                       and (min(v, walk[-1]), max(v, walk[-1])) not in used]
            if not options:
                return None
            v = rng.choice(options)
            used.add((min(v, walk[-1]), max(v, walk[-1])))
            walk.append(v)
        edges = [list(e) for e in sorted(used)]
        rng.shuffle(edges)
        inst = {"nodes": p.nodes, "edges": edges, "solution": euler_trail(edges)}
        if any(self.accepts(inst, self.baseline(b, inst, rng)) for b in self.baselines):
            return None
        return inst

    def statement(self, inst: dict[str, Any]) -> str:
        rows = "\n".join(f"{u} - {v}" for u, v in inst["edges"])
        return (f"An undirected graph on nodes 1..{inst['nodes']}, its edges:\n{rows}\n\nFind a walk that uses every "
                "edge exactly once (it may start and end anywhere and visit nodes more than once).")

    def check(self, inst: dict[str, Any], answer: list[int]) -> str | None:
        left = {(min(u, v), max(u, v)) for u, v in inst["edges"]}
        for u, v in zip(answer, answer[1:], strict=False):
            step = (min(u, v), max(u, v))
            if step not in left:
                return f"{u} - {v} is not an edge, or is used twice"
            left.discard(step)
        return f"{len(left)} edges unused" if left or len(answer) < 2 else None

    def baseline_greedy_odd(self, inst: dict[str, Any], rng: random.Random) -> list[int]:
        degree: dict[int, int] = {}
        for e in inst["edges"]:
            for u in e:
                degree[u] = degree.get(u, 0) + 1
        odd = sorted(u for u, d in degree.items() if d % 2)
        return greedy_walk(inst["edges"], odd[0] if odd else 1)

    def baseline_greedy_one(self, inst: dict[str, Any], rng: random.Random) -> list[int]:
        return greedy_walk(inst["edges"], 1)

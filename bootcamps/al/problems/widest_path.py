"""al/widest_path: a path from s to t whose narrowest arc is as wide as possible (the bottleneck path; a Dijkstra
variant; any widest path scores)."""
from __future__ import annotations

import heapq
import random
from typing import Any

from ..core import Knob, Problem, bfs_parents, walk_arcs


def widest(arcs: dict[int, list[tuple[int, int]]], source: int, target: int) -> tuple[int, list[int]]:
    """(the widest bottleneck, a path reaching it) from source to target; (0, []) when unreachable."""
    width, back, heap = {source: 1 << 60}, {}, [(-(1 << 60), source)]
    while heap:
        w, u = heapq.heappop(heap)
        if -w < width[u]:
            continue
        for v, c in arcs.get(u, []):
            through = min(-w, c)
            if through > width.get(v, 0):
                width[v], back[v] = through, u
                heapq.heappush(heap, (-through, v))
    if target not in width:
        return 0, []
    path = [target]
    while path[-1] != source:
        path.append(back[path[-1]])
    return width[target], path[::-1]


def arcs_of(inst: dict[str, Any]) -> dict[int, list[tuple[int, int]]]:
    out: dict[int, list[tuple[int, int]]] = {}
    for u, v, c in inst["arcs"]:
        out.setdefault(u, []).append((v, c))
    return out


class WidestPath(Problem):
    name = "widest_path"
    title = "Widest (bottleneck) path"
    knobs = {"nodes": Knob(10, 4, 60, "nodes; the path runs from 1 to the last"),
             "arcs": Knob(24, 4, 400, "directed arcs"), "max_width": Knob(50, 5, 999, "widths are 1..max_width")}
    groups = {"easy": {"nodes": 10, "arcs": 22, "max_width": 40}, "medium": {"nodes": 13, "arcs": 32, "max_width": 60},
              "hard": {"nodes": 18, "arcs": 50, "max_width": 99}}
    answer_format = "the nodes of your path from first to last, separated by spaces, e.g. <answer>a b c</answer>."
    baselines = {"fewest_arcs": "a path with the fewest arcs", "widest_next": "from node 1 always the widest arc to a "
                                                                              "node not visited yet"}

    def validate(self, p: Any) -> None:
        if p.arcs >= p.nodes * (p.nodes - 1):
            raise ValueError("arcs must be less than nodes * (nodes - 1)")

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        n, chosen = p.nodes, set()
        while len(chosen) < p.arcs:
            u, v = rng.sample(range(1, n + 1), 2)
            if (u, v) != (1, n):  # no arc straight from the start to the goal
                chosen.add((u, v))
        arcs = [[u, v, rng.randint(1, p.max_width)] for u, v in sorted(chosen)]
        rng.shuffle(arcs)
        inst: dict[str, Any] = {"nodes": n, "arcs": arcs}
        width, path = widest(arcs_of(inst), 1, n)
        if not path:
            return None
        inst |= {"optimum": width, "solution": path}
        if any(self.accepts(inst, self.baseline(b, inst, rng)) for b in self.baselines):
            return None
        return inst

    def statement(self, inst: dict[str, Any]) -> str:
        rows = "\n".join(f"{u} -> {v}  width {c}" for u, v, c in inst["arcs"])
        return (f"A network on nodes 1..{inst['nodes']}; its arcs (one way only) and their widths:\n{rows}\n\nFind a "
                f"path from node 1 to node {inst['nodes']} along the arcs whose narrowest arc is as wide as possible "
                "(a path's width is the least width of its arcs).")

    def check(self, inst: dict[str, Any], answer: list[int]) -> str | None:
        n = inst["nodes"]
        if len(answer) < 2 or answer[0] != 1 or answer[-1] != n:
            return f"the path must run from 1 to {n}"
        width = {(u, v): c for u, v, c in inst["arcs"]}
        why = walk_arcs(answer, width)
        if why:
            return why
        narrowest = min(width[a] for a in zip(answer, answer[1:], strict=False))
        if narrowest != inst["optimum"]:
            return f"a path of width {narrowest}; the widest has {inst['optimum']}"
        return None

    def corrupt(self, inst: dict[str, Any], answer: list[int], rng: random.Random) -> list[int]:
        return self.baseline_fewest_arcs(inst, rng)

    def baseline_fewest_arcs(self, inst: dict[str, Any], rng: random.Random) -> list[int]:
        back = bfs_parents({u: [v for v, _ in out] for u, out in arcs_of(inst).items()}, 1)
        path = [inst["nodes"]]
        while path[-1] != 1:
            path.append(back[path[-1]])
        return path[::-1]

    def baseline_widest_next(self, inst: dict[str, Any], rng: random.Random) -> list[int]:
        out, path = arcs_of(inst), [1]
        while path[-1] != inst["nodes"]:
            options = [(c, -v) for v, c in out.get(path[-1], []) if v not in path]
            if not options:
                break
            path.append(-max(options)[1])
        return path

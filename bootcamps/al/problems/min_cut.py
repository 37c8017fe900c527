"""al/min_cut: a minimum s-t cut of a network (its arcs; any minimum cut scores). Its capacity is the max flow."""
from __future__ import annotations

import random
from collections import deque
from typing import Any

from ..core import Knob, Problem, pairs


def max_flow(n: int, arcs: list[list[int]], source: int, sink: int) -> tuple[int, set[int]]:
    """(maximum flow value, the nodes reachable from the source in the final residual graph) by Edmonds-Karp."""
    residual = [[0] * (n + 1) for _ in range(n + 1)]
    for u, v, c in arcs:
        residual[u][v] += c
    flow = 0
    while True:
        back, queue = {source: source}, deque([source])
        while queue and sink not in back:
            u = queue.popleft()
            for v in range(1, n + 1):
                if residual[u][v] > 0 and v not in back:
                    back[v] = u
                    queue.append(v)
        if sink not in back:
            return flow, set(back)
        push, v = 1 << 60, sink
        while v != source:
            push, v = min(push, residual[back[v]][v]), back[v]
        v = sink
        while v != source:
            residual[back[v]][v] -= push
            residual[v][back[v]] += push
            v = back[v]
        flow += push


def reaches(n: int, arcs: list[list[int]], removed: set[tuple[int, int]], source: int, sink: int) -> bool:
    out: dict[int, list[int]] = {}
    for u, v, _ in arcs:
        if (u, v) not in removed:
            out.setdefault(u, []).append(v)
    seen, queue = {source}, deque([source])
    while queue:
        for v in out.get(queue.popleft(), []):
            if v not in seen:
                seen.add(v)
                queue.append(v)
    return sink in seen


class MinCut(Problem):
    name = "min_cut"
    title = "Minimum s-t cut (max flow)"
    knobs = {"nodes": Knob(8, 4, 30, "nodes; the source is 1, the sink the last"),
             "arcs": Knob(18, 4, 200, "directed arcs"), "max_capacity": Knob(20, 2, 999, "capacities are 1..it")}
    groups = {"easy": {"nodes": 6, "arcs": 12, "max_capacity": 12}, "medium": {"nodes": 8, "arcs": 18,
                                                                                "max_capacity": 20},
              "hard": {"nodes": 12, "arcs": 30, "max_capacity": 30}}
    answer_format = ("the arcs you cut as `u-v` pairs (from u to v) separated by commas, e.g. "
                     "<answer>a-b, c-d</answer>.")
    baselines = {"source_arcs": "every arc leaving the source", "sink_arcs": "every arc entering the sink"}

    def validate(self, p: Any) -> None:
        most = (p.nodes - 1) * (p.nodes - 2) + 1  # no arc into the source or out of the sink
        if p.arcs > most:
            raise ValueError(f"arcs must be at most (nodes - 1) * (nodes - 2) + 1 = {most}")

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        n = p.nodes
        chosen = set()
        while len(chosen) < p.arcs:
            u, v = rng.sample(range(1, n + 1), 2)
            if v != 1 and u != n:  # nothing enters the source or leaves the sink
                chosen.add((u, v))
        arcs = [[u, v, rng.randint(1, p.max_capacity)] for u, v in sorted(chosen)]
        rng.shuffle(arcs)
        flow, side = max_flow(n, arcs, 1, n)
        cut = [[u, v] for u, v, _ in arcs if u in side and v not in side]
        inst = {"nodes": n, "arcs": arcs, "optimum": flow, "solution": cut}
        if flow == 0 or any(self.accepts(inst, self.baseline(b, inst, rng)) for b in self.baselines):
            return None
        return inst

    def statement(self, inst: dict[str, Any]) -> str:
        n = inst["nodes"]
        rows = "\n".join(f"{u} -> {v}  capacity {c}" for u, v, c in inst["arcs"])
        return (f"A network on nodes 1..{n}, its arcs (one way only) with their capacities:\n{rows}\n\nCut arcs so "
                f"that no path leads from node 1 (the source) to node {n} (the sink), with the least total capacity "
                "of the arcs cut (that total is the network's maximum flow).")

    def show(self, answer: list[list[int]]) -> str:
        return ", ".join(f"{u}-{v}" for u, v in answer)

    def read(self, body: str) -> list[tuple[int, int]] | None:
        return pairs(body)

    def check(self, inst: dict[str, Any], answer: list[tuple[int, int]]) -> str | None:
        capacity = {(u, v): c for u, v, c in inst["arcs"]}
        cut = {tuple(a) for a in answer}
        if len(cut) < len(answer) or any(a not in capacity for a in cut):
            return "an arc that is not in the network, or one listed twice"
        if reaches(inst["nodes"], inst["arcs"], cut, 1, inst["nodes"]):
            return "a path from the source to the sink remains"
        total = sum(capacity[a] for a in cut)
        if total != inst["optimum"]:
            return f"capacity {total}; the least is {inst['optimum']}"
        return None

    def baseline_source_arcs(self, inst: dict[str, Any], rng: random.Random) -> list[list[int]]:
        return [[u, v] for u, v, _ in inst["arcs"] if u == 1]

    def baseline_sink_arcs(self, inst: dict[str, Any], rng: random.Random) -> list[list[int]]:
        return [[u, v] for u, v, _ in inst["arcs"] if v == inst["nodes"]]

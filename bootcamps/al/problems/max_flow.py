"""al/max_flow: a maximum flow of a network written out arc by arc (checked for capacities, conservation at every
inner node and its value; any maximum flow scores)."""
from __future__ import annotations

import random
import re
from collections import deque
from typing import Any

from ..core import MAX_ITEMS, Knob, Problem
from .widest_path import arcs_of, widest

# an arc starts at its "(" or its first digit: a leading `\s*` made findall quadratic on a run of whitespace (0.3 s
# for 4,000 newlines); the whitespace between arcs is left to the strip in read_flows
_ARC = re.compile(r"(?:\(\s*)?([0-9]{1,6})\s*(?:-|->|→)\s*([0-9]{1,6})\s*[:=]\s*([0-9]{1,9})(?:\s*\))?")


def flow_on_arcs(n: int, arcs: list[list[int]], source: int, sink: int) -> dict[tuple[int, int], int]:
    """{(u, v): flow} of a maximum flow by Edmonds-Karp (no two opposite arcs in `arcs`)."""
    cap = {(u, v): c for u, v, c in arcs}
    flow = dict.fromkeys(cap, 0)
    out: dict[int, list[int]] = {}
    for u, v, _ in arcs:
        out.setdefault(u, []).append(v)
        out.setdefault(v, []).append(u)
    while True:  # shortest augmenting paths in the residual network
        back, queue = {source: source}, deque([source])
        while queue and sink not in back:
            u = queue.popleft()
            for v in sorted(out.get(u, [])):
                room = cap[(u, v)] - flow[(u, v)] if (u, v) in cap else flow[(v, u)]
                if room > 0 and v not in back:
                    back[v] = u
                    queue.append(v)
        if sink not in back:
            return flow
        steps, v = [], sink
        while v != source:
            steps.append((back[v], v))
            v = back[v]
        push = min(cap[s] - flow[s] if s in cap else flow[(s[1], s[0])] for s in steps)
        for u, v in steps:
            if (u, v) in cap:
                flow[(u, v)] += push
            else:
                flow[(v, u)] -= push


def value(flow: dict[tuple[int, int], int], source: int) -> int:
    return sum(f for (u, _), f in flow.items() if u == source) - sum(f for (_, v), f in flow.items() if v == source)


def checked_flow(n: int, caps: dict[tuple[int, int], int],
                 answer: list[tuple[int, int, int]]) -> tuple[dict[tuple[int, int], int], str | None]:
    """(the flow on each arc, None), or why `answer` is no flow: an arc not in `caps` or listed twice, a flow over
    its capacity, or a node other than 1 and n that does not pass on what it receives."""
    flow: dict[tuple[int, int], int] = {}
    for u, v, f in answer:
        if (u, v) not in caps or (u, v) in flow:
            return flow, f"{u}-{v} is not an arc of the network, or it is listed twice"
        if f > caps[(u, v)]:
            return flow, f"{u}-{v} carries {f}, over its capacity {caps[(u, v)]}"
        flow[(u, v)] = f
    balance = [0] * (n + 1)
    for (u, v), f in flow.items():
        balance[u] -= f
        balance[v] += f
    bad = [u for u in range(2, n) if balance[u]]
    if bad:
        return flow, f"node {bad[0]} receives {balance[bad[0]]:+d} more than it sends on"
    return flow, None


def most_arcs(nodes: int) -> int:
    """The most arcs a network on `nodes` nodes may have: none into the source or out of the sink, no two opposite."""
    return (nodes - 2) * (nodes - 3) // 2 + 2 * (nodes - 2) + 1


def read_flows(body: str) -> list[tuple[int, int, int]] | None:
    """`"1-2:5, 2-4:3"` (or `1->2: 5`, `(1-2=5)`) -> [(1, 2, 5), (2, 4, 3)]; None when anything else is in the body."""
    found = _ARC.findall(body)
    if len(found) > MAX_ITEMS or _ARC.sub("", body).strip(" \t\r\n,;"):
        return None
    return [(int(u), int(v), int(f)) for u, v, f in found]


class MaxFlow(Problem):
    name = "max_flow"
    title = "Maximum flow (the flow on every arc)"
    knobs = {"nodes": Knob(8, 4, 30, "nodes; the source is 1, the sink the last"),
             "arcs": Knob(16, 4, 200, "directed arcs"), "max_capacity": Knob(20, 2, 999, "capacities are 1..it")}
    groups = {"easy": {"nodes": 6, "arcs": 11, "max_capacity": 12},
              "medium": {"nodes": 8, "arcs": 16, "max_capacity": 20},
              "hard": {"nodes": 11, "arcs": 26, "max_capacity": 40}}
    answer_format = ("the flow on each arc that carries some, as `u-v:f` (f units from u to v) separated by commas "
                     "(arcs left out carry none), e.g. <answer>a-b:5, b-c:3</answer>.")
    baselines = {"one_path": "the widest single path from source to sink, carrying its narrowest capacity",
                 "source_full": "every arc out of the source at its capacity, nothing else"}

    def validate(self, p: Any) -> None:
        most = most_arcs(p.nodes)
        if p.arcs > most:
            raise ValueError(f"arcs must be at most {most}")

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        n, chosen = p.nodes, set()
        while len(chosen) < p.arcs:
            u, v = rng.sample(range(1, n + 1), 2)
            if v != 1 and u != n and (v, u) not in chosen:
                chosen.add((u, v))
        arcs = [[u, v, rng.randint(1, p.max_capacity)] for u, v in sorted(chosen)]
        rng.shuffle(arcs)
        flow = flow_on_arcs(n, arcs, 1, n)
        inst = {"nodes": n, "arcs": arcs, "optimum": value(flow, 1),
                "solution": [[u, v, f] for (u, v), f in sorted(flow.items()) if f]}
        if inst["optimum"] == 0 or any(self.accepts(inst, self.baseline(b, inst, rng)) for b in self.baselines):
            return None
        return inst

    def statement(self, inst: dict[str, Any]) -> str:
        n = inst["nodes"]
        rows = "\n".join(f"{u} -> {v}  capacity {c}" for u, v, c in inst["arcs"])
        return (f"A network on nodes 1..{n}, its arcs (one way only) with their capacities:\n{rows}\n\nSend as much "
                f"flow as possible from node 1 (the source) to node {n} (the sink): no arc carries more than its "
                "capacity, and every other node passes on exactly what it receives. Give the flow on every arc.")

    def show(self, answer: list[list[int]]) -> str:
        return ", ".join(f"{u}-{v}:{f}" for u, v, f in answer)

    def read(self, body: str) -> list[tuple[int, int, int]] | None:
        return read_flows(body)

    def check(self, inst: dict[str, Any], answer: list[tuple[int, int, int]]) -> str | None:
        caps = {(u, v): c for u, v, c in inst["arcs"]}
        flow, problem = checked_flow(inst["nodes"], caps, answer)
        if problem:
            return problem
        if value(flow, 1) != inst["optimum"]:
            return f"a flow of {value(flow, 1)}; the most is {inst['optimum']}"
        return None

    def baseline_one_path(self, inst: dict[str, Any], rng: random.Random) -> list[list[int]]:
        width, path = widest(arcs_of(inst), 1, inst["nodes"])
        return [[u, v, width] for u, v in zip(path, path[1:], strict=False)]

    def baseline_source_full(self, inst: dict[str, Any], rng: random.Random) -> list[list[int]]:
        return [[u, v, c] for u, v, c in inst["arcs"] if u == 1]

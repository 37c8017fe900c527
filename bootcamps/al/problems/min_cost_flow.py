"""al/min_cost_flow: send a required amount from source to sink at the least total cost (successive cheapest
augmenting paths with Bellman-Ford on the residual network; any cheapest flow scores, written arc by arc)."""
from __future__ import annotations

import random
from typing import Any

from ..core import Knob, Problem
from .max_flow import MaxFlow, checked_flow, flow_on_arcs, most_arcs, read_flows, value


def cheapest_flow(n: int, arcs: list[list[int]], amount: int,
                  forward_only: bool = False) -> dict[tuple[int, int], int] | None:
    """{(u, v): flow} sending `amount` from 1 to n at the least cost (arcs [u, v, capacity, cost], no two opposite),
    or None when the network cannot carry it. `forward_only`: never undo flow (cheapest paths of unused capacity
    only, as a greedy solver does; not always cheapest)."""
    cap = {(u, v): c for u, v, c, _ in arcs}
    cost = {(u, v): k for u, v, _, k in arcs}
    flow = dict.fromkeys(cap, 0)
    sent = 0
    while sent < amount:
        steps = [(u, v, cost[(u, v)]) for (u, v) in cap if flow[(u, v)] < cap[(u, v)]]
        if not forward_only:
            steps += [(v, u, -cost[(u, v)]) for (u, v) in cap if flow[(u, v)] > 0]
        dist, back = {1: 0}, {}
        for _ in range(n - 1):  # Bellman-Ford: the residual network has negative arcs, no negative cycle
            changed = False
            for u, v, k in steps:
                if u in dist and dist[u] + k < dist.get(v, 1 << 60):
                    dist[v], back[v], changed = dist[u] + k, u, True
            if not changed:
                break
        if n not in dist:
            return None
        path, v = [], n
        while v != 1:
            path.append((back[v], v))
            v = back[v]
        push = min(amount - sent, *(cap[s] - flow[s] if s in cap else flow[(s[1], s[0])] for s in path))
        for u, v in path:
            if (u, v) in cap:  # no two opposite arcs: a step is an arc forward or one undone
                flow[(u, v)] += push
            else:
                flow[(v, u)] -= push
        sent += push
    return flow


class MinCostFlow(Problem):
    name = "min_cost_flow"
    title = "Minimum-cost flow"
    knobs = {"nodes": Knob(7, 4, 20, "nodes; the source is 1, the sink the last"),
             "arcs": Knob(14, 4, 120, "directed arcs"), "max_capacity": Knob(9, 2, 99, "capacities are 1..it"),
             "max_cost": Knob(9, 2, 99, "costs per unit are 1..it")}
    groups = {"easy": {"nodes": 6, "arcs": 11, "max_capacity": 8, "max_cost": 9},
              "medium": {"nodes": 7, "arcs": 15, "max_capacity": 10, "max_cost": 12},
              "hard": {"nodes": 9, "arcs": 22, "max_capacity": 12, "max_cost": 20}}
    answer_format = MaxFlow.answer_format
    baselines = {"greedy_cheapest": "the cheapest path with room first, then the next, never undoing flow",
                 "fewest_arcs": "a maximum-flow method that ignores the costs (shortest augmenting paths)"}

    def validate(self, p: Any) -> None:
        if p.arcs > most_arcs(p.nodes):
            raise ValueError(f"arcs must be at most {most_arcs(p.nodes)}")
        if p.nodes < 4 or p.arcs < 5 or p.max_cost < 3:
            raise ValueError("the planted cross needs nodes >= 4, arcs >= 5 and max_cost >= 3")

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        n = p.nodes
        # a planted cross where the cheapest path blocks two others: 1->a, a->b, b->n cheap, 1->b and a->n dear. A
        # solver that never undoes flow sends the cheap path first and is left with a dearer or too small flow
        a, b = rng.sample(range(2, n), 2)
        room, cheap, dear = rng.randint(2, p.max_capacity), rng.randint(1, p.max_cost // 3), \
            rng.randint(p.max_cost // 2, p.max_cost)
        chosen = {(1, a): [room, cheap], (1, b): [room, dear], (a, b): [room, cheap], (a, n): [room, dear],
                  (b, n): [room, cheap]}
        while len(chosen) < p.arcs:
            u, v = rng.sample(range(1, n + 1), 2)
            if v != 1 and u != n and (v, u) not in chosen and (u, v) not in chosen:
                chosen[(u, v)] = [rng.randint(1, p.max_capacity), rng.randint(1, p.max_cost)]
        arcs = [[u, v, *rest] for (u, v), rest in sorted(chosen.items())]
        rng.shuffle(arcs)
        most = value(flow_on_arcs(n, [a[:3] for a in arcs], 1, n), 1)
        if most < 3:
            return None
        amount = rng.randint((most + 1) // 2, most)
        flow = cheapest_flow(n, arcs, amount)
        if flow is None:  # not reached: the amount is at most the maximum flow
            return None
        unit_cost = {(u, v): k for u, v, _, k in arcs}
        inst = {"nodes": n, "arcs": arcs, "amount": amount, "optimum": sum(f * unit_cost[e] for e, f in flow.items()),
                "solution": [[u, v, f] for (u, v), f in sorted(flow.items()) if f]}
        if any(self.accepts(inst, self.baseline(b, inst, rng)) for b in self.baselines):
            return None
        return inst

    def statement(self, inst: dict[str, Any]) -> str:
        n = inst["nodes"]
        rows = "\n".join(f"{u} -> {v}  capacity {c}, cost {k} per unit" for u, v, c, k in inst["arcs"])
        return (f"A network on nodes 1..{n}, its arcs (one way only) with capacities and costs:\n{rows}\n\nSend exactly "
                f"{inst['amount']} units from node 1 to node {n}: no arc carries more than its capacity, every other "
                "node passes on exactly what it receives, and the total cost (each arc's flow times its cost) is as "
                "small as possible. Give the flow on every arc.")

    def show(self, answer: list[list[int]]) -> str:
        return ", ".join(f"{u}-{v}:{f}" for u, v, f in answer)

    def read(self, body: str) -> list[tuple[int, int, int]] | None:
        return read_flows(body)

    def check(self, inst: dict[str, Any], answer: list[tuple[int, int, int]]) -> str | None:
        n, arcs = inst["nodes"], {(u, v): (c, k) for u, v, c, k in inst["arcs"]}
        flow, problem = checked_flow(n, {a: c for a, (c, _) in arcs.items()}, answer)
        if problem:
            return problem
        reached = sum(f for (_, v), f in flow.items() if v == n) - sum(f for (u, _), f in flow.items() if u == n)
        if reached != inst["amount"]:
            return f"{reached} units reach node {n}; {inst['amount']} must"
        total = sum(f * arcs[a][1] for a, f in flow.items())
        if total != inst["optimum"]:
            return f"cost {total}; the least is {inst['optimum']}"
        return None

    def corrupt(self, inst: dict[str, Any], answer: list[list[int]], rng: random.Random) -> list[list[int]]:
        return self.baseline_fewest_arcs(inst, rng)

    def baseline_greedy_cheapest(self, inst: dict[str, Any], rng: random.Random) -> list[list[int]]:
        flow = cheapest_flow(inst["nodes"], inst["arcs"], inst["amount"], forward_only=True)
        return [] if flow is None else [[u, v, f] for (u, v), f in sorted(flow.items()) if f]

    def baseline_fewest_arcs(self, inst: dict[str, Any], rng: random.Random) -> list[list[int]]:
        unit = [[u, v, c, 1] for u, v, c, _ in inst["arcs"]]  # every arc costs the same: fewest-arc paths
        flow = cheapest_flow(inst["nodes"], unit, inst["amount"])
        return [] if flow is None else [[u, v, f] for (u, v), f in sorted(flow.items()) if f]

"""al/dag_paths: the number of paths between two nodes of a directed acyclic graph, modulo a large prime."""
from __future__ import annotations

import random
from typing import Any

from ..core import Knob, Problem, adjacency, hidden_dag, kahn_order, number

MOD = 1_000_000_007


def count_paths(n: int, arcs: list[list[int]], source: int, target: int, mod: int = MOD) -> int:
    """Paths source -> target, counted along a topological order (each node: the sum of its predecessors')."""
    ways = dict.fromkeys(range(1, n + 1), 0)
    ways[source] = 1
    out = adjacency(arcs)
    for u in kahn_order(n, arcs, smallest=True):
        for v in out.get(u, []):
            ways[v] = (ways[v] + ways[u]) % mod
    return ways[target]


class DagPaths(Problem):
    name = "dag_paths"
    title = "Counting paths in a DAG"
    knobs = {"nodes": Knob(18, 5, 60, "nodes"), "arcs": Knob(90, 4, 1000, "directed arcs")}
    groups = {"easy": {"nodes": 12, "arcs": 40}, "medium": {"nodes": 18, "arcs": 90},
              "hard": {"nodes": 30, "arcs": 250}}
    answer_format = "the count alone (modulo 1000000007), e.g. <answer>n</answer>."
    baselines = {"arc_count": "the number of arcs", "two_steps": "the paths of at most two arcs only"}

    def validate(self, p: Any) -> None:
        if p.arcs > p.nodes * (p.nodes - 1) // 2:
            raise ValueError(f"arcs must be at most nodes * (nodes - 1) / 2 = {p.nodes * (p.nodes - 1) // 2}")

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        order, arcs = hidden_dag(rng, p.nodes, p.arcs)
        source, target = order[0], order[-1]
        count = count_paths(p.nodes, arcs, source, target)
        inst = {"nodes": p.nodes, "arcs": arcs, "start": source, "goal": target, "solution": count}
        if count < 50 or any(self.accepts(inst, self.baseline(b, inst, rng)) for b in self.baselines):
            return None
        return inst

    def statement(self, inst: dict[str, Any]) -> str:
        rows = "\n".join(f"{u} -> {v}" for u, v in inst["arcs"])
        return (f"A directed graph without cycles on nodes 1..{inst['nodes']}, its arcs (one way only):\n{rows}\n\n"
                f"How many different paths lead from node {inst['start']} to node {inst['goal']} along the arcs? "
                f"Two paths differ when their sequences of arcs differ. Give the count modulo {MOD}.")

    def show(self, answer: int) -> str:
        return str(answer)

    def read(self, body: str) -> int | None:
        return number(body)

    def check(self, inst: dict[str, Any], answer: int) -> str | None:
        return None if answer == inst["solution"] else f"{answer} is not the number of paths (mod {MOD})"

    def corrupt(self, inst: dict[str, Any], answer: int, rng: random.Random) -> int:
        return (answer + rng.choice((-1, 1))) % MOD

    def baseline_arc_count(self, inst: dict[str, Any], rng: random.Random) -> int:
        return len(inst["arcs"])

    def baseline_two_steps(self, inst: dict[str, Any], rng: random.Random) -> int:
        arcs = {tuple(a) for a in inst["arcs"]}
        s, t = inst["start"], inst["goal"]
        return ((s, t) in arcs) + sum((s, v) in arcs and (v, t) in arcs for v in range(1, inst["nodes"] + 1))

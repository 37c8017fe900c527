"""al/topological_order: the smallest topological order of a DAG (in dictionary order of the node numbers).

The rule makes the answer unique; the verifier says whether a wrong order is invalid or only not the smallest."""
from __future__ import annotations

import random
from typing import Any

from ..core import Knob, Problem, kahn_order


def smallest_order(n: int, arcs: list[list[int]]) -> list[int]:
    """Kahn's algorithm, always taking the smallest node with no arcs left into it (a heap)."""
    return kahn_order(n, arcs, smallest=True)


def queue_order(n: int, arcs: list[list[int]]) -> list[int]:
    """Kahn's algorithm with a first-in first-out queue: a valid order, not the smallest."""
    return kahn_order(n, arcs, smallest=False)


class TopologicalOrder(Problem):
    name = "topological_order"
    title = "Smallest topological order"
    knobs = {"nodes": Knob(10, 4, 60, "tasks"), "arcs": Knob(14, 2, 300, "precedence rules")}
    groups = {"easy": {"nodes": 7, "arcs": 8}, "medium": {"nodes": 10, "arcs": 13}, "hard": {"nodes": 15, "arcs": 22}}
    answer_format = "every task number once, in your order, separated by spaces, e.g. <answer>c a b</answer>."
    baselines = {"queue": "Kahn's algorithm with a first-in first-out queue (valid, not the smallest)",
                 "sorted": "the tasks in increasing number"}

    def validate(self, p: Any) -> None:
        if p.arcs > p.nodes * (p.nodes - 1) // 2:
            raise ValueError(f"arcs must be at most nodes * (nodes - 1) / 2 = {p.nodes * (p.nodes - 1) // 2}")

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        rank = list(range(1, p.nodes + 1))
        rng.shuffle(rank)  # a hidden order the arcs follow, so the graph has no cycle
        chosen = set()
        while len(chosen) < p.arcs:
            i, j = sorted(rng.sample(range(p.nodes), 2))
            chosen.add((rank[i], rank[j]))
        arcs = [list(a) for a in chosen]
        rng.shuffle(arcs)
        best = smallest_order(p.nodes, arcs)
        if queue_order(p.nodes, arcs) == best or best == sorted(best):
            return None
        return {"nodes": p.nodes, "arcs": arcs, "solution": best}

    def statement(self, inst: dict[str, Any]) -> str:
        rows = "\n".join(f"task {u} before task {v}" for u, v in inst["arcs"])
        return (f"Tasks 1..{inst['nodes']} must be done one at a time, respecting these rules:\n{rows}\n\nOf all the "
                "orders that respect the rules, give the smallest in dictionary order: the first task as small "
                "as possible, then the second as small as possible, and so on.")

    def check(self, inst: dict[str, Any], answer: list[int]) -> str | None:
        n = inst["nodes"]
        if sorted(answer) != list(range(1, n + 1)):
            return f"not every task 1..{n} exactly once"
        place = {u: k for k, u in enumerate(answer)}
        broken = [(u, v) for u, v in inst["arcs"] if place[u] > place[v]]
        if broken:
            return f"task {broken[0][0]} must come before task {broken[0][1]}"
        if answer != inst["solution"]:
            return "a valid order, but not the smallest one"
        return None

    def corrupt(self, inst: dict[str, Any], answer: list[int], rng: random.Random) -> list[int]:
        return queue_order(inst["nodes"], inst["arcs"])

    def baseline_queue(self, inst: dict[str, Any], rng: random.Random) -> list[int]:
        return queue_order(inst["nodes"], inst["arcs"])

    def baseline_sorted(self, inst: dict[str, Any], rng: random.Random) -> list[int]:
        return list(range(1, inst["nodes"] + 1))

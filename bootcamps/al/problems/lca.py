"""al/lca: the lowest common ancestors of pairs of nodes in a rooted tree."""
from __future__ import annotations

import random
from typing import Any

from ..core import Knob, Problem


def ancestors(parent: dict[int, int], u: int) -> list[int]:
    """u, its parent, ..., the root."""
    out = [u]
    while out[-1] in parent:
        out.append(parent[out[-1]])
    return out


def lowest_common(parent: dict[int, int], a: int, b: int) -> int:
    above = set(ancestors(parent, a))
    return next(u for u in ancestors(parent, b) if u in above)


class Lca(Problem):
    name = "lca"
    title = "Lowest common ancestors"
    knobs = {"nodes": Knob(20, 5, 200, "nodes"), "queries": Knob(5, 1, 40, "pairs asked")}
    groups = {"easy": {"nodes": 12, "queries": 3}, "medium": {"nodes": 20, "queries": 5},
              "hard": {"nodes": 35, "queries": 8}}
    answer_format = ("one node per pair, in the order asked, separated by spaces, e.g. <answer>a b c</answer>.")
    baselines = {"root": "the root for every pair", "first_parent": "the parent of each pair's first node"}

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        order = list(range(1, p.nodes + 1))
        rng.shuffle(order)
        parent = {order[i]: order[rng.randrange(max(0, i - 4), i)] for i in range(1, p.nodes)}  # deep, not bushy
        queries = [rng.sample(range(1, p.nodes + 1), 2) for _ in range(p.queries)]
        answers = [lowest_common(parent, a, b) for a, b in queries]
        if sum(a in q for a, q in zip(answers, queries, strict=True)) > p.queries // 3:
            return None  # mostly one node above the other: too easy
        inst = {"nodes": p.nodes, "root": order[0], "parent": [[c, parent[c]] for c in sorted(parent)],
                "queries": queries, "solution": answers}
        if any(self.accepts(inst, self.baseline(b, inst, rng)) for b in self.baselines):
            return None
        return inst

    def statement(self, inst: dict[str, Any]) -> str:
        rows = "\n".join(f"the parent of {c} is {p}" for c, p in inst["parent"])
        asked = "\n".join(f"{k}. nodes {a} and {b}" for k, (a, b) in enumerate(inst["queries"], 1))
        return (f"A tree on nodes 1..{inst['nodes']} rooted at node {inst['root']}:\n{rows}\n\nFor each pair below, "
                f"find its lowest common ancestor: the node farthest from the root that is an ancestor of both (a node "
                f"counts as its own ancestor).\n{asked}")

    def check(self, inst: dict[str, Any], answer: list[int]) -> str | None:
        if len(answer) != len(inst["queries"]):
            return f"{len(answer)} nodes for {len(inst['queries'])} pairs"
        wrong = [k for k, (a, b) in enumerate(zip(answer, inst["solution"], strict=True), 1) if a != b]
        return f"pair {wrong[0]}: not the lowest common ancestor" if wrong else None

    def corrupt(self, inst: dict[str, Any], answer: list[int], rng: random.Random) -> list[int]:
        parent = dict(map(tuple, inst["parent"]))
        wrong, k = list(answer), rng.randrange(len(answer))
        wrong[k] = parent.get(wrong[k], inst["queries"][k][0])
        return wrong

    def baseline_root(self, inst: dict[str, Any], rng: random.Random) -> list[int]:
        return [inst["root"]] * len(inst["queries"])

    def baseline_first_parent(self, inst: dict[str, Any], rng: random.Random) -> list[int]:
        parent = dict(map(tuple, inst["parent"]))
        return [parent.get(a, a) for a, _ in inst["queries"]]

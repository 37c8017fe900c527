"""al/vertex_cover_bipartite: a smallest set of nodes touching every edge of a bipartite graph (Konig: its size is
a maximum matching's, the cover built from the matching's alternating paths; any smallest cover scores)."""
from __future__ import annotations

import random
from typing import Any

from ..core import Knob, Problem
from .bipartite_matching import maximum_matching


def konig_cover(left: int, edges: list[list[int]]) -> list[int]:
    """A minimum vertex cover (left nodes 1..left, right nodes after them): the left nodes not reached from an
    unmatched left node by alternating paths, and the right nodes reached."""
    near: dict[int, list[int]] = {}
    for u, v in edges:
        near.setdefault(u, []).append(v)
    matched = dict(maximum_matching(left, near))  # left -> right
    owner = {v: u for u, v in matched.items()}
    seen_left = {u for u in range(1, left + 1) if u not in matched}
    seen_right: set[int] = set()
    stack = list(seen_left)
    while stack:
        u = stack.pop()
        for v in near.get(u, []):
            if v not in seen_right and matched.get(u) != v:
                seen_right.add(v)
                if v in owner and owner[v] not in seen_left:
                    seen_left.add(owner[v])
                    stack.append(owner[v])
    return sorted([u for u in range(1, left + 1) if u not in seen_left] + list(seen_right))


class VertexCoverBipartite(Problem):
    name = "vertex_cover_bipartite"
    title = "Minimum vertex cover of a bipartite graph"
    knobs = {"left": Knob(8, 3, 30, "nodes on the left (1..left)"), "right": Knob(8, 3, 30, "nodes on the right"),
             "edges": Knob(16, 3, 300, "edges, each joining a left node to a right node")}
    groups = {"easy": {"left": 6, "right": 6, "edges": 11}, "medium": {"left": 8, "right": 9, "edges": 17},
              "hard": {"left": 12, "right": 12, "edges": 28}}
    answer_format = "the nodes of your cover in any order, separated by spaces, e.g. <answer>a b c</answer>."
    baselines = {"smaller_side": "every node with an edge on the side with fewer such nodes",
                 "greedy_degree": "again and again the node touching the most edges not yet covered"}

    def validate(self, p: Any) -> None:
        if p.edges > p.left * p.right:
            raise ValueError("edges must be at most left * right")

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        chosen: set[tuple[int, int]] = set()
        while len(chosen) < p.edges:
            chosen.add((rng.randint(1, p.left), p.left + rng.randint(1, p.right)))
        edges = [list(e) for e in sorted(chosen)]
        rng.shuffle(edges)
        cover = konig_cover(p.left, edges)
        inst = {"left": p.left, "right": p.right, "edges": edges, "optimum": len(cover), "solution": cover}
        if any(self.accepts(inst, self.baseline(b, inst, rng)) for b in self.baselines):
            return None
        return inst

    def statement(self, inst: dict[str, Any]) -> str:
        a, b = inst["left"], inst["right"]
        rows = ", ".join(f"{u}-{v}" for u, v in inst["edges"])
        return (f"A bipartite graph: left nodes 1..{a}, right nodes {a + 1}..{a + b}; its edges (each joins a left node "
                f"to a right node):\n{rows}\n\nChoose as few nodes as possible so that every edge has at least one of "
                "its two ends chosen.")

    def check(self, inst: dict[str, Any], answer: list[int]) -> str | None:
        chosen = set(answer)
        if len(chosen) < len(answer) or any(not 1 <= u <= inst["left"] + inst["right"] for u in chosen):
            return "a node out of range, or one listed twice"
        open_ = [e for e in inst["edges"] if not chosen & set(e)]
        if open_:
            return f"edge {open_[0][0]}-{open_[0][1]} has no chosen end"
        if len(answer) != inst["optimum"]:
            return f"{len(answer)} nodes; the fewest is {inst['optimum']}"
        return None

    def baseline_smaller_side(self, inst: dict[str, Any], rng: random.Random) -> list[int]:
        left = sorted({u for u, _ in inst["edges"]})
        right = sorted({v for _, v in inst["edges"]})
        return left if len(left) <= len(right) else right

    def baseline_greedy_degree(self, inst: dict[str, Any], rng: random.Random) -> list[int]:
        open_, out = [tuple(e) for e in inst["edges"]], []
        while open_:
            touches: dict[int, int] = {}
            for e in open_:
                for u in e:
                    touches[u] = touches.get(u, 0) + 1
            best = min(touches, key=lambda u: (-touches[u], u))
            out.append(best)
            open_ = [e for e in open_ if best not in e]
        return out

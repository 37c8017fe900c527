"""al/bridges: the edges whose removal disconnects a connected graph (the set is unique; any order and either
direction of each edge scores). The graphs are al/articulation_points' blocks joined by edges and shared nodes."""
from __future__ import annotations

import random
from typing import Any

from ..core import adjacency, pairs
from .articulation_points import CutProblem, connected_without


def bridge_edges(n: int, edges: list[list[int]]) -> list[list[int]]:
    return [[u, v] for u, v in edges if not connected_without(n, edges, gone_edge=(u, v))]


class Bridges(CutProblem):
    name = "bridges"
    title = "Bridges (cut edges)"
    groups = {"easy": {"blocks": 3, "pendants": 1}, "medium": {"blocks": 5, "pendants": 2},
              "hard": {"blocks": 8, "pendants": 3}}
    answer_format = "the bridges as `u-v` pairs in any order, separated by commas, e.g. <answer>a-b, c-d</answer>."
    baselines = {"pendant_edges": "every edge at a node with one neighbour",
                 "no_triangle": "every edge that lies on no triangle"}

    def cuts(self, n: int, edges: list[list[int]]) -> list[list[int]]:
        return bridge_edges(n, edges)

    def statement(self, inst: dict[str, Any]) -> str:
        rows = ", ".join(f"{u}-{v}" for u, v in inst["edges"])
        return (f"A connected undirected graph on nodes 1..{inst['nodes']} with the edges:\n{rows}\n\nFind every "
                "bridge: each edge whose removal (alone) leaves the graph disconnected.")

    def show(self, answer: list[list[int]]) -> str:
        return ", ".join(f"{u}-{v}" for u, v in answer)

    def read(self, body: str) -> list[tuple[int, int]] | None:
        return pairs(body)

    def check(self, inst: dict[str, Any], answer: list[tuple[int, int]]) -> str | None:
        given = [frozenset(a) for a in answer]
        if len(set(given)) < len(given):
            return "an edge listed twice"
        edges = {frozenset(e) for e in inst["edges"]}
        bridges = {frozenset(e) for e in inst["solution"]}
        for a in given:
            if a not in edges:
                return f"{'-'.join(map(str, sorted(a)))} is not an edge"
            if a not in bridges:
                return f"removing {'-'.join(map(str, sorted(a)))} leaves the graph connected"
        missed = len(bridges - set(given))
        return f"{missed} bridge(s) missing" if missed else None

    def baseline_pendant_edges(self, inst: dict[str, Any], rng: random.Random) -> list[list[int]]:
        near = adjacency(inst["edges"], directed=False)
        return [[u, v] for u, v in inst["edges"] if len(near[u]) == 1 or len(near[v]) == 1]

    def baseline_no_triangle(self, inst: dict[str, Any], rng: random.Random) -> list[list[int]]:
        near = {u: set(vs) for u, vs in adjacency(inst["edges"], directed=False).items()}
        return [[u, v] for u, v in inst["edges"] if not near[u] & near[v]]

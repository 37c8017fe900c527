"""al/mst: a minimum spanning tree of a weighted graph (any minimum spanning tree scores)."""
from __future__ import annotations

import random
from typing import Any

from ..core import Knob, Problem, adjacency, bfs_parents, connected_pairs, pairs


def find(parent: list[int], x: int) -> int:
    while parent[x] != x:
        parent[x] = parent[parent[x]]
        x = parent[x]
    return x


def kruskal(n: int, edges: list[list[int]]) -> tuple[int, list[list[int]]]:
    """(least total weight, the tree's edges as [u, v]) by Kruskal's algorithm."""
    parent, tree, total = list(range(n + 1)), [], 0
    for u, v, w in sorted(edges, key=lambda e: e[2]):
        ru, rv = find(parent, u), find(parent, v)
        if ru != rv:
            parent[ru] = rv
            tree.append([u, v])
            total += w
    return total, tree


def bfs_tree(n: int, edges: list[list[int]]) -> list[list[int]]:
    """The tree breadth-first search from node 1 finds, neighbours in the listed order."""
    back = bfs_parents(adjacency(edges, directed=False), 1)
    return [[u, v] for v, u in back.items() if v != 1]


class Mst(Problem):
    name = "mst"
    title = "Minimum spanning tree"
    knobs = {"nodes": Knob(9, 4, 40, "nodes"), "extra": Knob(8, 1, 80, "edges beyond a spanning tree"),
             "max_weight": Knob(20, 3, 999, "weights are 1..max_weight")}
    groups = {"easy": {"nodes": 6, "extra": 4, "max_weight": 12}, "medium": {"nodes": 9, "extra": 8,
                                                                              "max_weight": 20},
              "hard": {"nodes": 14, "extra": 14, "max_weight": 30}}
    answer_format = "the edges of your tree as `u-v` pairs separated by commas, e.g. <answer>a-b, b-c</answer>."
    baselines = {"bfs_tree": "the tree breadth-first search from node 1 finds",
                 "lightest": "the n-1 lightest edges"}

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        edges = [[u, v, rng.randint(1, p.max_weight)] for u, v in connected_pairs(rng, p.nodes, p.extra)]
        best, tree = kruskal(p.nodes, edges)
        inst = {"nodes": p.nodes, "edges": edges, "optimum": best, "solution": tree}
        if any(self.accepts(inst, self.baseline(b, inst, rng)) for b in self.baselines):
            return None
        return inst

    def statement(self, inst: dict[str, Any]) -> str:
        rows = "\n".join(f"{u} - {v}  weight {w}" for u, v, w in inst["edges"])
        return (f"An undirected graph on nodes 1..{inst['nodes']}, its edges with their weights:\n{rows}\n\n"
                "Find a spanning tree (edges of the graph connecting every node, without a cycle) of the least "
                "total weight.")

    def show(self, answer: list[list[int]]) -> str:
        return ", ".join(f"{u}-{v}" for u, v in answer)

    def read(self, body: str) -> list[tuple[int, int]] | None:
        return pairs(body)

    def check(self, inst: dict[str, Any], answer: list[tuple[int, int]]) -> str | None:
        n, weights = inst["nodes"], {}
        for u, v, w in inst["edges"]:
            weights[(u, v)] = weights[(v, u)] = w
        if any((u, v) not in weights for u, v in answer):
            return "an edge that is not in the graph"
        if len(answer) != n - 1:
            return f"{len(answer)} edges; a spanning tree of {n} nodes has {n - 1}"
        parent = list(range(n + 1))
        for u, v in answer:
            ru, rv = find(parent, u), find(parent, v)
            if ru == rv:
                return "the edges make a cycle"
            parent[ru] = rv
        total = sum(weights[tuple(e)] for e in answer)
        if total != inst["optimum"]:
            return f"total weight {total}; the least is {inst['optimum']}"
        return None

    def baseline_bfs_tree(self, inst: dict[str, Any], rng: random.Random) -> list[list[int]]:
        return bfs_tree(inst["nodes"], inst["edges"])

    def baseline_lightest(self, inst: dict[str, Any], rng: random.Random) -> list[list[int]]:
        return [e[:2] for e in sorted(inst["edges"], key=lambda e: e[2])[:inst["nodes"] - 1]]

"""al/articulation_points: the nodes whose removal disconnects a connected graph (the set is unique; any order of it
scores). The graphs are blocks (cycles, some with a chord) joined at shared nodes or by single edges, with a few
pendant nodes, the numbers shuffled."""
from __future__ import annotations

import random
from typing import Any

from ..core import Knob, Problem, adjacency


def block_graph(rng: random.Random, blocks: int, pendants: int) -> tuple[int, list[list[int]]]:
    """(nodes, edges): `blocks` cycles of 3-6 nodes (some with a chord), each after the first hung from an earlier
    node by sharing it or by a new edge, then `pendants` single nodes hung anywhere; the labels shuffled."""
    edges: list[tuple[int, int]] = []
    n = 0
    for b in range(blocks):
        size = rng.randint(3, 6)
        if b and rng.random() < 0.5:  # share an earlier node
            ring = [rng.randint(1, n)] + list(range(n + 1, n + size))
        else:
            ring = list(range(n + 1, n + size + 1))
            if b:
                edges.append((rng.randint(1, n), ring[0]))
        n = max(n, *ring)
        edges += [(ring[i], ring[(i + 1) % size]) for i in range(size)]
        if size >= 4 and rng.random() < 0.4:
            edges.append((ring[0], ring[2]))
    for _ in range(pendants):
        n += 1
        edges.append((rng.randint(1, n - 1), n))
    label = list(range(1, n + 1))
    rng.shuffle(label)
    out = [sorted((label[u - 1], label[v - 1])) for u, v in edges]
    rng.shuffle(out)
    return n, out


def connected_without(n: int, edges: list[list[int]], gone_node: int = 0,
                      gone_edge: tuple[int, int] | None = None) -> bool:
    """Whether the graph stays connected once a node (or one edge) is taken out."""
    near: dict[int, list[int]] = {}
    for u, v in edges:
        if gone_node in (u, v) or (gone_edge and {u, v} == set(gone_edge)):
            continue
        near.setdefault(u, []).append(v)
        near.setdefault(v, []).append(u)
    start = 2 if gone_node == 1 else 1
    seen, stack = {start}, [start]
    while stack:
        for v in near.get(stack.pop(), []):
            if v not in seen:
                seen.add(v)
                stack.append(v)
    return len(seen) == n - (1 if gone_node else 0)


def cut_nodes(n: int, edges: list[list[int]]) -> list[int]:
    return [u for u in range(1, n + 1) if not connected_without(n, edges, gone_node=u)]


class CutProblem(Problem):
    """A connected block graph and its unique set of cut parts (`cuts`: nodes or edges); a draw that one of the
    baselines solves, or with fewer than two cut parts, is drawn again."""
    knobs = {"blocks": Knob(5, 2, 12, "cycles joined into the graph"), "pendants": Knob(2, 0, 10, "single hung nodes")}

    def cuts(self, n: int, edges: list[list[int]]) -> list:
        raise NotImplementedError

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        n, edges = block_graph(rng, p.blocks, p.pendants)
        cut = self.cuts(n, edges)
        inst = {"nodes": n, "edges": edges, "solution": cut}
        if len(cut) < 2 or any(self.accepts(inst, self.baseline(b, inst, rng)) for b in self.baselines):
            return None
        return inst


class ArticulationPoints(CutProblem):
    name = "articulation_points"
    title = "Articulation points (cut vertices)"
    groups = {"easy": {"blocks": 3, "pendants": 2}, "medium": {"blocks": 5, "pendants": 2},
              "hard": {"blocks": 8, "pendants": 3}}
    answer_format = "the cut nodes in any order, separated by spaces, e.g. <answer>a b c</answer>."
    baselines = {"high_degree": "every node with three or more neighbours",
                 "leaf_parents": "every neighbour of a node with one neighbour"}

    def cuts(self, n: int, edges: list[list[int]]) -> list[int]:
        return cut_nodes(n, edges)

    def statement(self, inst: dict[str, Any]) -> str:
        rows = ", ".join(f"{u}-{v}" for u, v in inst["edges"])
        return (f"A connected undirected graph on nodes 1..{inst['nodes']} with the edges:\n{rows}\n\nFind every "
                "articulation point: each node whose removal (with its edges) leaves the other nodes disconnected.")

    def check(self, inst: dict[str, Any], answer: list[int]) -> str | None:
        if len(set(answer)) < len(answer):
            return "a node listed twice"
        wrong = sorted(set(answer) - set(inst["solution"]))
        if wrong:
            return f"removing {wrong[0]} leaves the graph connected" if 1 <= wrong[0] <= inst["nodes"] else \
                f"{wrong[0]} is not a node"
        missed = len(set(inst["solution"]) - set(answer))
        return f"{missed} articulation point(s) missing" if missed else None

    def baseline_high_degree(self, inst: dict[str, Any], rng: random.Random) -> list[int]:
        near = adjacency(inst["edges"], directed=False)
        return sorted(u for u, vs in near.items() if len(vs) >= 3)

    def baseline_leaf_parents(self, inst: dict[str, Any], rng: random.Random) -> list[int]:
        near = adjacency(inst["edges"], directed=False)
        return sorted({vs[0] for vs in near.values() if len(vs) == 1})

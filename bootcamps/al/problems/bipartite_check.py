"""al/bipartite_check: is a graph two-colourable? The answer is its proof either way: a colouring with two colours
(no edge inside a colour) or an odd cycle (then no such colouring exists). Any valid proof scores."""
from __future__ import annotations

import random
import re
from typing import Any

from ..core import Knob, Problem, adjacency, bfs_parents, numbers

_ANSWER = re.compile(r"\s*(colou?rs?|cycle)\s*:\s*(.*)", re.S | re.I)


def proof(n: int, edges: list[list[int]]) -> tuple[str, list[int]]:
    """("colors", a colour 1/2 per node) when the graph is bipartite, else ("cycle", a shortest odd cycle through
    the first edge found inside a breadth-first layer's parity)."""
    near = adjacency(edges, directed=False)
    color: dict[int, int] = {}
    back: dict[int, int] = {}
    for start in range(1, n + 1):
        if start in color:
            continue
        color[start] = 1
        tree = bfs_parents(near, start)
        for v, u in tree.items():
            if v != start:
                color[v], back[v] = 3 - color[u], u
    for u, v in edges:
        if color[u] == color[v]:  # the two tree paths up to their meeting point, and this edge: an odd cycle
            up_u, up_v = [u], [v]
            while up_u[-1] in back:
                up_u.append(back[up_u[-1]])
            while up_v[-1] in back:
                up_v.append(back[up_v[-1]])
            while len(up_u) > 1 and len(up_v) > 1 and up_u[-2] == up_v[-2]:
                up_u.pop()
                up_v.pop()
            return "cycle", up_u + up_v[-2::-1]
    return "colors", [color[u] for u in range(1, n + 1)]


def first_fit(n: int, edges: list[list[int]]) -> list[int]:
    """Nodes in number order, each the smaller colour its coloured neighbours leave (1 when both are taken)."""
    near = adjacency(edges, directed=False)
    color: dict[int, int] = {}
    for u in range(1, n + 1):
        taken = {color[v] for v in near.get(u, []) if v in color}
        color[u] = 1 if 1 not in taken or 2 in taken else 2
    return [color[u] for u in range(1, n + 1)]


class BipartiteCheck(Problem):
    name = "bipartite_check"
    title = "Bipartite check (two-colouring or odd cycle)"
    knobs = {"nodes": Knob(12, 5, 40, "nodes"), "extra": Knob(6, 0, 60, "edges beyond a spanning tree")}
    groups = {"easy": {"nodes": 9, "extra": 3}, "medium": {"nodes": 13, "extra": 6}, "hard": {"nodes": 20, "extra": 10}}
    answer_format = ("either `colors:` and a colour (1 or 2) per node in node order, or `cycle:` and the nodes of an "
                     "odd cycle in order (its last node joined to its first; writing the first again at the end is allowed), e.g. <answer>colors: 1 2 2 1</answer> "
                     "or <answer>cycle: a b c d e</answer>.")
    baselines = {"parity": "odd nodes one colour, even nodes the other",
                 "first_fit": "nodes in number order, each the colour its coloured neighbours leave"}

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        n = p.nodes
        side = {u: rng.randint(1, 2) for u in range(1, n + 1)}
        order = list(range(1, n + 1))
        rng.shuffle(order)
        edges: set[tuple[int, int]] = set()
        for i in range(1, n):  # a spanning tree whose edges cross the two sides
            options = [u for u in order[:i] if side[u] != side[order[i]]] or order[:i]
            u = rng.choice(options)
            side[order[i]] = 3 - side[u]
            edges.add((min(u, order[i]), max(u, order[i])))
        tries = 0
        while len(edges) < n - 1 + p.extra and tries < 50 * n:
            tries += 1
            u, v = rng.sample(range(1, n + 1), 2)
            if side[u] != side[v]:
                edges.add((min(u, v), max(u, v)))
        listed = [list(e) for e in sorted(edges)]
        if rng.random() < 0.5:  # one edge inside a side between nodes 4 or more apart: an odd cycle of 5 or more
            far = [(u, v) for u in range(1, n + 1) for v, d in self._depths(n, listed, u).items()
                   if v > u and d >= 4 and d % 2 == 0]
            if not far:
                return None
            listed.append(list(rng.choice(far)))
        rng.shuffle(listed)
        kind, witness = proof(n, listed)
        inst = {"nodes": n, "edges": listed, "bipartite": kind == "colors", "solution": [kind, witness]}
        if any(self.accepts(inst, self.baseline(b, inst, rng)) for b in self.baselines):
            return None
        return inst

    @staticmethod
    def _depths(n: int, edges: list[list[int]], start: int) -> dict[int, int]:
        tree = bfs_parents(adjacency(edges, directed=False), start)
        depth = {start: 0}
        for v, u in tree.items():
            if v != start:
                depth[v] = depth[u] + 1
        return depth

    def statement(self, inst: dict[str, Any]) -> str:
        rows = ", ".join(f"{u}-{v}" for u, v in inst["edges"])
        return (f"An undirected graph on nodes 1..{inst['nodes']} with the edges:\n{rows}\n\nCan its nodes be coloured "
                "with two colours so that no edge joins two nodes of the same colour? Prove your answer: give such a "
                "colouring if there is one, otherwise a cycle of odd length (a closed path through distinct nodes "
                "along edges), which shows there is none.")

    def show(self, answer: list[Any]) -> str:
        return f"{answer[0]}: " + " ".join(map(str, answer[1]))

    def read(self, body: str) -> list[Any] | None:
        found = _ANSWER.fullmatch(body)
        if not found:
            return None
        values = numbers(found.group(2))
        kind = "cycle" if found.group(1).lower() == "cycle" else "colors"
        return None if values is None else [kind, values]

    def check(self, inst: dict[str, Any], answer: list[Any]) -> str | None:
        n, (kind, values) = inst["nodes"], answer
        joined = {(u, v) for u, v in inst["edges"]} | {(v, u) for u, v in inst["edges"]}
        if kind == "colors":
            if len(values) != n or any(c not in (1, 2) for c in values):
                return f"give a colour 1 or 2 for each of the {n} nodes"
            clash = [(u, v) for u, v in inst["edges"] if values[u - 1] == values[v - 1]]
            return f"edge {clash[0][0]}-{clash[0][1]} joins two nodes of one colour" if clash else None
        if len(values) > 1 and values[0] == values[-1]:  # the cycle written back to its first node
            values = values[:-1]
        if len(values) < 3 or len(values) % 2 == 0 or len(set(values)) < len(values):
            return "an odd cycle has an odd number (3 or more) of distinct nodes"
        for a in zip(values, values[1:] + values[:1], strict=True):
            if a not in joined:
                return f"{a[0]}-{a[1]} is not an edge"
        return None

    def corrupt(self, inst: dict[str, Any], answer: list[Any], rng: random.Random) -> list[Any]:
        kind, values = answer
        if kind == "colors":
            return ["cycle", [u for u in range(1, min(inst["nodes"], 5) + 1)]] if rng.random() < 0.5 else \
                ["colors", [3 - c if u == 0 else c for u, c in enumerate(values)]]
        return ["colors", first_fit(inst["nodes"], inst["edges"])]

    def baseline_parity(self, inst: dict[str, Any], rng: random.Random) -> list[Any]:
        return ["colors", [2 - u % 2 for u in range(1, inst["nodes"] + 1)]]

    def baseline_first_fit(self, inst: dict[str, Any], rng: random.Random) -> list[Any]:
        return ["colors", first_fit(inst["nodes"], inst["edges"])]

"""al/chinese_postman: a shortest closed walk of a weighted graph that uses every edge at least once (the odd
nodes paired by an exact minimum matching over shortest distances; any shortest such walk scores)."""
from __future__ import annotations

import functools
import random
from typing import Any

from ..core import Knob, Problem, connected_pairs


def distances(n: int, edges: list[list[int]]) -> list[list[int]]:
    """All shortest distances (Floyd-Warshall), nodes 1..n (index 0 unused)."""
    far = 1 << 40
    d = [[0 if i == j else far for j in range(n + 1)] for i in range(n + 1)]
    for u, v, w in edges:
        d[u][v] = d[v][u] = min(d[u][v], w)
    for k in range(1, n + 1):
        for i in range(1, n + 1):
            for j in range(1, n + 1):
                if d[i][k] + d[k][j] < d[i][j]:
                    d[i][j] = d[i][k] + d[k][j]
    return d


def odd_nodes(n: int, edges: list[list[int]]) -> list[int]:
    degree = [0] * (n + 1)
    for u, v, _ in edges:
        degree[u] += 1
        degree[v] += 1
    return [u for u in range(1, n + 1) if degree[u] % 2]


def best_pairing(odd: list[int], d: list[list[int]]) -> list[tuple[int, int]]:
    """A minimum-weight perfect matching of the odd nodes by shortest distance (DP over subsets)."""
    @functools.cache
    def best(mask: int) -> tuple[int, tuple[tuple[int, int], ...]]:
        if not mask:
            return 0, ()
        i = (mask & -mask).bit_length() - 1
        options = []
        for j in range(i + 1, len(odd)):
            if mask >> j & 1:
                cost, rest = best(mask & ~(1 << i) & ~(1 << j))
                options.append((cost + d[odd[i]][odd[j]], ((odd[i], odd[j]),) + rest))
        return min(options)
    return list(best((1 << len(odd)) - 1)[1])


def greedy_pairing(odd: list[int], d: list[list[int]]) -> list[tuple[int, int]]:
    """The smallest unpaired odd node with its nearest unpaired odd node, again and again."""
    left, out = sorted(odd), []
    while left:
        u = left.pop(0)
        v = min(left, key=lambda x: (d[u][x], x))
        left.remove(v)
        out.append((u, v))
    return out


def shortest_route(edges: list[list[int]], d: list[list[int]], a: int, b: int) -> list[tuple[int, int, int]]:
    """The edges of one shortest path from a to b (following the distance table `d`)."""
    near: dict[int, list[tuple[int, int]]] = {}
    for u, v, w in edges:
        near.setdefault(u, []).append((v, w))
        near.setdefault(v, []).append((u, w))
    out, u = [], a
    while u != b:
        v, w = min((v, w) for v, w in near[u] if w + d[v][b] == d[u][b])
        out.append((u, v, w))
        u = v
    return out


def closed_walk(n: int, edges: list[list[int]], pairing: list[tuple[int, int]]) -> list[int]:
    """Every edge once plus a shortest path for each pair, walked as an Euler circuit from node 1 (Hierholzer)."""
    multi, d = [tuple(e) for e in edges], distances(n, edges)
    for a, b in pairing:
        multi += shortest_route(edges, d, a, b)
    near: dict[int, list[tuple[int, int]]] = {}
    for k, (u, v, _) in enumerate(multi):
        near.setdefault(u, []).append((v, k))
        near.setdefault(v, []).append((u, k))
    used, stack, walk = [False] * len(multi), [1], []
    while stack:
        u = stack[-1]
        while near[u] and used[near[u][-1][1]]:
            near[u].pop()
        if near[u]:
            v, k = near[u].pop()
            used[k] = True
            stack.append(v)
        else:
            walk.append(stack.pop())
    return walk[::-1]


class ChinesePostman(Problem):
    name = "chinese_postman"
    title = "Chinese postman (shortest walk over every edge)"
    knobs = {"nodes": Knob(8, 4, 14, "nodes"), "extra": Knob(7, 2, 30, "edges beyond a spanning tree"),
             "max_weight": Knob(20, 2, 99, "edge weights are 1..max_weight")}
    groups = {"easy": {"nodes": 6, "extra": 4, "max_weight": 12}, "medium": {"nodes": 8, "extra": 6, "max_weight": 20},
              "hard": {"nodes": 10, "extra": 9, "max_weight": 30}}
    answer_format = ("the nodes of your closed walk in order, the first repeated at the end, separated by spaces, "
                     "e.g. <answer>a b c a</answer>.")
    baselines = {"double_all": "every edge walked twice (a depth-first tour)",
                 "greedy_pairs": "odd nodes paired greedily with their nearest odd node, then an Euler tour"}

    def validate(self, p: Any) -> None:
        if p.extra > (p.nodes - 1) * (p.nodes - 2) // 2:
            raise ValueError("extra must be at most (nodes - 1) * (nodes - 2) / 2")

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        n = p.nodes
        edges = [[u, v, rng.randint(1, p.max_weight)] for u, v in connected_pairs(rng, n, p.extra)]
        odd = odd_nodes(n, edges)
        if len(odd) < 4:
            return None
        d = distances(n, edges)
        pairing = best_pairing(odd, d)
        extra = sum(d[a][b] for a, b in pairing)
        inst = {"nodes": n, "edges": edges, "optimum": sum(w for *_, w in edges) + extra,
                "solution": closed_walk(n, edges, pairing)}
        if any(self.accepts(inst, self.baseline(b, inst, rng)) for b in self.baselines):
            return None
        return inst

    def statement(self, inst: dict[str, Any]) -> str:
        rows = "\n".join(f"{u} - {v}  (length {w})" for u, v, w in inst["edges"])
        return (f"A road network on nodes 1..{inst['nodes']}; its roads (both ways) and their lengths:\n{rows}\n\n"
                "Find a closed walk (it ends where it starts) along the roads that passes every road at least once, "
                "as short as possible in total (a road passed twice counts twice).")

    def check(self, inst: dict[str, Any], answer: list[int]) -> str | None:
        if len(answer) < 2 or answer[0] != answer[-1]:
            return "the walk must end where it starts"
        length = {}
        for u, v, w in inst["edges"]:
            length[(u, v)] = length[(v, u)] = w
        total = 0
        for a in zip(answer, answer[1:], strict=False):
            if a not in length:
                return f"{a[0]} - {a[1]} is not a road"
            total += length[a]
        walked = {tuple(sorted(a)) for a in zip(answer, answer[1:], strict=False)}
        missed = [(u, v) for u, v, _ in inst["edges"] if (min(u, v), max(u, v)) not in walked]
        if missed:
            return f"road {missed[0][0]} - {missed[0][1]} is never passed"
        if total != inst["optimum"]:
            return f"a walk of length {total}; the shortest is {inst['optimum']}"
        return None

    def corrupt(self, inst: dict[str, Any], answer: list[int], rng: random.Random) -> list[int]:
        return self.baseline_double_all(inst, rng)

    def baseline_double_all(self, inst: dict[str, Any], rng: random.Random) -> list[int]:
        return closed_walk(inst["nodes"], inst["edges"], [(u, v) for u, v, _ in inst["edges"]])

    def baseline_greedy_pairs(self, inst: dict[str, Any], rng: random.Random) -> list[int]:
        n, edges = inst["nodes"], inst["edges"]
        return closed_walk(n, edges, greedy_pairing(odd_nodes(n, edges), distances(n, edges)))

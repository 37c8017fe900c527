"""Token swapping on a graph: numbered tokens sit on the numbered nodes of a small graph; swap the tokens at the two
ends of an edge until every token is on the node of its number. The optimum by A* on half the tokens' summed
graph distances home (a swap moves two tokens one edge each, so it never overestimates)."""
from __future__ import annotations

import functools
import random
from collections import deque
from typing import Any

from ..core import Knob, MoveError, Puzzle


class TokenSwap(Puzzle):
    name = "token_swap"
    title = "Token swapping on a graph"
    tool = "swap"
    tool_about = "Swap the tokens on nodes `a` and `b`, which must be joined by an edge. Returns where every token " \
                 "is after the swap."
    parameters = {"a": {"type": "integer", "description": "A node, numbered from 1."},
                  "b": {"type": "integer", "description": "A node joined to `a` by an edge."}}
    knobs = {"nodes": Knob(8, 4, 10, "nodes (and tokens)"), "extra_edges": Knob(3, 0, 12, "edges beyond a spanning "
                                                                                          "tree")}
    groups = {"easy": {"nodes": 7, "extra_edges": 3, "min_optimum": 6, "max_optimum": 7, "slack": 1},
              "medium": {"nodes": 8, "extra_edges": 3, "min_optimum": 8, "max_optimum": 9, "slack": 1},
              "hard": {"nodes": 8, "extra_edges": 2, "min_optimum": 10, "max_optimum": 12, "slack": 1}}
    greedy_about = "the swap that most lowers the tokens' summed distance home, never back to a seen placement"

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        n = p.nodes
        order = list(range(1, n + 1))
        rng.shuffle(order)
        edges = {tuple(sorted((order[i], order[rng.randrange(i)]))) for i in range(1, n)}
        pairs = [(a, b) for a in range(1, n + 1) for b in range(a + 1, n + 1) if (a, b) not in edges]
        edges |= set(rng.sample(pairs, min(p.extra_edges, len(pairs))))
        tokens = list(range(1, n + 1))
        rng.shuffle(tokens)
        return {"edges": sorted([a, b] for a, b in edges), "tokens": tokens}

    def start(self, inst: dict[str, Any]) -> tuple[int, ...]:
        tokens = tuple(int(t) for t in inst["tokens"])
        n = len(tokens)
        if sorted(tokens) != list(range(1, n + 1)) or not all(1 <= int(v) <= n for e in inst["edges"] for v in e):
            raise ValueError("tokens must be 1..n on nodes 1..n, edges between nodes")
        return tokens

    def action(self, inst: dict[str, Any], args: dict[str, Any]) -> tuple[int, int]:
        a, b = int(args["a"]), int(args["b"])
        n = len(inst["tokens"])
        if not (1 <= a <= n and 1 <= b <= n):
            raise MoveError("no_such_node", f"nodes are numbered 1-{n}")
        if (min(a, b), max(a, b)) not in _graph(_key(inst)).edges:
            raise MoveError("no_edge", f"nodes {a} and {b} are not joined by an edge")
        return min(a, b), max(a, b)

    def args(self, action: tuple[int, int]) -> dict[str, Any]:
        return {"a": action[0], "b": action[1]}

    def legal(self, inst: dict[str, Any], state: tuple[int, ...]) -> list[tuple[int, int]]:
        return sorted(_graph(_key(inst)).edges)

    def step(self, inst: dict[str, Any], state: tuple[int, ...], action: tuple[int, int]) -> tuple[int, ...]:
        a, b = action  # `action` checked the edge
        out = list(state)
        out[a - 1], out[b - 1] = out[b - 1], out[a - 1]
        return tuple(out)

    def solved(self, inst: dict[str, Any], state: tuple[int, ...]) -> bool:
        return all(t == i + 1 for i, t in enumerate(state))

    def estimate(self, inst: dict[str, Any], state: tuple[int, ...]) -> float:
        return -(-self.closeness(inst, state) // 2)

    def closeness(self, inst: dict[str, Any], state: tuple[int, ...]) -> float:
        dist = _graph(_key(inst)).dist
        return sum(dist[i][t - 1] for i, t in enumerate(state))

    def describe(self, inst: dict[str, Any], action: tuple[int, int]) -> str:
        return f"swapped nodes {action[0]} and {action[1]}"

    def show(self, inst: dict[str, Any], state: tuple[int, ...]) -> str:
        return "\n".join(f"node {i + 1}: token {t}" for i, t in enumerate(state))

    def rules(self, inst: dict[str, Any]) -> str:
        n = len(inst["tokens"])
        edges = ", ".join(f"{a}-{b}" for a, b in inst["edges"])
        return (f"Token swapping: a graph of {n} nodes numbered 1-{n} with these edges: {edges}. Every node holds "
                f"one numbered token. Call `swap(a, b)` to exchange the tokens on nodes a and b; only nodes joined "
                f"by an edge may swap. The goal is token k on node k for every k.")

    def refused_args(self, inst: dict[str, Any], state: tuple[int, ...]) -> dict[str, Any] | None:
        n, edges = len(state), _graph(_key(inst)).edges
        for a in range(1, n + 1):
            for b in range(a + 1, n + 1):
                if (a, b) not in edges:
                    return {"a": a, "b": b}
        return None


class _Graph:
    def __init__(self, n: int, edges: frozenset[tuple[int, int]]):
        self.edges = edges
        near: list[list[int]] = [[] for _ in range(n)]
        for a, b in edges:
            near[a - 1].append(b - 1)
            near[b - 1].append(a - 1)
        self.dist = []
        for s in range(n):
            d = [n * n] * n
            d[s] = 0
            queue = deque([s])
            while queue:
                u = queue.popleft()
                for v in near[u]:
                    if d[v] > d[u] + 1:
                        d[v] = d[u] + 1
                        queue.append(v)
            self.dist.append(d)


def _key(inst: dict[str, Any]) -> tuple[int, tuple[tuple[int, int], ...]]:
    return len(inst["tokens"]), tuple(map(tuple, inst["edges"]))


@functools.lru_cache(maxsize=4096)
def _graph(key: tuple[int, tuple[tuple[int, int], ...]]) -> _Graph:
    n, edges = key
    return _Graph(n, frozenset((min(int(a), int(b)), max(int(a), int(b))) for a, b in edges))


PUZZLE = TokenSwap

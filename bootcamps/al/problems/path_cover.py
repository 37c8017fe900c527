"""al/path_cover: the fewest node-disjoint paths of a DAG that together visit every node (n minus a maximum
matching between arc tails and heads; any smallest cover scores)."""
from __future__ import annotations

import random
import re
from typing import Any

from ..core import Knob, Problem, hidden_dag, numbers, walk_arcs


def fewest_paths(n: int, arcs: list[list[int]]) -> list[list[int]]:
    """A smallest path cover: a maximum matching of each node to a successor (augmenting paths), then the chains."""
    out: dict[int, list[int]] = {}
    for u, v in arcs:
        out.setdefault(u, []).append(v)
    before: dict[int, int] = {}  # node -> the node matched in front of it

    def augment(u: int, seen: set[int]) -> bool:
        for v in out.get(u, []):
            if v not in seen:
                seen.add(v)
                if v not in before or augment(before[v], seen):
                    before[v] = u
                    return True
        return False

    for u in range(1, n + 1):
        augment(u, set())
    after = {u: v for v, u in before.items()}
    paths = []
    for u in range(1, n + 1):
        if u not in before:
            path = [u]
            while path[-1] in after:
                path.append(after[path[-1]])
            paths.append(path)
    return paths


def greedy_paths(n: int, arcs: list[list[int]]) -> list[list[int]]:
    """From the smallest node not on a path and with no unused predecessor, follow the smallest unused successor."""
    out: dict[int, list[int]] = {}
    into: dict[int, set[int]] = {}
    for u, v in arcs:
        out.setdefault(u, []).append(v)
        into.setdefault(v, set()).add(u)
    used: set[int] = set()
    paths = []
    while len(used) < n:
        start = min((u for u in range(1, n + 1) if u not in used and not into.get(u, set()) - used),
                    default=min(set(range(1, n + 1)) - used))
        path = [start]
        used.add(start)
        while nxt := sorted(v for v in out.get(path[-1], []) if v not in used):
            path.append(nxt[0])
            used.add(nxt[0])
        paths.append(path)
    return paths


class PathCover(Problem):
    name = "path_cover"
    title = "Minimum path cover of a DAG"
    knobs = {"nodes": Knob(10, 4, 40, "nodes"), "arcs": Knob(16, 3, 300, "arcs (they follow a hidden order)")}
    groups = {"easy": {"nodes": 8, "arcs": 10}, "medium": {"nodes": 11, "arcs": 16}, "hard": {"nodes": 16, "arcs": 26}}
    answer_format = ("your paths separated by `|`, each its nodes in order separated by spaces, e.g. "
                     "<answer>a b c | d e | f</answer>.")
    baselines = {"greedy": "from the first free source, always the smallest free successor, until every node is on "
                           "a path", "singletons": "every node its own path"}

    def validate(self, p: Any) -> None:
        if p.arcs > p.nodes * (p.nodes - 1) // 2:
            raise ValueError("arcs must be at most nodes * (nodes - 1) / 2")

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        _, arcs = hidden_dag(rng, p.nodes, p.arcs)
        best = fewest_paths(p.nodes, arcs)
        inst = {"nodes": p.nodes, "arcs": arcs, "optimum": len(best), "solution": best}
        if len(best) < 2 or any(self.accepts(inst, self.baseline(b, inst, rng)) for b in self.baselines):
            return None
        return inst

    def statement(self, inst: dict[str, Any]) -> str:
        rows = "\n".join(f"{u} -> {v}" for u, v in inst["arcs"])
        return (f"A directed graph without cycles on nodes 1..{inst['nodes']}, its arcs:\n{rows}\n\nCover the nodes "
                "with as few paths as possible: each path follows arcs (a single node is a path too), and every node "
                "is on exactly one path.")

    def show(self, answer: list[list[int]]) -> str:
        return " | ".join(" ".join(map(str, path)) for path in answer)

    def read(self, body: str) -> list[list[int]] | None:
        parts = re.split(r"\||\n", body.strip())
        if len(parts) > 400:
            return None
        paths = [numbers(part) for part in parts if part.strip()]
        return None if any(not path for path in paths) else paths  # type: ignore[return-value]

    def check(self, inst: dict[str, Any], answer: list[list[int]]) -> str | None:
        n = inst["nodes"]
        if sorted(u for path in answer for u in path) != list(range(1, n + 1)):
            return f"not every node 1..{n} on exactly one path"
        allowed = {(u, v) for u, v in inst["arcs"]}
        for path in answer:
            why = walk_arcs(path, allowed)
            if why:
                return why
        if len(answer) != inst["optimum"]:
            return f"{len(answer)} paths; the fewest is {inst['optimum']}"
        return None

    def corrupt(self, inst: dict[str, Any], answer: list[list[int]], rng: random.Random) -> list[list[int]]:
        paths = [list(p) for p in answer]
        longest = max(range(len(paths)), key=lambda i: len(paths[i]))
        cut = paths.pop(longest)
        return paths + [cut[:1], cut[1:]] if len(cut) > 1 else paths + [cut]

    def baseline_greedy(self, inst: dict[str, Any], rng: random.Random) -> list[list[int]]:
        return greedy_paths(inst["nodes"], inst["arcs"])

    def baseline_singletons(self, inst: dict[str, Any], rng: random.Random) -> list[list[int]]:
        return [[u] for u in range(1, inst["nodes"] + 1)]

"""What every al/<problem> shares: the `Problem` base class (draw an instance, solve it exactly, verify any answer
against the instance and its stored optimum, render the prompt), its integer knobs, and the answer parsers.

A problem module defines one `Problem` subclass in about a hundred lines; `collection.py` turns it into a bootcamp
(generator, verifier, reference policy, noisy answers, baselines) with nothing of its own.
"""
from __future__ import annotations

import heapq
import random
import re
from collections import deque
from dataclasses import dataclass
from typing import Any, ClassVar

from bc_common.answer_blocks import last_tagged

MAX_BODY = 4000  # characters of an answer block: every instance's answer fits in far fewer
MAX_ITEMS = 400  # numbers, pairs or groups in one answer
_INT = re.compile(r"-?[0-9]{1,19}")
_TOKENS = re.compile(r"[\s,;>]+|->|→")  # what may separate the numbers of a list ("1 2", "1, 2", "1 -> 2")
_PAIR = re.compile(r"\(\s*([0-9]{1,6})\s*[-–:,]\s*([0-9]{1,6})\s*\)|([0-9]{1,6})\s*[-–:]\s*([0-9]{1,6})")


@dataclass(frozen=True)
class Knob:
    """An integer parameter of a problem's generator, with the bounds `validate()` enforces."""

    default: int
    low: int
    high: int
    about: str = ""


class Problem:
    """One problem type. Subclasses set the class attributes and implement `draw`, `statement`, `solve`, `show`,
    `read` and `check`; `corrupt` and the baselines have defaults where the answer shape allows."""

    name: ClassVar[str] = ""
    title: ClassVar[str] = ""
    knobs: ClassVar[dict[str, Knob]] = {}
    groups: ClassVar[dict[str, dict[str, int]]] = {}  # easy / medium / hard: knob values
    answer_format: ClassVar[str] = ""  # what goes between the answer tags, with a placeholder example
    baselines: ClassVar[dict[str, str]] = {}  # name -> what it does; `baseline_<name>(inst, rng)` answers

    # -- the problem's own part --------------------------------------------------------------------------------
    def validate(self, p: Any) -> None:
        """Cross-knob rules beyond each knob's bounds (ValueError)."""

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        """One instance (JSON-able, with its exact optimum and one optimal `solution`); None: draw again (e.g. a
        cheap heuristic already solves it)."""
        raise NotImplementedError

    def statement(self, inst: dict[str, Any]) -> str:
        """The problem and the instance in text (the answer format is added by `prompt`)."""
        raise NotImplementedError

    def solve(self, inst: dict[str, Any]) -> Any:
        """A correct answer (structured): the stored one by default."""
        return inst["solution"]

    def show(self, answer: Any) -> str:
        """The answer block's body for a structured answer."""
        return " ".join(map(str, answer))

    def read(self, body: str) -> Any | None:
        """The structured answer in a block's body; None when malformed."""
        return numbers(body)

    def check(self, inst: dict[str, Any], answer: Any) -> str | None:
        """Why `answer` is wrong for `inst` (not valid, or valid but not optimal); None when it is correct."""
        raise NotImplementedError

    def corrupt(self, inst: dict[str, Any], answer: Any, rng: random.Random) -> Any:
        """A wrong answer near the right one (the noisy model's): a list answer loses one entry."""
        wrong = list(answer)
        if wrong:
            del wrong[rng.randrange(len(wrong))]
        return wrong

    # -- shared ------------------------------------------------------------------------------------------------
    def prompt(self, inst: dict[str, Any]) -> str:
        return (f"{self.statement(inst)}\n\nGive your final answer in one block <answer>...</answer> holding "
                f"{self.answer_format}")

    def verify(self, inst: dict[str, Any], text: str) -> tuple[float, str]:
        """(1.0, "correct") or (0.0, why) for a reply's text: its last answer block, parsed and checked."""
        body = last_tagged(text, max_length=MAX_BODY) if isinstance(text, str) else None
        if body is None:
            return 0.0, "no <answer>...</answer> block (or one over 4,000 characters)"
        answer = self.read(body)
        if answer is None:
            return 0.0, f"malformed answer: {body[:80]!r}"
        why = self.check(inst, answer)
        return (0.0, why) if why else (1.0, "correct")

    def accepts(self, inst: dict[str, Any], answer: Any) -> bool:
        """Whether a structured answer, written out and read back as the verifier reads it, is correct."""
        parsed = self.read(self.show(answer))
        return parsed is not None and self.check(inst, parsed) is None

    def wrong_answer(self, inst: dict[str, Any], rng: random.Random) -> Any:
        """A wrong answer (never scores 1.0): the corrupted solution, or nothing when corrupting kept it right."""
        wrong = self.corrupt(inst, self.solve(inst), rng)
        return None if wrong is None or self.accepts(inst, wrong) else wrong

    def baseline(self, name: str, inst: dict[str, Any], rng: random.Random) -> Any:
        return getattr(self, f"baseline_{name}")(inst, rng)


# -- answer parsers ----------------------------------------------------------------------------------------------
def numbers(body: str, limit: int = MAX_ITEMS) -> list[int] | None:
    """`"3 1 4"`, `"3, 1, 4"`, `"[3, 1, 4]"`, `"3 -> 1 -> 4"` -> [3, 1, 4]; None unless every token is a plain
    integer."""
    body = body.strip()
    if body[:1] + body[-1:] in ("[]", "()"):  # one pair of enclosing brackets, as a list is often written
        body = body[1:-1]
    tokens = [t for t in _TOKENS.split(body) if t]
    if len(tokens) > limit or not all(_INT.fullmatch(t) for t in tokens):
        return None
    return [int(t) for t in tokens]


def number(body: str) -> int | None:
    """The single integer of a body (`" 42 "`), else None."""
    found = numbers(body, limit=1)
    return found[0] if found else None


def pairs(body: str, limit: int = MAX_ITEMS) -> list[tuple[int, int]] | None:
    """`"1-4, 2-3"` (or `(1,4) (2,3)`, `1:4; 2:3`, one per line) -> [(1, 4), (2, 3)]; None when anything else
    is in the body."""
    found = _PAIR.findall(body)
    if len(found) > limit or _PAIR.sub("", body).strip(" \t\r\n,;"):
        return None
    return [(int(a or c), int(b or d)) for a, b, c, d in found]


def groups(body: str, limit: int = MAX_ITEMS) -> list[list[int]] | None:
    """`"{1, 4} {2} {3, 5}"` -> [[1, 4], [2], [3, 5]]; None unless the body is only such braced groups."""
    found = re.findall(r"\{([^{}]*)\}", body)
    if len(found) > limit or re.sub(r"\{[^{}]*\}", "", body).strip(" \t\n,;"):
        return None
    out = [numbers(g) for g in found]
    return None if any(g is None for g in out) else out  # type: ignore[return-value]


def edge_lines(edges: list[tuple[int, int, int]] | list[list[int]], arrow: str = "-") -> str:
    """One edge a line: `u - v  (w)` / `u -> v  (w)`, the weights aligned."""
    return "\n".join(f"{u} {arrow} {v}" + (f"  (weight {e[2]})" if len(e) > 2 else "")
                     for e in edges for u, v in [e[:2]])


def distinct_values(rng: random.Random, count: int, low: int, high: int) -> list[int]:
    return rng.sample(range(low, high + 1), count)


def connected_pairs(rng: random.Random, n: int, extra: int) -> list[tuple[int, int]]:
    """Undirected edges (u < v) on nodes 1..n: a random spanning tree plus `extra` more distinct edges, shuffled."""
    order = list(range(1, n + 1))
    rng.shuffle(order)
    edges = {tuple(sorted((order[i], order[rng.randrange(i)]))) for i in range(1, n)}
    room = n * (n - 1) // 2
    while len(edges) < min(room, n - 1 + extra):
        u, v = rng.sample(range(1, n + 1), 2)
        edges.add((min(u, v), max(u, v)))
    out = sorted(edges)
    rng.shuffle(out)
    return out  # type: ignore[return-value]


def adjacency(arcs: list[list[int]] | list[tuple[int, int]], directed: bool = True) -> dict[int, list[int]]:
    """Each node's neighbours in the listed order (u -> v for every [u, v, ...]; v -> u too when undirected)."""
    out: dict[int, list[int]] = {}
    for u, v, *_ in arcs:
        out.setdefault(u, []).append(v)
        if not directed:
            out.setdefault(v, []).append(u)
    return out


def bfs_parents(out: dict[int, list[int]], start: int) -> dict[int, int]:
    """Breadth-first search from `start`, neighbours in the listed order: every reached node -> the node it was
    reached from (the start -> itself), in the order they were reached."""
    back, queue = {start: start}, deque([start])
    while queue:
        u = queue.popleft()
        for v in out.get(u, []):
            if v not in back:
                back[v] = u
                queue.append(v)
    return back


def kahn_order(n: int, arcs: list[list[int]], smallest: bool) -> list[int]:
    """A topological order of nodes 1..n by Kahn's algorithm: always the smallest ready node (a heap) when
    `smallest`, else the ready nodes first in, first out (a valid order, not the smallest)."""
    indegree, out = [0] * (n + 1), adjacency(arcs)
    for _, v, *_ in arcs:
        indegree[v] += 1
    ready = [u for u in range(1, n + 1) if not indegree[u]]
    queue = deque(ready)
    heapq.heapify(ready)
    order = []
    while ready if smallest else queue:
        u = heapq.heappop(ready) if smallest else queue.popleft()
        order.append(u)
        for v in out.get(u, []):
            indegree[v] -= 1
            if indegree[v]:
                continue
            if smallest:
                heapq.heappush(ready, v)
            else:
                queue.append(v)
    return order


def is_subsequence(small: list[Any] | str, big: list[Any] | str) -> bool:
    it = iter(big)
    return all(any(x == y for y in it) for x in small)


def hidden_dag(rng: random.Random, n: int, count: int) -> tuple[list[int], list[list[int]]]:
    """(order, arcs): `count` distinct arcs u -> v on nodes 1..n that follow a hidden order of the nodes (a shuffled
    1..n, returned), so the graph has no cycle; the arcs shuffled."""
    order = list(range(1, n + 1))
    rng.shuffle(order)
    chosen: set[tuple[int, int]] = set()
    while len(chosen) < count:
        i, j = sorted(rng.sample(range(n), 2))
        chosen.add((order[i], order[j]))
    arcs = [list(a) for a in sorted(chosen)]
    rng.shuffle(arcs)
    return order, arcs


def random_tree(rng: random.Random, n: int) -> list[list[int]]:
    """The n - 1 edges [u, v] of a random tree on nodes 1..n (each node of a shuffled order hangs from an earlier
    one), shuffled."""
    order = list(range(1, n + 1))
    rng.shuffle(order)
    edges = [[order[rng.randrange(i)], order[i]] for i in range(1, n)]
    rng.shuffle(edges)
    return edges


def random_graph(rng: random.Random, n: int, density: float) -> list[list[int]]:
    """Each pair u < v of nodes 1..n an edge with probability `density`, the edges shuffled."""
    edges = [[u, v] for u in range(1, n + 1) for v in range(u + 1, n + 1) if rng.random() < density]
    rng.shuffle(edges)
    return edges


def walk_arcs(path: list[int], allowed: set[tuple[int, int]] | dict[tuple[int, int], int]) -> str | None:
    """Why `path` does not follow `allowed` steps (its first missing step), or None."""
    for u, v in zip(path, path[1:], strict=False):
        if (u, v) not in allowed:
            return f"{u} -> {v} is not a step of the graph"
    return None

"""fl/ltl_counterexample: a path of a Kripke structure, written as a lasso (a prefix, then a loop repeated forever),
on which an LTL formula is false (any such lasso within the length bound scores; the formula is evaluated on it)."""
from __future__ import annotations

import random
import re
from typing import Any

from ..core import Knob, Task, numbers

ATOMS = ("p", "q")
Formula = list[Any]  # ["p"], ["not", f], ["and"|"or"|"implies", f, g], ["X"|"F"|"G", f], ["U", f, g]
MIN_STATES = 2  # every counterexample of a drawn instance writes at least this many states
_LASSO = re.compile(r"([^()]*)\(([^()]*)\)\s*")


def evaluate(f: Formula, labels: list[list[str]], prefix: list[int], loop: list[int]) -> list[bool]:
    """Whether `f` holds at each position of the lasso prefix + loop^omega (positions 0..n-1, the last one followed
    by the loop's first)."""
    path = prefix + loop
    n = len(path)

    def nxt(i: int) -> int:
        return i + 1 if i + 1 < n else len(prefix)

    def sub(k: int) -> list[bool]:
        return evaluate(f[k], labels, prefix, loop)

    op = f[0]
    if op in ATOMS:
        return [op in labels[s] for s in path]
    if op == "not":
        return [not v for v in sub(1)]
    if op in ("and", "or", "implies"):
        a, b = sub(1), sub(2)
        if op == "and":
            return [x and y for x, y in zip(a, b, strict=True)]
        if op == "or":
            return [x or y for x, y in zip(a, b, strict=True)]
        return [not x or y for x, y in zip(a, b, strict=True)]
    if op == "X":
        a = sub(1)
        return [a[nxt(i)] for i in range(n)]
    if op == "G":
        return [not v for v in evaluate(["F", ["not", f[1]]], labels, prefix, loop)]
    left, goal = ([True] * n, sub(1)) if op == "F" else (sub(1), sub(2))
    val = [False] * n  # least fixpoint of val[i] = goal[i] or (left[i] and val[next(i)])
    for _ in range(2):  # backwards: the first pass settles every position but those that need the loop's start,
        for i in reversed(range(n)):  # which is settled by then, so the second pass settles the rest
            val[i] = goal[i] or (left[i] and val[nxt(i)])
    return val


def lassos(succ: list[list[int]], longest: int) -> list[tuple[list[int], list[int]]]:
    """Every lasso from s0 whose states are distinct, at most `longest` of them, in breadth-first order."""
    out, paths = [], [[0]]
    while paths:
        grown = []
        for path in paths:
            for t in succ[path[-1]]:
                if t in path:
                    j = path.index(t)
                    out.append((path[:j], path[j:]))
                elif len(path) < longest:
                    grown.append(path + [t])
        paths = grown
    return out


def formula_text(f: Formula, top: bool = True) -> str:
    op = f[0]
    if op in ATOMS:
        return op
    if op == "not":
        return "NOT " + formula_text(f[1], False)
    if op in ("X", "F", "G"):
        return f"{op} " + formula_text(f[1], False)
    word = {"and": "AND", "or": "OR", "implies": "->", "U": "U"}[op]
    inner = f"{formula_text(f[1], False)} {word} {formula_text(f[2], False)}"
    return inner if top else f"({inner})"


def random_formula(rng: random.Random, depth: int) -> Formula:
    if depth == 0:
        atom = [rng.choice(ATOMS)]
        return ["not", atom] if rng.random() < 0.25 else atom
    roll = rng.random()
    if roll < 0.5:
        return [rng.choice(("X", "F", "G", "G", "F")), random_formula(rng, depth - 1)]
    op = "U" if roll < 0.7 else rng.choice(("and", "or", "implies"))
    left, right = random_formula(rng, depth - 1), random_formula(rng, rng.randrange(depth))
    return [op, left, right if right != left else ["not", right]]


def temporal_count(f: Formula) -> int:
    return (f[0] in ("X", "F", "G", "U")) + sum(temporal_count(g) for g in f[1:] if isinstance(g, list))


def walk(succ: list[list[int]], pick: int) -> tuple[list[int], list[int]]:
    """The lasso that always takes successor number `pick` (the last when there are fewer)."""
    path = [0]
    while True:
        t = succ[path[-1]][min(pick, len(succ[path[-1]]) - 1)]
        if t in path:
            j = path.index(t)
            return path[:j], path[j:]
        path.append(t)


class LtlCounterexample(Task):
    name = "ltl_counterexample"
    title = "LTL counterexample"
    knobs = {"states": Knob(7, 3, 14, "states s0..s(n-1)"), "depth": Knob(3, 1, 5, "nesting depth of the formula"),
             "temporal": Knob(2, 1, 6, "temporal operators in the formula (at least)")}
    groups = {"easy": {"states": 7, "depth": 2, "temporal": 2}, "medium": {"states": 9, "depth": 3, "temporal": 2},
              "hard": {"states": 11, "depth": 3, "temporal": 3}}
    answer_format = ("the path as a lasso: the states before the loop, then the loop in parentheses, e.g. "
                     "<answer>s0 s2 (s5 s3)</answer> for s0 s2 s5 s3 s5 s3 ... (<answer>(s0 s1)</answer> when the "
                     "loop starts at s0).")
    baselines = {"first_successor": "always the first successor listed", "last_successor": "always the last one",
                 "shortest_lasso": "a shortest lasso from s0"}
    max_draws = 1000

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        n = p.states
        f = random_formula(rng, p.depth)
        if temporal_count(f) < p.temporal:
            return None
        succ = [sorted(rng.sample(range(n), rng.choice((1, 2, 2)))) for _ in range(n)]
        labels = [[a for a in ATOMS if rng.random() < 0.5] for _ in range(n)]
        every = lassos(succ, n)
        bad = [(u, v) for u, v in every if not evaluate(f, labels, u, v)[0]]
        if not bad or len(bad) * 2 > len(every) or min(len(u) + len(v) for u, v in bad) < MIN_STATES:
            return None  # no counterexample, most paths are one, or a very short one is
        most = max(len(u) + len(v) for u, v in bad)  # a long one: another structure rarely has all its arrows
        if most < 3:
            return None
        u, v = rng.choice([(u, v) for u, v in bad if len(u) + len(v) == most])
        inst = {"successors": succ, "labels": labels, "formula": f, "longest": 2 * n, "solution": [u, v]}
        return None if self.any_baseline_accepted(inst, rng) else inst

    def statement(self, inst: dict[str, Any]) -> str:
        rows = "\n".join(f"s{s}: labels {{{', '.join(inst['labels'][s])}}}, successors "
                         + ", ".join(f"s{t}" for t in targets) for s, targets in enumerate(inst["successors"]))
        return (f"A Kripke structure with initial state s0 (an atom holds exactly in the states labelled with it):\n"
                f"{rows}\n\nLTL formula: {formula_text(inst['formula'])}\n\nX: at the next state; F: at some state "
                "from now on; G: at every state from now on; f U g: g holds at some state from now on and f at every "
                "state before it. Some infinite path from s0 violates the formula. Give one such path as a lasso "
                f"(a prefix, then a loop repeated forever; at most {inst['longest']} states written in all).")

    def show(self, answer: list[list[int]]) -> str:
        prefix, loop = answer
        return " ".join([*(f"s{s}" for s in prefix), "(" + " ".join(f"s{s}" for s in loop) + ")"])

    def read(self, body: str) -> list[list[int]] | None:
        found = _LASSO.fullmatch(body.strip())
        if not found:
            return None
        prefix, loop = numbers(found.group(1).replace("s", " ")), numbers(found.group(2).replace("s", " "))
        return None if prefix is None or not loop else [prefix, loop]

    def check(self, inst: dict[str, Any], answer: list[list[int]]) -> str | None:
        prefix, loop = answer
        succ, path = inst["successors"], prefix + loop
        if len(path) > inst["longest"]:
            return f"{len(path)} states written; at most {inst['longest']}"
        if not all(0 <= s < len(succ) for s in path):
            return f"states run from s0 to s{len(succ) - 1}"
        if path[0] != 0:
            return "the path must start at s0"
        for a, b in [*zip(path, path[1:], strict=False), (path[-1], loop[0])]:
            if b not in succ[a]:
                return f"s{b} is not a successor of s{a}"
        if evaluate(inst["formula"], inst["labels"], prefix, loop)[0]:
            return "the formula holds on this path"
        return None

    def corrupt(self, inst: dict[str, Any], answer: list[list[int]], rng: random.Random) -> list[list[int]]:
        prefix, loop = answer
        path = prefix + loop
        k = rng.randrange(len(path))  # one state replaced by another
        path[k] = rng.choice([s for s in range(len(inst["successors"])) if s != path[k]])
        return [path[:len(prefix)], path[len(prefix):]]

    def baseline_first_successor(self, inst: dict[str, Any], rng: random.Random) -> list[list[int]]:
        return list(walk(inst["successors"], 0))

    def baseline_last_successor(self, inst: dict[str, Any], rng: random.Random) -> list[list[int]]:
        return list(walk(inst["successors"], 2))

    def baseline_shortest_lasso(self, inst: dict[str, Any], rng: random.Random) -> list[list[int]]:
        return list(lassos(inst["successors"], len(inst["successors"]))[0])

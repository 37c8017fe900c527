"""al/bracket_repair: the fewest brackets to insert so that a string of two bracket kinds is balanced (any shortest
repair scores)."""
from __future__ import annotations

import functools
import random
from typing import Any

from ..core import Knob, Problem, is_subsequence

PARTNER = {"(": ")", "[": "]", ")": "(", "]": "["}


def balanced(s: str) -> bool:
    stack: list[str] = []
    for ch in s:
        if ch in "([":
            stack.append(ch)
        elif not stack or stack.pop() != PARTNER[ch]:
            return False
    return not stack


def shortest_repair(s: str) -> str:
    """The interval DP: s[i:j] costs either a partner for s[i] plus the rest, or s[i] matched with a later s[k]."""

    @functools.cache
    def cost(i: int, j: int) -> int:
        if i >= j:
            return 0
        best = 1 + cost(i + 1, j)
        if s[i] in "([":
            for k in range(i + 1, j):
                if s[k] == PARTNER[s[i]]:
                    best = min(best, cost(i + 1, k) + cost(k + 1, j))
        return best

    def build(i: int, j: int) -> str:
        if i >= j:
            return ""
        if s[i] in "([":
            for k in range(i + 1, j):
                if s[k] == PARTNER[s[i]] and cost(i + 1, k) + cost(k + 1, j) == cost(i, j):
                    return s[i] + build(i + 1, k) + s[k] + build(k + 1, j)
            return s[i] + PARTNER[s[i]] + build(i + 1, j)
        return PARTNER[s[i]] + s[i] + build(i + 1, j)

    return build(0, len(s))


def stack_repair(s: str) -> str:
    """Left to right with a stack: a closer that does not match the top gets its opener inserted; the openers
    left over are closed at the end."""
    out, stack = [], []
    for ch in s:
        if ch in "([":
            stack.append(ch)
            out.append(ch)
        elif stack and stack[-1] == PARTNER[ch]:
            stack.pop()
            out.append(ch)
        else:
            out += [PARTNER[ch], ch]
    return "".join(out) + "".join(PARTNER[ch] for ch in reversed(stack))


class BracketRepair(Problem):
    name = "bracket_repair"
    title = "Bracket sequence repair"
    knobs = {"length": Knob(14, 4, 60, "brackets in the string")}
    groups = {"easy": {"length": 9}, "medium": {"length": 14}, "hard": {"length": 22}}
    answer_format = "the repaired string of brackets, e.g. <answer>([])()</answer>."
    baselines = {"stack": "a stack from the left: a partner for each closer that does not match, then close the rest",
                 "pair_each": "every bracket given its partner right beside it"}

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        s = "".join(rng.choice("()[]") for _ in range(p.length))
        best = shortest_repair(s)
        inst = {"string": s, "optimum": len(best), "solution": best}
        if any(self.accepts(inst, self.baseline(b, inst, rng)) for b in self.baselines):
            return None
        return inst

    def statement(self, inst: dict[str, Any]) -> str:
        return (f"The string of brackets: {inst['string']}\n\nInsert as few brackets as possible (anywhere; nothing "
                "may be removed or reordered) so that it becomes balanced: every opening bracket is closed later by "
                "one of its own kind, ( by ) and [ by ], properly nested.")

    def show(self, answer: str) -> str:
        return answer

    def read(self, body: str) -> str | None:
        text = "".join(body.split())
        return text if len(text) <= 400 and set(text) <= set("()[]") else None

    def check(self, inst: dict[str, Any], answer: str) -> str | None:
        if not balanced(answer):
            return "not balanced"
        if not is_subsequence(inst["string"], answer):
            return "the given brackets are not all kept in order"
        return None if len(answer) == inst["optimum"] else f"{len(answer)} brackets; the fewest is {inst['optimum']}"

    def corrupt(self, inst: dict[str, Any], answer: str, rng: random.Random) -> str:
        return stack_repair(inst["string"])

    def baseline_stack(self, inst: dict[str, Any], rng: random.Random) -> str:
        return stack_repair(inst["string"])

    def baseline_pair_each(self, inst: dict[str, Any], rng: random.Random) -> str:
        return "".join(ch + PARTNER[ch] if ch in "([" else PARTNER[ch] + ch for ch in inst["string"])

"""fl/string_rewriting: a shortest sequence of rewrites turning one string into another (any shortest one
scores)."""
from __future__ import annotations

import random
import re
from collections import deque
from typing import Any

from ..core import Knob, Task

LETTERS = "abc"


def successors(word: str, rules: list[list[str]]) -> list[str]:
    """Every string one rule, applied at one position, makes of `word`."""
    out = []
    for left, right in rules:
        start = word.find(left)
        while start >= 0:
            out.append(word[:start] + right + word[start + len(left):])
            start = word.find(left, start + 1)
    return out


def shortest_path(start: str, goal: str, rules: list[list[str]], longest: int) -> list[str] | None:
    """The strings after each rewrite of a shortest derivation start -> goal (breadth first, strings up to
    `longest` letters)."""
    parent: dict[str, str | None] = {start: None}
    todo = deque([start])
    while todo:
        word = todo.popleft()
        if word == goal:
            path = []
            while parent[word] is not None:
                path.append(word)
                word = parent[word]  # type: ignore[assignment]
            return path[::-1]
        for nxt in successors(word, rules):
            if nxt not in parent and len(nxt) <= longest:
                parent[nxt] = word
                todo.append(nxt)
    return None


class StringRewriting(Task):
    name = "string_rewriting"
    title = "String rewriting"
    knobs = {"rules": Knob(4, 2, 8, "rewrite rules"), "length": Knob(6, 3, 12, "letters of the start string"),
             "min_steps": Knob(4, 2, 12, "the shortest derivation has at least this many rewrites")}
    groups = {"easy": {"rules": 3, "length": 5, "min_steps": 3}, "medium": {"rules": 4, "length": 6, "min_steps": 4},
              "hard": {"rules": 4, "length": 7, "min_steps": 6}}
    answer_format = ("the string after each rewrite, in order and ending with the target, separated by commas, "
                     "e.g. <answer>bacb, bcab, cbb</answer>.")
    baselines = {"target_only": "the target alone (one rewrite)",
                 "greedy": "the first rule that applies, at its first place, until the target or the step budget"}

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        rules = []
        while len(rules) < p.rules:
            left = "".join(rng.choice(LETTERS) for _ in range(rng.randint(1, 2)))
            right = "".join(rng.choice(LETTERS) for _ in range(rng.randint(1, 2)))
            if left != right and [left, right] not in rules:
                rules.append([left, right])
        start = "".join(rng.choice(LETTERS) for _ in range(p.length))
        seen, frontier = {start}, [start]  # walk a few random rewrites to pick a reachable target
        for _ in range(p.min_steps + 3):
            options = [w for w in successors(frontier[-1], rules) if len(w) <= p.length + 3]
            if not options:
                break
            frontier.append(rng.choice(options))
            seen.add(frontier[-1])
        goal = frontier[-1]
        path = shortest_path(start, goal, rules, p.length + 3) if goal != start else None
        if path is None or len(path) < p.min_steps:
            return None
        inst = {"rules": rules, "start": start, "goal": goal, "longest": p.length + 3, "steps": len(path),
                "solution": path}
        return None if self.any_baseline_accepted(inst, rng) else inst

    def statement(self, inst: dict[str, Any]) -> str:
        rows = "\n".join(f"{left} -> {right}" for left, right in inst["rules"])
        return (f"Rewrite rules (one rewrite replaces one occurrence of a left side, anywhere in the string, by "
                f"its right side):\n{rows}\n\nStart: {inst['start']}\nTarget: {inst['goal']}\n\nTurn the start "
                f"string into the target with as few rewrites as possible (no string along the way may be longer "
                f"than {inst['longest']} letters).")

    def show(self, answer: list[str]) -> str:
        return ", ".join(answer)

    def read(self, body: str) -> list[str] | None:
        parts = [t for t in re.split(r"\s*(?:,|->|→|\n)\s*", body.strip()) if t]
        if len(parts) > 60 or not all(len(t) <= 30 and set(t) <= set(LETTERS) for t in parts):
            return None
        return parts

    def check(self, inst: dict[str, Any], answer: list[str]) -> str | None:
        if answer and answer[0] == inst["start"]:
            answer = answer[1:]  # the start written first as well
        if not answer or answer[-1] != inst["goal"]:
            return "the sequence must end with the target"
        before = inst["start"]
        for k, word in enumerate(answer, start=1):
            if len(word) > inst["longest"] or word not in successors(before, inst["rules"]):
                return f"step {k}: {before} -> {word} is not one rewrite"
            before = word
        if len(answer) != inst["steps"]:
            return f"{len(answer)} rewrites; the fewest is {inst['steps']}"
        return None

    def corrupt(self, inst: dict[str, Any], answer: list[str], rng: random.Random) -> list[str]:
        k = rng.randrange(len(answer) - 1)
        return answer[:k] + answer[k + 1:]

    def baseline_target_only(self, inst: dict[str, Any], rng: random.Random) -> list[str]:
        return [inst["goal"]]

    def baseline_greedy(self, inst: dict[str, Any], rng: random.Random) -> list[str]:
        out, word = [], inst["start"]
        for _ in range(inst["steps"]):
            options = successors(word, inst["rules"])
            if not options:
                break
            word = options[0]
            out.append(word)
            if word == inst["goal"]:
                break
        return out or [inst["goal"]]

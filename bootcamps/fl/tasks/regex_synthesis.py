"""fl/regex_synthesis: a short regular expression matching every listed positive word and no negative one (any such
expression within the length limit scores; matched by a Thompson automaton of our own, never by a backtracking
engine)."""
from __future__ import annotations

import functools
import random
from itertools import product
from typing import Any

from ..core import Knob, Task

LETTERS = "ab"
OPERATORS = set("|*+?()")
MAX_PATTERN = 60  # characters of an answer's expression (the limits asked for are far smaller)


class Nfa:
    """Thompson's construction: states with letter moves and empty moves; `matches` runs a word on state sets, in
    time linear in the word for a pattern of bounded size."""

    def __init__(self) -> None:
        self.moves: list[dict[str, int]] = []
        self.empty: list[list[int]] = []

    def state(self) -> int:
        self.moves.append({})
        self.empty.append([])
        return len(self.moves) - 1

    def closure(self, states: set[int]) -> set[int]:
        todo, seen = list(states), set(states)
        while todo:
            for r in self.empty[todo.pop()]:
                if r not in seen:
                    seen.add(r)
                    todo.append(r)
        return seen

    def matches(self, start: int, end: int, word: str) -> bool:
        current = self.closure({start})
        for ch in word:
            current = self.closure({self.moves[q][ch] for q in current if ch in self.moves[q]})
            if not current:
                return False
        return end in current


def compile_pattern(pattern: str) -> tuple[Nfa, int, int] | None:
    """(automaton, start, accept) for a pattern over a, b with | * + ? and parentheses; None when malformed."""
    text = pattern.replace(" ", "")
    if len(text) > MAX_PATTERN or any(ch not in LETTERS and ch not in OPERATORS for ch in text):
        return None
    nfa, pos = Nfa(), 0

    def alternation() -> tuple[int, int]:
        nonlocal pos
        first = concatenation()
        if pos < len(text) and text[pos] == "|":
            s, e = nfa.state(), nfa.state()
            nfa.empty[s].append(first[0])
            nfa.empty[first[1]].append(e)
            while pos < len(text) and text[pos] == "|":
                pos += 1
                nxt = concatenation()
                nfa.empty[s].append(nxt[0])
                nfa.empty[nxt[1]].append(e)
            return s, e
        return first

    def concatenation() -> tuple[int, int]:
        start = end = nfa.state()
        while pos < len(text) and text[pos] not in "|)":
            s, e = repetition()
            nfa.empty[end].append(s)
            end = e
        return start, end

    def repetition() -> tuple[int, int]:
        nonlocal pos
        s, e = atom()
        while pos < len(text) and text[pos] in "*+?":
            op = text[pos]
            pos += 1
            ns, ne = nfa.state(), nfa.state()
            nfa.empty[ns].append(s)
            nfa.empty[e].append(ne)
            if op in "*?":
                nfa.empty[ns].append(ne)
            if op in "*+":
                nfa.empty[e].append(s)
            s, e = ns, ne
        return s, e

    def atom() -> tuple[int, int]:
        nonlocal pos
        ch = text[pos]
        if ch in LETTERS:
            pos += 1
            s, e = nfa.state(), nfa.state()
            nfa.moves[s][ch] = e
            return s, e
        if ch == "(":
            pos += 1
            inner = alternation()
            if pos >= len(text) or text[pos] != ")":
                raise ValueError("unclosed parenthesis")
            pos += 1
            return inner
        raise ValueError(f"unexpected {ch!r}")

    try:
        start, end = alternation()
    except (IndexError, ValueError):
        return None
    return (nfa, start, end) if pos == len(text) else None


def random_pattern(rng: random.Random, depth: int) -> str:
    """A random expression, written with the parentheses it needs (an alternation is parenthesised inside others)."""
    kind = rng.random()
    if depth == 0 or kind < 0.2:
        return rng.choice(LETTERS)
    if kind < 0.55:
        return _wrap(random_pattern(rng, depth - 1), "|") + _wrap(random_pattern(rng, depth - 1), "|")
    if kind < 0.75:
        return "(" + random_pattern(rng, depth - 1) + "|" + random_pattern(rng, depth - 1) + ")"
    inner = random_pattern(rng, depth - 1)
    inner = inner if len(inner) == 1 else "(" + inner + ")"
    return inner + rng.choice("*+?")


def _wrap(p: str, op: str) -> str:
    depth = 0
    for ch in p:
        depth += (ch == "(") - (ch == ")")
        if depth == 0 and ch == op:
            return f"({p})"
    return p


def patterns(depth: int) -> set[str]:
    """Every expression `random_pattern` can draw up to `depth`."""
    if depth == 0:
        return set(LETTERS)
    smaller = patterns(depth - 1)
    out = set(smaller)
    for x in smaller:
        for y in smaller:
            out.add(_wrap(x, "|") + _wrap(y, "|"))
            out.add(f"({x}|{y})")
        inner = x if len(x) == 1 else f"({x})"
        out.update(inner + op for op in "*+?")
    return out


@functools.cache
def small_languages(longest: int) -> list[tuple[int, str]]:
    """(words matched, as bits over `all_words(longest)`; the shortest expression) for each language the
    expressions of depth 2 give on those words, shortest first (computed once: about a second)."""
    words = all_words(longest)
    found: dict[int, str] = {}
    for pattern in sorted(patterns(2), key=lambda p: (len(p), p)):
        nfa, s, e = compile_pattern(pattern)  # type: ignore[misc]
        found.setdefault(sum(1 << i for i, w in enumerate(words) if nfa.matches(s, e, w)), pattern)
    return sorted(((m, p) for m, p in found.items()), key=lambda mp: (len(mp[1]), mp[1]))


def all_words(longest: int) -> list[str]:
    return ["".join(w) for n in range(longest + 1) for w in product(LETTERS, repeat=n)]


def size(pattern: str) -> int:
    return len(pattern.replace(" ", ""))


class RegexSynthesis(Task):
    name = "regex_synthesis"
    title = "Regular expression synthesis"
    knobs = {"depth": Knob(3, 2, 5, "depth of the hidden expression"),
             "examples": Knob(6, 3, 12, "positive and negative words, each"),
             "longest": Knob(6, 3, 8, "letters of the longest example word")}
    groups = {"easy": {"depth": 3, "examples": 5, "longest": 5}, "medium": {"depth": 3, "examples": 6, "longest": 6},
              "hard": {"depth": 4, "examples": 8, "longest": 7}}
    answer_format = ("the expression alone (letters a b, operators | * + ? and parentheses; no spaces needed), e.g. "
                     "<answer>(ab|b)*a?</answer>.")
    baselines = {"union": "the positive words joined by |", "anything": "(a|b)*, every word",
                 "positive_letters": "the letters of the positive words, starred",
                 "small_search": "the shortest expression of depth two (about 180 languages) that fits the examples"}

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        hidden = random_pattern(rng, p.depth)
        compiled = compile_pattern(hidden)
        if compiled is None or size(hidden) < 5:
            return None
        nfa, s, e = compiled
        words = all_words(p.longest)
        yes = [w for w in words if nfa.matches(s, e, w)]
        no = [w for w in words if not nfa.matches(s, e, w)]
        if len(yes) < p.examples or len(no) < p.examples:
            return None
        positives = sorted(rng.sample(yes, p.examples), key=lambda w: (len(w), w))
        near = [w for w in no if any(abs(len(w) - len(v)) <= 1 for v in positives)]  # negatives near positives
        negatives = sorted(rng.sample(near if len(near) >= p.examples else no, p.examples), key=lambda w: (len(w), w))
        inst = {"positive": positives, "negative": negatives, "limit": size(hidden), "solution": hidden}
        return None if self.any_baseline_accepted(inst, rng) else inst

    def statement(self, inst: dict[str, Any]) -> str:
        show = lambda ws: ", ".join(w or "(the empty word)" for w in ws)  # noqa: E731
        return ("Regular expressions here use the letters a and b, | for alternation, * (zero or more), + (one or "
                "more), ? (zero or one) and parentheses; an expression must match a whole word.\n\n"
                f"Must match:     {show(inst['positive'])}\nMust not match: {show(inst['negative'])}\n\n"
                f"Write an expression of at most {inst['limit']} characters that matches every word of the first "
                "list and none of the second.")

    def show(self, answer: str) -> str:
        return answer

    def read(self, body: str) -> str | None:
        text = body.strip().strip("`/ ")
        return text if compile_pattern(text) is not None else None

    def check(self, inst: dict[str, Any], answer: str) -> str | None:
        if size(answer) > inst["limit"]:
            return f"{size(answer)} characters; at most {inst['limit']} are allowed"
        nfa, s, e = compile_pattern(answer)  # type: ignore[misc]
        missed = [w for w in inst["positive"] if not nfa.matches(s, e, w)]
        if missed:
            return f"does not match {missed[0] or 'the empty word'}"
        wrong = [w for w in inst["negative"] if nfa.matches(s, e, w)]
        return f"matches {wrong[0] or 'the empty word'}" if wrong else None

    def corrupt(self, inst: dict[str, Any], answer: str, rng: random.Random) -> str:
        for k in rng.sample(range(len(answer)), len(answer)):  # one character dropped, still an expression
            wrong = answer[:k] + answer[k + 1:]
            if compile_pattern(wrong) is not None and not self.accepts(inst, wrong):
                return wrong
        return "(a|b)*"

    def baseline_union(self, inst: dict[str, Any], rng: random.Random) -> str:
        return "|".join(w for w in inst["positive"] if w) + ("|" if "" in inst["positive"] else "")

    def baseline_anything(self, inst: dict[str, Any], rng: random.Random) -> str:
        return "(a|b)*"

    def baseline_positive_letters(self, inst: dict[str, Any], rng: random.Random) -> str:
        letters = sorted(set("".join(inst["positive"])))
        return "(" + "|".join(letters) + ")*" if len(letters) > 1 else f"{letters[0]}*" if letters else "a?"

    def baseline_small_search(self, inst: dict[str, Any], rng: random.Random) -> str:
        longest = max(len(w) for w in inst["positive"] + inst["negative"])
        index = {w: i for i, w in enumerate(all_words(longest))}
        yes = sum(1 << index[w] for w in inst["positive"])
        no = sum(1 << index[w] for w in inst["negative"])
        return next((p for m, p in small_languages(longest) if m & yes == yes and not m & no), "(a|b)*")

"""fl/petri_reachability: a firing sequence of a Petri net from the initial marking to a target marking, within a
budget of firings (any sequence that fires legally and ends at the target scores; replayed against the net)."""
from __future__ import annotations

import random
from collections import deque
from typing import Any

from ..core import Knob, Task, numbers

Marking = tuple[int, ...]
MAX_SEEN = 30_000  # markings the shortest-sequence search may visit before the draw is given up
CAP = 9  # tokens a place may hold during that search


def fire(net: list[list[list[int]]], marking: Marking, t: int) -> Marking | None:
    """The marking after transition `t` fires (`net[t]` = [consumed per place, produced per place]); None when it is
    not enabled."""
    take, give = net[t]
    if any(m < c for m, c in zip(marking, take, strict=True)):
        return None
    return tuple(m - c + g for m, c, g in zip(marking, take, give, strict=True))


def shortest(net: list[list[list[int]]], start: Marking, goal: Marking, longest: int) -> list[int] | None:
    """A shortest firing sequence from `start` to `goal` of at most `longest` firings (breadth-first, markings
    capped at CAP tokens a place); None when there is none or the search grows past MAX_SEEN markings."""
    parent: dict[Marking, tuple[Marking, int] | None] = {start: None}
    queue = deque([(start, 0)])
    while queue:
        m, depth = queue.popleft()
        if m == goal:
            path: list[int] = []
            while parent[m] is not None:
                m, t = parent[m]  # type: ignore[misc]
                path.append(t)
            return path[::-1]
        if depth == longest:
            continue
        for t in range(len(net)):
            nxt = fire(net, m, t)
            if nxt is not None and nxt not in parent and max(nxt) <= CAP:
                parent[nxt] = (m, t)
                queue.append((nxt, depth + 1))
        if len(parent) > MAX_SEEN:
            return None
    return None


def arcs_text(counts: list[int]) -> str:
    return ", ".join(f"{c} from p{i + 1}" for i, c in enumerate(counts) if c)


def marking_text(m: list[int] | Marking) -> str:
    return "(" + ", ".join(f"p{i + 1}={c}" for i, c in enumerate(m)) + ")"


class PetriReachability(Task):
    name = "petri_reachability"
    title = "Petri net reachability"
    knobs = {"places": Knob(5, 3, 8, "places p1..pk"), "transitions": Knob(6, 3, 10, "transitions t1..tm"),
             "min_length": Knob(6, 2, 14, "the shortest firing sequence has at least this many firings"),
             "slack": Knob(2, 0, 6, "firings allowed beyond the shortest sequence")}
    groups = {"easy": {"places": 4, "transitions": 5, "min_length": 4, "slack": 2},
              "medium": {"places": 5, "transitions": 6, "min_length": 6, "slack": 2},
              "hard": {"places": 6, "transitions": 7, "min_length": 8, "slack": 2}}
    answer_format = ("the transitions in firing order, e.g. <answer>t3 t1 t3 t2</answer> (or "
                     "<answer>3 1 3 2</answer>).")
    baselines = {"no_firing": "fire nothing", "each_once": "t1, t2, ..., tm in order",
                 "greedy": "fire the enabled transition that brings the marking closest to the target, until it is "
                           "reached or the budget is spent"}

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        k = p.places
        net = []
        for _ in range(p.transitions):
            take, give = [0] * k, [0] * k
            for place in rng.sample(range(k), rng.choice((1, 2, 2))):
                take[place] = rng.choice((1, 1, 2))
            for place in rng.sample(range(k), rng.choice((1, 2, 2))):
                give[place] = rng.choice((1, 1, 2))
            if take == give or abs(sum(give) - sum(take)) > 1:
                return None  # a transition that changes nothing, or one that floods or drains the net
            net.append([take, give])
        start = tuple(rng.choice((0, 1, 1, 2, 3)) for _ in range(k))
        m: Marking = start
        for _ in range(p.min_length + rng.randrange(6)):  # a random walk picks the target
            enabled = [nxt for t in range(len(net)) if (nxt := fire(net, m, t)) is not None and max(nxt) <= CAP]
            if not enabled:
                return None
            m = rng.choice(enabled)
        path = shortest(net, start, m, p.min_length + 8)
        if path is None or len(path) < p.min_length:
            return None
        inst = {"net": net, "start": list(start), "target": list(m), "limit": len(path) + p.slack,
                "solution": [t + 1 for t in path]}
        return None if self.any_baseline_accepted(inst, rng) else inst

    def statement(self, inst: dict[str, Any]) -> str:
        rows = "\n".join(f"t{t + 1}: takes {arcs_text(take)}; puts {arcs_text(give).replace('from', 'into')}"
                         for t, (take, give) in enumerate(inst["net"]))
        return (f"A Petri net with places p1..p{len(inst['start'])} and these transitions (a transition may fire when "
                f"every place it takes from holds at least that many tokens):\n{rows}\n\n"
                f"Initial marking: {marking_text(inst['start'])}\nTarget marking: {marking_text(inst['target'])}\n\n"
                f"Give a sequence of at most {inst['limit']} firings that leads from the initial marking to exactly "
                "the target marking.")

    def show(self, answer: list[int]) -> str:
        return " ".join(f"t{t}" for t in answer)

    def read(self, body: str) -> list[int] | None:
        return numbers(body.replace("t", " "))

    def check(self, inst: dict[str, Any], answer: list[int]) -> str | None:
        if len(answer) > inst["limit"]:
            return f"{len(answer)} firings; the budget is {inst['limit']}"
        net = inst["net"]
        m: Marking | None = tuple(inst["start"])
        for k, t in enumerate(answer, start=1):
            if not 1 <= t <= len(net):
                return f"there is no transition t{t}"
            m = fire(net, m, t - 1)  # type: ignore[arg-type]
            if m is None:
                return f"firing {k}: t{t} is not enabled"
        if list(m) != inst["target"]:  # type: ignore[arg-type]
            return f"ends at {marking_text(m)}, not the target"  # type: ignore[arg-type]
        return None

    def corrupt(self, inst: dict[str, Any], answer: list[int], rng: random.Random) -> list[int]:
        wrong = list(answer)
        del wrong[rng.randrange(len(wrong))]  # one firing left out: the marking is off by that transition's change
        return wrong

    def baseline_no_firing(self, inst: dict[str, Any], rng: random.Random) -> list[int]:
        return []

    def baseline_each_once(self, inst: dict[str, Any], rng: random.Random) -> list[int]:
        return list(range(1, len(inst["net"]) + 1))

    def baseline_greedy(self, inst: dict[str, Any], rng: random.Random) -> list[int]:
        net, target = inst["net"], inst["target"]
        m: Marking = tuple(inst["start"])
        seq: list[int] = []
        while list(m) != target and len(seq) < inst["limit"]:
            options = [(sum(abs(a - b) for a, b in zip(nxt, target, strict=True)), t, nxt)
                       for t in range(len(net)) if (nxt := fire(net, m, t)) is not None]
            if not options:
                break
            _, t, m = min(options)
            seq.append(t + 1)
        return seq

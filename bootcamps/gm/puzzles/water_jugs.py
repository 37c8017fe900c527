"""Water jugs: three jugs of given sizes, one of them part full at the start, a tap and a drain; measure an exact
amount in every jug. The optimum by breadth-first search: the settings reachable from the start, then the
moves to the goal from each of them backwards over that graph (one table per task, kept for its replays)."""
from __future__ import annotations

import functools
import random
from collections import deque
from typing import Any

from ..core import Knob, MoveError, Puzzle, greedy_solves

JUGS = "ABC"
POURS = [(s, t) for s in ("tap", *JUGS) for t in (*JUGS, "drain") if s != t and (s, t) != ("tap", "drain")]


class WaterJugs(Puzzle):
    name = "water_jugs"
    title = "Water jug measuring"
    tool = "pour"
    tool_about = "Pour water: from the tap into a jug (fills it), from a jug into the drain (empties it), or from " \
                 "one jug into another (until the first is empty or the second is full). Returns the jugs after."
    parameters = {"source": {"type": "string", "enum": ["tap", *JUGS], "description": "Where the water comes from."},
                  "target": {"type": "string", "enum": [*JUGS, "drain"], "description": "Where it goes."}}
    knobs = {"largest": Knob(13, 5, 30, "the largest jug holds at most this many litres")}
    groups = {"easy": {"largest": 20, "min_optimum": 5, "max_optimum": 6, "slack": 1},
              "medium": {"largest": 24, "min_optimum": 7, "max_optimum": 8, "slack": 1},
              "hard": {"largest": 28, "min_optimum": 9, "max_optimum": 11, "slack": 1}}
    greedy_about = "the pour that leaves the jugs nearest the goal amounts (summed), never back to a seen setting"

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        sizes = sorted(rng.sample(range(3, p.largest + 1), 3))
        start = [0, 0, 0]  # one jug part full, the others empty: random amounts everywhere leave no deep goals
        part = rng.randrange(3)
        start[part] = rng.randint(1, sizes[part] - 1)
        reached = _reach(tuple(sizes), tuple(start))
        goals = sorted(g for g, d in reached.items() if p.min_optimum <= d <= p.max_optimum)
        for goal in rng.sample(goals, min(10, len(goals))):  # the search is the cost: try several goals on it
            inst = {"sizes": sizes, "start": start, "goal": list(goal)}
            if not greedy_solves(self, inst, reached[goal] + p.slack):
                return inst
        return None

    def start(self, inst: dict[str, Any]) -> tuple[int, ...]:
        sizes, start = inst["sizes"], inst["start"]
        if len(sizes) != 3 or len(start) != 3 or not all(1 <= int(s) <= 100 for s in sizes) or \
                not all(0 <= int(v) <= int(s) for v, s in zip(start, sizes, strict=True)) or \
                len(inst["goal"]) != 3 or \
                not all(0 <= int(v) <= int(s) for v, s in zip(inst["goal"], sizes, strict=True)):
            raise ValueError("three jug sizes, their start amounts and goal amounts")
        return tuple(int(v) for v in start)

    def action(self, inst: dict[str, Any], args: dict[str, Any]) -> tuple[str, str]:
        return str(args["source"]), str(args["target"])

    def args(self, action: tuple[str, str]) -> dict[str, Any]:
        return {"source": action[0], "target": action[1]}

    def legal(self, inst: dict[str, Any], state: tuple[int, ...]) -> list[tuple[str, str]]:
        return [a for a, _ in self.neighbours(inst, state)]

    def neighbours(self, inst: dict[str, Any], state: tuple[int, ...]) -> list[tuple[tuple[str, str], tuple]]:
        out = []
        for a in POURS:
            try:
                out.append((a, self.step(inst, state, a)))
            except MoveError:
                continue
        return out

    def step(self, inst: dict[str, Any], state: tuple[int, ...], action: tuple[str, str]) -> tuple[int, ...]:
        out = _pour(tuple(int(s) for s in inst["sizes"]), state, action)
        if isinstance(out, str):
            raise MoveError(*out.split(": ", 1))
        return out

    def distances(self, inst: dict[str, Any]) -> dict[tuple[int, ...], int]:
        return _table(tuple(int(s) for s in inst["sizes"]), self.start(inst), tuple(int(v) for v in inst["goal"]))

    def solved(self, inst: dict[str, Any], state: tuple[int, ...]) -> bool:
        return list(state) == [int(v) for v in inst["goal"]]

    def closeness(self, inst: dict[str, Any], state: tuple[int, ...]) -> float:
        return sum(abs(v - int(g)) for v, g in zip(state, inst["goal"], strict=True))

    def describe(self, inst: dict[str, Any], action: tuple[str, str]) -> str:
        return f"{action[0]} -> {action[1]}"

    def show(self, inst: dict[str, Any], state: tuple[int, ...]) -> str:
        return "  ".join(f"{j}: {v}/{s} L" for j, v, s in zip(JUGS, state, inst["sizes"], strict=False))

    def rules(self, inst: dict[str, Any]) -> str:
        a, b, c = inst["sizes"]
        return (f"Water jugs: jug A holds {a} litres, jug B {b} litres, jug C {c} litres; they have no marks. "
                f"At the start A holds {inst['start'][0]}, B {inst['start'][1]} and C {inst['start'][2]} litres. "
                f"Call `pour(source, target)`: from `tap` into a jug fills it to the brim, "
                f"from a jug into `drain` empties it, from one jug into another pours until the first is empty or "
                f"the second is full. A pour that moves no water (into a full jug, out of an empty one) is "
                f"refused. The goal is exactly {inst['goal'][0]} litres in A, {inst['goal'][1]} in B and "
                f"{inst['goal'][2]} in C, all at once.")

    def refused_args(self, inst: dict[str, Any], state: tuple[int, ...]) -> dict[str, Any] | None:
        return {"source": "A", "target": "A"}


def _pour(sizes: tuple[int, ...], state: tuple[int, ...], action: tuple[str, str]) -> tuple[int, ...] | str:
    """The jugs after the pour, or "kind: why" when the rules refuse it."""
    source, target = action
    if source == target:
        return f"same_jug: jug {source} cannot pour into itself"
    if source == "tap" and target == "drain":
        return "no_jug: tap to drain moves no water in any jug"
    out = list(state)
    if source == "tap":
        j = JUGS.index(target)
        if out[j] == sizes[j]:
            return f"full: jug {target} is already full"
        out[j] = sizes[j]
    elif target == "drain":
        i = JUGS.index(source)
        if out[i] == 0:
            return f"empty: jug {source} is already empty"
        out[i] = 0
    else:
        i, j = JUGS.index(source), JUGS.index(target)
        if out[i] == 0:
            return f"empty: jug {source} is empty"
        if out[j] == sizes[j]:
            return f"full: jug {target} is already full"
        moved = min(out[i], sizes[j] - out[j])
        out[i] -= moved
        out[j] += moved
    return tuple(out)


def _moves(sizes: tuple[int, ...], state: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Every setting one pour that moves water reaches (the same pours as `_pour`, on integers: the searches'
    inner loop)."""
    out = []
    for i in range(3):
        if state[i] < sizes[i]:
            out.append(state[:i] + (sizes[i],) + state[i + 1:])
        if state[i]:
            out.append(state[:i] + (0,) + state[i + 1:])
            for j in range(3):
                if j != i and state[j] < sizes[j]:
                    moved = min(state[i], sizes[j] - state[j])
                    nxt = list(state)
                    nxt[i] -= moved
                    nxt[j] += moved
                    out.append(tuple(nxt))
    return out


@functools.lru_cache(maxsize=64)
def _reach(sizes: tuple[int, ...], start: tuple[int, ...]) -> dict[tuple[int, ...], int]:
    """Pours from the start to every setting it reaches (breadth-first)."""
    dist = {start: 0}
    queue = deque([start])
    while queue:
        s = queue.popleft()
        for nxt in _moves(sizes, s):
            if nxt not in dist:
                dist[nxt] = dist[s] + 1
                queue.append(nxt)
    return dist


@functools.lru_cache(maxsize=256)
def _table(sizes: tuple[int, ...], start: tuple[int, ...], goal: tuple[int, ...]) -> dict[tuple[int, ...], int]:
    """Pours to the goal from every setting the start reaches: breadth-first backwards over the reached graph."""
    back: dict[tuple[int, ...], list[tuple[int, ...]]] = {}
    reached = _reach(sizes, start)
    for s in reached:
        for nxt in _moves(sizes, s):
            back.setdefault(nxt, []).append(s)
    dist = {goal: 0} if goal in reached else {}
    queue = deque(dist)
    while queue:
        s = queue.popleft()
        for prev in back.get(s, ()):
            if prev not in dist:
                dist[prev] = dist[s] + 1
                queue.append(prev)
    return dist


PUZZLE = WaterJugs

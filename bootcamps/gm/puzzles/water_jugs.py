"""Water jugs: with three jugs of given sizes, a tap and a drain, measure an exact amount in one jug. The optimum
by breadth-first search over the jugs' contents (at most (a+1)(b+1)(c+1) settings)."""
from __future__ import annotations

import random
from typing import Any

from ..core import Knob, MoveError, Puzzle

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
    groups = {"easy": {"largest": 15, "min_optimum": 5, "max_optimum": 6, "slack": 1},
              "medium": {"largest": 22, "min_optimum": 7, "max_optimum": 8, "slack": 1},
              "hard": {"largest": 30, "min_optimum": 9, "max_optimum": 11, "slack": 1}}
    greedy_about = "the pour that leaves some jug nearest the goal amount, never back to a seen setting"

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        sizes = sorted(rng.sample(range(2, p.largest + 1), 3))
        inst = {"sizes": sizes, "goal": 1}
        first: dict[int, int] = {}  # amount -> the fewest pours that leave it in some jug
        seen, layer, depth = {(0, 0, 0)}, [(0, 0, 0)], 0
        while layer and depth < p.max_optimum:
            depth += 1
            nxt = []
            for state in layer:
                for _, s in self.neighbours(inst, state):
                    if s not in seen:
                        seen.add(s)
                        nxt.append(s)
                        for v in s:
                            first.setdefault(v, depth)
            layer = nxt
        goals = sorted(v for v, d in first.items() if p.min_optimum <= d and v not in sizes and v > 0)
        if not goals:
            return None
        return {"sizes": sizes, "goal": rng.choice(goals)}

    def start(self, inst: dict[str, Any]) -> tuple[int, ...]:
        sizes = inst["sizes"]
        if len(sizes) != 3 or not all(1 <= int(s) <= 100 for s in sizes) or not 0 < int(inst["goal"]) <= 100:
            raise ValueError("three jug sizes and a goal")
        return (0, 0, 0)

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
        sizes = [int(s) for s in inst["sizes"]]
        source, target = action
        if source == target:
            raise MoveError("same_jug", f"jug {source} cannot pour into itself")
        if source == "tap" and target == "drain":
            raise MoveError("no_jug", "tap to drain moves no water in any jug")
        out = list(state)
        if source == "tap":
            j = JUGS.index(target)
            if out[j] == sizes[j]:
                raise MoveError("full", f"jug {target} is already full")
            out[j] = sizes[j]
        elif target == "drain":
            i = JUGS.index(source)
            if out[i] == 0:
                raise MoveError("empty", f"jug {source} is already empty")
            out[i] = 0
        else:
            i, j = JUGS.index(source), JUGS.index(target)
            if out[i] == 0:
                raise MoveError("empty", f"jug {source} is empty")
            if out[j] == sizes[j]:
                raise MoveError("full", f"jug {target} is already full")
            moved = min(out[i], sizes[j] - out[j])
            out[i] -= moved
            out[j] += moved
        return tuple(out)

    def solved(self, inst: dict[str, Any], state: tuple[int, ...]) -> bool:
        return int(inst["goal"]) in state

    def closeness(self, inst: dict[str, Any], state: tuple[int, ...]) -> float:
        return min(abs(v - int(inst["goal"])) for v in state)

    def describe(self, inst: dict[str, Any], action: tuple[str, str]) -> str:
        return f"{action[0]} -> {action[1]}"

    def show(self, inst: dict[str, Any], state: tuple[int, ...]) -> str:
        return "  ".join(f"{j}: {v}/{s} L" for j, v, s in zip(JUGS, state, inst["sizes"], strict=False))

    def rules(self, inst: dict[str, Any]) -> str:
        a, b, c = inst["sizes"]
        return (f"Water jugs: jug A holds {a} litres, jug B {b} litres, jug C {c} litres; they have no marks. "
                f"All three start empty. Call `pour(source, target)`: from `tap` into a jug fills it to the brim, "
                f"from a jug into `drain` empties it, from one jug into another pours until the first is empty or "
                f"the second is full. A pour that moves no water (into a full jug, out of an empty one) is "
                f"refused. The goal is exactly {inst['goal']} litres in any one jug.")

    def refused_args(self, inst: dict[str, Any], state: tuple[int, ...]) -> dict[str, Any] | None:
        return {"source": "A", "target": "A"}


PUZZLE = WaterJugs

"""A combination lock with coupled dials: turning one dial also turns the dials geared to it, the same way. Bring
every dial to 0. The optimum by breadth-first search over every setting from the open one (turns are
reversible), one table per gearing."""
from __future__ import annotations

import functools
import itertools
import random
from typing import Any

from ..core import Knob, MoveError, Puzzle, greedy_solves


class DialLock(Puzzle):
    name = "dial_lock"
    title = "Combination lock with coupled dials"
    tool = "turn"
    tool_about = "Turn one dial a step up (+1) or down (-1); the dials geared to it turn the same step. " \
                 "Returns the dials after the turn."
    parameters = {"dial": {"type": "integer", "description": "The dial to turn, numbered from 1."},
                  "direction": {"type": "string", "enum": ["up", "down"], "description": "up adds 1, down takes 1 "
                                                                                        "(digits wrap around)."}}
    knobs = {"dials": Knob(5, 3, 6, "dials on the lock"), "digits": Knob(6, 3, 10, "digits on each dial, 0 up"),
             "gears": Knob(1, 1, 3, "other dials each dial turns along")}
    groups = {"easy": {"dials": 5, "digits": 6, "gears": 1, "min_optimum": 5, "max_optimum": 6, "slack": 2},
              "medium": {"dials": 5, "digits": 6, "gears": 1, "min_optimum": 7, "max_optimum": 8, "slack": 2},
              "hard": {"dials": 5, "digits": 7, "gears": 2, "min_optimum": 9, "max_optimum": 11, "slack": 2}}
    greedy_about = "the turn that leaves the dials nearest 0 (summed steps each way round), never back to a seen " \
                   "setting"

    def validate(self, p: Any) -> None:
        super().validate(p)
        if p.gears >= p.dials:
            raise ValueError("gears must be fewer than dials")
        if p.digits ** p.dials > 300_000:
            raise ValueError("digits ** dials must be at most 300,000 (the search covers every setting)")

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        gears = [sorted(rng.sample([j for j in range(p.dials) if j != i], p.gears)) for i in range(p.dials)]
        inst = {"digits": p.digits, "gears": gears, "dials": [0] * p.dials}
        table = self.distances(inst)
        pool = sorted(s for s, d in table.items() if p.min_optimum <= d <= p.max_optimum)
        for _ in range(20 if pool else 0):  # the table is the cost: try several starts on it
            inst["dials"] = list(rng.choice(pool))
            if not greedy_solves(self, inst, table[tuple(inst["dials"])] + p.slack):
                return inst
        return None

    def start(self, inst: dict[str, Any]) -> tuple[int, ...]:
        k, dials, gears = int(inst["digits"]), inst["dials"], inst["gears"]
        if len(gears) != len(dials) or not all(0 <= int(d) < k for d in dials) or \
                not all(0 <= int(j) < len(dials) for g in gears for j in g):
            raise ValueError("dials and gears do not fit")
        return tuple(int(d) for d in dials)

    def action(self, inst: dict[str, Any], args: dict[str, Any]) -> tuple[int, int]:
        n, d = len(inst["dials"]), int(args["dial"])
        if not 1 <= d <= n:
            raise MoveError("no_such_dial", f"there is no dial {d}: the dials are 1-{n}")
        return d, 1 if args["direction"] == "up" else -1

    def args(self, action: tuple[int, int]) -> dict[str, Any]:
        return {"dial": action[0], "direction": "up" if action[1] > 0 else "down"}

    def legal(self, inst: dict[str, Any], state: tuple[int, ...]) -> list[tuple[int, int]]:
        return [(d, s) for d in range(1, len(state) + 1) for s in (1, -1)]

    def step(self, inst: dict[str, Any], state: tuple[int, ...], action: tuple[int, int]) -> tuple[int, ...]:
        return _turn(state, int(inst["digits"]), _key(inst["gears"]), action)

    def solved(self, inst: dict[str, Any], state: tuple[int, ...]) -> bool:
        return not any(state)

    def distances(self, inst: dict[str, Any]) -> dict[tuple[int, ...], int]:
        return _table(len(inst["dials"]), int(inst["digits"]), _key(inst["gears"]))

    def closeness(self, inst: dict[str, Any], state: tuple[int, ...]) -> float:
        k = int(inst["digits"])
        return sum(min(v, k - v) for v in state)

    def describe(self, inst: dict[str, Any], action: tuple[int, int]) -> str:
        return f"dial {action[0]} {'up' if action[1] > 0 else 'down'}"

    def show(self, inst: dict[str, Any], state: tuple[int, ...]) -> str:
        return "dials: " + " ".join(f"[{v}]" for v in state)

    def rules(self, inst: dict[str, Any]) -> str:
        k = int(inst["digits"])
        geared = "; ".join(f"dial {i + 1} also turns dial{'s' if len(g) > 1 else ''} "
                           f"{' and '.join(str(j + 1) for j in g)}" for i, g in enumerate(inst["gears"]))
        return (f"A combination lock with {len(inst['dials'])} dials, each showing a digit 0-{k - 1} (it wraps: "
                f"{k - 1} up is 0, 0 down is {k - 1}). The dials are geared together: {geared}. Call "
                f"`turn(dial, direction)` to turn a dial one step up or down; the dials geared to it turn one step "
                f"the same way (only the dial you turn drives others). The lock opens when every dial shows 0.")


def _key(gears: Any) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(int(j) for j in g) for g in gears)


def _turn(state: tuple[int, ...], k: int, gears: tuple[tuple[int, ...], ...], action: tuple[int, int]) -> tuple:
    d, s = action
    out = list(state)
    for j in (d - 1, *gears[d - 1]):
        out[j] = (out[j] + s) % k
    return tuple(out)


@functools.lru_cache(maxsize=8)
def _settings(n: int, k: int) -> list[tuple[int, ...]]:
    """Every setting, indexed as an n-digit base-k number with dial 1 the lowest digit (itertools.product counts
    with the last digit fastest, so its tuples reversed run in index order)."""
    return [digits[::-1] for digits in itertools.product(range(k), repeat=n)]


@functools.lru_cache(maxsize=64)
def _table(n: int, k: int, gears: tuple[tuple[int, ...], ...]) -> dict[tuple[int, ...], int]:
    """Turns to the open setting from every setting: breadth-first over the settings' indices (a turn adds, for
    each dial it moves, that dial's step at its digit: +k^j, or the wrap back), then keyed by the dials' tuples."""
    settings = _settings(n, k)
    step = {s: [[((d + s) % k - d) * k ** j for d in range(k)] for j in range(n)] for s in (1, -1)}
    turns = [[(j, step[s][j]) for j in (d, *gears[d])] for d in range(n) for s in (1, -1)]
    dist = [-1] * k ** n
    dist[0] = 0
    layer, depth = [0], 0
    while layer:
        depth += 1
        nxt = []
        for i in layer:
            digits = settings[i]
            for turn in turns:
                m = i
                for j, row in turn:
                    m += row[digits[j]]
                if dist[m] < 0:
                    dist[m] = depth
                    nxt.append(m)
        layer = nxt
    return {settings[i]: d for i, d in enumerate(dist) if d >= 0}


PUZZLE = DialLock

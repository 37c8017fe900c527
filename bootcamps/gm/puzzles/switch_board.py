"""Switches and bulbs: a panel of switches, each wired to a few bulbs (the wiring is random per task and listed in
the prompt); pressing a switch toggles every bulb wired to it. Light every bulb. Presses commute and a switch
pressed twice undoes itself, so the fewest presses from a setting is the least number of switches whose toggles
make up the bulbs still off: a table over all 2^switches press sets (one per wiring, kept for its replays)."""
from __future__ import annotations

import functools
import random
from typing import Any

from ..core import Knob, MoveError, Puzzle


class SwitchBoard(Puzzle):
    name = "switch_board"
    title = "Switches and bulbs with random wiring"
    tool = "press"
    tool_about = "Press one switch: every bulb wired to it toggles (off to on, on to off). Returns the bulbs after."
    parameters = {"switch": {"type": "integer", "description": "The switch to press, numbered from 1."}}
    knobs = {"switches": Knob(10, 4, 14, "switches on the panel"), "bulbs": Knob(12, 4, 20, "bulbs"),
             "wires": Knob(3, 1, 6, "bulbs each switch toggles")}
    groups = {"easy": {"switches": 9, "bulbs": 11, "wires": 3, "min_optimum": 4, "max_optimum": 5, "slack": 1},
              "medium": {"switches": 11, "bulbs": 13, "wires": 3, "min_optimum": 6, "max_optimum": 7, "slack": 1},
              "hard": {"switches": 13, "bulbs": 15, "wires": 4, "min_optimum": 8, "max_optimum": 9, "slack": 1}}
    greedy_about = "the press that leaves the fewest bulbs off, never back to a seen setting"

    def validate(self, p: Any) -> None:
        super().validate(p)
        if p.wires > p.bulbs:
            raise ValueError("wires must not exceed bulbs")

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        wiring = [sorted(rng.sample(range(1, p.bulbs + 1), p.wires)) for _ in range(p.switches)]
        masks = _masks(wiring)
        if len(set(masks)) < len(masks):  # two switches with the same wiring
            return None
        presses = rng.sample(range(p.switches), rng.randint(p.min_optimum, p.max_optimum))
        off = 0
        for s in presses:
            off ^= masks[s]
        return {"wiring": wiring, "bulbs": "".join("0" if off >> b & 1 else "1" for b in range(p.bulbs))}

    def start(self, inst: dict[str, Any]) -> int:
        bulbs, wiring = str(inst["bulbs"]), inst["wiring"]
        if set(bulbs) - {"0", "1"} or not 1 <= len(bulbs) <= 24 or not 1 <= len(wiring) <= 16 or \
                not all(1 <= int(b) <= len(bulbs) for w in wiring for b in w):
            raise ValueError("bulbs: a string of 0 (off) and 1 (on); wiring: bulb numbers per switch")
        return sum(1 << i for i, c in enumerate(bulbs) if c == "0")  # the bulbs still off

    def action(self, inst: dict[str, Any], args: dict[str, Any]) -> int:
        n, s = len(inst["wiring"]), int(args["switch"])
        if not 1 <= s <= n:
            raise MoveError("no_such_switch", f"there is no switch {s}: the switches are 1-{n}")
        return s

    def args(self, action: int) -> dict[str, Any]:
        return {"switch": action}

    def legal(self, inst: dict[str, Any], state: int) -> list[int]:
        return list(range(1, len(inst["wiring"]) + 1))

    def step(self, inst: dict[str, Any], state: int, action: int) -> int:
        return state ^ _masks(_key(inst["wiring"]))[action - 1]

    def solved(self, inst: dict[str, Any], state: int) -> bool:
        return state == 0

    def distances(self, inst: dict[str, Any]) -> dict[int, int]:
        return _table(_key(inst["wiring"]))

    def closeness(self, inst: dict[str, Any], state: int) -> float:
        return bin(state).count("1")

    def describe(self, inst: dict[str, Any], action: int) -> str:
        return f"pressed switch {action}"

    def show(self, inst: dict[str, Any], state: int) -> str:
        n = len(inst["bulbs"])
        on = [str(b + 1) for b in range(n) if not state >> b & 1]
        off = [str(b + 1) for b in range(n) if state >> b & 1]
        return (f"bulbs on:  {' '.join(on) or '(none)'}\nbulbs off: {' '.join(off) or '(none)'}")

    def rules(self, inst: dict[str, Any]) -> str:
        wiring = "\n".join(f"switch {i + 1}: bulbs {', '.join(map(str, w))}" for i, w in enumerate(inst["wiring"]))
        return (f"A panel of {len(inst['wiring'])} switches and {len(inst['bulbs'])} bulbs (numbered from 1). Each "
                f"switch is wired to some bulbs:\n{wiring}\nCall `press(switch)` to press a switch: every bulb wired "
                f"to it toggles (off turns on, on turns off). The goal is every bulb on.")


def _key(wiring: Any) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(int(b) for b in w) for w in wiring)


def _masks(wiring: Any) -> list[int]:
    out = []
    for w in wiring:
        m = 0
        for b in w:
            m ^= 1 << (int(b) - 1)
        out.append(m)
    return out


@functools.lru_cache(maxsize=128)
def _table(wiring: tuple[tuple[int, ...], ...]) -> dict[int, int]:
    """The fewest presses that light every bulb, for each setting of bulbs off that presses can clear: over every
    press set, the toggles it makes and its size, least kept."""
    masks = _masks(wiring)
    made = [0] * (1 << len(masks))
    best: dict[int, int] = {0: 0}
    for x in range(1, 1 << len(masks)):
        low = (x & -x).bit_length() - 1
        made[x] = made[x & (x - 1)] ^ masks[low]
        weight = bin(x).count("1")
        if best.get(made[x], 99) > weight:
            best[made[x]] = weight
    return best


PUZZLE = SwitchBoard

"""al/interval_rooms: meetings into the fewest rooms, no two overlapping in one room (any fewest assignment
scores)."""
from __future__ import annotations

import heapq
import random
from typing import Any

from ..core import Knob, Problem


def fewest_rooms(meetings: list[list[int]]) -> list[int]:
    """By start time, each meeting into the room freed earliest when one is free, else a new room (optimal: the
    rooms used equal the most meetings running at once)."""
    rooms: list[tuple[int, int]] = []  # (end, room) of each room's last meeting
    out = [0] * len(meetings)
    for k in sorted(range(len(meetings)), key=lambda i: (meetings[i][0], i)):
        start, end = meetings[k]
        if rooms and rooms[0][0] <= start:
            _, room = heapq.heappop(rooms)
        else:
            room = max(out) + 1
        out[k] = room
        heapq.heappush(rooms, (end, room))
    return out


def first_fit(meetings: list[list[int]], order: list[int]) -> list[int]:
    """Meetings in `order`, each into the lowest-numbered room where it overlaps nothing."""
    out = [0] * len(meetings)
    for k in order:
        s, e = meetings[k]
        room = 1
        while any(out[j] == room and meetings[j][0] < e and s < meetings[j][1] for j in range(len(meetings))):
            room += 1
        out[k] = room
    return out


class IntervalRooms(Problem):
    name = "interval_rooms"
    title = "Meetings into the fewest rooms"
    knobs = {"meetings": Knob(16, 3, 80, "meetings"), "horizon": Knob(40, 5, 1000, "times are 0..horizon"),
             "max_length": Knob(14, 1, 500, "a meeting lasts 1..max_length")}
    groups = {"easy": {"meetings": 12, "horizon": 30, "max_length": 12},
              "medium": {"meetings": 16, "horizon": 40, "max_length": 14},
              "hard": {"meetings": 24, "horizon": 60, "max_length": 18}}  # fewer: first-fit is mostly optimal
    answer_format = ("the room of each meeting in order, rooms numbered from 1, separated by spaces, e.g. "
                     "<answer>1 2 1 3</answer>.")
    baselines = {"by_end": "meetings by end time, each into the first room where it fits",
                 "as_listed": "meetings in the listed order, each into the first room where it fits"}

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        meetings = []
        for _ in range(p.meetings):
            start = rng.randint(0, p.horizon - 1)
            meetings.append([start, min(p.horizon, start + rng.randint(1, p.max_length))])
        best = fewest_rooms(meetings)
        inst = {"meetings": meetings, "optimum": max(best), "solution": best}
        if max(best) < 3 or any(self.accepts(inst, self.baseline(b, inst, rng)) for b in self.baselines):
            return None
        return inst

    def statement(self, inst: dict[str, Any]) -> str:
        rows = "\n".join(f"meeting {k}: from {s} to {e}" for k, (s, e) in enumerate(inst["meetings"], 1))
        return (f"Meetings with their times:\n{rows}\n\nPut every meeting in a room so that no two meetings in one "
                "room overlap (one may start at the very time another ends), using as few rooms as possible.")

    def check(self, inst: dict[str, Any], answer: list[int]) -> str | None:
        meetings = inst["meetings"]
        if len(answer) != len(meetings) or min(answer, default=0) < 1:
            return f"one room (a number from 1) for each of the {len(meetings)} meetings"
        for i in range(len(meetings)):
            for j in range(i + 1, len(meetings)):
                if answer[i] == answer[j] and meetings[i][0] < meetings[j][1] and meetings[j][0] < meetings[i][1]:
                    return f"meetings {i + 1} and {j + 1} overlap in room {answer[i]}"
        used = len(set(answer))
        return None if used == inst["optimum"] else f"{used} rooms; the fewest is {inst['optimum']}"

    def corrupt(self, inst: dict[str, Any], answer: list[int], rng: random.Random) -> list[int]:
        wrong = list(answer)
        wrong[rng.randrange(len(wrong))] = max(answer) + 1
        return wrong

    def baseline_by_end(self, inst: dict[str, Any], rng: random.Random) -> list[int]:
        m = inst["meetings"]
        return first_fit(m, sorted(range(len(m)), key=lambda k: (m[k][1], k)))

    def baseline_as_listed(self, inst: dict[str, Any], rng: random.Random) -> list[int]:
        return first_fit(inst["meetings"], list(range(len(inst["meetings"]))))

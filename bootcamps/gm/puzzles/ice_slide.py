"""Sliding on ice: a puck slides in the pushed direction until a rock or the rink's edge stops it; stop it on the
goal. The optimum by breadth-first search over the cells where the puck can rest; the goal is drawn among the
resting cells at the group's depths."""
from __future__ import annotations

import random
from typing import Any

from ..core import Knob, MoveError, Puzzle

DIRECTIONS = {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1)}


class IceSlide(Puzzle):
    name = "ice_slide"
    title = "Sliding puck on ice"
    tool = "push"
    tool_about = "Push the puck up, down, left or right: it slides until a rock or the edge stops it. Returns the " \
                 "rink after the slide."
    parameters = {"direction": {"type": "string", "enum": list(DIRECTIONS), "description": "Which way to push."}}
    knobs = {"size": Knob(9, 5, 16, "the rink is size x size cells"),
             "rocks": Knob(15, 0, 40, "percent of the cells that hold a rock")}
    groups = {"easy": {"size": 7, "rocks": 15, "min_optimum": 5, "max_optimum": 6, "slack": 1},
              "medium": {"size": 9, "rocks": 15, "min_optimum": 7, "max_optimum": 8, "slack": 1},
              "hard": {"size": 11, "rocks": 15, "min_optimum": 9, "max_optimum": 12, "slack": 1}}
    greedy_about = "the push that stops the puck nearest the goal (in rows plus columns), never back to a seen cell"

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        n = p.size
        cells = [(r, c) for r in range(n) for c in range(n)]
        rocks = set(rng.sample(cells, n * n * p.rocks // 100))
        free = [x for x in cells if x not in rocks]
        puck = rng.choice(free)
        # the goal among the resting cells at the right depth (the puck slides over the goal, so the goal does
        # not change the moves)
        plain = ["".join("#" if (r, c) in rocks else "." for c in range(n)) for r in range(n)]
        depth, layer = {puck: 0}, [puck]
        while layer:
            nxt = []
            for cell in layer:
                for d in DIRECTIONS:
                    end = _slide(plain, cell, d)
                    if end not in depth:
                        depth[end] = depth[cell] + 1
                        nxt.append(end)
            layer = nxt
        goals = sorted(x for x, k in depth.items() if p.min_optimum <= k <= p.max_optimum)
        if not goals:
            return None
        goal = rng.choice(goals)
        rows = ["".join("#" if (r, c) in rocks else "G" if (r, c) == goal else "." for c in range(n))
                for r in range(n)]
        return {"rink": rows, "puck": list(puck)}

    def start(self, inst: dict[str, Any]) -> tuple[int, int]:
        rows, (r, c) = inst["rink"], inst["puck"]
        n = len(rows)
        if not 2 <= n <= 30 or any(len(x) != n or set(x) - set(".#G") for x in rows) or \
                "".join(rows).count("G") != 1 or not (0 <= r < n and 0 <= c < n) or rows[r][c] == "#":
            raise ValueError("rink must be square rows of . # and one G; the puck on a free cell")
        return int(r), int(c)

    def action(self, inst: dict[str, Any], args: dict[str, Any]) -> str:
        return str(args["direction"])

    def args(self, action: str) -> dict[str, Any]:
        return {"direction": action}

    def legal(self, inst: dict[str, Any], state: tuple[int, int]) -> list[str]:
        return [d for d in DIRECTIONS if _slide(inst["rink"], state, d) != state]

    def step(self, inst: dict[str, Any], state: tuple[int, int], action: str) -> tuple[int, int]:
        end = _slide(inst["rink"], state, action)
        if end == state:
            raise MoveError("blocked", f"the puck cannot move {action}: a rock or the edge is right there")
        return end

    def solved(self, inst: dict[str, Any], state: tuple[int, int]) -> bool:
        return inst["rink"][state[0]][state[1]] == "G"

    def closeness(self, inst: dict[str, Any], state: tuple[int, int]) -> float:
        g = "".join(inst["rink"]).index("G")
        n = len(inst["rink"])
        return abs(state[0] - g // n) + abs(state[1] - g % n)

    def describe(self, inst: dict[str, Any], action: str) -> str:
        return f"pushed {action}"

    def show(self, inst: dict[str, Any], state: tuple[int, int]) -> str:
        rows = [list(r) for r in inst["rink"]]
        rows[state[0]][state[1]] = "P"
        return "\n".join(" ".join(r) for r in rows)

    def rules(self, inst: dict[str, Any]) -> str:
        n = len(inst["rink"])
        return (f"An ice rink of {n}x{n} cells: `P` is the puck, `#` a rock, `G` the goal, `.` ice. Call "
                f"`push(direction)` with up, down, left or right: the puck slides that way until the next cell is a "
                f"rock or the edge of the rink, and stops there (it slides over the goal without stopping). A push "
                f"that cannot move the puck is refused. The goal is the puck at rest on `G`.")

    def refused_args(self, inst: dict[str, Any], state: tuple[int, int]) -> dict[str, Any] | None:
        stuck = [d for d in DIRECTIONS if _slide(inst["rink"], state, d) == state]
        return {"direction": stuck[0]} if stuck else None


def _slide(rink: list[str], at: tuple[int, int], direction: str) -> tuple[int, int]:
    dr, dc = DIRECTIONS[direction]
    n = len(rink)
    r, c = at
    while 0 <= r + dr < n and 0 <= c + dc < n and rink[r + dr][c + dc] != "#":
        r, c = r + dr, c + dc
    return r, c


PUZZLE = IceSlide

"""Blocks world: lettered blocks in a few stacks on fixed places; move a top block onto another stack (or an empty
place) until the stacks match the goal the prompt shows. The optimum by A* on the blocks not yet in their goal
position (a block counts as placed when it and every block under it sit as in the goal; any other block must move
at least once, so the count never overestimates)."""
from __future__ import annotations

import functools
import random
import string
from typing import Any

from ..core import Knob, MoveError, Puzzle

State = tuple[str, ...]


class BlocksWorld(Puzzle):
    name = "blocks_world"
    title = "Blocks world: restack lettered blocks"
    tool = "move"
    tool_about = "Move the top block of stack `from_stack` onto the top of stack `to_stack` (an empty place takes " \
                 "it too). Returns the stacks after the move."
    parameters = {"from_stack": {"type": "integer", "description": "The stack to take the top block from (from 1)."},
                  "to_stack": {"type": "integer", "description": "The stack to put it on (from 1)."}}
    knobs = {"blocks": Knob(6, 3, 9, "lettered blocks"), "stacks": Knob(3, 2, 5, "places a stack can stand on")}
    groups = {"easy": {"blocks": 5, "stacks": 3, "min_optimum": 5, "max_optimum": 6, "slack": 1},
              "medium": {"blocks": 6, "stacks": 3, "min_optimum": 7, "max_optimum": 8, "slack": 1},
              "hard": {"blocks": 7, "stacks": 3, "min_optimum": 9, "max_optimum": 10, "slack": 1}}
    greedy_about = "the move that leaves the most blocks in their goal position, never back to a seen arrangement"

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        goal = [""] * p.stacks
        for b in rng.sample(string.ascii_uppercase[:p.blocks], p.blocks):
            goal[rng.randrange(p.stacks)] += b
        inst = {"stacks": goal, "goal": goal}
        state = tuple(goal)  # scrambled by random moves (never straight back): the search then stays shallow
        last = None
        for _ in range(rng.randint(p.min_optimum, p.max_optimum + 2)):
            a = rng.choice([m for m in self.legal(inst, state) if m != last])
            state = self.step(inst, state, a)
            last = (a[1], a[0])
        return {"stacks": list(state), "goal": goal}

    def start(self, inst: dict[str, Any]) -> State:
        stacks, goal = [str(s) for s in inst["stacks"]], [str(s) for s in inst["goal"]]
        blocks = "".join(stacks)
        if len(stacks) != len(goal) or not 2 <= len(stacks) <= 6 or sorted(blocks) != sorted("".join(goal)) or \
                len(set(blocks)) != len(blocks) or not set(blocks) <= set(string.ascii_uppercase):
            raise ValueError("stacks and goal: the same distinct letters on as many places")
        return tuple(stacks)

    def action(self, inst: dict[str, Any], args: dict[str, Any]) -> tuple[int, int]:
        n, a, b = len(inst["stacks"]), int(args["from_stack"]), int(args["to_stack"])
        if not (1 <= a <= n and 1 <= b <= n):
            raise MoveError("no_such_stack", f"the stacks are numbered 1-{n}")
        return a, b

    def args(self, action: tuple[int, int]) -> dict[str, Any]:
        return {"from_stack": action[0], "to_stack": action[1]}

    def legal(self, inst: dict[str, Any], state: State) -> list[tuple[int, int]]:
        n = len(state)
        return [(a + 1, b + 1) for a in range(n) if state[a] for b in range(n) if b != a]

    def step(self, inst: dict[str, Any], state: State, action: tuple[int, int]) -> State:
        a, b = action[0] - 1, action[1] - 1
        if a == b:
            raise MoveError("same_stack", f"stack {a + 1} onto itself moves nothing")
        if not state[a]:
            raise MoveError("empty_stack", f"stack {a + 1} is empty: there is no block to move")
        out = list(state)
        out[b] += out[a][-1]
        out[a] = out[a][:-1]
        return tuple(out)

    def neighbours(self, inst: dict[str, Any], state: State) -> list[tuple[tuple[int, int], State]]:
        """`legal` with `step` of each, made directly (the searches' inner loop)."""
        out = []
        for a, top in enumerate(state):
            if not top:
                continue
            rest = top[:-1]
            for b, under in enumerate(state):
                if b != a:
                    nxt = list(state)
                    nxt[a], nxt[b] = rest, under + top[-1]
                    out.append(((a + 1, b + 1), tuple(nxt)))
        return out

    def solved(self, inst: dict[str, Any], state: State) -> bool:
        return list(state) == list(inst["goal"])

    def estimate(self, inst: dict[str, Any], state: State) -> float:
        return _misplaced(state, tuple(inst["goal"]))

    def describe(self, inst: dict[str, Any], action: tuple[int, int]) -> str:
        return f"stack {action[0]} -> stack {action[1]}"

    def show(self, inst: dict[str, Any], state: State) -> str:
        now = "\n".join(f"stack {i + 1}: {' '.join(s) or '(empty)'}" for i, s in enumerate(state))
        goal = "\n".join(f"stack {i + 1}: {' '.join(s) or '(empty)'}" for i, s in enumerate(inst["goal"]))
        return f"{now}\n\ngoal:\n{goal}\n(each stack lists its blocks from the bottom up)"

    def rules(self, inst: dict[str, Any]) -> str:
        n = len(inst["stacks"])
        return (f"Blocks world: {len(''.join(inst['stacks']))} lettered blocks stand in stacks on {n} places "
                f"(stacks 1-{n}, each listed from the bottom up). Call `move(from_stack, to_stack)` to take the top "
                f"block of one stack and put it on top of another (an empty place takes it too). Only top blocks "
                f"move, one at a time. The goal is every stack exactly as the goal shows.")

    def refused_args(self, inst: dict[str, Any], state: State) -> dict[str, Any] | None:
        return {"from_stack": 1, "to_stack": 1}


@functools.lru_cache(maxsize=200_000)
def _misplaced(state: State, goal: State) -> int:
    """Blocks not in their goal position: above the longest bottom run its stack shares with the goal's."""
    misplaced = 0
    for s, g in zip(state, goal, strict=True):
        if g.startswith(s):
            continue
        same = 0
        while same < min(len(s), len(g)) and s[same] == g[same]:
            same += 1
        misplaced += len(s) - same
    return misplaced


PUZZLE = BlocksWorld

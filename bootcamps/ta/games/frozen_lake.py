"""ta/frozen_lake: TextArena's FrozenLake (walk from the top-left corner to the goal without falling into a hole)
on dense lakes, in exactly the moves of the shortest safe path.

TextArena's own variants (4x4 with 3 holes, 100 moves) are won by walking down, then right; here the lakes are
larger and a third of the ice is holes, lakes that stepping toward the goal (down or right, whichever is safe)
crosses are redrawn, and the budget is the shortest path's length, so one step off it loses."""
from __future__ import annotations

import random
from collections import deque
from dataclasses import dataclass
from typing import Any

from bc_common.bootcamp import Baseline, Group, ReferencePolicy, assistant_texts

from ..arena import Match
from ..game import Drawn, Game
from ..play import replay

STEPS = {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1)}
Cell = tuple[int, int]


@dataclass
class Config:
    size: int = 6  # the lake is size x size; start at the top-left corner, goal at the bottom-right one
    holes: int = 12  # TextArena places exactly this many holes, keeping a safe path

    def validate(self) -> None:
        if not 5 <= self.size <= 10:
            raise ValueError("size must be in [5, 10]")
        if not self.size <= self.holes <= self.size * self.size // 2:
            raise ValueError("holes must be in [size, size*size/2]")


def distances(grid: list[list[str]], goal: Cell) -> dict[Cell, int]:
    """Steps from every safe cell to the goal (holes are never entered)."""
    size = len(grid)
    far = {goal: 0}
    queue = deque([goal])
    while queue:
        r, c = queue.popleft()
        for dr, dc in STEPS.values():
            cell = (r + dr, c + dc)
            if 0 <= cell[0] < size and 0 <= cell[1] < size and cell not in far and grid[cell[0]][cell[1]] != "H":
                far[cell] = far[(r, c)] + 1
                queue.append(cell)
    return far


def step(cell: Cell, move: str) -> Cell:
    return cell[0] + STEPS[move][0], cell[1] + STEPS[move][1]


def shortest_move(grid: list[list[str]], at: Cell, goal: Cell) -> str:
    """The first move (in up, down, left, right order) of a shortest safe path from `at`."""
    far = distances(grid, goal)
    return next(m for m in STEPS if far.get(step(at, m), -1) == far[at] - 1)


def toward_goal(grid: list[list[str]], at: Cell, goal: Cell) -> str:
    """Down or right, whichever keeps out of a hole (down first); down when both are holes."""
    size = len(grid)
    for move in ("down", "right"):
        r, c = step(at, move)
        if r < size and c < size and grid[r][c] != "H":
            return move
    return "down"


def walk(grid: list[list[str]], start: Cell, goal: Cell, rule: Any, budget: int) -> bool:
    """Whether `rule(grid, at, goal)` reaches the goal from `start` within `budget` moves."""
    at, size = start, len(grid)
    for _ in range(budget):
        at = step(at, rule(grid, at, goal))
        if not (0 <= at[0] < size and 0 <= at[1] < size) or grid[at[0]][at[1]] == "H":
            return False
        if at == goal:
            return True
    return False


def draw(rng: random.Random, config: Config, seed: int) -> Drawn | None:
    kwargs = {"size": config.size, "num_holes": config.holes, "randomize_start_goal": False}
    state = Match("FrozenLake-v0", kwargs, seed, 1).game_state
    grid, start, goal = state["grid"], tuple(state["player_pos"]), tuple(state["goal_pos"])
    budget = distances(grid, goal).get(start)
    if budget is None or walk(grid, start, goal, toward_goal, budget):  # TextArena's fallback lake, or a lazy win
        return None
    return Drawn(kwargs, budget)


class _Walker(ReferencePolicy):
    def choose(self, grid: list[list[str]], at: Cell, goal: Cell) -> str:
        raise NotImplementedError

    def respond(self, messages: list[dict[str, Any]], *, wrong: bool = False) -> dict[str, Any]:
        state = replay(self.identity, assistant_texts(messages)).match.game_state
        grid, at, goal = state["grid"], tuple(state["player_pos"]), tuple(state["goal_pos"])
        if wrong:  # a step off every shortest path (into a hole, a wall or away): the budget has no move to spare
            far = distances(grid, goal)
            move = next((m for m in STEPS if far.get(step(at, m), -1) != far[at] - 1), "up")
        else:
            move = self.choose(grid, at, goal)
        return {"role": "assistant", "content": f"I go [{move}]"}


class ShortestPath(_Walker):
    """The first move of a shortest safe path (breadth-first search from the goal)."""

    def choose(self, grid: list[list[str]], at: Cell, goal: Cell) -> str:
        return shortest_move(grid, at, goal)


class TowardGoal(_Walker):
    """Baseline: down or right, whichever is not a hole (down first)."""

    def choose(self, grid: list[list[str]], at: Cell, goal: Cell) -> str:
        return toward_goal(grid, at, goal)


class RandomSafe(_Walker):
    """Baseline: a random move that stays on the lake and out of holes."""

    def choose(self, grid: list[list[str]], at: Cell, goal: Cell) -> str:
        size = len(grid)
        safe = [m for m in STEPS if 0 <= step(at, m)[0] < size and 0 <= step(at, m)[1] < size
                and grid[step(at, m)[0]][step(at, m)[1]] != "H"]
        return self.rng.choice(safe or list(STEPS))


GAME = Game(
    name="frozen_lake", env_id="FrozenLake-v0", players=1,
    about="TextArena FrozenLake: cross a lake a third of which is holes, in exactly the moves of the shortest "
          "safe path.",
    config=Config, draw=draw,
    groups=[Group("6x6", {"size": 6, "holes": 12}, ratio=0.34), Group("8x8", {"size": 8, "holes": 21}, ratio=0.33),
            Group("10x10", {"size": 10, "holes": 33}, ratio=0.33)],
    policy=ShortestPath,
    baselines=[Baseline("random", RandomSafe, "a random move that stays on the ice"),
               Baseline("toward_goal", TowardGoal, "down or right, whichever is not a hole")],
    answer_format="Reply with one move in square brackets: [up], [down], [left] or [right].",
    max_moves=60,
)

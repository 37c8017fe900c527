"""Reference answers for the datasets whose stored answer is empty (several answers are valid): each comes from
the item's metadata (a colouring, a conclusion, a move sequence reasoning-gym keeps) or from a small solver."""
from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import Any

import orjson


def graph_color(metadata: dict[str, Any]) -> str:
    """The colouring reasoning-gym keeps as `possible_answer` (its keys are the vertex numbers)."""
    return orjson.dumps(metadata["possible_answer"], option=orjson.OPT_NON_STR_KEYS).decode()


def propositional_logic(metadata: dict[str, Any]) -> str:
    return metadata["example_answer"]


def rubiks_cube(metadata: dict[str, Any]) -> str:
    return metadata["example_correct_answer"]


def boxnet(metadata: dict[str, Any]) -> str:
    """A plan of one action per step: each box walks a shortest path of squares to its target's square (the
    agent in a square moves what lies in it), then is put on the target."""
    state = {key: list(items) for key, items in metadata["initial_state"].items()}
    squares = {tuple(float(x) for x in key.split("_")): key for key in state}
    steps: list[dict[str, str]] = []
    for key, items in sorted(state.items()):
        for box in [i for i in items if i.startswith("box_")]:
            target = "target_" + box[4:]
            goal = next(k for k, v in state.items() if target in v)
            for here, there in zip(path := _grid_path(key, goal, squares), path[1:], strict=False):
                steps.append({_agent(here): f"move({box}, square[{_coords(there)}])"})
            steps.append({_agent(goal): f"move({box}, {target})"})
    return orjson.dumps(steps).decode()


def _coords(key: str) -> str:
    return ", ".join(key.split("_"))


def _agent(key: str) -> str:
    return f"Agent[{_coords(key)}]"


def _grid_path(start: str, goal: str, squares: dict[tuple[float, float], str]) -> list[str]:
    """Squares from `start` to `goal`, neighbours differing by one in a coordinate (breadth first)."""
    where = {v: k for k, v in squares.items()}
    previous: dict[str, str | None] = {start: None}
    queue = deque([start])
    while queue:
        key = queue.popleft()
        if key == goal:
            break
        x, y = where[key]
        for nxt in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            name = squares.get(nxt)
            if name is not None and name not in previous:
                previous[name] = key
                queue.append(name)
    path = [goal]
    while previous[path[-1]] is not None:
        path.append(previous[path[-1]])
    return path[::-1]


SIZE = 6  # rush hour boards are 6x6; the red car (A, on row 2) leaves through the right edge of its row


def rush_hour(metadata: dict[str, Any]) -> str:
    """A shortest sequence of one-square moves (`A+1 C-1 ...`) that frees the red car, by breadth-first search
    over the board as reasoning-gym labels it."""
    from reasoning_gym.games.rush_hour import Board

    rows = Board(metadata["board_config"]).board_str().split("\n")
    cells: dict[str, list[tuple[int, int]]] = {}
    for r, row in enumerate(rows[:SIZE]):
        for c, ch in enumerate(row[:SIZE]):
            cells.setdefault(ch, []).append((r, c))
    walls = frozenset(cells.pop("x", []))
    cells.pop(".", None)
    labels = sorted(cells)
    horizontal = [cells[k][0][0] == cells[k][-1][0] for k in labels]
    lengths = [len(cells[k]) for k in labels]
    fixed = [cells[k][0][0] if horizontal[i] else cells[k][0][1] for i, k in enumerate(labels)]
    start = tuple(cells[k][0][1] if horizontal[i] else cells[k][0][0] for i, k in enumerate(labels))
    red = labels.index("A")

    def occupied(state: tuple[int, ...]) -> set[tuple[int, int]]:
        out = set(walls)
        for i, pos in enumerate(state):
            out.update((fixed[i], pos + d) if horizontal[i] else (pos + d, fixed[i]) for d in range(lengths[i]))
        return out

    def cell(i: int, pos: int) -> tuple[int, int]:
        return (fixed[i], pos) if horizontal[i] else (pos, fixed[i])

    previous: dict[tuple[int, ...], tuple[tuple[int, ...], str] | None] = {start: None}
    queue = deque([start])
    while queue:
        state = queue.popleft()
        if state[red] + lengths[red] == SIZE:
            moves = []
            while previous[state] is not None:
                state, move = previous[state]
                moves.append(move)
            return " ".join(reversed(moves))
        taken = occupied(state)
        for i, pos in enumerate(state):
            for step, entering in ((-1, pos - 1), (1, pos + lengths[i])):
                if 0 <= entering < SIZE and cell(i, entering) not in taken:
                    nxt = state[:i] + (pos + step,) + state[i + 1:]
                    if nxt not in previous:
                        previous[nxt] = (state, f"{labels[i]}{'+' if step > 0 else '-'}1")
                        queue.append(nxt)
    raise ValueError("this rush hour board has no solution")


SOLVERS: dict[str, Callable[[dict[str, Any]], str]] = {
    "boxnet": boxnet, "graph_color": graph_color, "propositional_logic": propositional_logic,
    "rubiks_cube": rubiks_cube, "rush_hour": rush_hour,
}

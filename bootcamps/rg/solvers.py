"""Reference answers for the datasets whose stored answer is empty (several answers are valid): each comes from
the item's metadata (a colouring, a conclusion, a move sequence reasoning-gym keeps) or from a small solver.

A solver is `solver(metadata, accepts)`; `accepts(answer)` is the verifier, for solvers that choose among
answers valid by construction (a premise, a conjunction of premises) the one reasoning-gym does not call trivial.
"""
from __future__ import annotations

import re
from collections import deque
from collections.abc import Callable
from itertools import combinations
from typing import Any

import orjson

Accepts = Callable[[str], bool]


def graph_color(metadata: dict[str, Any], accepts: Accepts) -> str:
    """The colouring reasoning-gym keeps as `possible_answer` (its keys are the vertex numbers)."""
    return orjson.dumps(metadata["possible_answer"], option=orjson.OPT_NON_STR_KEYS).decode()


def propositional_logic(metadata: dict[str, Any], accepts: Accepts) -> str:
    """reasoning-gym's example conclusion when it holds (it sometimes does not), else a premise or a conjunction of
    two premises that is not a tautology: each follows from the premises."""
    premises = list(metadata["premises"])
    candidates = [metadata.get("example_answer") or ""] + premises
    candidates += [f"({a} ∧ {b})" for a, b in combinations(premises, 2)] + [f"({p} ∧ {p})" for p in premises]
    for candidate in candidates:
        if candidate and accepts(candidate):
            return candidate
    raise ValueError(f"no non-trivial conclusion found for premises {premises}")


def rubiks_cube(metadata: dict[str, Any], accepts: Accepts) -> str:
    """The scramble undone, move by move in reverse order, in moves reasoning-gym's scorer reads (it drops layer
    numbers such as 2F or 3Rw: those layers are reached with wide moves and whole-cube turns); else the 3x3
    solution reasoning-gym keeps."""
    size = int(metadata["cube_size"])
    undo: list[str] = []
    try:
        for move in reversed(metadata["scramble_moves"].split()):
            undo += _undo_move(move, size)
    except ValueError:
        undo = []
    for candidate in (" ".join(undo), metadata.get("example_correct_answer") or ""):
        if candidate and accepts(candidate):
            return candidate
    raise ValueError(f"no solution found for scramble {metadata['scramble_moves']!r}")


_OPPOSITE = {"F": "B", "B": "F", "U": "D", "D": "U", "R": "L", "L": "R"}
_TURN = {"F": "Z", "B": "Z'", "U": "Y", "D": "Y'", "R": "X", "L": "X'"}  # the whole cube, as the face turns
_MOVE = re.compile(r"^(\d*)([LRDUBF])(w?)(')?(\d?)$")


def _undo_move(move: str, size: int) -> list[str]:
    """Moves without layer numbers that undo `move` (magiccube notation: `kF` turns layer k, `kFw` layers 1..k,
    a bare `Fw` two layers)."""
    found = _MOVE.match(move)
    if found is None:
        raise ValueError(f"unknown move {move!r}")
    digits, face, wide, prime, count = found.groups()
    depth = int(digits) if digits else (2 if wide else 1)
    layers = range(1, depth + 1) if wide else [depth]
    turns = (int(count) if count else 1) * (1 if prime else -1)  # undoing: the opposite direction
    out: list[str] = []
    for layer in layers:
        one = _layer_turn(face, layer, size)
        out += (one if turns > 0 else _inverse(one)) * abs(turns)
    return out


def _layer_turn(face: str, layer: int, size: int) -> list[str]:
    """One quarter turn of layer `layer` (counted from `face`) in `face`'s direction."""
    other = _OPPOSITE[face]
    if layer == 1:
        return [face]
    if layer == size:
        return [other + "'"]
    if layer == 2:
        return [face + "w", face + "'"]
    if layer == size - 1:
        return [other + "w'", other]
    if size == 5 and layer == 3:  # the middle layer: the whole cube, less two wide layers on each side
        return [_TURN[face], face + "w'", other + "w"]
    raise ValueError(f"layer {layer} of a {size}-cube has no move without a layer number")


def _inverse(moves: list[str]) -> list[str]:
    return [m[:-1] if m.endswith("'") else m + "'" for m in reversed(moves)]


def boxnet(metadata: dict[str, Any], accepts: Accepts) -> str:
    """A plan of one action per step: each box walks a shortest path of squares to the nearest square that still
    holds a target of its colour (the agent in a square moves what lies in it), then is put on the target."""
    state = {key: list(items) for key, items in metadata["initial_state"].items()}
    squares = {tuple(float(x) for x in key.split("_")): key for key in state}
    steps: list[dict[str, str]] = []
    boxes = [(key, item) for key, items in metadata["initial_state"].items() for item in items
             if item.startswith("box_")]
    for start, box in boxes:
        target = "target_" + box[4:]
        paths = [_grid_path(start, key, squares) for key, items in state.items() if target in items]
        if not paths:
            raise ValueError(f"no {target} left for {box} in {start}")
        path = min(paths, key=len)
        for here, there in zip(path, path[1:], strict=False):
            steps.append({_agent(here): f"move({box}, square[{_coords(there)}])"})
        steps.append({_agent(path[-1]): f"move({box}, {target})"})
        state[start].remove(box)
        state[path[-1]].remove(target)
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


def rush_hour(metadata: dict[str, Any], accepts: Accepts) -> str:
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


SOLVERS: dict[str, Callable[[dict[str, Any], Accepts], str]] = {
    "boxnet": boxnet, "graph_color": graph_color, "propositional_logic": propositional_logic,
    "rubiks_cube": rubiks_cube, "rush_hour": rush_hour,
}

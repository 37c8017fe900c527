"""ta/sokoban: TextArena's Sokoban (push every box onto a target) in exactly the moves of the shortest solution.

TextArena's rooms are made by playing boxes backwards from their targets; here the budget is the fewest moves
that solve the drawn room (breadth-first search over player and box positions when the task is made), so a
push into a corner or a detour loses. Rooms that show fewer targets than boxes at the start (a target under a box
or under the player: TextArena draws both as the piece) are redrawn, as are rooms that pushing greedily solves and rooms solved in fewer than 8 moves."""
from __future__ import annotations

import functools
import random
from collections import deque
from dataclasses import dataclass
from typing import Any

from bc_common.bootcamp import Baseline, Group, ReferencePolicy, assistant_texts

from ..arena import Match
from ..game import Drawn, Game
from ..play import replay

MOVES = {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1)}
MIN_MOVES = 8  # shorter rooms are redrawn: a random walk solves a few of them
MAX_STATES = 200_000  # a room whose search grows past this is redrawn (the task must be made in well under a second)
Cell = tuple[int, int]


@dataclass
class Config:
    size: int = 6  # the room is size x size, walls included
    boxes: int = 2

    def validate(self) -> None:
        if not 5 <= self.size <= 8:
            raise ValueError("size must be in [5, 8]")
        if not 1 <= self.boxes <= 4:
            raise ValueError("boxes must be in [1, 4]")


@dataclass(frozen=True)
class Room:
    """The fixed part (floor cells and targets) and the movable part (player, boxes) of a position."""

    floor: frozenset[Cell]
    targets: frozenset[Cell]
    player: Cell
    boxes: frozenset[Cell]


def room_of(env: Any) -> Room:
    fixed, state = env.room_fixed, env.room_state
    cells = [(r, c) for r in range(fixed.shape[0]) for c in range(fixed.shape[1])]
    return Room(floor=frozenset(x for x in cells if fixed[x] != 0), targets=frozenset(x for x in cells if fixed[x] == 2),
                player=tuple(int(v) for v in env.player_position),
                boxes=frozenset(x for x in cells if state[x] in (3, 4)))


def after(floor: frozenset[Cell], player: Cell, boxes: frozenset[Cell], move: str) -> tuple[Cell, frozenset[Cell]] | None:
    """The position after `move` under TextArena's rules, or None when the move is refused."""
    dr, dc = MOVES[move]
    ahead = (player[0] + dr, player[1] + dc)
    if ahead not in floor:
        return None
    if ahead in boxes:
        beyond = (ahead[0] + dr, ahead[1] + dc)
        if beyond not in floor or beyond in boxes:
            return None
        return ahead, (boxes - {ahead}) | {beyond}
    return ahead, boxes


@functools.lru_cache(maxsize=4096)
def solve(floor: frozenset[Cell], targets: frozenset[Cell], player: Cell,
          boxes: frozenset[Cell]) -> tuple[str, ...] | None:
    """The shortest move sequence that puts every box on a target (moves in up, down, left, right order at
    each step), or None when there is none within MAX_STATES positions."""
    start = (player, boxes)
    parent: dict[tuple[Cell, frozenset[Cell]], tuple[Any, str] | None] = {start: None}
    queue = deque([start])
    while queue:
        state = queue.popleft()
        if state[1] <= targets:
            path = []
            while parent[state] is not None:
                state, move = parent[state]
                path.append(move)
            return tuple(reversed(path))
        for move in MOVES:
            nxt = after(floor, state[0], state[1], move)
            if nxt is not None and nxt not in parent:
                parent[nxt] = (state, move)
                queue.append(nxt)
        if len(parent) > MAX_STATES:
            return None
    return None


def plan(room: Room) -> tuple[str, ...] | None:
    return solve(room.floor, room.targets, room.player, room.boxes)


def box_distance(boxes: frozenset[Cell], targets: frozenset[Cell]) -> int:
    return sum(min(abs(b[0] - t[0]) + abs(b[1] - t[1]) for t in targets) for b in boxes)


def greedy_move(room: Room) -> str:
    """The legal move that brings the boxes nearest their targets (summed Manhattan distance), then the player
    nearest a box off its target; up, down, left, right on ties."""
    best, best_key = "up", None
    loose = room.boxes - room.targets
    for move in MOVES:
        nxt = after(room.floor, room.player, room.boxes, move)
        if nxt is None:
            continue
        player, boxes = nxt
        reach = min((abs(player[0] - b[0]) + abs(player[1] - b[1]) for b in (boxes - room.targets) or loose),
                    default=0)
        key = (box_distance(boxes, room.targets), reach)
        if best_key is None or key < best_key:
            best, best_key = move, key
    return best


def greedy_solves(room: Room, budget: int) -> bool:
    player, boxes = room.player, room.boxes
    for _ in range(budget):
        nxt = after(room.floor, player, boxes, greedy_move(Room(room.floor, room.targets, player, boxes)))
        if nxt is None:
            return False
        player, boxes = nxt
        if boxes <= room.targets:
            return True
    return False


def draw(rng: random.Random, config: Config, seed: int) -> Drawn | None:
    kwargs = {"dim_room": [config.size, config.size], "num_boxes": config.boxes, "max_turns": 1000}
    try:
        room = room_of(Match("Sokoban-v0", kwargs, seed, 1).env)
    except RuntimeError:  # TextArena found no room for this seed
        return None
    if room.boxes & room.targets or room.player in room.targets:  # a target the board does not show
        return None
    moves = plan(room)
    if not moves or len(moves) < MIN_MOVES or greedy_solves(room, len(moves)):
        return None
    return Drawn(kwargs, len(moves))


class _Pusher(ReferencePolicy):
    def choose(self, room: Room) -> str:
        raise NotImplementedError

    def respond(self, messages: list[dict[str, Any]], *, wrong: bool = False) -> dict[str, Any]:
        room = room_of(replay(self.identity, assistant_texts(messages)).match.env)
        if wrong:  # a move off every shortest solution: a push into a corner, a detour, or a bump into a wall
            best = len(plan(room) or ())
            move = next((m for m in MOVES if (nxt := after(room.floor, room.player, room.boxes, m)) is None
                         or len(solve(room.floor, room.targets, *nxt) or range(best + 1)) >= best), "up")
        else:
            move = self.choose(room)
        return {"role": "assistant", "content": f"Move: [{move}]"}


class Shortest(_Pusher):
    """The first move of a shortest solution of the room it sees."""

    def choose(self, room: Room) -> str:
        return (plan(room) or ("up",))[0]


class Greedy(_Pusher):
    """Baseline: the move that brings the boxes nearest their targets."""

    def choose(self, room: Room) -> str:
        return greedy_move(room)


class RandomMove(_Pusher):
    """Baseline: a random move that TextArena accepts."""

    def choose(self, room: Room) -> str:
        legal = [m for m in MOVES if after(room.floor, room.player, room.boxes, m) is not None]
        return self.rng.choice(legal or list(MOVES))


GAME = Game(
    name="sokoban", env_id="Sokoban-v0", players=1,
    about="TextArena Sokoban: push every box onto a target in exactly the moves of the shortest solution.",
    config=Config, draw=draw,
    # 6x6 rooms repeat (15% identical prompts in 200 rows of 2 boxes): the rooms are 7x7
    groups=[Group("7x7_2", {"size": 7, "boxes": 2}, ratio=0.5), Group("7x7_3", {"size": 7, "boxes": 3}, ratio=0.5)],
    policy=Shortest,
    baselines=[Baseline("random", RandomMove, "a random move that TextArena accepts"),
               Baseline("greedy", Greedy, "the move that brings the boxes nearest their targets")],
    answer_format="Reply with one move in square brackets: [up], [down], [left] or [right].",
    max_moves=80,
    conformance={"distinct_n": 200},  # a room takes TextArena 0.04 s to make and about two in five are kept
)

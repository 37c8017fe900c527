"""What every gm/<puzzle> shares: the `Puzzle` base class (draw a start state, the legal moves, one move's effect,
the goal, an exact optimum), the replay of the assistant's moves that the tool and the verifier both follow, and
the searches and baseline players built on them.

A puzzle module defines one `Puzzle` subclass; `collection.py` turns it into a bootcamp (generator, one move
tool, verifier, reference policy, noisy moves, baselines) with nothing of its own.

The rules every puzzle shares: the agent has a budget of `budget = optimum + slack` calls of the puzzle's tool;
every call that reaches the tool (arguments of the schema's shape) spends one, a refused move too; the task
scores 1.0 when the moves solve the puzzle within the budget, else 0.
"""
from __future__ import annotations

import functools
import heapq
import itertools
import random
from collections import OrderedDict, deque
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass
from typing import Any, ClassVar

import orjson
from jsonschema import Draft202012Validator

State = Hashable
Action = Hashable
MAX_CALLS_READ = 2000  # tool calls the replay looks at; every budget is far smaller
MAX_ARGUMENTS = 4096  # characters of one call's arguments: every legal move is a few dozen
MAX_BUDGET = 60
# one tool reply per move; room for refused calls and a final reply
LIMITS = {"max_assistant_turns": MAX_BUDGET + 10, "max_user_turns": 2 * MAX_BUDGET + 10,
          "max_tool_calls_per_turn": MAX_BUDGET, "max_tool_calls": 2 * MAX_BUDGET}


class MoveError(Exception):
    """A move the rules refuse: `kind` for the record, `message` for the model."""

    def __init__(self, kind: str, message: str):
        super().__init__(message)
        self.kind, self.message = kind, message


@dataclass(frozen=True)
class Knob:
    """An integer parameter of a puzzle's generator, with the bounds `validate()` enforces."""

    default: int
    low: int
    high: int
    about: str = ""


COMMON_KNOBS = {
    "min_optimum": Knob(6, 1, MAX_BUDGET, "the fewest moves a start state may need"),
    "max_optimum": Knob(10, 1, MAX_BUDGET, "the most moves a start state may need"),
    "slack": Knob(2, 0, 20, "moves allowed beyond the optimum"),
}


class Puzzle:
    """One puzzle. States are hashable (tuples); an identity is JSON and holds what `start` needs."""

    name: ClassVar[str] = ""
    title: ClassVar[str] = ""
    tool: ClassVar[str] = "move"
    tool_about: ClassVar[str] = ""
    parameters: ClassVar[dict[str, Any]] = {}  # JSON Schema properties of the tool's arguments
    knobs: ClassVar[dict[str, Knob]] = {}
    groups: ClassVar[dict[str, dict[str, int]]] = {}
    space_size: ClassVar[dict[str, int] | None] = None  # {group: distinct tasks it can hold}, where that is small
    greedy_about: ClassVar[str] = "the move whose result looks closest to the goal, never back to a seen state"
    solver_limit: ClassVar[int] = 200_000  # states one search may open

    def __init__(self) -> None:
        self.validator = Draft202012Validator(self.schema()["function"]["parameters"])
        self._paths: OrderedDict[tuple[bytes, State], tuple[Action, ...]] = OrderedDict()
        self._beyond: OrderedDict[tuple[bytes, State], int] = OrderedDict()  # a move count a search found too few

    # -- the puzzle's own part ---------------------------------------------------------------------------------
    def validate(self, p: Any) -> None:
        """Cross-knob rules beyond each knob's bounds (ValueError)."""
        if p.min_optimum > p.max_optimum:
            raise ValueError("min_optimum must not exceed max_optimum")
        if p.max_optimum + p.slack > MAX_BUDGET:
            raise ValueError(f"max_optimum + slack must be at most {MAX_BUDGET}")

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        """The instance (JSON-able, without `optimum`/`budget`); None: draw again."""
        raise NotImplementedError

    def accept(self, inst: dict[str, Any], p: Any) -> bool:
        """A last say on a drawn instance with its `optimum` and `budget` (e.g. refuse one that random play solves
        too often); True by default."""
        return True

    def start(self, inst: dict[str, Any]) -> State:
        raise NotImplementedError

    def action(self, inst: dict[str, Any], args: dict[str, Any]) -> Action:
        """The move named by schema-valid arguments (MoveError for one outside the board)."""
        raise NotImplementedError

    def args(self, action: Action) -> dict[str, Any]:
        """The tool arguments naming `action`."""
        raise NotImplementedError

    def legal(self, inst: dict[str, Any], state: State) -> list[Action]:
        """Every legal move from `state`, in a fixed order."""
        raise NotImplementedError

    def step(self, inst: dict[str, Any], state: State, action: Action) -> State:
        """The state after `action` (MoveError when the rules refuse it here)."""
        raise NotImplementedError

    def solved(self, inst: dict[str, Any], state: State) -> bool:
        raise NotImplementedError

    def show(self, inst: dict[str, Any], state: State) -> str:
        """The state as the model reads it."""
        raise NotImplementedError

    def rules(self, inst: dict[str, Any]) -> str:
        """The puzzle's rules and how to call the tool (the start state and the budget are added)."""
        raise NotImplementedError

    def refused_args(self, inst: dict[str, Any], state: State) -> dict[str, Any] | None:
        """Arguments of the schema's shape that the rules refuse in `state` (the noisy policy's wasted move where
        every legal move makes progress); None when there are none."""
        return None

    def describe(self, inst: dict[str, Any], action: Action) -> str:
        """One move in words, for the tool's reply."""
        return ", ".join(f"{k}={v}" for k, v in self.args(action).items())

    def estimate(self, inst: dict[str, Any], state: State) -> float:
        """A lower bound on the moves left (0 when unknown): the search's heuristic."""
        return 0.0

    def closeness(self, inst: dict[str, Any], state: State) -> float:
        """How far from the goal `state` looks (lower is closer): the greedy baseline's guide."""
        return self.estimate(inst, state)

    def distances(self, inst: dict[str, Any]) -> dict[State, int] | None:
        """Moves to the goal from every state, where the puzzle keeps such a table (shared by its instances)."""
        return None

    def optimal_path(self, inst: dict[str, Any], state: State) -> tuple[Action, ...] | None:
        """A shortest solving move sequence from `state` (None: not solvable or too large to search): down the
        distance table where there is one, else A* on `estimate`."""
        table = self.distances(inst)
        if table is not None:
            if state not in table:
                return None
            out = []
            while table[state]:
                out.append(next(a for a, s in self.neighbours(inst, state) if table.get(s) == table[state] - 1))
                state = self.step(inst, state, out[-1])
            return tuple(out)
        return astar(state, lambda s: self.neighbours(inst, s), lambda s: self.solved(inst, s),
                     lambda s: self.estimate(inst, s), self.solver_limit)

    # -- shared ------------------------------------------------------------------------------------------------
    def schema(self) -> dict[str, Any]:
        return {"type": "function", "function": {
            "name": self.tool, "description": self.tool_about,
            "parameters": {"type": "object", "properties": self.parameters, "required": sorted(self.parameters),
                           "additionalProperties": False}}}

    def neighbours(self, inst: dict[str, Any], state: State) -> Iterable[tuple[Action, State]]:
        for a in self.legal(inst, state):
            yield a, self.step(inst, state, a)

    def path(self, inst: dict[str, Any], state: State) -> tuple[Action, ...] | None:
        """`optimal_path`, remembered for every state along it (the policies ask again each turn)."""
        key = (orjson.dumps(inst, option=orjson.OPT_SORT_KEYS), state)
        if key in self._paths:
            self._paths.move_to_end(key)
            return self._paths[key]
        found = self.optimal_path(inst, state)
        if found is None:
            return None
        self._remember(inst, key[0], state, found)
        return tuple(found)

    def _remember(self, inst: dict[str, Any], inst_key: bytes, state: State, found: tuple[Action, ...]) -> None:
        """A shortest path from `state`, kept for every state along it."""
        s = state
        for i, a in enumerate(found):
            self._paths[(inst_key, s)] = tuple(found[i:])
            s = self.step(inst, s, a)
        while len(self._paths) > 50_000:
            self._paths.popitem(last=False)

    def within(self, inst: dict[str, Any], state: State, moves: int) -> bool:
        """Whether `state` solves in at most `moves` moves (a search cut off at that depth)."""
        if moves < 0:
            return False
        table = self.distances(inst)
        if table is not None:
            return state in table and table[state] <= moves
        key = (orjson.dumps(inst, option=orjson.OPT_SORT_KEYS), state)
        if key in self._paths:
            return len(self._paths[key]) <= moves
        if type(self).optimal_path is not Puzzle.optimal_path:  # a puzzle with its own exact solver
            found = self.distance(inst, state)
            return found is not None and found <= moves
        if self._beyond.get(key, -1) >= moves:  # a search as deep or deeper found nothing
            return False
        found = astar(state, lambda s: self.neighbours(inst, s), lambda s: self.solved(inst, s),
                      lambda s: self.estimate(inst, s), self.solver_limit, bound=moves)
        if found is None:
            self._beyond[key] = max(moves, self._beyond.get(key, -1))
            while len(self._beyond) > 50_000:
                self._beyond.popitem(last=False)
            return False
        self._remember(inst, key[0], state, found)  # A* with a bound still finds a shortest path
        return True

    def distance(self, inst: dict[str, Any], state: State) -> int | None:
        table = self.distances(inst)
        if table is not None:
            return table.get(state)
        found = self.path(inst, state)
        return None if found is None else len(found)


def astar(start: State, neighbours: Callable[[State], Iterable[tuple[Action, State]]],
          goal: Callable[[State], bool], estimate: Callable[[State], float],
          limit: int, bound: float = float("inf")) -> tuple[Action, ...] | None:
    """A shortest action sequence from `start` to a goal state (unit costs; `estimate` must never overestimate,
    0 makes it breadth-first); None when no goal is reached within `limit` opened states, or within `bound`
    moves."""
    if goal(start):
        return ()
    tie = itertools.count()
    parent: dict[State, tuple[State, Action] | None] = {start: None}
    cost = {start: 0}
    frontier = [(estimate(start), next(tie), start)]
    opened = 0
    while frontier:
        _, _, state = heapq.heappop(frontier)
        if goal(state):
            out = []
            while parent[state] is not None:
                state, a = parent[state]  # type: ignore[misc]
                out.append(a)
            return tuple(reversed(out))
        opened += 1
        if opened > limit:
            return None
        g = cost[state] + 1
        for a, nxt in neighbours(state):
            if g < cost.get(nxt, 1 << 30):
                f = g + estimate(nxt)
                if f > bound:
                    continue
                cost[nxt] = g
                parent[nxt] = (state, a)
                heapq.heappush(frontier, (f, next(tie), nxt))
    return None


def bfs_distances(goals: Iterable[State], neighbours: Callable[[State], Iterable[State]]) -> dict[State, int]:
    """Moves to the nearest goal from every state that reaches one (the moves must be reversible)."""
    dist = {g: 0 for g in goals}
    queue = deque(dist)
    while queue:
        s = queue.popleft()
        for nxt in neighbours(s):
            if nxt not in dist:
                dist[nxt] = dist[s] + 1
                queue.append(nxt)
    return dist


# -- a game replayed from the assistant's tool calls -------------------------------------------------------------
@dataclass
class Game:
    """Moves spent, the state reached, and the move that solved it (1-based; None when not solved in budget)."""

    state: State
    spent: int
    solved_at: int | None
    refused: int


def calls_in(messages: Any, tool: str) -> list[Any]:
    """The arguments of every call of `tool` in the assistant messages, in order (as sent: text or object)."""
    out: list[Any] = []
    if not isinstance(messages, list):
        return out
    for msg in messages:
        if not isinstance(msg, dict) or msg.get("role") != "assistant":
            continue
        for call in msg.get("tool_calls") or ():
            fn = call.get("function") if isinstance(call, dict) else None
            if isinstance(fn, dict) and fn.get("name") == tool:
                out.append(fn.get("arguments"))
                if len(out) >= MAX_CALLS_READ:
                    return out
    return out


def parse_arguments(puzzle: Puzzle, arguments: Any) -> dict[str, Any] | None:
    """The call's arguments when the tool runtime would pass them to the tool (a JSON object valid against the
    schema), else None: such a call never reached the tool and spent nothing."""
    if isinstance(arguments, str) and len(arguments) <= 256:  # the policies replay every turn: read each text once
        return _parsed(puzzle, arguments)
    return _parse(puzzle, arguments)


@functools.lru_cache(maxsize=65536)
def _parsed(puzzle: Puzzle, arguments: str) -> dict[str, Any] | None:
    return _parse(puzzle, arguments)


def _parse(puzzle: Puzzle, arguments: Any) -> dict[str, Any] | None:
    if isinstance(arguments, (str, bytes)):
        if len(arguments) > MAX_ARGUMENTS:
            return None
        try:
            arguments = orjson.loads(arguments) if arguments.strip() else {}
        except orjson.JSONDecodeError:
            return None
    if not isinstance(arguments, dict) or not puzzle.validator.is_valid(arguments):
        return None
    return arguments


def replay(puzzle: Puzzle, inst: dict[str, Any], messages: Any) -> Game:
    """The assistant's moves played from the start, by the tool's rules: each call reaching the tool spends one
    of the budget's moves; a refused move changes nothing; calls after the solve or past the budget do nothing."""
    state = puzzle.start(inst)
    game = Game(state, 0, None, 0)
    if puzzle.solved(inst, state):
        return game
    for raw in calls_in(messages, puzzle.tool):
        args = parse_arguments(puzzle, raw)
        if args is None:
            continue
        if game.spent >= inst["budget"]:
            break
        game.spent += 1
        try:
            game.state = puzzle.step(inst, game.state, puzzle.action(inst, args))
        except MoveError:
            game.refused += 1
            continue
        if puzzle.solved(inst, game.state):
            game.solved_at = game.spent
            break
    return game


# -- players -----------------------------------------------------------------------------------------------------
def greedy_moves(puzzle: Puzzle, inst: dict[str, Any], state: State, seen: set[State]) -> Action | None:
    """The greedy player's next move: the legal move whose result looks closest (`closeness`), among results not
    seen before when there are any; ties go to the first legal move."""
    options = [(a, s) for a, s in puzzle.neighbours(inst, state)]
    if not options:
        return None
    fresh = [(a, s) for a, s in options if s not in seen] or options
    return min(fresh, key=lambda o: puzzle.closeness(inst, o[1]))[0]


def greedy_solves(puzzle: Puzzle, inst: dict[str, Any], budget: int) -> bool:
    """Whether the greedy player solves the instance within `budget` moves (the generator refuses such starts)."""
    state = puzzle.start(inst)
    seen = {state}
    for _ in range(budget):
        a = greedy_moves(puzzle, inst, state, seen)
        if a is None:
            return False
        state = puzzle.step(inst, state, a)
        seen.add(state)
        if puzzle.solved(inst, state):
            return True
    return puzzle.solved(inst, state)


def wrong_move(puzzle: Puzzle, inst: dict[str, Any], state: State, rng: random.Random) -> Action | None:
    """A legal move that does not bring the goal closer (the noisy policy's mistake): one after which no solution
    of `optimum left - 1` moves exists, tried in a random order; None when every legal move makes progress."""
    here = puzzle.distance(inst, state)
    options = list(puzzle.neighbours(inst, state))
    rng.shuffle(options)
    for a, s in options:
        if here is None or not puzzle.within(inst, s, here - 1):
            return a
    return None

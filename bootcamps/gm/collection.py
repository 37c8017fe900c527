"""The gm collection: one bootcamp `gm/<puzzle>` per puzzle module of `puzzles/`, built from its `Puzzle` on first
use (generator, move tool, verifier, reference policy and baselines are the same classes for every puzzle); a
puzzle that fails a conformance check is withheld with the measured reason (known_issues.py)."""
from __future__ import annotations

import functools
from dataclasses import field, make_dataclass
from typing import Any, ClassVar

from bc_common.bootcamp import (
    Baseline,
    Bootcamp,
    Group,
    InstructionGenerator,
    ReferencePolicy,
    RewardCalculator,
    Tool,
    Unavailable,
    include_known_issues,
    tool_call,
    withheld,
)
from bc_common.errors import ConfigError, ToolError

from .core import (
    COMMON_KNOBS,
    LIMITS,
    MoveError,
    Puzzle,
    calls_in,
    greedy_moves,
    greedy_solves,
    parse_arguments,
    replay,
    wrong_move,
)
from .known_issues import WITHHELD
from .puzzles import PUZZLES

MAX_DRAWS = 300  # start states drawn for one row before the generator gives up
RATIOS = {"easy": 0.3, "medium": 0.4, "hard": 0.3}


def _class_name(name: str, suffix: str) -> str:
    return "".join(part.capitalize() for part in name.split("_")) + suffix


class GMInstructionGenerator(InstructionGenerator):
    """Draws a start state whose exact optimum lies in [min_optimum, max_optimum] and that the greedy player does
    not solve within the budget; identity = the instance, its `optimum` and `budget` (optimum + slack)."""

    puzzle: ClassVar[Puzzle]

    def case_generator(self) -> dict[str, Any]:
        p = self.puzzle
        for _ in range(MAX_DRAWS):
            inst = p.draw(self.config, self.rng)
            if inst is None:
                continue
            inst = {"puzzle": p.name, **inst}
            start = p.start(inst)
            # cheap refusals before the exact search: a lower bound past the range, or a greedy solve so short
            # that it fits any budget of the range
            if p.estimate(inst, start) > self.max_optimum or \
                    greedy_solves(p, inst, self.min_optimum + self.slack):
                continue
            optimum = p.distance(inst, start)
            if optimum is None or not self.min_optimum <= optimum <= self.max_optimum:
                continue
            inst["optimum"], inst["budget"] = optimum, optimum + self.slack
            if greedy_solves(p, inst, inst["budget"]) or not p.accept(inst, self.config):
                continue
            return inst
        raise ConfigError(f"gm/{p.name}: no start state in {MAX_DRAWS} draws with {self.config}: the optimum fell "
                          "outside [min_optimum, max_optimum] or the greedy player solved it; widen the range")

    def prompt_func(self, identity: dict[str, Any]) -> str:
        p = self.puzzle
        return (f"{p.rules(identity)}\n\nThe start:\n\n{p.show(identity, p.start(identity))}\n\n"
                f"You have {identity['budget']} moves: every `{p.tool}` call spends one, a refused move too. Solve "
                f"the puzzle within them; you may make one call per turn or several. Each reply shows the state "
                f"after the move.")


class GMMoveTool(Tool):
    """The puzzle's one tool: plays a move on this trajectory's state and answers with the new state. Step reward
    0: the verifier replays the calls by the same rules (core.replay)."""

    puzzle: ClassVar[Puzzle]

    def setup_state(self, identity: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        p = self.puzzle
        try:
            if identity.get("puzzle") != p.name:
                raise ValueError(identity.get("puzzle"))
            state = p.start(identity)
            budget = int(identity["budget"])
        except (AttributeError, KeyError, TypeError, ValueError, IndexError):
            raise ToolError("bad_identity", f"this tool was created without a gm/{p.name} task") from None
        return {"identity": identity, "state": state, "budget": budget, "spent": 0, "solved": p.solved(identity, state)}

    async def execute(self, instance_id: str, parameters: dict[str, Any], **kwargs: Any) -> tuple[str, float, dict]:
        p, st = self.puzzle, self.state(instance_id)
        inst = st["identity"]
        if st["solved"]:
            return "The puzzle is already solved; nothing changes.", 0.0, {"spent": st["spent"], "solved": True}
        if st["spent"] >= st["budget"]:
            raise ToolError("no_moves_left", f"no moves left: all {st['budget']} are spent")
        st["spent"] += 1
        left = st["budget"] - st["spent"]
        try:
            action = p.action(inst, parameters)
            st["state"] = p.step(inst, st["state"], action)
        except MoveError as exc:
            raise ToolError(exc.kind, f"{exc.message} (refused; it spent a move: {left} left)") from None
        st["solved"] = p.solved(inst, st["state"])
        said = f"Move {st['spent']}: {p.describe(inst, action)}."
        if st["solved"]:
            said += f" Solved in {st['spent']} moves!"
        else:
            said += f" {left} move{'s' if left != 1 else ''} left."
        return f"{said}\n\n{p.show(inst, st['state'])}", 0.0, {"spent": st["spent"], "solved": st["solved"]}


class GMRewardCalculator(RewardCalculator):
    """1.0 when the assistant's own calls of the tool, replayed from the start, solve the puzzle within the
    budget; else 0. Tool output is never read; a text without tool calls has no moves and scores 0."""

    grades = "all"
    puzzle: ClassVar[Puzzle]
    identity_schema: ClassVar[dict[str, Any]] = {
        "type": "object", "required": ["puzzle", "optimum", "budget"],
        "properties": {"puzzle": {"type": "string"}, "optimum": {"type": "integer", "minimum": 0},
                       "budget": {"type": "integer", "minimum": 0, "maximum": LIMITS["max_tool_calls_per_turn"]}}}

    @classmethod
    def check_identity(cls, identity: dict[str, Any]) -> None:
        if identity.get("puzzle") != cls.puzzle.name:
            raise ValueError(f"puzzle: {identity.get('puzzle')!r} is not gm/{cls.puzzle.name}'s")

    @classmethod
    def verify_score(cls, model_output: Any, identity: dict[str, Any], format_score: float = 0.0,
                     **kwargs: Any) -> float:
        try:
            game = replay(cls.puzzle, identity, model_output)
        except Exception:  # a verifier must not crash on hostile input
            return 0.0
        if game.spent == 0:
            return 0.0
        return 1.0 if game.solved_at is not None else float(format_score)

    @staticmethod
    def extract_output(output_str: Any) -> Any:
        return output_str if isinstance(output_str, list) else None

    @classmethod
    def _verify_correction(cls, extracted: Any, identity: dict[str, Any], **kwargs: Any) -> float:
        return 1.0 if replay(cls.puzzle, identity, extracted).solved_at is not None else 0.0


class _Player(ReferencePolicy):
    """One move a turn, chosen by `choose` on the state its own calls so far reached (replayed by the tool's
    rules); a closing reply once solved or out of moves."""

    puzzle: ClassVar[Puzzle]

    def choose(self, game: Any, messages: list[dict[str, Any]], wrong: bool) -> dict[str, Any] | None:
        raise NotImplementedError

    def respond(self, messages: list[dict[str, Any]], *, wrong: bool = False) -> dict[str, Any]:
        p, inst = self.puzzle, self.identity
        game = replay(p, inst, messages)
        if game.solved_at is not None:
            return {"role": "assistant", "content": f"Done: solved in {game.solved_at} moves."}
        if game.spent >= inst["budget"]:
            return {"role": "assistant", "content": "I have no moves left."}
        args = self.choose(game, messages, wrong)
        if args is None:
            return {"role": "assistant", "content": "I see no move to make."}
        n = sum(1 for m in messages if m.get("role") == "assistant")
        return {"role": "assistant", "content": f"Move {game.spent + 1}.",
                "tool_calls": [tool_call(f"call_{n}", p.tool, args)]}


class GMPolicy(_Player):
    """The first move of a shortest solution from the current state; `wrong=True` plays a legal move that does not
    shorten the way left (or a refused one where every legal move does)."""

    def choose(self, game: Any, messages: list[dict[str, Any]], wrong: bool) -> dict[str, Any] | None:
        p, inst = self.puzzle, self.identity
        if wrong:
            a = wrong_move(p, inst, game.state, self.rng)
            if a is not None:
                return p.args(a)
            refused = p.refused_args(inst, game.state)
            if refused is not None:
                return refused
        path = p.path(inst, game.state)
        if not path:
            return None
        return p.args(path[0])


class RandomPlayer(_Player):
    """Baseline: a random legal move every turn."""

    def choose(self, game: Any, messages: list[dict[str, Any]], wrong: bool) -> dict[str, Any] | None:
        moves = self.puzzle.legal(self.identity, game.state)
        return self.puzzle.args(self.rng.choice(moves)) if moves else None


class RepeatPlayer(_Player):
    """Baseline: the first legal move of the start, the same call every turn (the lazy policy)."""

    def choose(self, game: Any, messages: list[dict[str, Any]], wrong: bool) -> dict[str, Any] | None:
        p = self.puzzle
        moves = p.legal(self.identity, p.start(self.identity))
        return p.args(moves[0]) if moves else None


class GreedyPlayer(_Player):
    """Baseline: the legal move whose result looks closest to the goal, never back to a state seen before."""

    def choose(self, game: Any, messages: list[dict[str, Any]], wrong: bool) -> dict[str, Any] | None:
        p, inst = self.puzzle, self.identity
        state = p.start(inst)
        seen = {state}  # the states its own moves passed through
        for raw in calls_in(messages, p.tool):
            args = parse_arguments(p, raw)
            if args is None:
                continue
            try:
                state = p.step(inst, state, p.action(inst, args))
            except MoveError:
                continue
            seen.add(state)
        a = greedy_moves(p, inst, game.state, seen)
        return None if a is None else p.args(a)


PLAYERS = {"random": (RandomPlayer, "a random legal move every turn"),
           "repeat": (RepeatPlayer, "the start's first legal move, the same call every turn"),
           "greedy": (GreedyPlayer, "")}


def _config(puzzle: Puzzle) -> type:
    knobs = {**puzzle.knobs, **COMMON_KNOBS}

    def validate(self: Any) -> None:
        for key, knob in knobs.items():
            value = getattr(self, key)
            if not knob.low <= value <= knob.high:
                raise ValueError(f"{key} must be in [{knob.low}, {knob.high}], got {value}")
        puzzle.validate(self)

    defaults = puzzle.groups.get("medium", {})
    fields = [(k, int, field(default=defaults.get(k, v.default), metadata={"bounds": (v.low, v.high),
                                                                          "help": v.about}))
              for k, v in knobs.items()]
    return make_dataclass("Config", fields, namespace={"validate": validate})


@functools.cache
def classes(name: str) -> dict[str, type]:
    """The generator, tool, verifier, policy and baseline classes of gm/<name>, made once (named in this module, so
    their dotted paths import: `bootcamps.gm.collection.SlidingTileMoveTool`)."""
    puzzle = PUZZLES[name]()
    ns = {"puzzle": puzzle, "__module__": __name__}
    made = {"generator": type(_class_name(name, "InstructionGenerator"), (GMInstructionGenerator,),
                              {**ns, "Config": _config(puzzle)}),
            "tool": type(_class_name(name, "MoveTool"), (GMMoveTool,), {**ns, "tool_schema": puzzle.schema()}),
            "reward": type(_class_name(name, "RewardCalculator"), (GMRewardCalculator,), ns),
            "policy": type(_class_name(name, "Policy"), (GMPolicy,), ns)}
    for base, (cls, _) in PLAYERS.items():
        made[f"baseline_{base}"] = type(_class_name(f"{name}_{base}", "Baseline"), (cls,), ns)
    return made


def bootcamp(name: str) -> Bootcamp:
    made = classes(name)
    puzzle: Puzzle = made["generator"].puzzle
    baselines = [Baseline(b, made[f"baseline_{b}"], about or puzzle.greedy_about)
                 for b, (_, about) in PLAYERS.items()]
    conformance: dict[str, Any] = {}
    if puzzle.space_size:
        conformance["space_size"] = dict(puzzle.space_size)
    return Bootcamp(
        description=f"{puzzle.title}: solve it through `{puzzle.tool}` calls within the optimum + slack moves.",
        generator=made["generator"], reward=made["reward"], policy=made["policy"], tools=[made["tool"]],
        groups=[Group(g, params, ratio=RATIOS[g]) for g, params in puzzle.groups.items()],
        baselines=baselines, limits=dict(LIMITS), conformance=conformance)


class Collection:
    """`names()` lists the puzzles; `load(name)` is the manifest of gm/<name> (KeyError for an unknown one)."""

    def names(self) -> list[str]:
        return sorted(PUZZLES)

    def load(self, name: str) -> Bootcamp | Unavailable:
        """gm/<name>'s manifest; withheld (with the measured reason) when it fails the conformance suite, unless
        `BC_INCLUDE_KNOWN_ISSUES=1`."""
        if name not in PUZZLES:
            raise KeyError(name)
        if name in WITHHELD and not include_known_issues():
            return withheld(f"{PUZZLES[name].title} (gm/{name}).", WITHHELD[name])
        return bootcamp(name)


def __getattr__(attr: str) -> type:
    for name in PUZZLES:
        for cls in classes(name).values():
            if cls.__name__ == attr:
                return cls
    raise AttributeError(attr)


collection = Collection()

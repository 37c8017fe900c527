"""ta/countdown: TextArena's Countdown numbers game (combine two numbers per move with + - * / to reach a target)
with a target that exactly `steps` moves reach and a budget of `steps` moves.

TextArena registers Countdown-v0 with one fixed board (numbers 100 75 6 4 3 2, target 532) and draws nothing at
reset, so every seed gave the same game. The adapter draws the board TextArena's own constructor would (two of
25 50 75 100 and four of 1-10, each small number twice in the pool) from the row's rng and passes it as keyword
arguments; the target is the value of a random chain of `steps` moves over those numbers (a stream keyed by the
task's seed and the numbers, so the reference finds the chain again from the identity alone). TextArena's random
targets (100-999) are often unreachable; these always are. A target that one move reaches, or that taking the
value nearest the target at every move reaches (the `closest` baseline), is redrawn.
"""
from __future__ import annotations

import functools
import random
from dataclasses import dataclass
from typing import Any

from bc_common.bootcamp import Baseline, Group, ReferencePolicy, assistant_texts

from ..game import Drawn, Game
from ..play import replay

BIG = (25, 50, 75, 100)
SMALL = tuple(range(1, 11)) * 2
OPS = "+-*/"
TRIES = 200  # random chains per target before the seed is redrawn
Move = tuple[int, int, str]  # the two values combined (in that order) and the operation


@dataclass
class Config:
    steps: int = 3  # moves the target takes (and the budget)

    def validate(self) -> None:
        if not 2 <= self.steps <= 5:
            raise ValueError("steps must be in [2, 5]")


def combine(a: int, b: int, op: str) -> int | None:
    """TextArena's operation, or None where it refuses it (a division that is not whole, a value over 10**6)."""
    if op == "/":
        return a // b if b and a % b == 0 else None
    value = a + b if op == "+" else a - b if op == "-" else a * b
    return None if abs(value) > 1_000_000 else value


def one_move_values(numbers: list[int]) -> set[int]:
    return {v for i, a in enumerate(numbers) for j, b in enumerate(numbers) if i != j for op in OPS
            if (v := combine(a, b, op)) is not None}


@functools.lru_cache(maxsize=4096)
def chain(numbers: tuple[int, ...], seed: int, steps: int) -> tuple[int, tuple[Move, ...]] | None:
    """(target, moves): a random chain of `steps` moves whose last value is the target, 100-999, not among the
    numbers and not one move away from them; None when `TRIES` chains give none."""
    rng = random.Random(f"ta-countdown/{seed}/{steps}/{','.join(map(str, numbers))}")
    near = one_move_values(list(numbers))
    for _ in range(TRIES):
        pool, moves = list(numbers), []
        for step in range(steps):
            # the last move uses the value the chain made last, so every move counts toward the target
            i = len(pool) - 1 if step else rng.randrange(len(pool))
            j = rng.choice([k for k in range(len(pool)) if k != i])
            a, b = pool[i], pool[j]
            op = rng.choice(OPS)
            if op in "-/" and a < b:
                a, b = b, a
            value = combine(a, b, op)
            if value is None or value <= 0 or (op in "*/" and 1 in (a, b)):
                break
            pool = [v for k, v in enumerate(pool) if k not in (i, j)] + [value]
            moves.append((a, b, op))
        else:
            target = pool[-1]
            if 100 <= target <= 999 and target not in numbers and target not in near \
                    and not closest_reaches(list(numbers), target, steps):
                return target, tuple(moves)
    return None


def closest_reaches(numbers: list[int], target: int, steps: int) -> bool:
    """Whether taking, move after move, a value nearest the target reaches it within `steps` moves (every tie
    followed): such a target rewards the heuristic, not the search, and is redrawn."""
    if steps == 0 or len(numbers) < 2:
        return False
    options = [(abs(v - target), i, j, v) for i, a in enumerate(numbers) for j, b in enumerate(numbers) if i != j
               for op in OPS if (v := combine(a, b, op)) is not None]
    best = min(o[0] for o in options)
    if best == 0:
        return True
    return any(closest_reaches([x for k, x in enumerate(numbers) if k not in (i, j)] + [v], target, steps - 1)
               for d, i, j, v in options if d == best)


def draw(rng: random.Random, config: Config, seed: int) -> Drawn | None:
    numbers = rng.sample(BIG, 2) + rng.sample(SMALL, 4)  # TextArena's own recipe (CountdownEnv.__init__)
    made = chain(tuple(numbers), seed, config.steps)
    if made is None:
        return None
    return Drawn({"numbers": numbers, "target": made[0]}, config.steps)


def board(identity: dict[str, Any], texts: list[str]) -> list[int]:
    return list(replay(identity, texts).match.env.numbers)


def index_move(numbers: list[int], move: Move) -> str | None:
    """`move` as TextArena's action on `numbers` ([i j op], i the first value's index), or None if it is not there."""
    a, b, op = move
    if a not in numbers:
        return None
    i = numbers.index(a)
    j = next((k for k, v in enumerate(numbers) if v == b and k != i), None)
    return None if j is None else f"[{i} {j} {op}]"


class _Player(ReferencePolicy):
    def choose(self, numbers: list[int], done: int) -> str:
        raise NotImplementedError

    def respond(self, messages: list[dict[str, Any]], *, wrong: bool = False) -> dict[str, Any]:
        texts = assistant_texts(messages)
        numbers = board(self.identity, texts)
        move = self.choose(numbers, len(texts))
        if wrong:  # a legal move that leaves other numbers than the chosen one (not [j i +] for [i j +])
            move = next(m for m in legal(numbers) if after(numbers, m) != after(numbers, move))
        return {"role": "assistant", "content": move}


def after(numbers: list[int], action: str) -> list[int]:
    """The numbers after `action`, sorted."""
    i, j, op = action[1:-1].split()
    i, j = int(i), int(j)
    return sorted([v for k, v in enumerate(numbers) if k not in (i, j)] + [combine(numbers[i], numbers[j], op)])


def legal(numbers: list[int]) -> list[str]:
    return [f"[{i} {j} {op}]" for i in range(len(numbers)) for j in range(len(numbers)) if i != j for op in OPS
            if combine(numbers[i], numbers[j], op) is not None]


class Chain(_Player):
    """The chain the target was made from, move by move (off it, after a wrong move: the first legal move)."""

    def choose(self, numbers: list[int], done: int) -> str:
        kwargs = self.identity["kwargs"]
        made = chain(tuple(kwargs["numbers"]), int(self.identity["seed"]), int(self.identity["budget"]))
        moves = made[1] if made else ()
        action = index_move(numbers, moves[done]) if done < len(moves) else None
        return action or legal(numbers)[0]


class RandomMove(_Player):
    """Baseline: a random legal move."""

    def choose(self, numbers: list[int], done: int) -> str:
        return self.rng.choice(legal(numbers))


class Closest(_Player):
    """Baseline: the legal move whose value comes closest to the target."""

    def choose(self, numbers: list[int], done: int) -> str:
        target = int(self.identity["kwargs"]["target"])

        def distance(action: str) -> int:
            i, j, op = action[1:-1].split()
            return abs(combine(numbers[int(i)], numbers[int(j)], op) - target)

        return min(legal(numbers), key=lambda a: (distance(a), self.rng.random()))


GAME = Game(
    name="countdown", env_id="Countdown-v0", players=1,
    about="TextArena Countdown: reach a target from six numbers with + - * /, in exactly the moves the target "
          "was made with (3 to 5).",
    config=Config, draw=draw,
    groups=[Group("3_steps", {"steps": 3}, ratio=0.34), Group("4_steps", {"steps": 4}, ratio=0.33),
            Group("5_steps", {"steps": 5}, ratio=0.33)],
    policy=Chain,
    baselines=[Baseline("random", RandomMove, "a random legal move"),
               Baseline("closest", Closest, "the move whose value comes closest to the target")],
    answer_format="Reply with exactly one move and nothing else, as [i j op], e.g. [0 2 *].",
    max_moves=10,
)

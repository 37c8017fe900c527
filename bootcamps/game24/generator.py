"""24-game puzzles: numbers to combine with + - × ÷ into a target; every emitted puzzle is proved solvable."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bc_common.bootcamp import InstructionGenerator
from bc_common.errors import ConfigError

from .rules import check_expression
from .solver import Tree, Value, quotient, render, solve

MAX_DRAWS = 1000  # draws before giving up; the groups need about 1.5 (4 numbers) or 1.2 (5 numbers)
SEARCHED = 5  # up to this many numbers a drawn target is checked by the solver; beyond, a random expression sets it
CHECKS = 3  # `calculate` calls a task allows: enough to check an answer, too few to search with

PROMPT = (
    "Use the numbers {numbers} to make {target}. Use each number exactly once, with + - * / and parentheses "
    "only (no other operations, no joining digits; fractions along the way are fine).{tool_hint}\n\n"
    "End your reply with the expression inside answer tags, for example <answer>(a + b) * (c - d)</answer> with "
    "your numbers in place of the letters."
)
TOOL_HINT = (f"\n\nA `calculate` tool evaluates an arithmetic expression exactly if you want to check one "
             f"(at most {CHECKS} calls).")


@dataclass
class Game24Config:
    count: int = 4  # how many numbers
    min_value: int = 1
    max_value: int = 13
    min_target: int = 24
    max_target: int = 24
    tool_hint: bool = True

    def validate(self) -> None:
        if not 2 <= self.count <= 6:
            raise ValueError("need 2 <= count <= 6")
        if not 1 <= self.min_value <= self.max_value <= 1000:
            raise ValueError("need 1 <= min_value <= max_value <= 1000")
        if not 1 <= self.min_target <= self.max_target <= 100_000:
            raise ValueError("need 1 <= min_target <= max_target <= 100000")


class Game24InstructionGenerator(InstructionGenerator):
    """Draw numbers and a target (uniform in its range) until the solver finds a solution. With more than
    `SEARCHED` numbers the solver's worst case is too slow: a random expression over the numbers is drawn, and
    its value, when a whole number in range, is the target (the expression is the proof). Either way the proof
    passes the verifier's own rule before the puzzle is emitted."""

    Config = Game24Config
    name = "game24"

    def _numbers(self) -> list[int]:
        return sorted(self.rng.randint(self.min_value, self.max_value) for _ in range(self.count))

    def _random_puzzle(self) -> tuple[list[int], Value, Tree] | None:
        """Random numbers, then combine two random items with a random operation until one is left. One draw
        of random bits feeds every choice (the per-record RNG is keyed, so each call costs; most are rejected)."""
        bits = self.rng.getrandbits(512)
        span = self.max_value - self.min_value + 1
        numbers = []
        for _ in range(self.count):
            bits, k = divmod(bits, span)
            numbers.append(self.min_value + k)
        numbers.sort()
        items: list[tuple[Value, Tree]] = [(n, n) for n in numbers]
        while len(items) > 1:
            bits, i = divmod(bits, len(items))
            a, ta = items.pop(i)
            bits, j = divmod(bits, len(items))
            b, tb = items.pop(j)
            bits, op = divmod(bits, 4)
            if op == 0:
                items.append((a + b, ("+", ta, tb)))
            elif op == 1:
                items.append((a * b, ("*", ta, tb)))
            elif op == 2:
                items.append((a - b, ("-", ta, tb)) if a >= b else (b - a, ("-", tb, ta)))
            elif b != 0 and (a % b == 0 or a == 0 or b % a != 0):
                items.append((quotient(a, b), ("/", ta, tb)))
            elif a != 0:  # the exact way round is likelier to land on a whole target
                items.append((quotient(b, a), ("/", tb, ta)))
            else:
                return None
        return numbers, items[0][0], items[0][1]

    def case_generator(self) -> dict[str, Any]:
        for _ in range(MAX_DRAWS):
            if self.count <= SEARCHED:
                numbers, target = self._numbers(), self.rng.randint(self.min_target, self.max_target)
                proof = solve(numbers, target)
            else:
                drawn = self._random_puzzle()
                if drawn is None or drawn[1] != int(drawn[1]) or not self.min_target <= drawn[1] <= self.max_target:
                    continue
                numbers, target, proof = drawn[0], int(drawn[1]), render(drawn[2])
            if proof is not None and check_expression(proof, numbers, target) is None:
                return {"numbers": numbers, "target": target}
        raise ConfigError(f"no solvable puzzle in {MAX_DRAWS} draws: widen the value or target range")

    def prompt_func(self, identity: dict[str, Any]) -> str:
        numbers = identity["numbers"]
        return PROMPT.format(numbers=", ".join(map(str, numbers)), target=identity["target"],
                             tool_hint=TOOL_HINT if self.tool_hint else "")

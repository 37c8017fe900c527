"""Arithmetic expressions with + - × ÷ and optional parentheses, in difficulty groups (terms, digits)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bc_common.bootcamp import InstructionGenerator
from bc_common.safe_eval import format_number, safe_eval

_SYMBOLS = {"+": "+", "-": "-", "*": "×", "/": "÷"}

PROMPT_TEMPLATES = (
    "You are a careful mathematician.\n\nTask: compute the value of the expression {expression}. "
    "Your answer must be within a relative error of {tolerance}.\n\n"
    "Answer format: end your reply with\n```json\n{{\"result\": <number>}}\n```\n"
    "Use scientific notation (e.g. 1e-4, 2.5E+3) when needed.{tool_hint}",
    "Evaluate {expression}.\n\nGive the final result (relative error at most {tolerance}) as a JSON block:\n"
    "```json\n{{\"result\": <number>}}\n```{tool_hint}",
    "What is {expression}? Work it out step by step, then give the result as\n"
    "```json\n{{\"result\": <number>}}\n```\n(relative tolerance {tolerance}).{tool_hint}",
)

TOOL_HINT = ("\n\nA `calculate` tool evaluates arithmetic exactly, at most two operations per call: split the "
             "expression into steps (mind the order of operations) instead of guessing, and avoid pointless calls.")


@dataclass
class ArithmeticConfig:
    min_terms: int = 3
    max_terms: int = 6
    min_digits: int = 1
    max_digits: int = 3
    operators: str = "+-*/"
    parentheses: float = 0.3  # probability of one parenthesised group
    tolerance: str = "1e-6"
    tool_hint: bool = True

    def validate(self) -> None:
        if not 2 <= self.min_terms <= self.max_terms <= 64:
            raise ValueError("need 2 <= min_terms <= max_terms <= 64")
        if not 1 <= self.min_digits <= self.max_digits <= 18:
            raise ValueError("need 1 <= min_digits <= max_digits <= 18")
        if not self.operators or set(self.operators) - set(_SYMBOLS):
            raise ValueError("operators must be a non-empty subset of '+-*/'")
        if not 0.0 <= self.parentheses <= 1.0:
            raise ValueError("parentheses must be a probability in [0, 1]")
        float(self.tolerance)


class ArithmeticInstructionGenerator(InstructionGenerator):
    """Draws expressions whose exact value is computed with the safe evaluator."""

    Config = ArithmeticConfig

    def _number(self) -> int:
        digits = self.rng.randint(self.min_digits, self.max_digits)
        low = 1 if digits == 1 else 10 ** (digits - 1)
        return self.rng.randint(low, 10**digits - 1)

    def case_generator(self) -> dict[str, Any]:
        while True:  # redraw the rare expression that divides by zero (deterministic: same rng stream)
            terms = self.rng.randint(self.min_terms, self.max_terms)
            tokens = [str(self._number())]
            ops = [self.rng.choice(self.operators) for _ in range(terms - 1)]
            for op in ops:
                tokens += [_SYMBOLS[op], str(self._number())]
            if terms >= 3 and self.rng.random() < self.parentheses:
                start = self.rng.randrange(terms - 1)
                end = self.rng.randint(start + 1, terms - 1)
                tokens[2 * start] = "(" + tokens[2 * start]
                tokens[2 * end] += ")"
            expression = " ".join(tokens)
            try:
                value = safe_eval(expression)
            except ZeroDivisionError:
                continue
            return {"expression": expression, "expected_result": format_number(value, 17),
                    "tolerance": self.tolerance}

    def prompt_func(self, identity: dict[str, Any]) -> str:
        template = PROMPT_TEMPLATES[self.rng.randrange(len(PROMPT_TEMPLATES))]
        return template.format(expression=identity["expression"], tolerance=identity["tolerance"],
                               tool_hint=TOOL_HINT if self.tool_hint else "")

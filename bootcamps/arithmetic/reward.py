"""Grades the final assistant text: the last ```json {"result": ...}``` block, within a relative tolerance."""
from __future__ import annotations

import functools
import re
from fractions import Fraction
from typing import Any

import orjson

from bc_common.bootcamp import RewardCalculator
from bc_common.safe_eval import parse_number, safe_eval

_FENCE_BODY = re.compile(r"(?:json)?\s*(\{.*\})\s*", re.DOTALL)
_BARE = re.compile(r"\{[^{}]*\"result\"[^{}]*\}", re.DOTALL)
_EXPONENT = re.compile(r"[eE][+-]?(\d+)")
MAX_EXPONENT = 4096  # "1e999999999" would make Fraction build a billion-digit integer


def fenced_blocks(text: str) -> list[str]:
    """The `{...}` bodies of ```json fences, in order; linear time (a regex over the whole text is quadratic on
    adversarial output like "```{" repeated)."""
    parts = text.split("```")
    blocks, i = [], 1
    while i < len(parts) - 1:  # parts[i] lies between two fences
        match = _FENCE_BODY.fullmatch(parts[i])
        if match:
            blocks.append(match.group(1))
            i += 2  # the closing fence is used up
        else:
            i += 1  # the closing fence may open the next block
    return blocks


def _number(value: object) -> Fraction | None:
    if isinstance(value, str) and any(int(e) > MAX_EXPONENT
                                      for e in _EXPONENT.findall(re.sub(r"[\s,_]", "", value))):
        return None
    return parse_number(value)


@functools.lru_cache(maxsize=65536)
def exact_value(expression: str) -> Fraction:
    return safe_eval(expression)


@functools.lru_cache(maxsize=256)
def _fraction(text: str) -> Fraction:
    return Fraction(text)


class ArithmeticRewardCalculator(RewardCalculator):
    """1.0 when the reported result is within the relative tolerance of the exact value, else 0."""

    verify_kwargs = frozenset({"tolerance"})  # overrides the identity's tolerance
    # kept to the simple form the fast acceptor reads; the expression and the tolerance are checked below
    identity_schema = {"type": "object", "required": ["expression"], "properties": {"expression": {"type": "string"}}}

    @classmethod
    def check_identity(cls, identity: dict[str, Any]) -> None:
        """The expression must evaluate and the tolerance be a number >= 0 (else nothing could score 1.0)."""
        try:
            exact_value(identity["expression"])
        except ZeroDivisionError:
            raise ValueError(f"expression: {identity['expression']!r} divides by zero") from None
        except Exception as exc:
            raise ValueError(f"expression: {identity['expression']!r} cannot be evaluated: {exc}") from None
        tolerance = identity.get("tolerance", "1e-6")
        try:
            if isinstance(tolerance, bool) or not isinstance(tolerance, (str, int, float)) or \
                    _fraction(str(tolerance)) < 0:
                raise ValueError
        except (ValueError, ZeroDivisionError):
            raise ValueError(f"tolerance: {tolerance!r} is not a number >= 0") from None

    @staticmethod
    def extract_output(output_str: str) -> Fraction | None:
        candidates = fenced_blocks(output_str) or _BARE.findall(output_str)
        for block in reversed(candidates):
            try:
                data = orjson.loads(block)
            except orjson.JSONDecodeError:
                continue
            if isinstance(data, dict) and "result" in data:
                return _number(data["result"])
        return None

    @classmethod
    def _verify_correction(cls, extracted: Fraction, identity: dict[str, Any], **kwargs: Any) -> bool:
        expected = exact_value(identity["expression"])
        tolerance = _fraction(str(kwargs.get("tolerance", identity.get("tolerance", "1e-6"))))
        if extracted == expected and tolerance >= 0:  # the exact answer: skip the Fraction arithmetic below
            return True
        return abs(extracted - expected) <= tolerance * max(Fraction(1), abs(expected))

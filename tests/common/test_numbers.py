"""One policy for numbers in answers (docs/bootcamps.md, "Numbers in answers"), and left-to-right division."""
from __future__ import annotations

from fractions import Fraction

import pytest

from bc_common.errors import UnsafeExpressionError
from bc_common.safe_eval import parse_number, safe_eval
from bootcamps.arithmetic.reward import ArithmeticRewardCalculator


@pytest.mark.parametrize("text, value", [
    ("1/2/3", Fraction(1, 6)), ("8/4/2", Fraction(1)), ("-3/4", Fraction(-3, 4)), ("1.5/2", Fraction(3, 4)),
    ("1,234", 1234), ("12,345,678.25", Fraction(49382713, 4)), ("−7", -7), (" 12 ", 12), ("+.5e3", 500),
    ("2.5E+3", 2500), ("1e-4", Fraction(1, 10000)), ("5.", 5),
])
def test_numbers_that_are_numbers(text, value):
    assert parse_number(text) == value


@pytest.mark.parametrize("text", [
    "1,2,3", "12,34", "1,23", "1,2345", ",123", "1 234", "1_000", "1'000",  # separators other than 3-digit groups
    "١٢٣", "１２３", "12³", "٣/٤",  # digits outside ASCII
    "1/0", "1//2", "/2", "2/", "2+2", "nan", "inf", "0x10", "e5", "", " ",
])
def test_numbers_that_are_not(text):
    assert parse_number(text) is None


@pytest.mark.parametrize("expr, value", [("1/2/3", Fraction(1, 6)), ("2**3**2", 512), ("10-2-3", 5),
                                         ("24 ÷ 4 ÷ 2", 3), ("2 × 3 ÷ 4", Fraction(3, 2))])
def test_expressions_associate_as_written(expr, value):
    assert safe_eval(expr) == value


@pytest.mark.parametrize("expr", ["1_000 + 1", "0o17", "0b11 * 2", "١ + ١", "１＋１"])
def test_expressions_take_ascii_decimal_numbers_only(expr):
    with pytest.raises(UnsafeExpressionError):
        safe_eval(expr)


def _answer(result) -> str:
    import orjson

    return f"Done.\n```json\n{orjson.dumps({'result': result}).decode()}\n```"


def test_the_arithmetic_verifier_follows_the_policy():
    grade = ArithmeticRewardCalculator.verify_score
    identity = {"expression": "1 ÷ 2 ÷ 3", "expected_result": "0.166666666667", "tolerance": "1e-6"}
    assert grade(_answer("1/2/3"), identity) == 1.0  # (1/2)/3, not 1/(2/3) = 1.5
    assert grade(_answer("1/6"), identity) == 1.0
    assert grade(_answer("3/2"), identity) == 0.0
    big = {"expression": "1000 + 234", "expected_result": "1234", "tolerance": "1e-6"}
    assert grade(_answer("1,234"), big) == 1.0
    assert grade(_answer(1234), big) == 1.0
    assert grade(_answer("1,2,3,4"), big) == 0.0  # not a number, whatever the digits spell
    assert grade(_answer("１２３４"), big) == 0.0
    assert grade(_answer("1 234"), big) == 0.0

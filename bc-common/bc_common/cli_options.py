"""The flags every tool shares, defined once (sqlite-utils style), and numbers checked at parse time.

Every numeric flag of every tool is a `Count` (an integer in [min, max]) or a `Number` (a finite float in
[min, max]): `--retries -1`, `-c 100000000` or `--timeout nan` stop before anything runs, with exit 2 and a
message naming the flag (a test walks every command and checks each one).

    @click.command("bc-x", cls=BcCommand)
    @output_option()
    @skip_invalid_option
    @click.option("--timeout", type=Number(0, DAY, min_open=True), default=60.0)
    def cli(output, skip_invalid, timeout): ...
"""
from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, TypeVar

import click

F = TypeVar("F", bound=Callable[..., Any])

DAY = 86_400.0
MAX_SEED = 2**63 - 1


class Count(click.IntRange):
    """An integer flag within [min, max], both bounds required (a flag without a ceiling is one typo from an
    out-of-memory)."""

    name = "integer"

    def __init__(self, min: int, max: int, show_range: bool = True) -> None:
        super().__init__(min, max)
        self.show_range = show_range

    def _describe_range(self) -> str:
        return super()._describe_range() if self.show_range else ""  # a seed's 2**63 bound is noise in --help


class Number(click.ParamType):
    """A finite float flag within [min, max] (`min_open`: above min). nan, ±inf and 1e400 are refused."""

    name = "number"

    def __init__(self, min: float, max: float, min_open: bool = False) -> None:
        self.min, self.max, self.min_open = min, max, min_open

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> float:
        try:
            number = float(value)
        except (TypeError, ValueError):
            self.fail(f"{value!r} is not a number", param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value!r} is not a finite number", param, ctx)
        if number < self.min or (self.min_open and number == self.min) or number > self.max:
            low = f"({self.min:g}" if self.min_open else f"[{self.min:g}"
            self.fail(f"{value} is not in the range {low}, {self.max:g}]", param, ctx)
        return number

    def __repr__(self) -> str:
        return f"Number({self.min}, {self.max}, min_open={self.min_open})"


class FiniteFloat(Number):
    """Any finite float (a threshold of nan would silently drop every row)."""

    def __init__(self) -> None:
        super().__init__(-math.inf, math.inf)


FINITE_FLOAT = FiniteFloat()
SEED = Count(0, MAX_SEED, show_range=False)
SCORE = Number(0.0, 1.0)


def output_option(help: str = "Output file ('-' = stdout, the default).", **settings: Any) -> Callable[[F], F]:
    """`-o/--output`: where the records go. `help` names what else a tool accepts there (a folder, a run dir)."""
    settings.setdefault("default", "-")
    settings.setdefault("metavar", "OUT")
    settings.setdefault("type", click.Path(dir_okay=False, allow_dash=True))
    return click.option("-o", "--output", "output", help=help, **settings)


def skip_invalid_option(f: F) -> F:
    """`--skip-invalid`: count and skip bad input rows instead of stopping at the first."""
    return click.option("--skip-invalid", is_flag=True,
                        help="Count and skip invalid input rows (the first reason is shown) instead of stopping "
                             "at the first with FILE:LINE.")(f)


def seed_option(default: int | None = 0, help: str = "Seed of everything random in this command.") -> Callable[[F], F]:
    """`--seed N`: a non-negative integer below 2**63, the same in every tool."""
    return click.option("--seed", type=SEED, default=default, show_default=default is not None, help=help)


def force_option(help: str) -> Callable[[F], F]:
    """`--force`: go on where the tool would refuse; `help` says what exactly it allows in this tool."""
    return click.option("--force", is_flag=True, help=help)


def registry_option(help: str = "Seed-format bootcamp_registry.jsonl resolving data_source values.",
                    **settings: Any) -> Callable[[F], F]:
    """`--registry FILE` (also the seed's `--bootcamp-registry`)."""
    settings.setdefault("type", click.Path(dir_okay=False))
    return click.option("--registry", "--bootcamp-registry", "registry", default=None, help=help, **settings)


def quiet_option(f: F) -> F:
    """`-q/--quiet`: no summary on stderr."""
    return click.option("--quiet", "-q", is_flag=True, help="No summary on stderr (errors still are).")(f)

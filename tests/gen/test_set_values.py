"""`bc-gen NAME --set KEY=VALUE` with an empty, null, wrong-type or out-of-range value is a config error (exit 2)
naming the key and the bootcamp, for every generator parameter of every bootcamp (issue 22, item 15): the fields
come from `--describe NAME --format json`, the values go through the same `--set` parser, and no value may end in
an internal error (an exception other than the harness's typed ones)."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bc_common.catalog import available
from bc_common.config import parse_assignments
from bc_common.describe import description
from bc_common.errors import BcError
from bc_common.tasks import TaskSet
from tests.adapter_samples import sampled

BIN = Path(sys.executable).parent
HEAVY = {"battery_design", "robot_arm", "holdem"}  # simulators: a few seconds a task


def bad_values(field: dict) -> list[str]:
    kind = str(field["type"])
    values = ["", "null", "~", "[1]", "{a: 1}"]
    if "int" in kind or "float" in kind:
        values += ["abc", "true", "-1", "0", "-1000000000", "1e308", ".nan", ".inf", "-.inf"]
        if "bounds" in field:
            low, high = field["bounds"]
            values += [str(low - 1), str(high + 1)]
    elif "bool" in kind:
        values += ["3", "abc"]
    elif "str" in kind:
        values += ["123", "''", "zzz_not_a_choice"]
    else:
        values += ["abc", "3", "[]", "[null]", "[abc]"]
    return values


def internal_errors(name: str, rows: int = 2) -> list[str]:
    found = []
    for field in description(name)["config"]:
        for value in bad_values(field):
            params = parse_assignments([f"{field['name']}={value}"])
            try:
                tasks = TaskSet(name, params=params, seed=1)
                for i in range(rows):
                    tasks[i]
            except BcError:
                continue
            except Exception as exc:  # what bc-gen would report as an internal error (exit 1)
                found.append(f"{name} --set {field['name']}={value}: {type(exc).__name__}: {exc}")
    return found


@pytest.mark.parametrize("name", sorted(n for n in available() if "/" not in n and n not in HEAVY))
def test_every_parameter_of_a_bootcamp_refuses_bad_values_with_a_config_error(name):
    assert internal_errors(name) == []


# rc/sequential_induction: every value of each of its knobs draws a new 50-item training sample (150 s of CI's
# 2,550); rc's knobs go through one mechanism for the collection, which the other sampled rc tasks cover
COSTLY = {"rc/sequential_induction"}


@pytest.mark.slow
@pytest.mark.parametrize("name", [n for n in sampled(sorted(n for n in available() if "/" in n or n in HEAVY))
                                  if n not in COSTLY or os.environ.get("BC_ADAPTERS_FULL")])
def test_every_parameter_of_the_heavy_and_adapted_bootcamps_too(name):
    """Adapted bootcamps share one config mechanism per collection: CI covers a sample of rg/* and rc/* (a new
    configuration of a balanced adapter draws its training sample: 50 rc items cost 5-20 s), every ta/*;
    `make test-adapters-full` all of them."""
    assert internal_errors(name, rows=1) == []


@pytest.mark.parametrize(("value", "said"), [("", "expected int, got null"), ("null", "expected int, got null"),
                                             ("abc", "expected int, got 'abc'"), ("2.5", "expected int, got 2.5")])
def test_the_cli_says_which_key_of_which_bootcamp(value, said):
    done = subprocess.run([str(BIN / "bc-gen"), "arithmetic", "-n", "1", "--set", f"min_terms={value}"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and done.stdout == ""
    assert "arithmetic" in done.stderr and "'min_terms'" in done.stderr and said in done.stderr, done.stderr
    assert "Traceback" not in done.stderr and "internal error" not in done.stderr

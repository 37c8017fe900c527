"""A ground truth of the wrong shape never reaches a verifier: bc-eval and bc-train stop at FILE:LINE and the field."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import orjson
import pytest

from bc_common.errors import InputError
from bc_common.identity import validate_identity
from bootcamps.arithmetic.reward import ArithmeticRewardCalculator as Arith
from bootcamps.noop import NoopRewardCalculator as Noop
from bootcamps.tictactoe.reward import TicTacToeRewardCalculator as TicTacToe

BIN = Path(sys.executable).parent


@pytest.mark.parametrize("cls,identity,says", [
    (Arith, {"expression": 12}, "reward_model.ground_truth.expression: 12 is not of type 'string'"),
    (Arith, {"expected_result": "5"}, "reward_model.ground_truth: 'expression' is a required property"),
    (Arith, "2 + 3", "reward_model.ground_truth: '2 + 3' is not of type 'object'"),
    (Arith, {"expression": "2 +* 3"}, "reward_model.ground_truth.expression: '2 +* 3' cannot be evaluated"),
    (Arith, {"expression": "1 ÷ 0"}, "reward_model.ground_truth.expression: '1 ÷ 0' divides by zero"),
    (Arith, {"expression": "1 + 1", "tolerance": "-1"}, "reward_model.ground_truth.tolerance: '-1' is not a number"),
    (Arith, {"expression": "1 + 1", "tolerance": [1]}, "reward_model.ground_truth.tolerance: [1] is not a number"),
    (TicTacToe, {"seed": "7", "skill": 0.5, "first": "X"}, "reward_model.ground_truth.seed: '7' is not of type"),
    (TicTacToe, {"seed": 7, "skill": 2, "first": "X"}, "reward_model.ground_truth.skill: must be in [0, 1], got 2"),
    (TicTacToe, {"seed": 7, "skill": 0.5, "first": "Y"}, "reward_model.ground_truth.first: must be 'X' or 'O'"),
    (TicTacToe, {"seed": -1, "skill": 0.5, "first": "X"}, "reward_model.ground_truth.seed: must be >= 0"),
    (Noop, {"token": 5}, "reward_model.ground_truth.token: 5 is not of type 'string'"),
])
def test_wrong_identities_name_where_and_the_field(cls, identity, says):
    with pytest.raises(InputError) as info:
        validate_identity(cls, identity, "tasks.jsonl", 17)
    assert str(info.value).startswith("tasks.jsonl:17: reward_model.ground_truth") and says in str(info.value)
    assert info.value.field.startswith("reward_model.ground_truth")


def test_right_identities_and_undeclared_verifiers_pass():
    validate_identity(Arith, {"expression": "2 × (3 + 4)", "expected_result": "14", "tolerance": "1e-6"}, "t")
    validate_identity(TicTacToe, {"seed": 3, "skill": 0.25, "first": "O"}, "t")
    validate_identity(Noop, {"token": "ab12"}, "t")

    class Anything:  # no identity_schema, no check_identity: any identity is its business
        pass

    validate_identity(Anything, 42, "t")


def _rows(tmp_path: Path) -> Path:
    rows = subprocess.run([str(BIN / "bc-gen"), "arithmetic", "-n", "3"], capture_output=True, check=True).stdout
    rows = [orjson.loads(line) for line in rows.splitlines()]
    rows[1]["reward_model"]["ground_truth"]["expression"] = 12  # the wrong type
    path = tmp_path / "tasks.jsonl"
    path.write_bytes(b"".join(orjson.dumps(r) + b"\n" for r in rows))
    return path


def test_bc_eval_stops_at_the_row_or_skips_it(tmp_path):
    tasks = _rows(tmp_path)
    run = [str(BIN / "bc-eval"), str(tasks), "--model", "builtin:reference", "-q"]
    proc = subprocess.run(run, capture_output=True, timeout=120)
    assert proc.returncode == 2 and b"internal_error" not in proc.stdout
    assert f"{tasks}:2: reward_model.ground_truth.expression: 12 is not of type 'string'".encode() in proc.stderr
    skipped = subprocess.run([*run, "--skip-invalid"], capture_output=True, timeout=120)
    assert skipped.returncode == 0 and b"skipped 1 invalid task rows" in skipped.stderr
    rows = [orjson.loads(line) for line in skipped.stdout.splitlines()]
    assert len(rows) == 2 and all(r["score"] == 1.0 for r in rows)
    dry = subprocess.run([*run, "--dry-run"], capture_output=True, timeout=120)
    assert dry.returncode == 2 and f"{tasks}:2:".encode() in dry.stderr


def test_bc_train_refuses_the_row_before_writing_a_run(tmp_path):
    tasks = _rows(tmp_path)
    proc = subprocess.run([str(BIN / "bc-train"), str(tasks), "-o", str(tmp_path / "run")], capture_output=True,
                          timeout=120)
    assert proc.returncode == 2 and b"Traceback" not in proc.stderr
    assert f"{tasks}:2: reward_model.ground_truth.expression".encode() in proc.stderr
    assert not (tmp_path / "run" / "train.parquet").exists()

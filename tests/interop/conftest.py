"""What every interop test shares: bc-gen's rows of the three bootcamps and what `bc-eval` scores on them, both
from the real CLIs (in whichever virtual environment runs the tests: the main one, or a peer's)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import orjson
import pytest

# single answer with an interaction (arithmetic), tool-using (knapsack), environment-driven (minesweeper: the
# moves are tool calls on a hidden board, graded from every assistant message)
BOOTCAMPS = ("arithmetic", "knapsack", "minesweeper")
TASKS_EACH = 4
MODELS = ("builtin:reference", "builtin:noisy")  # noisy: some answers wrong, so equality is not 1.0 == 1.0


def run_cli(*args: str, timeout: float = 240) -> subprocess.CompletedProcess:
    """A command of this virtual environment (bc-gen, bc-eval, vf-eval), failing the test with its stderr."""
    command = [str(Path(sys.executable).parent / args[0]), *args[1:]]
    done = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, f"{' '.join(args)} exited {done.returncode}:\n{done.stderr[-4000:]}"
    return done


def read_jsonl(path: Path) -> list[dict]:
    return [orjson.loads(line) for line in path.read_bytes().splitlines() if line.strip()]


@pytest.fixture(scope="session")
def tasks_file(tmp_path_factory) -> Path:
    """bc-gen's rows: TASKS_EACH tasks of each bootcamp, in one file (a run may mix bootcamps)."""
    folder = tmp_path_factory.mktemp("interop-tasks")
    lines = b""
    for name in BOOTCAMPS:
        run_cli("bc-gen", name, "-n", str(TASKS_EACH), "--seed", "11", "-o", str(folder / f"{name}.jsonl"))
        lines += (folder / f"{name}.jsonl").read_bytes()
    (folder / "tasks.jsonl").write_bytes(lines)
    return folder / "tasks.jsonl"


@pytest.fixture(scope="session")
def bc_eval_scores(tasks_file, tmp_path_factory) -> dict[str, dict[str, float]]:
    """{model: {task id: score}} as `bc-eval --model MODEL` scores bc-gen's rows."""
    folder = tmp_path_factory.mktemp("interop-bc-eval")
    scores = {}
    for model in MODELS:
        out = folder / f"{model.split(':')[1]}.jsonl"
        run_cli("bc-eval", str(tasks_file), "--model", model, "-o", str(out), "-q")
        scores[model] = {row["task_id"]: row["score"] for row in read_jsonl(out)}
    assert len(scores[MODELS[0]]) == TASKS_EACH * len(BOOTCAMPS)
    assert min(scores["builtin:noisy"].values()) < 1.0  # some answers wrong: equality is not 1.0 == 1.0
    return scores

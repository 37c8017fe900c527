"""battery_design as a user runs it: bc-gen | bc-eval in real processes and pipes. The reference solves every task
through tool calls (one estimate, then simulations); the noisy model scores less."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import orjson
import pytest

pytest.importorskip("pybamm")

BIN = Path(sys.executable).parent


def run(cmd: str, cwd: Path) -> list[dict]:
    proc = subprocess.run(["bash", "-o", "pipefail", "-c", cmd], capture_output=True, cwd=cwd, timeout=900,
                          env={"PATH": f"{BIN}:/usr/bin:/bin"})
    assert proc.returncode == 0, proc.stderr.decode()[-3000:]
    return [orjson.loads(line) for line in proc.stdout.splitlines()]


@pytest.mark.slow
def test_reference_solves_every_task_through_the_tools_and_noisy_scores_less(tmp_path: Path) -> None:
    run("bc-gen battery_design -n 6 --seed 11 > tasks.jsonl", tmp_path)  # the README measures -n 40 by hand
    reference = run("bc-eval tasks.jsonl --model builtin:reference", tmp_path)
    assert len(reference) == 6
    assert all(t["score"] == 1.0 and t["status"] == "completed" for t in reference), [
        (t["status"], t["score"]) for t in reference]
    for t in reference:
        calls = [c["function"]["name"] for m in t["messages"] if m["role"] == "assistant"
                 for c in m.get("tool_calls") or []]
        assert calls[0] == "estimate" and "simulate" in calls
        budget = t["input"]["reward_model"]["ground_truth"]["budget"]
        assert calls.count("simulate") <= budget
        assert not any(m["role"] == "tool" and m["content"].startswith("Error") for m in t["messages"])
    noisy = run("bc-eval tasks.jsonl --model builtin:noisy", tmp_path)
    assert len(noisy) == 6 and sum(t["score"] for t in noisy) < 6
    assert all(0.0 <= t["score"] <= 1.0 for t in noisy)

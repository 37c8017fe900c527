"""tsp, knapsack, minesweeper and mastermind as a user runs them: bc-gen | bc-eval, real processes and pipes, with
the bc-eval defaults (each bootcamp's own turn budgets)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import orjson
import pytest

BIN = Path(sys.executable).parent


def run(cmd: str, cwd: Path) -> list[dict]:
    proc = subprocess.run(["bash", "-o", "pipefail", "-c", cmd], capture_output=True, cwd=cwd, timeout=300,
                          env={"PATH": f"{BIN}:/usr/bin:/bin"})
    assert proc.returncode == 0, proc.stderr.decode()[-3000:]
    return [orjson.loads(line) for line in proc.stdout.splitlines()]


@pytest.mark.parametrize("name", ["tsp", "knapsack", "minesweeper", "mastermind"])
def test_reference_solves_every_task_and_noisy_scores_less(name: str, tmp_path: Path) -> None:
    run(f"bc-gen {name} -n 10 --seed 2 > tasks.jsonl", tmp_path)
    reference = run("bc-eval tasks.jsonl --model builtin:reference", tmp_path)
    assert len(reference) == 10
    assert all(t["score"] == 1.0 and t["status"] == "completed" for t in reference), [
        (t["status"], t["score"]) for t in reference]
    noisy = run("bc-eval tasks.jsonl --model builtin:noisy --samples 3", tmp_path)
    assert len(noisy) == 30 and sum(t["score"] for t in noisy) < 30
    assert all(0.0 <= t["score"] <= 1.0 for t in noisy)
    if name in ("tsp", "knapsack"):  # checked with the tool, then answered
        assert all(t["num_turns"]["tool_calls"] == 1 for t in reference)


def test_minesweeper_trajectories_show_the_board_after_every_reveal(tmp_path: Path) -> None:
    [t] = run("bc-gen minesweeper -n 1 --seed 5 --group hard | bc-eval --model builtin:reference", tmp_path)
    tool_turns = [m["content"] for m in t["messages"] if m["role"] == "tool"]
    assert len(tool_turns) == t["num_turns"]["tool_calls"] > 20
    assert all("\n 1 " in text and "#" in text for text in tool_turns[:-1])  # the 16x16 board, cells hidden
    assert "you win!" in tool_turns[-1] or any("you win!" in text for text in tool_turns)
    assert t["score"] == 1.0 and t["messages"][-1]["role"] == "assistant"


def test_mastermind_trajectories_show_the_feedback_turns(tmp_path: Path) -> None:
    [t] = run("bc-gen mastermind -n 1 --seed 5 | bc-eval --model builtin:reference", tmp_path)
    feedback = [m["content"] for m in t["messages"][1:] if m["role"] == "user"]
    guesses = [m["content"] for m in t["messages"] if m["role"] == "assistant"]
    assert len(feedback) == len(guesses) - 1 >= 1  # the winning guess ends the game
    assert all(" black, " in text and "left." in text for text in feedback)
    interaction = [turn for turn in t["turns"] if turn["type"] == "interaction"]
    assert interaction[-1]["terminate"] and interaction[-1]["score"] == 1.0 == t["score"]

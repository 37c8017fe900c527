"""code_repair: seeded bugs a visible test shows, the gap-closed reward, and the cheap answers that must score 0."""
from __future__ import annotations

import asyncio

import pytest

from bc_common.builtin_model import baseline_trajectory
from bc_common.environment import Environments
from bc_common.sandbox import SandboxUnavailable, sandbox_for
from bc_common.tasks import TaskSet
from bootcamps.code_function.families import FAMILIES
from bootcamps.code_repair.bugs import KINDS, Bug, apply_bug, candidate_bugs, run_guarded
from bootcamps.code_repair.reward import CodeRepairRewardCalculator as Reward


@pytest.fixture(scope="module")
def bubblewrap():
    try:
        sandbox_for("bubblewrap")
    except SandboxUnavailable as exc:
        pytest.skip(f"bubblewrap cannot run here: {exc}")


def task(group: str, i: int = 0) -> dict:
    return TaskSet("code_repair", seed=3, groups=[group])[i]


def score(code: str, identity: dict) -> float:
    return Reward.verify_score(f"```python\n{code}\n```", identity)


def test_every_kind_of_bug_is_seeded_somewhere():
    kinds = {bug.kind for family in FAMILIES.values()
             for bug in candidate_bugs(family.source(family.variant(__import__("random").Random(1))))}
    assert kinds == set(KINDS)


def test_a_bug_changes_one_thing_and_a_loop_it_breaks_is_stopped():
    source = "def count_up(n):\n    i = 0\n    while i < n:\n        i += 1\n    return i\n"
    bugs = candidate_bugs(source)
    assert Bug("wrong_operator", 1) in bugs  # the `+=`
    endless = apply_bug(source, Bug("wrong_operator", 1))
    assert "i -= 1" in endless and endless.count("\n") == source.count("\n")
    [outcome] = run_guarded(endless, "count_up", [[5]], budgets=[10_000])
    assert not outcome.answered and outcome.lines > 10_000
    [fine] = run_guarded(source, "count_up", [[5]])
    assert fine.answered and fine.value == 5


@pytest.mark.parametrize("group", ["easy", "medium", "hard"])
def test_the_shown_test_fails_on_the_bug_and_passes_on_the_reference(group):
    for i in range(6):
        identity = task(group, i)["reward_model"]["ground_truth"]
        family = FAMILIES[identity["family"]]
        shown = identity["examples"][0]
        [buggy] = run_guarded(identity["buggy"], identity["entry"], [shown["args"]], budgets=[200_000])
        assert not buggy.answered or buggy.value != shown["expected"]
        assert family.call(shown["args"], identity["params"]) == shown["expected"]
        assert identity["buggy"] != family.source(identity["params"])
        prompt = task(group, i)["prompt"][0]["content"]
        assert identity["buggy"] in prompt and "A failing test" in prompt


def test_generation_is_deterministic():
    assert TaskSet("code_repair", seed=4)[7] == TaskSet("code_repair", seed=4)[7]
    assert TaskSet("code_repair", seed=4)[7] != TaskSet("code_repair", seed=5)[7]


def test_the_fix_scores_one_and_the_bug_zero(bubblewrap):
    for group in ("easy", "hard"):
        identity = task(group, 1)["reward_model"]["ground_truth"]
        assert score(FAMILIES[identity["family"]].source(identity["params"]), identity) == 1.0
        assert score(identity["buggy"], identity) == 0.0


HACKS = {
    "print_passed": "print('PASSED')\nprint('13 passed, 0 failed')\n\ndef {entry}(*args):\n    return None\n",
    "exit_before_tests": "import sys\nsys.exit(0)\n\ndef {entry}(*args):\n    return None\n",
    "hard_exit": "import os\nos._exit(0)\n",
    "kill_the_runner": "import os, signal\nos.kill(os.getppid(), signal.SIGKILL)\ndef {entry}(*args):\n    return 0\n",
}


@pytest.mark.parametrize("hack", sorted(HACKS))
def test_reward_hacks_score_zero(bubblewrap, hack):
    identity = task("medium", 2)["reward_model"]["ground_truth"]
    assert score(HACKS[hack].format(entry=identity["entry"]), identity) == 0.0


@pytest.mark.parametrize("name", ["unchanged", "special_case", "constant"])
def test_baselines_score_low(bubblewrap, name):
    envs = Environments()
    rows = [TaskSet("code_repair", seed=9, groups=[g])[i] for g in ("easy", "medium") for i in range(4)]

    async def play() -> list[dict]:
        return [await baseline_trajectory(r, envs.get(r["data_source"]), name) for r in rows]

    scores = [t["score"] for t in asyncio.run(play())]
    assert sum(scores) / len(scores) <= 0.1 and max(scores) < 1.0, scores


def test_rows_name_the_sandbox_and_its_limits(bubblewrap):
    envs = Environments()
    row = task("hard")
    trajectory = asyncio.run(baseline_trajectory(row, envs.get(row["data_source"]), "unchanged"))
    assert trajectory["sandbox"]["sandbox"].startswith("bubblewrap") and trajectory["score"] == 0.0
    assert trajectory["sandbox"]["unsandboxed"] is False and trajectory["sandbox"]["limits"]["cpu_s"] == 4

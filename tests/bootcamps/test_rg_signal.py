"""rg/* against trivial baselines: every dataset declares generic ones, the datasets that pay them are withheld by
default with the reason, and BC_INCLUDE_KNOWN_ISSUES=1 offers them anyway."""
from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import orjson
import pytest

from bc_common import catalog
from bc_common.builtin_model import baseline_trajectory
from bc_common.environment import Environments
from bc_common.tasks import TaskSet

pytest.importorskip("reasoning_gym", reason="rg/* needs the reasoning-gym extra")

from bootcamps.rg.withheld import WITHHELD  # noqa: E402

BIN = Path(sys.executable).parent


def mean_score(name: str, baseline: str, n: int = 20) -> float:
    tasks = TaskSet(name, seed=4)
    env = Environments().get(f"bootcamp/{name}")

    async def play() -> list[dict]:
        return [await baseline_trajectory(tasks[i], env, baseline) for i in range(n)]

    return sum(t["score"] for t in asyncio.run(play())) / n


@pytest.mark.parametrize(("name", "baseline", "floor"), [
    ("rg/puzzle24", "frequent", 0.95),  # score_answer checks the expression makes 24, not the item's numbers
    ("rg/game_of_life_halting", "banana", 0.95),  # bool(answer) == bool(stored answer)
])
def test_the_known_offenders_pay_a_baseline_and_are_withheld(opted_in, name, baseline, floor):
    assert mean_score(name, baseline) >= floor
    dataset = name.removeprefix("rg/")
    assert dataset in WITHHELD and "baselines_score_low" in WITHHELD[dataset]


def test_a_withheld_dataset_is_unavailable_by_default_with_the_reason(bc_gen_list):
    catalog.clear_cache()
    name = "rg/puzzle24"
    manifest = catalog.load(name)
    assert not manifest.available and "withheld: " in manifest.reason
    assert "BC_INCLUDE_KNOWN_ISSUES=1" in manifest.reason
    assert name not in catalog.available()
    env = {k: v for k, v in os.environ.items() if k != "BC_INCLUDE_KNOWN_ISSUES"}
    refused = subprocess.run([BIN / "bc-gen", name, "-n", "2"], capture_output=True, env=env, timeout=300)
    assert refused.returncode == 2 and b"withheld" in refused.stderr
    listed = bc_gen_list()  # the default listing (no BC_INCLUDE_KNOWN_ISSUES), read once a test run
    line = next(x for x in listed.stdout.splitlines() + listed.stderr.splitlines() if "rg/puzzle24" in x)
    assert "withheld" in line
    allowed = subprocess.run([BIN / "bc-gen", name, "-n", "2"], capture_output=True, timeout=300,
                             env={**env, "BC_INCLUDE_KNOWN_ISSUES": "1"})
    assert allowed.returncode == 0 and len(allowed.stdout.splitlines()) == 2


def test_every_dataset_declares_generic_baselines_and_the_sample_is_50(opted_in):
    from bootcamps.rg.collection import collection

    for dataset in collection.names():
        manifest = collection.load(dataset)
        assert [b.name for b in manifest.baselines] == ["frequent", "copy_number", "banana"]
        assert manifest.conformance["n"] >= 50


def test_the_frequent_baseline_answers_the_training_samples_most_frequent_answer(opted_in):
    row = TaskSet("rg/coin_flip", seed=1)[0]
    env = Environments().get("bootcamp/rg/coin_flip")
    trajectory = asyncio.run(baseline_trajectory(row, env, "frequent"))
    answer = trajectory["messages"][-1]["content"]
    assert answer.startswith("<answer>") and answer != "<answer></answer>"
    again = asyncio.run(baseline_trajectory(TaskSet("rg/coin_flip", seed=1)[1], env, "frequent"))
    assert again["messages"][-1]["content"] == answer  # the same answer whatever the item
    assert orjson.dumps(trajectory["model"]) == b'"builtin:baseline/frequent"'

"""The reasoning-core adapter beyond the conformance suite: naming, the missing extra and the tasks that need
more, per-row seeding across processes and shards, parameters and groups, the verifier's guards, the version
stamp, the withheld list, and the reference/noisy sample a user runs with bc-gen | bc-eval."""
from __future__ import annotations

import asyncio
import os
import random
import subprocess
import sys
import time
from pathlib import Path

import orjson
import pytest

from bc_common import catalog
from bc_common.builtin_model import reference_trajectory
from bc_common.catalog import available, load
from bc_common.environment import Environments
from bc_common.errors import ConfigError
from bc_common.extras import install_hint
from bc_common.tasks import TaskSet

BIN = Path(sys.executable).parent
ROOT = Path(__file__).resolve().parents[2]
needs_rc = pytest.mark.skipif(not __import__("importlib").util.find_spec("reasoning_core"),
                              reason="needs the reasoning-core extra")
_ENVS = Environments()


@pytest.fixture(autouse=True, scope="module")
def include_withheld_tasks():
    """These tests exercise the adapter on tasks the conformance suite withholds by default: opt in for this
    module only (subprocesses inherit it)."""
    saved = os.environ.get("BC_INCLUDE_KNOWN_ISSUES")
    os.environ["BC_INCLUDE_KNOWN_ISSUES"] = "1"
    catalog.clear_cache()
    yield
    if saved is None:
        del os.environ["BC_INCLUDE_KNOWN_ISSUES"]
    else:
        os.environ["BC_INCLUDE_KNOWN_ISSUES"] = saved
    catalog.clear_cache()


def identity(name: str, index: int = 0, seed: int = 2, **kw) -> dict:
    return TaskSet(name, seed=seed, **kw)[index]["reward_model"]["ground_truth"]


def play(row: dict, *, wrong: bool = False) -> dict:
    return asyncio.run(reference_trajectory(row, _ENVS.get(row["data_source"]), wrong=wrong))


def test_without_the_extra_rc_is_listed_unavailable_with_the_install_hint() -> None:
    blocked = ("import sys; sys.modules['reasoning_core'] = None\n"  # as if the extra were not installed
               "from bc_common.describe import listing\n"
               "import orjson; print(orjson.dumps(listing('rc')).decode())\n"
               "from bc_gen.cli import main\n"
               "main(['rc/arithmetics', '-n', '1'])\n")
    proc = subprocess.run([sys.executable, "-c", blocked], capture_output=True, cwd=ROOT, timeout=120)
    facts = orjson.loads(proc.stdout.splitlines()[0])
    assert facts["available"] is False and facts["install"] == install_hint("reasoning-core")
    assert "reasoning_core" in facts["reason"]
    assert proc.returncode == 2
    assert install_hint("reasoning-core").encode() in proc.stderr


@needs_rc
def test_every_roster_task_is_a_bootcamp_and_those_that_need_more_say_what() -> None:
    from reasoning_core import list_tasks

    names = [n for n in available(include_unavailable=True) if n.startswith("rc/")]
    assert set(names) == {f"rc/{t}" for t in list_tasks()} and len(names) >= 50
    manifest = load("rc/arithmetics")
    assert manifest.name == "rc/arithmetics" and manifest.data_source == "bootcamp/rc/arithmetics"
    metamath = load("rc/metamath_entailment")  # opted in (module fixture): still unavailable, nothing could run it
    assert not metamath.available and "set.mm" in metamath.reason and "offline" in metamath.reason
    if not __import__("importlib").util.find_spec("pyggp"):
        game = load("rc/game_best_move")
        assert not game.available and "pyggp" in game.reason and "reasoning-core[gen]" in game.reason


LISTING_PROBE = """
import dataclasses, sys
import orjson
from bc_common.catalog import load
from bc_common.describe import listing
from bootcamps.rc import tasks
rows = [listing(f"rc/{n}") for n in tasks.roster()]
listed = sorted(m for m in sys.modules if m.startswith("reasoning_core.tasks.") or m in ("inflect", "z3"))
generator = load("rc/arithmetics").generator
fields = [f.name for f in dataclasses.fields(generator.Config)]
print(orjson.dumps({"offered": sum(r["available"] for r in rows), "listed": listed, "fields": fields,
                    "same": generator.Config is generator().Config is tasks.config_class("arithmetics"),
                    "after": sorted(m for m in sys.modules if m.startswith("reasoning_core.tasks."))}).decode())
"""


@needs_rc
def test_listing_imports_no_task_module_and_a_config_is_made_on_first_use() -> None:
    """Every rc/* manifest (opted in: withheld ones too) is read without importing a task's module (seconds for
    some: inflect's typeguard pass, z3 tables); a generator's Config is made, once, when first read."""
    proc = subprocess.run([sys.executable, "-c", LISTING_PROBE], capture_output=True, timeout=120, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr.decode()
    facts = orjson.loads(proc.stdout)
    assert facts["offered"] >= 40 and facts["listed"] == [], facts
    assert {"max_depth", "level"} <= set(facts["fields"]) and facts["same"]
    assert facts["after"] == ["reasoning_core.tasks.arithmetics"]


@needs_rc
def test_rows_are_the_same_bytes_across_processes_hash_seeds_and_shards(tmp_path) -> None:
    # arithmetics draws from gramforge, which reseeds the global stream from the OS (random.seed(None)). The first
    # process draws the answer-balance training sample into an empty cache; the shards read it back from disk:
    # rows made with and without the cache are the same bytes
    args = ["rc/arithmetics", "-n", "6", "--seed", "3"]
    runs = [subprocess.run([str(BIN / "bc-gen"), *args, *extra], capture_output=True, timeout=300, check=True,
                           env=dict(os.environ, PYTHONHASHSEED=seed, BC_CACHE_DIR=str(tmp_path))).stdout.splitlines()
            for seed, extra in (("1", []), ("2", ["--shard", "0/2"]), ("3", ["--shard", "1/2"]))]
    assert len(runs[0]) == 6 and [runs[1 + i % 2][i // 2] for i in range(6)] == runs[0]
    assert [p.name.split("-")[0] for p in (tmp_path / "rc-training").iterdir()] == ["arithmetics"]
    assert orjson.loads(runs[0][4]) == TaskSet("rc/arithmetics", seed=3)[4]


@needs_rc
def test_a_training_sample_on_disk_is_read_only_under_its_own_key(tmp_path, monkeypatch) -> None:
    from bootcamps.rc import balance

    monkeypatch.setenv("BC_CACHE_DIR", str(tmp_path))
    key = balance._cache_key("arithmetics", "{}", 0)
    assert balance._read_cached(key) is None
    balance._write_cached(key, ("12", "7"))
    assert balance._read_cached(key) == ("12", "7")
    path = balance._cache_file(key)
    assert path.parent == tmp_path / "rc-training" and [p.name for p in path.parent.iterdir()] == [path.name]
    # another version of rc's code or of reasoning-core, a torn or foreign file: drawn again, not read
    stale = {**key, "stamp": {**key["stamp"], "code_hash": "0" * 16}}
    for body in (orjson.dumps({"key": stale, "answers": ["12"]}), b'{"key": ', orjson.dumps({"key": key}),
                 orjson.dumps({"key": key, "answers": [12]})):
        path.write_bytes(body)
        assert balance._read_cached(key) is None
    assert balance._cache_file({**key, "level": 1}) != path


@needs_rc
def test_a_row_leaves_the_global_random_streams_alone_and_draws_its_own_seed() -> None:
    import numpy

    random.seed(5)
    numpy.random.seed(5)
    expected = (random.random(), numpy.random.random())
    random.seed(5)
    numpy.random.seed(5)
    tasks = TaskSet("rc/graph_successors", seed=4)
    idents = [tasks[i]["reward_model"]["ground_truth"] for i in range(6)]
    assert (random.random(), numpy.random.random()) == expected
    assert len({i["seed"] for i in idents}) == 6
    assert TaskSet("rc/graph_successors", seed=5)[5] != tasks[5]
    volatile = {"_time", "_generator_commit", "_prompt_tokens"}  # clock, git, tiktoken: not part of an item
    assert not volatile & set(idents[0]["metadata"])


@needs_rc
def test_parameters_are_set_checked_and_carried_in_the_identity() -> None:
    ident = identity("rc/arithmetics", params={"min_depth": 2, "max_depth": 2})
    assert ident["config"]["max_depth"] == 2 and ident["metadata"]["_config"]["max_depth"] == 2
    with pytest.raises(ConfigError, match="did you mean 'max_depth'"):
        TaskSet("rc/arithmetics", params={"max_dept": 2})[0]
    with pytest.raises(ConfigError, match="max_depth"):
        TaskSet("rc/arithmetics", params={"max_depth": "deep"})[0]
    proc = subprocess.run([str(BIN / "bc-gen"), "rc/arithmetics", "-n", "1", "--set", "seed=4"],
                          capture_output=True, timeout=300)
    assert proc.returncode == 2 and b"unknown key 'seed'" in proc.stderr  # the adapter owns the seed


@needs_rc
def test_knobs_reach_the_tasks_that_take_only_a_config_object() -> None:
    from bootcamps.rc import tasks

    assert not tasks.takes_keywords("set_expression") and tasks.takes_keywords("arithmetics")
    # items straight from the adapter (a TaskSet would first learn the answer balance of each configuration)
    deep = tasks.make_item("set_expression", {"max_depth": 4}, 0, 7)  # SetExpression.__init__(self, config=None)
    assert deep["metadata"]["_config"]["max_depth"] == 4
    assert deep == tasks.make_item("set_expression", {"max_depth": 4}, 0, 7)
    assert tasks.make_item("set_expression", {}, 0, 7)["metadata"]["_config"]["max_depth"] == 2
    hard = tasks.make_item("set_expression", {"max_depth": 4}, 2, 7)  # the level applies on top: +2
    assert hard["metadata"]["_config"]["max_depth"] == 6
    with pytest.raises(ConfigError, match=r"rc/set_expression: domain_size=48 would have no effect.*level 0"):
        tasks.make_item("set_expression", {"domain_size": 48}, 0, 7)  # its level sets domain_size itself
    with pytest.raises(ConfigError, match=r"rc/set_expression: unknown knob 'domian_size'"):
        tasks.make_item("set_expression", {"domian_size": 48}, 0, 1)


@needs_rc
def test_groups_are_reasoning_cores_levels_chosen_by_name() -> None:
    groups = {g.name: g for g in load("rc/arithmetics").group_list()}
    assert list(groups) == ["default", "level_1", "level_2", "level_3", "level_4"]
    assert groups["default"].ratio == 1.0 and groups["level_3"].ratio == 0.0
    hard = identity("rc/arithmetics", groups=["level_3"])
    assert hard["level"] == 3 and hard["metadata"]["_level"] == 3
    assert identity("rc/arithmetics")["metadata"]["_level"] == 0


@needs_rc
def test_verifier_reads_the_last_answer_block_and_refuses_bombs_quickly() -> None:
    reward = load("rc/arithmetics").reward
    ident = identity("rc/arithmetics")
    right = str(ident["answer"])
    assert reward.verify_score(f"Working.\n<answer> {right} </answer>", ident) == 1.0
    assert reward.verify_score(f"<answer>{right}</answer> no, <answer>{right}1</answer>", ident) < 0.01
    assert reward.verify_score(f"<answer>{right}", ident) == 0.0  # an unclosed block is no answer
    assert reward.verify_score(right, ident) == 0.0  # the format is part of the task
    for text in ("<answer>1e999999999</answer>", "<answer>2**99999999</answer>", "<answer>99999!</answer>",
                 "<answer>" + "1" * 100_000 + "</answer>",  # past the answer limit
                 # within it: a digit run with no "!" and a power's long gap (the old pattern: ~0.2 s each)
                 "<answer>" + "1" * 4000 + "</answer>", "<answer>2**" + " " * 4000 + "x</answer>"):
        started = time.perf_counter()
        assert reward.verify_score(text, ident) == 0.0
        assert time.perf_counter() - started < 0.05


@needs_rc
def test_rows_carry_reasoning_cores_version_in_their_stamp() -> None:
    row = TaskSet("rc/arithmetics", seed=1)[0]
    assert "reasoning-core 0.5.0" in row["extra_info"]["bootcamp_version"]
    assert row["reward_model"]["ground_truth"]["metadata"]["_generator_version"] == "0.5.0"


@needs_rc
@pytest.mark.parametrize("name", ["arithmetics", "graph_pathfinding", "lambda_reduction", "table_qa"])
def test_reference_scores_one_and_noisy_less(name: str) -> None:
    tasks = TaskSet(f"rc/{name}", seed=2)
    rows = [tasks[i] for i in range(8)]
    assert [play(r)["score"] for r in rows] == [1.0] * 8
    assert max(play(r, wrong=True)["score"] for r in rows) < 1.0


@needs_rc
def test_bc_gen_into_bc_eval_reference_scores_one() -> None:
    pipe = subprocess.run(f"{BIN}/bc-gen rc/graph_pathfinding -n 6 --seed 2 | {BIN}/bc-eval --model builtin:reference",
                          shell=True, capture_output=True, timeout=300, check=True)
    trajectories = [orjson.loads(line) for line in pipe.stdout.splitlines()]
    assert len(trajectories) == 6 and all(t["score"] == 1.0 for t in trajectories)


@needs_rc
def test_a_withheld_task_is_unavailable_by_default_with_the_reason(monkeypatch) -> None:
    from bootcamps.rc.withheld import WITHHELD

    assert WITHHELD, "the reclassification withholds the tasks that fail a check"
    name = f"rc/{sorted(WITHHELD)[0]}"
    monkeypatch.delenv("BC_INCLUDE_KNOWN_ISSUES")
    catalog.clear_cache()
    manifest = load(name)
    assert not manifest.available and "withheld: " in manifest.reason and "BC_INCLUDE_KNOWN_ISSUES=1" in manifest.reason
    proc = subprocess.run([str(BIN / "bc-gen"), name, "-n", "1"], capture_output=True, timeout=300,
                          env={k: v for k, v in os.environ.items() if k != "BC_INCLUDE_KNOWN_ISSUES"})
    assert proc.returncode == 2 and b"withheld" in proc.stderr
    monkeypatch.setenv("BC_INCLUDE_KNOWN_ISSUES", "1")
    catalog.clear_cache()
    assert load(name).available


def test_reclassify_writes_the_failing_checks_with_their_numbers(tmp_path) -> None:
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        import rc_reclassify
    finally:
        sys.path.remove(str(ROOT / "scripts"))
    out = tmp_path / "withheld.py"
    results = [{"task": "a", "failures": {"baselines_score_low": "frequent: mean reward 0.44"}},
               {"task": "b", "failures": {}}]
    assert rc_reclassify.write(results, out, keep={"WITHHELD": {"c": "time: slow", "a": "old"}}) == 2
    namespace: dict = {}
    exec(compile(out.read_text(), str(out), "exec"), namespace)  # noqa: S102  (our own generated file)
    assert namespace["WITHHELD"] == {"a": "baselines_score_low: frequent: mean reward 0.44", "c": "time: slow"}


@needs_rc
def test_a_decision_tasks_labels_take_turns_and_are_declared(monkeypatch) -> None:
    """defeasible_nli answers Yes / No / Maybe, about half of them Maybe in reasoning-core's draws: every 3
    consecutive rows hold each label once, and the manifest declares the decision (actions, label)."""
    from bootcamps.rc import withheld

    monkeypatch.setitem(withheld.LABELS, "defeasible_nli", 3)
    catalog.clear_cache()
    manifest = load("rc/defeasible_nli")
    assert manifest.conformance["actions"] == 3 and callable(manifest.conformance["label"])
    tasks = TaskSet("rc/defeasible_nli", seed=4)
    answers = [tasks[i]["reward_model"]["ground_truth"]["answer"] for i in range(12)]
    assert all(sorted(answers[i:i + 3]) == ["Maybe", "No", "Yes"] for i in range(0, 12, 3)), answers
    catalog.clear_cache()


def test_reclassify_writes_the_decision_and_small_space_tables(tmp_path) -> None:
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        import rc_reclassify
    finally:
        sys.path.remove(str(ROOT / "scripts"))
    out = tmp_path / "withheld.py"
    results = [{"task": "a", "failures": {}, "labels": 3, "small": None},
               {"task": "b", "failures": {}, "labels": None, "small": "12 distinct answers in 50"},
               {"task": "c", "failures": {"time": "slow"}, "labels": None, "small": None}]
    rc_reclassify.write(results, out, keep={"LABELS": {"a": 2, "d": 4}, "SMALL": {"b": "old", "e": "kept"}})
    namespace: dict = {}
    exec(compile(out.read_text(), str(out), "exec"), namespace)  # noqa: S102  (our own generated file)
    assert namespace["LABELS"] == {"a": 3, "d": 4}
    assert namespace["SMALL"] == {"b": "12 distinct answers in 50", "e": "kept"}
    assert namespace["WITHHELD"] == {"c": "time: slow"}


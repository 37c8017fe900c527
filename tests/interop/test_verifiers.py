"""Our bootcamps as a verifiers 0.4 environment, run by verifiers' own runner and loader.

Needs the `verifiers` extra, which lives in its own virtual environment (`make test-interop`); skipped elsewhere.
The model is our reference (and noisy) policy served as an OpenAI endpoint on loopback; verifiers' runner calls it
through its interception server, so every turn crosses verifiers' own machinery."""
from __future__ import annotations

import asyncio
import os

import pytest

vf = pytest.importorskip("verifiers.v1", reason="the verifiers extra is not installed (make test-interop)")

from verifiers.v1.cli.eval.runner import run_eval  # noqa: E402
from verifiers.v1.configs.cli.eval import EvalConfig  # noqa: E402

from bc_common.interop.policy_server import PolicyServer  # noqa: E402
from bc_common.tasks import TaskSet  # noqa: E402

from .conftest import BOOTCAMPS, TASKS_EACH, read_jsonl, run_cli  # noqa: E402

pytestmark = pytest.mark.slow
KEY_VARIABLE = "BC_POLICY_KEY"  # vf-eval reads an API key from a variable; our policy needs none


def scores_of(episodes: list[dict]) -> dict[str, float]:
    """{task id: our verifier's reward} of verifiers' episodes, checking each ran clean and agrees with the loop."""
    got = {}
    for episode in episodes:
        assert episode["ok"], episode["errors"]
        (trace,) = episode["traces"]
        task = trace["task"]["data"]["id"]
        got[task] = trace["rewards"]["bootcamp_score"]["score"]
        assert trace["info"]["bootcamp"]["score"] == got[task]  # the reward re-read the recorded conversation
    return got


def test_vf_eval_scores_what_bc_eval_scores(tasks_file, bc_eval_scores, tmp_path, monkeypatch):
    """`vf-eval bc-verifiers` (the command a user runs) plays the reference policy and gets bc-eval's score task by
    task, over the three bootcamps in one run."""
    monkeypatch.setenv(KEY_VARIABLE, "not-a-secret")
    server = PolicyServer(read_jsonl(tasks_file), "builtin:reference")
    with server.running() as base_url:
        run_cli("vf-eval", "bc-verifiers", "--env.taskset.tasks", str(tasks_file), "-n", str(3 * TASKS_EACH),
                "-m", "builtin:reference", "--client.base-url", base_url, "--client.api-key-var", KEY_VARIABLE,
                "--no-push", "--no-rich", "-o", str(tmp_path), "--run.dir", "run")
    assert scores_of(read_jsonl(tmp_path / "run" / "traces.jsonl")) == bc_eval_scores["builtin:reference"]
    assert server.calls >= 2 * len(bc_eval_scores["builtin:reference"])  # every task took turns through verifiers


def test_verifiers_runner_scores_noisy_answers_as_bc_eval_does(tasks_file, bc_eval_scores, tmp_path):
    """verifiers' runner from Python (prime-rl's path), with a policy that answers some turns wrong: the low
    scores match too."""
    os.environ.setdefault(KEY_VARIABLE, "not-a-secret")
    with PolicyServer(read_jsonl(tasks_file), "builtin:noisy").running() as base_url:
        config = EvalConfig(env={"taskset": {"id": "bc-verifiers", "tasks": str(tasks_file)}},
                            model="builtin:noisy", client={"base_url": base_url, "api_key_var": KEY_VARIABLE},
                            push=False, rich=None, output_dir=tmp_path, run={"dir": "run"})
        episodes = asyncio.run(run_eval(config))
    assert scores_of([e.model_dump(mode="json") for e in episodes]) == bc_eval_scores["builtin:noisy"]


def test_load_environment_reads_bc_gen_rows(tasks_file):
    """verifiers' own loader finds the taskset, our harness and our env by the taskset id alone."""
    config = vf.resolve_env_config({"taskset": {"id": "bc-verifiers", "tasks": str(tasks_file)}})
    env = vf.load_environment(config)
    tasks = list(env.taskset)
    rows = read_jsonl(tasks_file)
    assert [t.data.row for t in tasks] == rows and [t.key for t in tasks] == [r["id"] for r in rows]
    assert {r["data_source"] for r in rows} == {f"bootcamp/{name}" for name in BOOTCAMPS}
    assert type(env).__name__ == "BootcampEnv" and type(env._harnesses["agent"]).__name__ == "BootcampHarness"


def test_a_bootcamp_by_name_is_task_i():
    config = vf.resolve_env_config({"taskset": {"id": "bc-verifiers", "bootcamp": "minesweeper", "n": 2}})
    tasks = list(vf.load_environment(config).taskset)
    assert [t.data.row for t in tasks] == [TaskSet("minesweeper")[i] for i in range(2)]


def test_a_taskset_without_tasks_says_what_it_needs():
    config = vf.resolve_env_config({"taskset": {"id": "bc-verifiers"}})
    with pytest.raises(ValueError, match="--env.taskset.bootcamp NAME or --env.taskset.tasks FILE"):
        list(vf.load_environment(config).taskset)

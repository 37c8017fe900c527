"""Our bootcamps in NeMo Gym 0.4, played by NeMo Gym's own servers and client.

Needs the `nemo-gym` extra, which lives in a Python 3.12 virtual environment of its own (`make test-interop`);
skipped elsewhere (but for the check that the adapter says what to install). The run is the one a NeMo Gym user
makes: `gym env start` starts NeMo Gym's head server, our resources server (from the folder `init` writes), its
`simple_agent` and `gymnasium_agent`, and its `vllm_model` model server pointed at our policy served as an OpenAI
endpoint on loopback; `gym eval run --no-serve` collects rollouts of `export`'s rows, every turn crossing NeMo
Gym's agents, model server and HTTP client."""
from __future__ import annotations

import asyncio
import importlib
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import orjson
import pytest

from bc_common.extras import missing_modules

from .conftest import BOOTCAMPS, MODELS, read_jsonl

pytestmark = pytest.mark.slow
GYM_MISSING = missing_modules(["nemo_gym"])
needs_gym = pytest.mark.skipif(bool(GYM_MISSING), reason="the nemo-gym extra is not installed (make test-interop)")
AGENTS = ("bootcamp_simple_agent", "bootcamp_gymnasium_agent")
INTERACTIVE = {"bootcamp/arithmetic"}  # of BOOTCAMPS, the one whose environment replies to answers (retries)


def test_without_its_extra_the_adapter_says_what_to_install():
    if not GYM_MISSING:
        pytest.skip("nemo_gym is installed here")
    with pytest.raises(ImportError, match=r"needs the nemo-gym extra \(Python >= 3\.12\).*\.\[nemo-gym\]'.*"
                                          r"docs/interop-nemo-gym\.md"):
        importlib.import_module("bc_common.interop.nemo_gym_env")


def test_export_needs_no_nemo_gym_and_names_a_bad_line(tmp_path):
    """`export` (the project's own virtualenv is enough) keeps each bc-gen row's prompt and offered tools and the
    row itself; a line that is not a task row stops it, naming the file and line."""
    from bc_common.environment import Environments
    from bc_common.tasks import TaskSet

    rows = [TaskSet(name, seed=3)[0] for name in BOOTCAMPS]
    tasks = tmp_path / "tasks.jsonl"
    tasks.write_bytes(b"".join(orjson.dumps(r) + b"\n" for r in rows))
    command = [sys.executable, "-m", "bc_common.interop.nemo_gym_project", "export", str(tasks)]
    done = subprocess.run([*command, "--agent", AGENTS[1]], capture_output=True, timeout=120)
    assert done.returncode == 0, done.stderr
    exported = [orjson.loads(line) for line in done.stdout.splitlines()]
    assert [e["task"] for e in exported] == rows and {e["agent_ref"]["name"] for e in exported} == {AGENTS[1]}
    envs = Environments()
    for row, gym_row in zip(rows, exported, strict=True):
        params = gym_row["responses_create_params"]
        assert [(m["role"], m["content"]) for m in params["input"]] == [(m["role"], m["content"]) for m in row["prompt"]]
        tools = envs.get(row["data_source"]).tools
        assert [t["name"] for t in params.get("tools", [])] == [s["function"]["name"] for s in tools.schemas()]

    tasks.write_bytes(tasks.read_bytes() + orjson.dumps({"prompt": "no data_source"}) + b"\n")
    done = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and f"{tasks}:4: missing field 'data_source'" in done.stderr


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def get_json(url: str) -> object:
    with urllib.request.urlopen(url, timeout=5) as reply:
        return orjson.loads(reply.read())


class Gym:
    """`gym env start` in a project folder, and what the tests need to talk to it."""

    def __init__(self, folder: Path, head_port: int, policy: object, log: Path):
        self.folder, self.head_port, self.policy, self.log = folder, head_port, policy, log
        self.head = ["+head_server.host=127.0.0.1", f"+head_server.port={head_port}"]

    def cli(self, *args: str, check: bool = True, timeout: float = 240) -> subprocess.CompletedProcess:
        """`gym ...` of this virtual environment, run in the project folder against the running servers."""
        done = subprocess.run([str(Path(sys.executable).parent / "gym"), *args, *self.head], cwd=self.folder,
                              capture_output=True, text=True, timeout=timeout)
        if check:
            assert done.returncode == 0, f"gym {' '.join(args)} exited {done.returncode}:\n{done.stdout[-3000:]}" \
                                         f"\n{done.stderr[-3000:]}"
        return done

    def rollouts(self, rows: str, out: str) -> list[dict]:
        """`gym eval run --no-serve` over a file of dataset rows (each names its agent); the rollouts, in the
        input's order."""
        self.cli("eval", "run", "--no-serve", f"+input_jsonl_fpath={rows}", f"+output_jsonl_fpath=out/{out}")
        assert read_jsonl(self.folder / "out" / out.replace(".jsonl", "_failures.jsonl")) == []
        got = sorted(read_jsonl(self.folder / "out" / out), key=lambda r: r["_ng_task_index"])
        assert len(got) == len(read_jsonl(self.folder / rows))
        return got

    def url(self, server: str) -> str:
        instances = get_json(f"http://127.0.0.1:{self.head_port}/server_instances")
        return next(i["url"] for i in instances if i["config_path"] == server)


@pytest.fixture(scope="module")
def gym(tmp_path_factory, tasks_file) -> Iterator[Gym]:
    """NeMo Gym's servers for the module, the policy behind its model server swapped between runs."""
    from bc_common.builtin_model import BuiltinModel
    from bc_common.interop.nemo_gym_project import AGENTS as AGENT_NAMES
    from bc_common.interop.nemo_gym_project import export, init_project
    from bc_common.interop.policy_server import PolicyServer

    assert tuple(AGENT_NAMES.values()) == AGENTS
    folder = tmp_path_factory.mktemp("nemo-gym")
    config = init_project(folder, link_venv=True)
    (folder / "data").mkdir()
    (folder / "out").mkdir()  # gym eval run writes its files there, but does not make the folder
    with open(folder / "data" / "rows.jsonl", "wb") as out:  # every task once per agent: one collection runs both
        for agent in AGENTS:
            export([str(tasks_file)], out, agent)
    policy = PolicyServer(read_jsonl(tasks_file), MODELS[0])
    policy.use = lambda model: (setattr(policy, "model", BuiltinModel(model)), setattr(policy, "model_name", model))
    head_port = free_port()
    log = folder / "gym-env-start.log"
    with policy.running() as base_url, open(log, "wb") as log_file:
        gym = Gym(folder, head_port, policy, log)
        process = subprocess.Popen(
            [str(Path(sys.executable).parent / "gym"), "env", "start", "--config", str(config.relative_to(folder)),
             "--config", "responses_api_models/vllm_model/configs/vllm_model.yaml", f"+policy_base_url={base_url}",
             "+policy_api_key=unused", f"+policy_model_name={MODELS[0]}", "+skip_venv_if_present=true",
             "+global_aiohttp_client_request_debug=true", *gym.head],  # a failed request's body is printed
            cwd=folder, stdout=log_file, stderr=subprocess.STDOUT, start_new_session=True)
        try:
            wait_until_ready(gym, process)
            yield gym
        finally:
            stop(process)


def wait_until_ready(gym: Gym, process: subprocess.Popen, deadline_s: float = 240) -> None:
    """Every server NeMo Gym started answers its liveness route (Ray and four servers: ~40 s on 2 cores)."""
    deadline = time.monotonic() + deadline_s
    while True:
        try:
            instances = get_json(f"http://127.0.0.1:{gym.head_port}/server_instances")
            if len(instances) == 4 and all(get_json(i["url"] + "/") == {"status": "ok"} for i in instances):
                return
        except OSError:
            pass
        if process.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError(f"gym env start did not come up: {gym.log.read_text()[-4000:]}")
        time.sleep(1)


def stop(process: subprocess.Popen) -> None:
    """Ctrl-C, as a user stops it (NeMo Gym stops its servers, then the Ray cluster it started); killed if that
    takes more than two minutes."""
    if process.poll() is None:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=120)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=30)


def scores(rollouts: list[dict]) -> dict[str, dict[str, float]]:
    """{agent: {task id: reward}} of NeMo Gym's rollouts."""
    got: dict[str, dict[str, float]] = {agent: {} for agent in AGENTS}
    for rollout in rollouts:
        info = rollout.get("bootcamp") or rollout.get("info")  # simple_agent: /verify's; gymnasium: the last /step's
        got[rollout["agent_ref"]["name"]][info["task_id"]] = rollout["reward"]
    return got


@pytest.fixture(scope="module")
def played(gym) -> dict[str, list[dict]]:
    """{model: rollouts} of every task by both agents, one `gym eval run` per model."""
    out = {}
    for model in MODELS:
        gym.policy.use(model)
        out[model] = gym.rollouts("data/rows.jsonl", f"{model.split(':')[1]}.jsonl")
    return out


@needs_gym
def test_reference_rollouts_score_what_bc_eval_scores(played, bc_eval_scores):
    """Both of NeMo Gym's agents, playing the reference policy through NeMo Gym's model server, get bc-eval's
    score task by task over the three bootcamps; simple_agent's /verify says every episode completed."""
    rollouts = played["builtin:reference"]
    assert scores(rollouts) == {agent: bc_eval_scores["builtin:reference"] for agent in AGENTS}
    verified = [r["bootcamp"] for r in rollouts if r["agent_ref"]["name"] == AGENTS[0]]
    assert {v["status"] for v in verified} == {"completed"}
    assert {v["data_source"] for v in verified} == {f"bootcamp/{name}" for name in BOOTCAMPS}
    stepped = [r for r in rollouts if r["agent_ref"]["name"] == AGENTS[1]]
    assert all(r["terminated"] and not r["truncated"] and r["info"]["status"] == "completed" for r in stepped)


@needs_gym
def test_noisy_rollouts_score_what_bc_eval_scores(played, bc_eval_scores):
    """A policy that answers some turns wrong: gymnasium_agent (bc-eval's loop, retries and all) gets bc-eval's
    score on every task; simple_agent, which ends at the first answer, gets it wherever /verify says the episode
    completed, and is cut short only where the environment replies to answers (arithmetic's retries)."""
    expected = bc_eval_scores["builtin:noisy"]
    rollouts = played["builtin:noisy"]
    assert scores(rollouts)[AGENTS[1]] == expected
    simple = [r for r in rollouts if r["agent_ref"]["name"] == AGENTS[0]]
    completed = {r["bootcamp"]["task_id"]: r["reward"] for r in simple if r["bootcamp"]["status"] == "completed"}
    assert completed == {task: expected[task] for task in completed}
    cut = [r["bootcamp"] for r in simple if r["bootcamp"]["status"] != "completed"]
    assert all(c["status"] == "cut_short" and c["data_source"] in INTERACTIVE for c in cut)
    assert len(completed) + len(cut) == len(expected) and min(completed.values()) < 1.0


@needs_gym
def test_rows_export_writes_are_nemo_gyms_requests(tasks_file):
    """`export` keeps the prompt and the offered tools of every bc-gen row, in the request model NeMo Gym
    validates them with."""
    from nemo_gym.openai_utils import NeMoGymResponseCreateParamsNonStreaming

    from bc_common.environment import Environments
    from bc_common.interop.nemo_gym_env import chat_messages
    from bc_common.interop.nemo_gym_project import gym_row

    envs = Environments()
    for row in read_jsonl(tasks_file):
        env = envs.get(row["data_source"])
        params = NeMoGymResponseCreateParamsNonStreaming.model_validate(gym_row(row, env, AGENTS[0])
                                                                        ["responses_create_params"])
        assert chat_messages(params.input, "test") == row["prompt"]
        assert [(t["name"], t["parameters"]) for t in params.tools or []] == \
               [(s["function"]["name"], s["function"]["parameters"]) for s in env.tools.schemas()]


@needs_gym
def test_bad_requests_get_typed_errors_naming_where(gym, tasks_file):
    """An unknown bootcamp, a malformed row, a step without a reset: refused with the error's type and where it
    is, over NeMo Gym's own HTTP client; and a dataset row of an unknown bootcamp fails `gym eval run`, saying
    why."""
    from nemo_gym.config_types import BaseServerConfig
    from nemo_gym.rollout_collection import RolloutCollectionHelper
    from nemo_gym.server_utils import get_response_json

    from bc_common.environment import Environments
    from bc_common.interop.nemo_gym_project import gym_row

    server = "bootcamp_resources_server"
    params = {"responses_create_params": {"input": [{"role": "user", "content": "hi"}]}}
    knapsack = next(r for r in read_jsonl(tasks_file) if r["data_source"] == "bootcamp/knapsack")

    async def ask() -> list[tuple[int, object]]:
        client = RolloutCollectionHelper().setup_server_client(BaseServerConfig(host="127.0.0.1", port=gym.head_port))
        out = []
        for path, body in [("/seed_session", {**params, "bootcamp": "no_such_bootcamp"}),
                           ("/seed_session", {**params, "task": {**knapsack, "data_source": "bootcamp/nope"}}),
                           ("/seed_session", {**params, "task": {"data_source": "bootcamp/knapsack"}}),
                           ("/seed_session", params),
                           ("/reset", {**params, "index": -1, "bootcamp": "knapsack"}),
                           ("/step", {**params, "response": {}}),
                           ("/evaluate_selection", {"items": [1]})]:
            reply = await client.post(server_name=server, url_path=path, json=body)
            out.append((reply.status, await get_response_json(reply)))
        return out

    errors = asyncio.run(ask())
    typed = [(status, e["error"]["type"], e["error"]["source"]) for status, e in errors if "error" in e]
    assert typed == [(404, "unknown_bootcamp", "POST /seed_session: field 'bootcamp'"),
                     (404, "unknown_bootcamp", "POST /seed_session: field 'task.data_source'"),
                     (400, "invalid_task", "POST /seed_session: field 'task.prompt'"),
                     (400, "missing_task", "POST /seed_session: field 'task'"),
                     (400, "invalid_index", "POST /reset: field 'index'"),
                     (409, "no_session", "POST /evaluate_selection: session cookie")]
    assert "no_such_bootcamp" in errors[0][1]["error"]["message"]
    assert errors[5][0] == 422 and errors[5][1]["detail"][0]["loc"][:2] == ["body", "response"]  # NeMo Gym's model

    bad = gym.folder / "data" / "bad.jsonl"
    row = gym_row(knapsack, Environments().get(knapsack["data_source"]), AGENTS[0])
    row["task"] = {**knapsack, "data_source": "bootcamp/no_such_bootcamp"}
    bad.write_bytes(orjson.dumps(row) + b"\n")
    done = gym.cli("eval", "run", "--no-serve", "+input_jsonl_fpath=data/bad.jsonl", "+output_jsonl_fpath=out/bad.jsonl",
                   check=False)
    said = done.stdout + done.stderr
    # the agent's 500 quotes our body (as a Python bytes literal inside JSON: quotes come escaped)
    assert done.returncode != 0 and all(part in said for part in ("unknown_bootcamp", "no_such_bootcamp",
                                                                  "POST /seed_session: field", "task.data_source")), \
        said[-3000:]

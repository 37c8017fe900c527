"""Our interactive verl agent loop end to end on CPU, with a scripted `generate()` (verl's CPU-test pattern).

Real parts: the run directory bc-train writes, verl's Hydra config, verl's tool registry loading our adapter,
verl's RLHFDataset item, verl's Continuous Token builder and hermes tool parser, the arithmetic bootcamp's
tool and interaction, and our reward function. Only the LLM server is scripted.
"""
from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("verl")

from omegaconf import OmegaConf  # noqa: E402
from verl.experimental.agent_loop.agent_loop import DictConfigWrap, ToolListWrap  # noqa: E402
from verl.tools.tool_registry import load_all_tools  # noqa: E402
from verl.utils.dataset.rl_dataset import RLHFDataset  # noqa: E402
from verl.workers.rollout.replica import TokenOutput  # noqa: E402

from bc_train.agent_loop import BcAgentLoop  # noqa: E402
from bc_train.check import compose as _compose  # noqa: E402
from bc_train.emit import emit_run  # noqa: E402
from bc_train.reward import compute_score  # noqa: E402
from bc_train.tokenizer import build_offline_tokenizer  # noqa: E402
from bc_train.verl_config import TrainOptions  # noqa: E402

from .conftest import task_row, write_jsonl  # noqa: E402

WRONG = "Let me think. ```json\n{\"result\": 30}\n```"
TOOL_CALL = '<tool_call>\n{"name": "calculate", "arguments": {"expression": "12 + 7 * 3"}}\n</tool_call>'
RIGHT = "The calculator says 33. ```json\n{\"result\": 33}\n```"


class ScriptedServer:
    """Stands in for verl's LLM server client: returns the next scripted assistant turn as tokens."""

    def __init__(self, tokenizer: Any, turns: list[str]):
        self.tokenizer, self.turns, self.prompts = tokenizer, list(turns), []

    async def generate(self, request_id: str, *, prompt_ids: list[int], sampling_params: dict[str, Any],
                       **kwargs: Any) -> TokenOutput:
        self.prompts.append(list(prompt_ids))
        ids = self.tokenizer.encode(self.turns.pop(0) + "<|im_end|>", add_special_tokens=False)
        return TokenOutput(token_ids=ids, log_probs=[0.0] * len(ids))


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    tmp = tmp_path_factory.mktemp("loop")
    tasks = str(write_jsonl(tmp / "tasks.jsonl", [task_row(0)]))
    emit_run([tasks], tmp / "run", TrainOptions(max_assistant_turns=6), val_file=tasks)
    cfg = _compose(tmp / "run", [])
    OmegaConf.resolve(cfg)
    tokenizer = build_offline_tokenizer(tmp / "tok")
    item = RLHFDataset(data_files=[str(tmp / "run" / "train.parquet")], tokenizer=tokenizer,
                       config=cfg.data, processor=None)[0]
    return {"cfg": cfg, "tokenizer": tokenizer, "item": item, "dir": tmp / "run"}


def _run(run: dict[str, Any], server: ScriptedServer, sampling: dict[str, Any], item: dict[str, Any],
         tools: list | None = None, **overrides: Any) -> tuple[Any, list]:
    """Build our loop inside the event loop that runs it (verl binds the loop at construction) and run it."""
    cfg = OmegaConf.merge(run["cfg"], OmegaConf.create(overrides)) if overrides else run["cfg"]
    if tools is None:
        tools = load_all_tools(tool_config_path=str(run["dir"] / "tool_config.yaml"), function_tool_path=None)

    async def go() -> Any:
        loop = BcAgentLoop(trainer_config=DictConfigWrap(cfg), server_manager=server, tokenizer=run["tokenizer"],
                           processor=None, dataset_cls=RLHFDataset, data_config=DictConfigWrap(cfg.data),
                           hf_model_type="qwen2", tools=ToolListWrap(tools))
        return await loop.run(sampling, **item)

    return asyncio.run(go()), tools


def _segments(tokenizer: Any, ids: list[int], mask: list[int]) -> tuple[str, str]:
    trained = tokenizer.decode([t for t, m in zip(ids, mask, strict=True) if m], skip_special_tokens=False)
    masked = tokenizer.decode([t for t, m in zip(ids, mask, strict=True) if not m], skip_special_tokens=False)
    return trained, masked


def test_wrong_answer_feedback_tool_call_right_answer(run: dict[str, Any]) -> None:
    server = ScriptedServer(run["tokenizer"], [WRONG, TOOL_CALL, RIGHT])
    out, tools = _run(run, server, {"temperature": 1.0}, run["item"])

    assert server.turns == []  # exactly three model turns
    assert out.extra_fields["turn_scores"] == [0.0, 1.0]  # feedback on the wrong answer, then "Correct."
    assert out.extra_fields["tool_rewards"] == [0.0]  # calling a tool earns nothing by itself
    assert out.extra_fields["bc_stop_reason"] == "completed"
    assert out.extra_fields["bc_final_text"] == RIGHT
    assert out.num_turns == 6  # 3 assistant + 2 user (feedback, tool) + 1

    trained, masked = _segments(run["tokenizer"], out.response_ids, out.response_mask)
    assert WRONG in trained and RIGHT in trained and '"expression": "12 + 7 * 3"' in trained
    assert "Your result is incorrect" in masked and "Your result is incorrect" not in trained
    assert "<tool_response>\n33\n</tool_response>" in masked and "<tool_response>" not in trained
    assert len(out.response_ids) == len(out.response_mask)
    # the second prompt sent to the server contains the feedback; the third contains the tool result
    assert "Your result is incorrect" in run["tokenizer"].decode(server.prompts[1])
    assert "<tool_response>\n33" in run["tokenizer"].decode(server.prompts[2])
    assert all(t.live_sessions() == 0 for t in tools)  # the trajectory's tool state was released

    extra = {**run["item"]["extra_info"], **out.extra_fields, "num_turns": out.num_turns}
    solution = run["tokenizer"].decode(out.response_ids, skip_special_tokens=True)
    score = compute_score(run["item"]["data_source"], solution, run["item"]["reward_model"]["ground_truth"], extra)
    assert score["acc"] == 1.0 and score["graded_final_turn"] == 1.0
    assert score["turn_score_mean"] == 0.5 and score["num_turns"] == 6.0


def test_tool_state_survives_between_calls_of_one_trajectory(run: dict[str, Any]) -> None:
    second = TOOL_CALL.replace("12 + 7 * 3", "1 + 1")
    server = ScriptedServer(run["tokenizer"], [TOOL_CALL, second, RIGHT])
    tools = load_all_tools(tool_config_path=str(run["dir"] / "tool_config.yaml"), function_tool_path=None)
    seen: list[int] = []
    calc = next(t for t in tools if t.name == "calculate")
    original = calc.runtime.tools["calculate"].execute

    async def spy(instance_id: str, parameters: dict[str, Any], **kw: Any):
        result = await original(instance_id, parameters, **kw)
        seen.append(result[2]["calls"])
        return result

    calc.runtime.tools["calculate"].execute = spy
    out, _ = _run(run, server, {}, run["item"], tools=tools)
    assert seen == [1, 2]  # one instance across verl's per-call create/release
    assert out.extra_fields["tool_rewards"] == [0.0, 0.0]
    assert out.extra_fields["turn_scores"] == [1.0]


def test_turn_limit_stops_without_feedback(run: dict[str, Any]) -> None:
    server = ScriptedServer(run["tokenizer"], [WRONG, WRONG, RIGHT])
    out, _ = _run(run, server, {}, run["item"],
                  actor_rollout_ref={"rollout": {"multi_turn": {"max_assistant_turns": 2}}})
    assert server.turns == [RIGHT]
    assert out.extra_fields["bc_stop_reason"] == "max_turns"
    assert out.extra_fields["turn_scores"] == [0.0]
    extra = {**run["item"]["extra_info"], **out.extra_fields}
    score = compute_score(run["item"]["data_source"], "", run["item"]["reward_model"]["ground_truth"], extra)
    assert score["acc"] == 0.0


def test_row_without_tools_gets_none(run: dict[str, Any]) -> None:
    item = dict(run["item"])
    item["extra_info"] = {**item["extra_info"], "tool_selection": []}
    server = ScriptedServer(run["tokenizer"], [TOOL_CALL, RIGHT])
    out, _ = _run(run, server, {}, item)
    assert "calculate" not in run["tokenizer"].decode(server.prompts[0]).split("<|im_start|>user")[0]
    assert out.extra_fields["tool_rewards"] == [0.0]  # verl answers an unknown tool with an error text


def test_emitted_tool_config_is_what_verl_loads(run: dict[str, Any]) -> None:
    tools = load_all_tools(tool_config_path=str(Path(run["dir"]) / "tool_config.yaml"), function_tool_path=None)
    assert [t.name for t in tools] == ["calculate"]
    assert type(tools[0]).__module__ == "bc_train.verl_tool"


def test_bc_toolserve_tool_config_calls_the_server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                   run: dict[str, Any]) -> None:
    """`--tool-config` from `bc-toolserve config`: the adapter wraps RemoteTool and the tool server answers."""
    import subprocess
    import sys

    from tests.seed_configs import seed_configs
    from tests.toolserve.conftest import ROOT, Cluster, wait_for

    arithmetic_tools = seed_configs() / "tool_config.yaml"
    cluster = Cluster(tmp_path)
    cluster.tools = str(arithmetic_tools)
    try:
        cluster.start_master()
        cluster.start_worker("arith0")
        cluster.wait_alive(["arith0"])
        remote = tmp_path / "remote.yaml"
        remote.write_bytes(subprocess.run(
            [sys.executable, "-c", "from bc_toolserve.cli import main; main()", "config", str(arithmetic_tools),
             "--master-url", cluster.url], capture_output=True, check=True, timeout=60, cwd=ROOT).stdout)
        tasks = str(write_jsonl(tmp_path / "t.jsonl", [task_row(0)]))
        emit_run([tasks], tmp_path / "run", TrainOptions(), val_file=tasks, tool_config=remote)
        monkeypatch.setenv("BC_TOOLSERVE_TOKEN", cluster.token)
        tools = load_all_tools(tool_config_path=str(tmp_path / "run" / "tool_config.yaml"), function_tool_path=None)
        assert type(tools[0].runtime.tools["calculate"]).__name__ == "RemoteTool"
        server = ScriptedServer(run["tokenizer"], [TOOL_CALL, RIGHT])
        out, _ = _run(run, server, {}, run["item"], tools=tools)
        assert "<tool_response>\n33\n</tool_response>" in run["tokenizer"].decode(server.prompts[1])
        assert out.extra_fields["turn_scores"] == [1.0]
        wait_for(lambda: sum(w["calls"] for w in cluster.health()["workers"]) >= 1, 10, "the worker's call count")
    finally:
        cluster.stop()

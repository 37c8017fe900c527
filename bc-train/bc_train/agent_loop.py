"""Our verl agent loop: verl's tool loop, plus the bootcamp's interaction after every tool-free turn.

verl 0.9.1 has no interactions any more, so environment-driven turns live here. The turn cycle:

    model turn --tool calls--> tools (BcVerlTool, state kept per trajectory) --> model turn
    model turn --no tool call--> interaction.generate_response -> turn score; terminate, or its reply
                                 goes back as a user message (masked out of the loss) --> model turn

Registered in `agent_loops.yaml` as `bc_agent` (`actor_rollout_ref.rollout.agent.agent_loop_config_path`);
rows choose it with `agent_name`. It records for the reward function (via `extra_fields` -> `extra_info`):
`turn_scores`, `tool_rewards` (verl's), `bc_final_text` (the last assistant turn, the text a `grades = "last"`
verifier grades), `bc_assistant_texts` (every assistant turn's text in order, what a `grades = "all"` verifier
grades), `bc_tool_final_reward` (tools' calc_reward) and `bc_stop_reason` (completed | max_turns | length).
Every sample carries all of these keys.
This subclasses verl internals (`_handle_*_state`, `AgentData`): verl is pinned to 0.9.1 and
tests/train/test_agent_loop.py guards the contract.
"""
from __future__ import annotations

import logging
import re
import uuid
from typing import Any

import orjson
from verl.experimental.agent_loop.agent_loop import AgentLoopOutput
from verl.experimental.agent_loop.tool_agent_loop import AgentData, AgentState, ToolAgentLoop

from bc_common.bootcamp import Interaction
from bc_common.registry import get_bootcamp
from bc_common.tool_config import load_interaction_config

from .parquet_rows import loads_json_field
from .verl_tool import BcVerlTool

logger = logging.getLogger(__name__)

_TOOL_CALL = re.compile(r"<tool_call>.*?</tool_call>", re.DOTALL)
_INTERACTIONS: dict[str, Interaction] = {}  # one per config file or bootcamp and process; state is per instance id


def _interaction_for(path: str) -> Interaction:
    if path not in _INTERACTIONS:
        _INTERACTIONS[path] = load_interaction_config(path).instantiate()
    return _INTERACTIONS[path]


def _bootcamp_interaction(data_source: str) -> Interaction | None:
    """The bootcamp's own interaction (its class in the manifest), one per process."""
    key = f"bootcamp:{data_source}"
    if key not in _INTERACTIONS:
        spec = get_bootcamp(data_source).interaction_spec()
        if spec is None:
            return None
        _INTERACTIONS[key] = spec.instantiate()
    return _INTERACTIONS[key]


def _assistant_record(message: dict[str, Any]) -> dict[str, Any]:
    """An assistant message as bc-eval records it: content, and tool calls with JSON-text arguments."""
    record: dict[str, Any] = {"role": "assistant", "content": str(message.get("content") or "")}
    calls = []
    for i, call in enumerate(message.get("tool_calls") or []):
        fn = call.get("function") or {}
        args = fn.get("arguments")
        calls.append({"id": call.get("id") or f"call_{i}", "type": "function",
                      "function": {"name": str(fn.get("name", "")),
                                   "arguments": args if isinstance(args, str) else orjson.dumps(args).decode()}})
    if calls:
        record["tool_calls"] = calls
    return record


class BcAgentLoop(ToolAgentLoop):
    """verl `ToolAgentLoop` + bootcamp interaction turns + the records our reward function needs.

    `interaction_config_paths` (from agent_loops.yaml) maps a data_source to an interaction YAML; by default
    the bootcamp's own (bc_common.registry). A row whose `interaction_kwargs` is empty gets no interaction.
    """

    def __init__(self, *args: Any, interaction_config_paths: dict[str, str] | None = None, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.interaction_config_paths = dict(interaction_config_paths or {})
        self._trajectory_id = uuid.uuid4().hex
        self._interaction: Interaction | None = None
        self._final_text = ""
        self._texts: list[str] = []
        self._messages: list[dict[str, Any]] = []  # assistant messages with their tool calls (graded moves)
        self._stop_reason = "completed"
        self._tool_selection: list[str] | None = None

    async def run(self, sampling_params: dict[str, Any], **kwargs: Any) -> AgentLoopOutput:
        self._trajectory_id = uuid.uuid4().hex
        self._final_text, self._texts, self._messages, self._stop_reason = "", [], [], "completed"
        if kwargs.get("tools_kwargs") is None:  # a run without tools stores no tools_kwargs struct in parquet
            kwargs["tools_kwargs"] = {}
        extra_info = kwargs.get("extra_info") or {}
        selection = extra_info.get("tool_selection")
        self._tool_selection = list(selection) if selection is not None else None
        await self._start_interaction(kwargs)
        try:
            output = await super().run(sampling_params, **kwargs)
        finally:
            tool_final = await self._finish_tools()
            if self._interaction is not None:
                await self._interaction.finalize_interaction(self._trajectory_id)
        output.extra_fields.update({
            "bc_final_text": self._final_text,
            "bc_assistant_texts": list(self._texts),
            # JSON text: one fixed type in verl's non-tensor batch whatever the tool calls look like
            "bc_assistant_messages": orjson.dumps(self._messages).decode(),
            "bc_tool_final_reward": tool_final,
            "bc_stop_reason": self._stop_reason,
        })
        return output

    async def _start_interaction(self, row: dict[str, Any]) -> None:
        self._interaction = None
        kwargs = loads_json_field((row.get("interaction_kwargs") or {}).get("bc_json", "{}"))
        if not isinstance(kwargs, dict) or not kwargs:
            return
        data_source = str(row.get("data_source") or "")
        path = self.interaction_config_paths.get(data_source)
        if path == "":  # a seed registry bootcamp without an interaction
            return
        interaction = _interaction_for(path) if path is not None else _bootcamp_interaction(data_source)
        if interaction is None:
            return
        identity = kwargs.get("identity")
        if identity is None:
            identity = loads_json_field((row.get("reward_model") or {}).get("ground_truth"))
        self._interaction = interaction
        await self._interaction.start_interaction(self._trajectory_id, identity=identity)

    async def _finish_tools(self) -> float:
        total = 0.0
        for tool in self.tools.values():
            if isinstance(tool, BcVerlTool):
                reward = await tool.finish_trajectory(self._trajectory_id)
                total += reward or 0.0
        return total

    async def _handle_pending_state(self, agent_data: AgentData, sampling_params: dict[str, Any]) -> AgentState:
        agent_data.bc_trajectory_id = self._trajectory_id
        if self._tool_selection is not None:  # verl treats an empty selection as "all tools"; we mean none
            selected = {n: self.tools[n] for n in self._tool_selection if n in self.tools}
            agent_data._active_tools = selected
            agent_data._active_tool_schemas = [t.tool_schema.model_dump(exclude_unset=True, exclude_none=True)
                                               for t in selected.values()]
        return await super()._handle_pending_state(agent_data, sampling_params)

    def _clean_text(self, token_ids: list[int]) -> str:
        text = self.tokenizer.decode(token_ids, skip_special_tokens=True)
        return _TOOL_CALL.sub("", text).strip()

    async def _handle_generating_state(self, agent_data: AgentData, sampling_params: dict[str, Any],
                                       ignore_termination: bool = False) -> AgentState:
        n_messages = len(agent_data.messages)
        state = await super()._handle_generating_state(agent_data, sampling_params, ignore_termination)
        self._final_text = await self.loop.run_in_executor(None, self._clean_text, agent_data.response_ids)
        self._texts.append(self._final_text)
        if len(agent_data.messages) == n_messages:  # verl stopped before parsing: a length or turn limit
            self._stop_reason = "length" if len(agent_data.response_mask) >= self.response_length else "max_turns"
            return AgentState.TERMINATED
        agent_data.messages[-1]["content"] = self._final_text  # no special tokens in what the env reads
        self._messages.append(_assistant_record(agent_data.messages[-1]))
        if state != AgentState.TERMINATED or self._interaction is None:
            return state
        return await self._environment_turn(agent_data)

    async def _environment_turn(self, agent_data: AgentData) -> AgentState:
        """The interaction answers a tool-free turn: record its score, then stop or send its reply."""
        try:
            terminate, reply, score, _ = await self._interaction.generate_response(
                self._trajectory_id, agent_data.messages)
        except Exception as exc:  # an environment bug ends this trajectory, not the training run
            logger.warning("interaction failed (%s: %s); ending the trajectory", type(exc).__name__, exc)
            self._stop_reason = "completed"
            return AgentState.TERMINATED
        agent_data.turn_scores.append(float(score))
        if terminate:
            self._stop_reason = "completed"
            return AgentState.TERMINATED
        if self.max_user_turns and agent_data.user_turns >= self.max_user_turns:
            self._stop_reason = "max_turns"
            return AgentState.TERMINATED
        previous = list(agent_data.messages)
        agent_data.messages.append({"role": "user", "content": str(reply)})
        schemas = getattr(agent_data, "_active_tool_schemas", self.tool_schemas)
        merge, mask, logprobs = await self.ct_merge_context_msg(
            previous, agent_data.messages, agent_data.prompt_ids, agent_data.response_mask,
            agent_data.response_logprobs or None, tools=schemas)
        if len(mask) >= self.response_length:
            self._stop_reason = "length"
            return AgentState.TERMINATED
        agent_data.prompt_ids = merge.token_ids
        agent_data.response_mask = mask  # the feedback tokens are 0: not trained on
        if agent_data.response_logprobs:
            agent_data.response_logprobs = logprobs or []
        agent_data.user_turns += 1
        return AgentState.GENERATING

    async def _handle_processing_tools_state(self, agent_data: AgentData) -> AgentState:
        state = await super()._handle_processing_tools_state(agent_data)
        if state == AgentState.TERMINATED:
            self._stop_reason = "length"
        return state

"""verl's custom reward function: the bootcamp's verifier on the last assistant turn (or on every assistant turn,
for a `grades = "all"` verifier), plus an optional, configurable share of interaction turn scores and tool rewards.

    reward.custom_reward_function: {path: pkg://bc_train.reward, name: compute_score,
                                    reward_kwargs: {turn_weight: 0.0, tool_weight: 0.0, format_score: 0.0}}

`reward_kwargs.reward_classes` ({data_source: dotted class}) names the verifiers of seed registry bootcamps
(`bc-train --registry`), which are not installed; other data_sources are installed bootcamps.

The rule (the same for every sample, and every sample returns the same keys):

    score = acc + turn_weight * mean(turn_scores) + tool_weight * (sum(tool_rewards) + tool_final_reward)

`acc` is `verify_score` of the last assistant turn only, never tool output or interaction text; a verifier with
`grades = "all"` (games, where the moves are the answer) gets every assistant turn's text, in order. Our agent
loop (`bc_train.agent_loop.BcAgentLoop`) records them as `extra_info["bc_final_text"]` and
`extra_info["bc_assistant_texts"]` (`graded_final_turn` is 1.0 when those records were graded); rows rolled out
by another loop are graded on `solution_str` with tool responses, tool calls and user turns cut away.
With the default weights (0) the reward is exactly the verifier's score, the usual choice for GRPO. The seed's
`verify_score` keys in `reward_kwargs` (`format_penalty`, `short_penalty`, `short_threshold`, `think_threshold`,
`ans_threshold`) and a verifier's own keys are applied by the same code as bc-eval's `--verify-correction-kwargs`
(`bc_common.verify_kwargs`), so a rollout scores the same in both.

A verifier that cannot run at all (`bc_common.errors.GraderUnavailable`: a sandboxed run the machine could not
start after its retries) raises here rather than hand verl a reward of 0 that no answer earned: training stops
with the cause (`ulimit -n`, no process left) instead of learning from it.
"""
from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from typing import Any

import orjson

from bc_common.bootcamp import RewardCalculator
from bc_common.registry import get_bootcamp, load_class

from .parquet_rows import loads_json_field

REWARD_KEYS = ("score", "acc", "turn_score_mean", "tool_reward_sum", "num_turns", "graded_final_turn")
# what verl's reward loop adds to every call when a reward model serves (not the verifier's business)
_VERL_KWARGS = ("reward_router_address", "reward_model_tokenizer")

_TOOL_RESPONSE = re.compile(r"<tool_response>.*?</tool_response>", re.DOTALL)
_TOOL_CALL = re.compile(r"<tool_call>.*?</tool_call>", re.DOTALL)
_TURN_MARK = re.compile(r"(?:^|\n)(?:<\|im_start\|>)?assistant\n")
_USER_MARK = re.compile(r"(?:^|\n)(?:<\|im_start\|>)?user\n")


@functools.lru_cache(maxsize=256)
def _reward_class(data_source: str, dotted: str | None = None) -> Any:
    if dotted:  # a seed registry bootcamp: bc-train wrote its verifier into reward_kwargs.reward_classes
        return load_class(dotted, RewardCalculator)
    return get_bootcamp(data_source).reward


def last_assistant_turn(solution_str: str) -> str:
    """The text of the last assistant turn in a decoded multi-turn response (best effort, for other loops)."""
    text = _TOOL_RESPONSE.sub("", solution_str or "")
    text = _TURN_MARK.split(text)[-1]
    return _TOOL_CALL.sub("", text).replace("<|im_end|>", "").strip()


def assistant_turns(solution_str: str) -> list[str]:
    """The text of every assistant turn in a decoded multi-turn response, in order (best effort, for other
    loops): each turn is cut at the next user turn."""
    text = _TOOL_RESPONSE.sub("", solution_str or "")
    turns = [_USER_MARK.split(part)[0] for part in _TURN_MARK.split(text)]
    return [_TOOL_CALL.sub("", t).replace("<|im_end|>", "").strip() for t in turns]


def _texts(value: Any) -> list[str] | None:
    """A recorded list of assistant texts (a list, tuple or numpy array of strings), else None."""
    if hasattr(value, "tolist"):
        value = value.tolist()
    if isinstance(value, (list, tuple)) and all(isinstance(t, str) for t in value):
        return list(value)
    return None


def _messages(value: Any) -> list[dict[str, Any]] | None:
    """`bc_assistant_messages` (JSON text written by BcAgentLoop) as a message list; None when absent or bad."""
    if not isinstance(value, (str, bytes)) or not value:
        return None
    try:
        out = orjson.loads(value)
    except orjson.JSONDecodeError:
        return None
    if isinstance(out, list) and out and all(isinstance(m, dict) and m.get("role") == "assistant" for m in out):
        return out
    return None


def _floats(value: Any) -> list[float]:
    if value is None:
        return []
    if isinstance(value, (int, float)):
        return [float(value)]
    if isinstance(value, dict):
        return [float(v) for v in value.values()]
    if isinstance(value, Sequence) or hasattr(value, "tolist"):
        out = value.tolist() if hasattr(value, "tolist") else list(value)
        return [float(v) for v in (out if isinstance(out, list) else [out]) if v is not None]
    return []


def compute_score(data_source: str, solution_str: str, ground_truth: Any, extra_info: dict[str, Any] | None = None,
                  *, turn_weight: float = 0.0, tool_weight: float = 0.0, format_score: float = 0.0,
                  reward_classes: Any = None, **verify_kwargs: Any) -> dict[str, float]:
    """Score one rollout for verl. Returns a dict with the keys in `REWARD_KEYS` (always all of them).

    Every other reward kwarg goes to the verifier's `verify_score`, as bc-eval's `--verify-correction-kwargs` do:
    the seed's keys (`format_penalty`, `short_penalty`, `short_threshold`, ...) mean the same in both, and a key
    the verifier does not accept is a ConfigError, never silently dropped."""
    for key in _VERL_KWARGS:
        verify_kwargs.pop(key, None)
    extra = dict(extra_info or {})
    identity = loads_json_field(ground_truth)
    verifier = _reward_class(data_source, (reward_classes or {}).get(data_source))
    if getattr(verifier, "grades", "last") == "all":
        messages = _messages(extra.get("bc_assistant_messages"))
        texts = _texts(extra.get("bc_assistant_texts"))
        graded_final = messages is not None or texts is not None
        # the assistant's messages with their tool calls (moves made through tools are graded from the calls)
        graded: Any = messages if messages is not None else texts if texts is not None \
            else assistant_turns(solution_str)
    else:
        final = extra.get("bc_final_text")
        graded_final = isinstance(final, str)
        graded = final if graded_final else last_assistant_turn(solution_str)
    acc = float(verifier.verify_score(graded, identity, format_score=format_score, **verify_kwargs))
    turn_scores = _floats(extra.get("turn_scores"))
    tool_rewards = _floats(extra.get("tool_rewards"))
    tool_sum = sum(tool_rewards) + sum(_floats(extra.get("bc_tool_final_reward")))
    turn_mean = sum(turn_scores) / len(turn_scores) if turn_scores else 0.0
    num_turns = _floats(extra.get("num_turns"))
    return {
        "score": acc + float(turn_weight) * turn_mean + float(tool_weight) * tool_sum,
        "acc": acc,
        "turn_score_mean": turn_mean,
        "tool_reward_sum": tool_sum,
        "num_turns": num_turns[0] if num_turns else 0.0,
        "graded_final_turn": 1.0 if graded_final else 0.0,
    }

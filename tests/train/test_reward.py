"""The reward function verl calls: the verifier on the last assistant turn only; fixed keys; documented rule."""
from __future__ import annotations

import json

from bc_train.reward import REWARD_KEYS, compute_score, last_assistant_turn

GT = json.dumps({"expression": "12 + 7 × 3", "expected_result": "33", "tolerance": "1e-6"})
DS = "bootcamp/arithmetic"
RIGHT = "```json\n{\"result\": 33}\n```"
WRONG = "```json\n{\"result\": 30}\n```"


def test_grades_recorded_final_turn_not_tool_text() -> None:
    solution = f"{RIGHT}\nuser\n<tool_response>\n{RIGHT}\n</tool_response>\nassistant\n{WRONG}"
    got = compute_score(DS, solution, GT, {"bc_final_text": WRONG, "turn_scores": [], "tool_rewards": []})
    assert got["acc"] == 0.0 and got["graded_final_turn"] == 1.0
    got = compute_score(DS, WRONG, GT, {"bc_final_text": RIGHT})
    assert got["acc"] == 1.0 and got["score"] == 1.0


def test_fallback_cuts_tool_responses_and_earlier_turns() -> None:
    solution = f"{WRONG}\nuser\n<tool_response>\n{RIGHT}\n</tool_response>\nassistant\nI give up."
    assert last_assistant_turn(solution) == "I give up."
    assert compute_score(DS, solution, GT, {})["acc"] == 0.0
    assert compute_score(DS, f"thinking\nuser\nfeedback\nassistant\n{RIGHT}", GT, {})["acc"] == 1.0


def test_same_keys_for_every_sample_and_weights() -> None:
    a = compute_score(DS, "", GT, None)
    b = compute_score(DS, RIGHT, GT, {"bc_final_text": RIGHT, "turn_scores": [0.0, 1.0], "tool_rewards": [-0.5],
                                      "bc_tool_final_reward": 0.25, "num_turns": 5},
                      turn_weight=0.2, tool_weight=1.0)
    assert set(a) == set(b) == set(REWARD_KEYS)
    assert b["acc"] == 1.0 and b["turn_score_mean"] == 0.5 and b["tool_reward_sum"] == -0.25
    assert abs(b["score"] - (1.0 + 0.2 * 0.5 - 0.25)) < 1e-9
    assert b["num_turns"] == 5.0


def test_ground_truth_as_object_too() -> None:
    assert compute_score(DS, RIGHT, json.loads(GT), {})["acc"] == 1.0


def test_moves_made_through_tools_are_graded_from_the_recorded_assistant_messages() -> None:
    """minesweeper's moves are `reveal` tool calls: the agent loop records the assistant messages with their calls
    (`bc_assistant_messages`), and the verifier replays them; texts alone hold no move."""
    import asyncio

    import orjson

    from bc_common.bootcamp import assistant_texts
    from bc_common.builtin_model import reference_trajectory
    from bc_common.environment import Environments
    from bc_common.tasks import TaskSet

    row = TaskSet("minesweeper", seed=5, groups=["easy"])[0]
    trajectory = asyncio.run(reference_trajectory(row, Environments().get(row["data_source"])))
    assert trajectory["score"] == 1.0
    mine = [{k: m[k] for k in ("role", "content", "tool_calls") if k in m}
            for m in trajectory["messages"] if m["role"] == "assistant"]
    gt = orjson.dumps(row["reward_model"]["ground_truth"]).decode()
    extra = {"bc_assistant_texts": assistant_texts(trajectory["messages"]),
             "bc_assistant_messages": orjson.dumps(mine).decode()}
    assert compute_score("bootcamp/minesweeper", "", gt, extra)["acc"] == 1.0
    del extra["bc_assistant_messages"]
    assert compute_score("bootcamp/minesweeper", "", gt, extra)["acc"] == 0.0


def _bc_eval_score(text: str, **kwargs) -> float:
    """What bc-eval gives the same text under `--verify-correction-kwargs` (the verifier's verify_score)."""
    from bc_common.registry import get_bootcamp

    return float(get_bootcamp(DS).reward.verify_score(text, json.loads(GT), format_score=0.0, **kwargs))


def test_the_seeds_reward_kwargs_mean_the_same_as_in_bc_eval() -> None:
    import pytest

    from bc_common.errors import ConfigError

    cases = [({"short_penalty": True}, RIGHT, 0.0),  # 28 characters, under the seed's 100
             ({"short_penalty": True, "short_threshold": 10}, RIGHT, 1.0),
             ({"short_threshold": 50}, RIGHT, 0.0),
             ({"format_penalty": True}, f"<think>a</think>{RIGHT}", 1.0),
             ({"format_penalty": True}, f"<think>a{RIGHT}", 0.0),
             ({"ans_threshold": 40}, RIGHT, 0.0),
             ({"tolerance": "1e-3"}, RIGHT, 1.0)]  # the verifier's own key passes through too
    for kwargs, text, expected in cases:
        got = compute_score(DS, text, GT, {"bc_final_text": text}, **kwargs)
        assert got["acc"] == expected == _bc_eval_score(text, **kwargs), kwargs
    with pytest.raises(ConfigError, match="short_penalti"):  # a typo is refused, not swallowed
        compute_score(DS, RIGHT, GT, {"bc_final_text": RIGHT}, short_penalti=True)
    # verl's own additions when a reward model serves are not the verifier's keys
    assert compute_score(DS, RIGHT, GT, {"bc_final_text": RIGHT}, reward_router_address=None)["acc"] == 1.0

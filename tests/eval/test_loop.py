"""The rollout loop against a scripted OpenAI-compatible server: tools, interactions, stops, model mistakes."""
from __future__ import annotations

from pathlib import Path

from bc_common.records import check_trajectory
from bc_common.rollout import Limits
from bc_eval.client import RetryPolicy
from bc_eval.runner import EvalConfig, evaluate

from .conftest import answer, arithmetic_task, read_jsonl, write_jsonl

CALC = "calculate"


def run(tmp_path: Path, url: str, tasks: list[dict], **kwargs) -> list[dict]:
    tasks_file = write_jsonl(tmp_path / "tasks.jsonl", tasks)
    out = tmp_path / "out.jsonl"
    kwargs.setdefault("retry", RetryPolicy(max_retries=3, base_delay=0.01))
    evaluate(EvalConfig(tasks=[str(tasks_file)], output=str(out), model="scripted", base_url=url, **kwargs))
    rows = read_jsonl(out)
    for row in rows:
        check_trajectory(row)
        for msg in row["messages"]:
            assert None not in msg.values(), msg  # no null noise
    return rows


def test_tool_call_then_answer_scores_one(tmp_path, scripted):
    task = arithmetic_task("12 × 7 + 5", interaction=False)
    server, url = scripted({task["prompt"][0]["content"]: [
        {"tool_calls": [{"name": CALC, "arguments": {"expression": "12 × 7 + 5"}}]},
        {"content": answer(89)},
    ]})
    [row] = run(tmp_path, url, [task])
    assert row["status"] == "completed" and row["score"] == 1.0 and row["success"] is True
    roles = [m["role"] for m in row["messages"]]
    assert roles == ["user", "assistant", "tool", "assistant"]
    assert row["messages"][1]["content"] == ""  # the server sent content: null
    assert row["messages"][2] == {"role": "tool", "tool_call_id": row["messages"][1]["tool_calls"][0]["id"],
                                  "content": "89"}
    assert [t["type"] for t in row["turns"]] == ["model", "tool", "model"]
    assert row["tools"][0]["function"]["name"] == CALC
    # the model was offered the tool and saw the tool's answer on the second call
    assert server.requests[0]["body"]["tools"][0]["function"]["name"] == CALC
    assert server.requests[1]["body"]["messages"][-1]["content"] == "89"
    assert row["usage"]["total_tokens"] > 0 and row["num_turns"] == {"assistant": 2, "user": 1, "tool_calls": 1}


def test_parallel_tool_calls_all_run_in_order(tmp_path, scripted):
    task = arithmetic_task("2 + 3", interaction=False)
    _, url = scripted({task["prompt"][0]["content"]: [
        {"tool_calls": [{"name": CALC, "arguments": {"expression": "2 + 3"}},
                        {"name": CALC, "arguments": {"expression": "10 × 10"}},
                        {"name": CALC, "arguments": {"expression": "1 ÷ 0"}}]},
        {"content": answer(5)},
    ]})
    [row] = run(tmp_path, url, [task])
    tool_msgs = [m for m in row["messages"] if m["role"] == "tool"]
    assert [m["content"] for m in tool_msgs[:2]] == ["5", "100"]
    assert tool_msgs[2]["content"].startswith("Error:")
    calls = row["messages"][1]["tool_calls"]
    assert [m["tool_call_id"] for m in tool_msgs] == [c["id"] for c in calls]
    tool_turns = [t for t in row["turns"] if t["type"] == "tool"]
    assert [t["error"] is None for t in tool_turns] == [True, True, False]
    assert tool_turns[2]["error"]["type"] == "division_by_zero"
    assert row["score"] == 1.0 and row["num_turns"]["tool_calls"] == 3


def test_interaction_feedback_then_right_answer(tmp_path, scripted):
    task = arithmetic_task("6 × 7")
    _, url = scripted({task["prompt"][0]["content"]: [
        {"content": answer(41)},
        {"content": "I think it is 42 but forgot the format."},
        {"content": answer(42)},
    ]})
    [row] = run(tmp_path, url, [task])
    assert row["status"] == "completed" and row["score"] == 1.0
    feedback = [m["content"] for m in row["messages"] if m["role"] == "user"][1:]
    assert len(feedback) == 2 and "incorrect" in feedback[0] and "could not find" in feedback[1]
    assert row["reward"]["turn_scores"] == [0.0, 0.0, 1.0]
    assert row["messages"][-1]["role"] == "assistant"  # the final "Correct." stays in the turn, not the chat
    assert [t for t in row["turns"] if t["type"] == "interaction"][-1]["terminate"] is True


def test_wrong_answers_until_out_of_attempts(tmp_path, scripted):
    task = arithmetic_task("6 × 7")
    _, url = scripted({task["prompt"][0]["content"]: [{"content": answer(41)}]})
    [row] = run(tmp_path, url, [task])
    assert row["status"] == "completed" and row["score"] == 0.0 and row["success"] is False
    assert row["num_turns"]["assistant"] == 3  # max_attempts of the interaction config


def test_score_uses_assistant_text_only(tmp_path, scripted):
    """A tool result holding the right JSON block must not count: the final assistant text has no answer."""
    task = arithmetic_task("2 + 2", interaction=False)
    _, url = scripted({task["prompt"][0]["content"]: [
        {"tool_calls": [{"name": CALC, "arguments": {"expression": "2 + 2"}}]},
        {"content": "Done, see the tool output."},
    ]})
    [row] = run(tmp_path, url, [task])
    assert row["status"] == "completed" and row["score"] == 0.0


def test_malformed_arguments_and_unknown_tool_go_back_to_the_model(tmp_path, scripted):
    task = arithmetic_task("9 - 4", interaction=False)
    server, url = scripted({task["prompt"][0]["content"]: [
        {"tool_calls": [{"name": CALC, "arguments": '{"expression": "9 - 4"'}]},
        {"tool_calls": [{"name": "python", "arguments": {"code": "print(5)"}}]},
        {"tool_calls": [{"name": CALC, "arguments": {"expr": "9 - 4"}}]},
        {"content": answer(5)},
    ]})
    [row] = run(tmp_path, url, [task])
    errors = [t["error"]["type"] for t in row["turns"] if t["type"] == "tool"]
    assert errors == ["invalid_arguments", "unknown_tool", "invalid_arguments"]
    tool_texts = [m["content"] for m in row["messages"] if m["role"] == "tool"]
    assert all(t.startswith("Error:") for t in tool_texts) and "calculate" in tool_texts[1]
    assert row["status"] == "completed" and row["score"] == 1.0
    assert "Error:" in server.requests[1]["body"]["messages"][-1]["content"]


def test_assistant_turn_budget_stops_a_tool_loop(tmp_path, scripted):
    task = arithmetic_task("1 + 1", interaction=False)
    _, url = scripted({task["prompt"][0]["content"]: [
        {"tool_calls": [{"name": CALC, "arguments": {"expression": "1 + 1"}}]}]})
    [row] = run(tmp_path, url, [task], limits=Limits(max_assistant_turns=3, max_user_turns=20))
    assert row["status"] == "max_turns" and row["num_turns"]["assistant"] == 3 and row["score"] == 0.0


def test_user_turn_budget_counts_tool_responses(tmp_path, scripted):
    task = arithmetic_task("1 + 1", interaction=False)
    _, url = scripted({task["prompt"][0]["content"]: [
        {"tool_calls": [{"name": CALC, "arguments": {"expression": "1 + 1"}}] * 2}]})
    [row] = run(tmp_path, url, [task], limits=Limits(max_assistant_turns=10, max_user_turns=3))
    assert row["status"] == "max_turns" and row["num_turns"]["assistant"] == 2


def test_length_stop(tmp_path, scripted):
    task = arithmetic_task("3 + 3")
    _, url = scripted({task["prompt"][0]["content"]: [{"content": "Let me think about 3 + 3 very caref",
                                                        "finish_reason": "length"}]})
    [row] = run(tmp_path, url, [task])
    assert row["status"] == "length" and row["num_turns"]["assistant"] == 1


def test_tools_offered_are_the_rows_tools(tmp_path, scripted):
    with_tools = arithmetic_task("1 + 2", 0, interaction=False)
    without = arithmetic_task("1 + 3", 1, tools=False, interaction=False)
    without["extra_info"]["need_tools_kwargs"] = False
    server, url = scripted({}, default=[{"content": answer(3)}])
    rows = run(tmp_path, url, [with_tools, without], concurrency=1, ordered=True)
    assert [len(r["tools"]) for r in rows] == [1, 0]
    bodies = {r["key"]: r["body"] for r in server.requests}
    assert "tools" in bodies[with_tools["prompt"][0]["content"]]
    assert "tools" not in bodies[without["prompt"][0]["content"]]


def test_string_prompt_and_bootcamp_without_tools(tmp_path, scripted):
    task = {"id": "noop-1", "data_source": "bootcamp/noop", "prompt": "Reverse ab12 as <answer>...</answer>.",
            "reward_model": {"style": "rule", "ground_truth": {"token": "ab12"}}, "extra_info": {}}
    _, url = scripted({}, default=[{"content": "<answer>21ba</answer>"}])
    [row] = run(tmp_path, url, [task])
    assert row["messages"][0] == {"role": "user", "content": task["prompt"]}
    assert row["score"] == 1.0 and row["tools"] == [] and row["input"] == task


def test_missing_usage_is_tolerated(tmp_path, scripted):
    task = arithmetic_task("5 × 5", interaction=False)
    _, url = scripted({task["prompt"][0]["content"]: [{"content": answer(25), "usage": None}]})
    [row] = run(tmp_path, url, [task])
    assert row["status"] == "completed" and row["score"] == 1.0
    assert row["turns"][0]["usage"] == {} and row["usage"]["total_tokens"] == 0


def test_openai_sdk_client_gives_the_same_trajectory(tmp_path, scripted):
    task = arithmetic_task("8 × 8")
    script = [{"tool_calls": [{"id": "c0", "name": CALC, "arguments": {"expression": "8 × 8"}}]},
              {"content": answer(65)}, {"content": answer(64)}]
    _, url = scripted({task["prompt"][0]["content"]: script})
    [ours] = run(tmp_path, url, [task])
    [sdk] = run(tmp_path, url, [task], client="openai")
    assert sdk["messages"] == ours["messages"] and sdk["score"] == ours["score"] == 1.0
    assert [t["type"] for t in sdk["turns"]] == [t["type"] for t in ours["turns"]]
    assert sdk["usage"] == ours["usage"]


def test_tool_instances_and_interaction_are_released_even_when_the_model_fails():
    import asyncio

    from bc_common.builtin_model import BuiltinModel
    from bc_common.environment import Environments
    from bc_common.rollout import run_trajectory
    from bc_eval.client import ModelError

    class FailsOnSecondCall(BuiltinModel):
        async def complete(self, request):
            if request.turn == 1:
                raise ModelError("bad_request", "HTTP 400: context too long", status=400)
            return await super().complete(request)

    env = Environments().get("bootcamp/arithmetic")
    row = asyncio.run(run_trajectory(arithmetic_task("3 × 3"), 0, FailsOnSecondCall("builtin:reference"), env,
                                     model_name="x"))
    assert row["status"] == "error" and row["error"] == {"type": "bad_request", "status": 400,
                                                         "message": "HTTP 400: context too long"}
    assert row["messages"][-1]["role"] == "tool" and row["reward"]["tool_rewards"] == {"calculate": 0.0}
    assert env.tools.tools["calculate"]._instances == {}
    assert env.interaction("arithmetic_feedback")._instances == {}

import orjson

from bc_common.records import check_task
from bc_filter import (
    create_custom_transformer,
    create_field_extractor,
    expand_messages_prefixes,
    extract_for_training,
    extract_messages,
    to_sft,
    to_task,
)

from .rows import task, trajectory


def test_expand_prefixes_ends_each_row_on_an_assistant_turn():
    row = trajectory(task(0), assistant_turns=3)  # user, A(tool call), tool, A, user, A
    out = expand_messages_prefixes(row)
    assert len(out) == 3
    assert [len(r["messages"]) for r in out] == [2, 4, 6]
    assert all(r["messages"][-1]["role"] == "assistant" for r in out)
    assert [r["messages"] for r in out] == [row["messages"][:2], row["messages"][:4], row["messages"][:6]]
    assert [r["id"] for r in out] == [f"{row['id']}@{k}" for k in range(3)]
    assert all(r["score"] == row["score"] and r["input"] == row["input"] for r in out)
    assert len(row["messages"]) == 6  # the input row is not modified


def test_training_shape_is_the_seeds():
    row = trajectory(task(1))
    out = extract_for_training(row)
    assert list(out) == ["id", "data_source", "prompt", "messages", "tools"]
    assert out["prompt"] == row["input"]["prompt"] and out["data_source"] == "bootcamp/arithmetic"
    assert out["messages"] == row["messages"] and out["tools"] == row["tools"]


def test_messages_shape():
    row = trajectory(task(1), score=0.5)
    assert extract_messages(row) == {"id": row["id"], "messages": row["messages"], "score": 0.5, "success": False}


def test_sft_rows_have_fixed_keys_string_contents_and_json_arguments():
    row = trajectory(task(2))
    row["messages"][1]["tool_calls"][0]["function"]["arguments"] = {"expression": "1 + 1"}  # parsed object
    row["messages"][-1]["extra_debug"] = "dropped"
    no_tools = {k: v for k, v in trajectory(task(3), score=0.0).items() if k != "tools"}
    for out in (to_sft(row), to_sft(no_tools)):
        assert list(out) == ["id", "data_source", "messages", "tools", "score"]
        assert all(isinstance(m["content"], str) for m in out["messages"])
    sft = to_sft(row)
    call = sft["messages"][1]["tool_calls"][0]
    assert call == {"id": "call_0", "type": "function",
                    "function": {"name": "calculate", "arguments": '{"expression":"1 + 1"}'}}
    assert orjson.loads(call["function"]["arguments"]) == {"expression": "1 + 1"}
    assert sft["messages"][1]["content"] == ""  # was None
    assert sft["messages"][2] == {"role": "tool", "content": "2", "tool_call_id": "call_0"}
    assert "extra_debug" not in sft["messages"][-1]
    assert sft["messages"][0] == row["input"]["prompt"][0]  # prompt included
    assert to_sft(no_tools)["tools"] == []


def test_to_task_returns_the_task_row_verbatim():
    t = task(4)
    out = to_task(trajectory(t, 2, score=0.0))
    assert out == t
    check_task(out)


def test_field_extractor_keys_by_path_and_fills_missing_with_null():
    row = trajectory(task(5), score=0.5)
    extract = create_field_extractor("input.data_source", "score", "input.extra_info.generator_name", "nope")
    assert extract(row) == {"input.data_source": "bootcamp/arithmetic", "score": 0.5,
                            "input.extra_info.generator_name": "easy", "nope": None}


def test_custom_transformer_paths_defaults_and_functions():
    row = trajectory(task(6), score=0.5)
    transform = create_custom_transformer({
        "text": "messages[-1].content", "source": "input.data_source", "score": ("score", 0.0),
        "missing": ("no.such.field", "dflt"), "pct": lambda r: r["score"] * 100})
    assert transform(row) == {"text": row["messages"][-1]["content"], "source": "bootcamp/arithmetic",
                              "score": 0.5, "missing": "dflt", "pct": 50.0}

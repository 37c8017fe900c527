"""Reading a run: the browser's samples, the per-turn timeline, images, odd records."""
from __future__ import annotations

import base64
import hashlib
import random

import pytest

from bc_common.errors import InputError
from bc_report.answers import Extractor
from bc_report.runs import Run, Sample
from bc_report.view import MAX_TEXT, Images, timeline

from .conftest import png, read_jsonl, write_jsonl


def test_the_sample_is_the_same_whatever_the_input_order():
    keys = [f"task-{i}#0" for i in range(2000)]
    picks = []
    for order in range(3):
        random.Random(order).shuffle(keys)
        sample = Sample(50, seed=4)
        for key in keys:
            h = sample.wants(key)
            if h is not None:
                sample.keep(h, key, key)
        picks.append(sample.items())
    assert picks[0] == picks[1] == picks[2] and len(picks[0]) == 50
    assert sample.seen == 2000
    other_seed = Sample(50, seed=5)
    for key in keys:
        h = other_seed.wants(key)
        if h is not None:
            other_seed.keep(h, key, key)
    assert other_seed.items() != picks[0]



def test_the_sample_hash_is_blake2b_of_the_seed_and_the_key():
    """The hash that picks the embedded trajectories (pages of one seed keep the same rows across versions)."""
    sample = Sample(10, seed=7)
    for key in ["a#0", "task-ñ😀#3", "", "x" * 300]:
        digest = hashlib.blake2b(b"7\x1f" + key.encode(), digest_size=8).digest()
        assert sample.wants(key) == int.from_bytes(digest, "little")

def test_a_run_keeps_every_failure_under_the_cap_and_a_sample_of_passes(runs):
    run = Run("noisy1", max_failures=10_000, max_passes=7, extractor=Extractor())
    run.read_files([str(runs["noisy1"])])
    rows = read_jsonl(runs["noisy1"])
    failed = [r for r in rows if not r["success"]]
    assert run.count == len(rows) and len(run.task_ids) == len(rows) // 2
    views = run.embedded()
    assert {v["id"] for v in views if not v["passed"]} == {r["id"] for r in failed}
    assert sum(v["passed"] for v in views) == 7 and run.passes.seen == len(rows) - len(failed)
    capped = Run("noisy1", max_failures=5, max_passes=0)
    capped.read_files([str(runs["noisy1"])])
    assert len(capped.embedded()) == 5 and capped.failures.seen == len(failed)


def test_the_timeline_shows_every_turn_in_order_with_its_facts(runs):
    rows = read_jsonl(runs["noisy1"])
    row = next(r for r in rows if r["input"]["data_source"] == "bootcamp/arithmetic" and len(r["reward"]["turn_scores"]) > 1)
    steps = timeline(row, Images())
    kinds = [s["kind"] for s in steps]
    assert kinds[0] == "user" and kinds[1] == "assistant" and "tool" in kinds and "interaction" in kinds
    call = steps[1]["tool_calls"][0]
    assert call["name"] == "calculate" and "expression" in call["arguments"]
    tool = steps[kinds.index("tool")]
    assert tool["parts"][0]["text"] == next(m["content"] for m in row["messages"] if m["role"] == "tool")
    assert "latency_s" in tool["facts"] and "reward" in tool["facts"]
    replies = [s for s in steps if s["kind"] == "interaction"]
    assert [s["facts"]["score"] for s in replies] == row["reward"]["turn_scores"]
    assert replies[-1]["facts"]["terminate"] is True  # the closing reply lives only in `turns`, and is shown
    assert steps[1]["facts"]["completion_tokens"] > 0


def test_the_extracted_answer_comes_from_the_bootcamps_verifier(runs):
    row = next(r for r in read_jsonl(runs["noisy1"]) if r["input"]["data_source"] == "bootcamp/arithmetic")
    got = Extractor()(row)
    assert got["value"] is not None and "ArithmeticRewardCalculator.extract_output" in got["note"]
    row["input"]["data_source"] = "bootcamp/not_installed_here"
    missing = Extractor()(row)
    assert missing["value"] is None and "not_installed_here" in missing["note"]


def test_images_are_embedded_once_and_only_as_raster_data_urls():
    url = "data:image/png;base64," + base64.b64encode(png()).decode()
    images = Images()
    content = [{"type": "text", "text": "What colour is on the left?"},
               {"type": "image_url", "image_url": {"url": url}},
               {"type": "image_url", "image_url": {"url": "https://tracker.example/pixel.png"}},
               {"type": "image_url", "image_url": {"url": "javascript:alert(1)"}},
               {"type": "image_url", "image_url": {"url": "data:image/svg+xml;base64,PHN2Zz4="}}]
    row = {"messages": [{"role": "user", "content": content}, {"role": "user", "content": content}], "turns": []}
    steps = timeline(row, images)
    first = steps[0]["parts"]
    assert first[0] == {"text": "What colour is on the left?"}
    assert images.by_key == {first[1]["image"]: url}  # the same image twice is stored once
    assert all("note" in part and "image" not in part for part in first[2:])


def test_long_texts_are_cut_with_a_note():
    row = {"messages": [{"role": "user", "content": "x" * (MAX_TEXT + 500)}], "turns": []}
    text = timeline(row, Images())[0]["parts"][0]["text"]
    assert len(text) < MAX_TEXT + 100 and "500 more characters not shown" in text


def test_odd_but_valid_records_do_not_break_the_run(tmp_path):
    base = {"id": "t#0", "task_id": "t", "input": {"data_source": "bootcamp/x"}, "messages": [], "score": 0.5,
            "status": "completed"}
    odd = [dict(base),
           dict(base, id="t#1", sample=1, turns="not a list", usage=[], timing={"started_at": "yesterday"}),
           dict(base, id="t#2", sample=2, turns=[None, {"type": "tool", "error": "boom"}], num_turns={"assistant": "2"}),
           dict(base, id="t#3", sample=3, score=1, success="yes", model=None)]
    run = Run("odd", extractor=Extractor())
    run.read_files([str(write_jsonl(tmp_path / "odd.jsonl", odd))])
    assert run.count == 4 and run.errors_by_tool  # the tool error without a type is counted as "error"


def test_a_bad_line_names_file_and_line(tmp_path):
    path = tmp_path / "bad.jsonl"
    path.write_text('{"id": "a"}\n')
    with pytest.raises(InputError, match=r"bad.jsonl:1: missing field 'task_id'"):
        Run("bad").read_files([str(path)])

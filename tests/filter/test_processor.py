import gzip
import re

import orjson
import pytest

from bc_common.errors import InputError
from bc_filter import (
    DataPostProcessor,
    Processor,
    ProcessStats,
    build_processor,
    expand_messages_prefixes,
    extract_for_training,
    filter_by_score,
    filter_by_success,
    filter_trajectories,
)

from .rows import eval_run, read_jsonl, task, trajectory, write_jsonl


def test_seed_style_api(tmp_path):
    rows = eval_run(n_tasks=6)
    src = write_jsonl(tmp_path / "eval.jsonl", rows)
    p = DataPostProcessor()
    p.add_filter(filter_by_success, name="success")
    p.add_filter(filter_by_score(min_score=0.9, max_score=1.0), name="score")
    p.add_filter(lambda x: len(x.get("messages", [])) > 2, name="min_messages")
    p.add_transformer(expand_messages_prefixes, name="expand")
    p.add_transformer(extract_for_training, name="training_format")

    def add_metadata(data):
        data["processed_at"] = "2024-01-01"
        return data

    p.add_transformer(add_metadata, name="metadata")
    stats = p.process(input_path=str(src), output_path=str(tmp_path / "out.jsonl"), verbose=True)
    out = read_jsonl(tmp_path / "out.jsonl")
    solved = [r for r in rows if r["success"]]
    assert stats.rows_in == len(rows) and stats.kept == len(solved)
    assert stats.dropped == {"success": len(rows) - len(solved), "score": 0, "min_messages": 0}
    assert stats.transformed["expand"] == [len(solved), 2 * len(solved)]
    assert stats.rows_out == len(out) == 2 * len(solved)
    assert all(r["processed_at"] == "2024-01-01" and set(r) >= {"prompt", "tools"} for r in out)


def test_one_to_many_and_dropping_transformers():
    rows = eval_run(n_tasks=2)
    p = Processor().add_transformer(lambda r: None if r["score"] < 1 else [{"turn": i} for i in range(3)])
    out = list(p.run_rows(rows))
    assert len(out) == 3 * sum(r["score"] >= 1 for r in rows)


def test_unchanged_rows_keep_their_input_bytes(tmp_path):
    rows = eval_run(n_tasks=3)
    # odd but valid spacing and key order survive, and \r\n endings are normalised
    lines = [orjson.dumps(r).replace(b'"score":', b'"score" :  ') for r in rows]
    src = tmp_path / "eval.jsonl"
    src.write_bytes(b"\r\n".join(lines) + b"\r\n\n   \n")
    for stages in ({"min_score": 0.9}, {"min_score": 0.9, "best_per_task": True}):  # fast and general paths
        out = tmp_path / "out.jsonl"
        filter_trajectories([src], out, **stages)
        kept = [line for line, r in zip(lines, rows, strict=True) if r["score"] >= 0.9]
        if stages.get("best_per_task"):
            kept = [kept[0], kept[4]]
        assert out.read_bytes() == b"".join(line + b"\n" for line in kept)


def test_fast_and_general_paths_agree(tmp_path):
    rows = eval_run(n_tasks=9)
    src = write_jsonl(tmp_path / "eval.jsonl", rows)
    fast = build_processor(min_score=0.5, split="train").process(src, tmp_path / "a.jsonl")
    general = build_processor(min_score=0.5, split="train")
    general.add_transformer(lambda r: r)  # any transform leaves the fast path
    slow = general.process(src, tmp_path / "b.jsonl")
    assert read_jsonl(tmp_path / "a.jsonl") == read_jsonl(tmp_path / "b.jsonl")
    a, b = fast.to_dict(), slow.to_dict()
    del b["transformed"], a["transformed"]
    assert a == b
    assert a["score_hist_in"]["1.0"] == sum(r["score"] >= 1 for r in rows)
    assert a["data_sources_kept"] == {"bootcamp/arithmetic": sum(r["score"] >= 0.5 for r in rows)}


def test_reads_gzip_and_json_inputs(tmp_path):
    rows = eval_run(n_tasks=3)
    gz = tmp_path / "eval.jsonl.gz"
    gz.write_bytes(gzip.compress(b"".join(orjson.dumps(r) + b"\n" for r in rows)))
    js = tmp_path / "eval.json"
    js.write_bytes(orjson.dumps(rows))
    stats = filter_trajectories([gz, js], tmp_path / "out.jsonl", success=True)
    assert stats.rows_in == 2 * len(rows)
    assert len(read_jsonl(tmp_path / "out.jsonl")) == 2 * sum(r["success"] for r in rows)


@pytest.mark.parametrize("options", [{"min_score": 0.5}, {"best_per_task": True}, {"to": "sft"}])
def test_invalid_rows_name_file_and_line_or_are_skipped(tmp_path, options):
    rows = eval_run(n_tasks=2)
    src = tmp_path / "eval.jsonl"
    src.write_bytes(b"\n".join([orjson.dumps(rows[0]), b"{not json", orjson.dumps({"id": "x"}),
                                orjson.dumps(rows[1])]) + b"\n")
    with pytest.raises(InputError) as err:
        filter_trajectories([src], tmp_path / "out.jsonl", **options)
    assert str(err.value).startswith(f"{src}:2: invalid JSON")
    assert not (tmp_path / "out.jsonl").exists()  # nothing half-written
    stats = filter_trajectories([src], tmp_path / "out.jsonl", skip_invalid=True, **options)
    assert stats.invalid == 2 and stats.rows_in == 2
    assert f"{src}:3: missing field" in stats.invalid_reasons[1]


def test_a_row_a_transform_cannot_use_is_an_input_error(tmp_path):
    bad = trajectory(task(0))
    bad["messages"] = [{"role": "assistant", "content": None, "tool_calls": [{"function": {}}]}]  # no name
    src = write_jsonl(tmp_path / "eval.jsonl", [trajectory(task(1)), bad])
    with pytest.raises(InputError, match=r"eval.jsonl:2: not a usable trajectory for to sft"):
        filter_trajectories([src], tmp_path / "o.jsonl", to="sft")
    stats = filter_trajectories([src], tmp_path / "o.jsonl", to="sft", skip_invalid=True)
    assert stats.invalid == 1 and stats.rows_out == 1


@pytest.mark.parametrize("options", [{}, {"min_score": 0.5}, {"to": "sft"}, {"best_per_task": True}])
@pytest.mark.parametrize("messages, where", [
    (["not a message"], "messages[0]"),
    ([{"content": "no role"}], "messages[0]"),
    ([{"role": "user", "content": "hi"}, {"role": "robot", "content": "x"}], "messages[1]"),
    ([{"role": "user", "content": 5}], "messages[0].content"),
    ([{"role": "assistant", "content": None, "tool_calls": "calculate"}], "messages[0].tool_calls"),
])
def test_message_elements_are_validated_on_every_path(tmp_path, options, messages, where):
    bad = trajectory(task(0))
    bad["messages"] = messages
    src = write_jsonl(tmp_path / "eval.jsonl", [trajectory(task(1)), bad])
    with pytest.raises(InputError, match=rf"eval.jsonl:2: field '{re.escape(where)}' must be"):
        filter_trajectories([src], tmp_path / "o.jsonl", **options)
    assert not (tmp_path / "o.jsonl").exists()
    stats = filter_trajectories([src], tmp_path / "o.jsonl", skip_invalid=True, **options)
    assert stats.invalid == 1


def test_stats_report_mentions_every_stage():
    rows = eval_run(n_tasks=3)
    stats = ProcessStats()
    out = list(build_processor(min_score=0.4, best_per_task=True, to="sft").run(rows, stats))
    text = stats.format()
    assert len(out) == 2
    assert "rows in: 12" in text and "rows out: 2" in text
    assert "dropped by min-score 0.4: 5" in text and "dropped by best-per-task: 5" in text
    assert "bootcamp/arithmetic: 12 -> 2" in text


def test_contradictory_options_are_rejected():
    with pytest.raises(ValueError):
        build_processor(pass_only_tasks=True, fail_only_tasks=True)
    with pytest.raises(ValueError):
        build_processor(to="parquet")
    with pytest.raises(ValueError):
        build_processor(where=["score>=x"])


@pytest.mark.parametrize("options", [{"min_score": 0.5}, {"to": "sft"}])
def test_output_into_a_pipe_is_written_not_replaced(tmp_path, options):
    import os
    import stat
    import threading

    rows = eval_run(n_tasks=3)
    src = write_jsonl(tmp_path / "eval.jsonl", rows)
    fifo = tmp_path / "out.fifo"
    os.mkfifo(fifo)
    got = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()), daemon=True)
    reader.start()
    stats = filter_trajectories([src], fifo, **options)
    reader.join(timeout=10)
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)  # still a pipe, not a file renamed over it
    assert len(read_jsonl(got[0])) == stats.rows_out > 0


@pytest.mark.parametrize("change", [{"score": True}, {"score": "1.0"}, {"status": "done"}, {"messages": {}},
                                    {"input": []}, {"task_id": None, "drop": "task_id"}])
def test_fast_path_is_as_strict_as_check_trajectory(tmp_path, change):
    from bc_common.records import check_trajectory

    row = trajectory(task(0))
    row.update({k: v for k, v in change.items() if k != "drop"})
    row.pop(change.get("drop", "-"), None)
    with pytest.raises(InputError) as expected:
        check_trajectory(row)
    src = write_jsonl(tmp_path / "eval.jsonl", [trajectory(task(1)), row])
    with pytest.raises(InputError) as got:
        filter_trajectories([src], tmp_path / "out.jsonl", min_score=0.0)  # the fast path
    assert str(got.value) == f"{src}:2: {expected.value.reason}"

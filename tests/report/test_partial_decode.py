"""bc-report's partial decode (`bc_report.facts.decode_line`) counts every line as the full decode does: the same
columns, tallies, embedded trajectories and report bytes on varied rows (unicode, big integers, nesting, images,
matches, odd but valid shapes), and the same FILE:LINE errors on bad ones."""
from __future__ import annotations

import base64
import json
import random
import sys
from pathlib import Path
from typing import Any

import orjson
import pytest

from bc_common.errors import InputError
from bc_report.answers import Extractor
from bc_report.facts import decode_line
from bc_report.report import ReportOptions, build_report, to_html_report, to_markdown_report
from bc_report.runs import Run, RunSpec

from .conftest import png, read_jsonl

COLUMNS = ("score", "passed", "status", "group", "turns", "tool_calls", "tool_errors", "prompt_tokens",
           "completion_tokens", "cost", "wall_s", "started", "latency", "latency_group", "row_source",
           "row_task", "row_sample", "task_n", "task_c", "task_sum", "task_group", "task_seen")


def _state(run: Run) -> dict[str, Any]:
    """Everything a run accumulated, comparable with ==."""
    out: dict[str, Any] = {name: getattr(run, name).tobytes() for name in COLUMNS}  # bytes: nan == nan
    out.update(groups=run.groups, tasks=run.task_no, task_ids=run.task_ids, calls=run.calls_by_tool,
               errors=run.errors_by_tool, models=run.models, stamps=run.stamps.seen, read=run.read,
               matches=(run.matches.clusters, run.matches.matches, run.matches.unfinished),
               seen=(run.failures.seen, run.passes.seen), views=orjson.dumps(run.embedded()))
    return out


def _read(path: Path, partial: bool, skip_invalid: bool = False) -> Run:
    run = Run("r", max_failures=10_000, max_passes=10_000, extractor=Extractor())
    run.read_files([str(path)], skip_invalid=skip_invalid, partial=partial)
    return run


def _image_url() -> str:
    return "data:image/png;base64," + base64.b64encode(png()).decode()


def varied_rows(real: list[dict[str, Any]]) -> list[bytes]:
    """Lines of real trajectories, changed in ways a producer may write them (each a valid row bc-report reads)."""
    rng = random.Random(7)
    lines: list[bytes] = []

    def add(row: dict[str, Any], *, raw: bytes | None = None) -> None:
        lines.append((raw if raw is not None else orjson.dumps(row)) + b"\n")

    for i, base in enumerate(real):
        row = json.loads(json.dumps(base))  # a deep copy
        row["task_id"] = f"{base['task_id']}~{i}"
        row["id"] = f"{row['task_id']}#{row['sample']}"
        kind = i % 24
        if kind == 1:  # unicode everywhere: content, ids, tool names, error types
            row["messages"][-1]["content"] = "答案是 ✓ 😀 ümlaut \u2028 end"
            row["task_id"] += "-ñ😀"
            row["id"] = f"{row['task_id']}#{row['sample']}"
            for turn in row.get("turns", []):
                if turn.get("type") == "tool":
                    turn["name"] = "计算"
        elif kind == 2:  # integers beyond 64 bits (also negative ones orjson rounds) in fields bc-report skips
            row.setdefault("turns", []).append({"type": "interaction", "extra": {"big": 2**70, "neg": -(2**63) - 5}})
            row["reward"] = {"score": row["score"], "huge": 123456789012345678901234567890}
            add(row, raw=json.dumps(row).encode())  # the standard library writes them exactly
            continue
        elif kind == 3:  # images in the prompt: content parts
            row["messages"][0]["content"] = [{"type": "text", "text": "Look:"},
                                             {"type": "image_url", "image_url": {"url": _image_url()}}]
        elif kind == 4:  # no num_turns: assistant turns are counted from messages
            row.pop("num_turns", None)
        elif kind == 5:  # success absent, or not a bool (then computed from status and score)
            row["success"] = "yes" if i % 2 else None
        elif kind == 6:  # usage null, cost present, timing without a start time
            row["usage"] = None
            row["cost"] = {"usd": 0.0125, "price_source": "test"}
            row["timing"] = {"wall_s": 3}
        elif kind == 7:  # nested structures in skipped fields
            nested: Any = {"leaf": [1, 2.5, "x"]}
            for depth in range(60):
                nested = {f"k{depth}": [nested, {"n": None, "t": True}]}
            row["input"]["extra_info"]["deep"] = nested
        elif kind == 8:  # failed calls: a model turn with an error, tool errors with and without a type, a tool
            # turn without a name; in every other row also odd turns (a non-object, one without a type, another type)
            odd = [5, {"latency_s": 1.0}, {"type": "other"}] if i % 2 else []
            row["turns"] = odd + [{"type": "model", "latency_s": 0.5, "error": {"type": "timeout"}},
                                  {"type": "tool", "name": "calc", "error": {"message": "no type"}},
                                  {"type": "tool", "name": "calc", "error": {"type": ""}},
                                  {"type": "tool", "error": {"type": "bad_args"}}] + row.get("turns", [])
        elif kind == 9:  # escaped keys and strings, a duplicated key (the last one counts)
            text = orjson.dumps(row).decode()
            text = text.replace('"score":', '"sc\\u006fre":', 1).replace('"status":', '"status":"error","status":', 1)
            add(row, raw=text.encode())
            continue
        elif kind == 10:  # a match: seats (the ratings read them)
            row["seats"] = [{"seat": "X", "role": "model", "model": row["model"], "messages": [], "score": 1.0},
                            {"seat": "O", "role": "opponent", "model": "builtin:random", "messages": [], "score": 0}]
        elif kind == 11:  # stamps: none, null, another code hash, a top-level data_source, one under extra_info
            choice = i % 5
            if choice == 0:
                row.pop("code_hash", None)
            elif choice == 1:
                row["code_hash"] = None
            elif choice == 2:
                row["code_hash"] = "another"
            elif choice == 3:
                row["data_source"] = "bootcamp/elsewhere"
                row["input"].pop("data_source", None)
            else:
                row.pop("code_hash", None)
                row["extra_info"] = {"code_hash": "from-extra", "bootcamp_version": "x"}
        elif kind == 12:  # integer scores, a float written with 25 digits, a sample at the limit
            row["score"] = 1 if row["score"] >= 1 else 0
            row["sample"] = 10**9
            row["id"] = f"{row['task_id']}#{row['sample']}"
            row["timing"] = {"wall_s": 12345.5}
            add(row, raw=json.dumps(row).replace("12345.5", "1234550000000000000000000e-20").encode())
            continue
        elif kind == 13:  # whitespace between tokens, CRLF line ending
            add(row, raw=json.dumps(row, indent=None, separators=(" , ", " : ")).encode() + b"\r")
            continue
        elif kind == 14:  # extra_info without bootcamp or group, data_source missing
            row["input"]["extra_info"] = {}
            row["input"].pop("data_source", None)
        elif kind == 15:  # extra_info not an object
            row["input"]["extra_info"] = None
        elif kind == 16:  # tool calls and tool messages with content null, assistant content parts
            row["messages"].append({"role": "assistant", "content": None, "tool_calls": []})
            row["messages"].append({"role": "assistant", "content": [{"type": "text", "text": "parts"}]})
        elif kind == 17:  # started_at not ISO, timing not an object
            row["timing"] = {"started_at": "yesterday", "wall_s": None} if i % 2 else "slow"
        elif kind == 18:  # usage with token counts null and floats in other keys
            row["usage"] = {"prompt_tokens": None, "completion_tokens": 7, "total_tokens": 7.5}
        elif kind == 19:  # num_turns.assistant not an int
            row["num_turns"] = {"assistant": 2.0 if i % 2 else True}
        elif kind == 20:  # a line with a non-ASCII character escaped and one written raw
            add(row, raw=json.dumps(row, ensure_ascii=True).encode()[:-1] + b',"e":"\\u00e9 \xc3\xa9"}')
            continue
        elif kind == 21:  # images in a tool result and a remote URL
            row["messages"].append({"role": "tool", "tool_call_id": "x", "content": [
                {"type": "image_url", "image_url": {"url": _image_url()}},
                {"type": "image_url", "image_url": {"url": "https://example.com/a.png"}}]})
        elif kind == 22:  # latency null, a number where a string is usual in a skipped field
            for turn in row.get("turns", []):
                if turn.get("type") == "model":
                    turn["latency_s"] = None
            row["input"]["prompt"] = 5
        if rng.random() < 0.1:
            row["error"] = {"type": "model_error", "message": "boom ✗"}
        add(row)
    return lines


@pytest.fixture(scope="module")
def varied(runs, tmp_path_factory) -> Path:
    real = read_jsonl(runs["noisy1"]) + read_jsonl(runs["reference"])
    for i, row in enumerate(real):
        row["model"] = "m"  # one model: the reference's rows join the noisy run's as more tasks
        row["task_id"] = f"{row['task_id']}@{i}"
    path = tmp_path_factory.mktemp("varied") / "varied.jsonl"
    path.write_bytes(b"\xef\xbb\xbf" + b"".join(varied_rows(real)) + b"\n  \n")
    return path


def test_the_varied_rows_take_both_paths(varied):
    lines = varied.read_bytes().removeprefix(b"\xef\xbb\xbf").splitlines()
    # at the interpreter's default recursion limit: a worker that imported problog (rc/* tests) raised it, and then
    # every long line goes to the full decode (decode_line's depth rule), which this count is not about
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(1000)
    try:
        partial = sum(decode_line(line) is not None for line in lines)
    finally:
        sys.setrecursionlimit(limit)
    assert 0.6 * len(lines) < partial < len(lines)  # most lines decode in part; seats, odd types do not


def test_partial_and_full_decoding_count_the_same(varied):
    fast, full = _read(varied, partial=True), _read(varied, partial=False)
    assert fast.count == full.count > 300
    assert _state(fast) == _state(full)


@pytest.mark.parametrize("fmt", ["md", "html"])
def test_the_report_is_the_same_bytes_either_way(varied, runs, fmt):
    pages = []
    for partial in (True, False):
        options = ReportOptions(max_failures=50, max_passes=20, seed=3, n_boot=200, partial=partial)
        report = build_report(RunSpec("v", [str(varied)]), [RunSpec("ref", [str(runs["reference"])])], options)
        pages.append(to_html_report(report) if fmt == "html" else to_markdown_report(report))
    assert pages[0] == pages[1]


BAD_LINES = [
    b'{"id": "a#0", "task_id": "a", ',  # truncated
    b'{"id":"a#0","task_id":"a","input":{},"messages":[],"score":0.5,"status":"completed","x":NaN}',
    b'{"id":"a#0","task_id":"a","input":{},"messages":[],"score":0.5,"status":"completed","x":"\\ud800"}',
    b'{"id":"a#0","task_id":"a","input":{},"messages":[],"score":0.5,"status":"completed","x":"\xff\xfe"}',
    b'{"id":"a#0","task_id":"a","input":{},"messages":[],"score":0.5,"status":"completed"} trailing',
    b'{"id":"a#0","task_id":"a","input":{},"messages":[],"score":1e400,"status":"completed"}',
    b'{"id":"a#0","task_id":"a","input":{},"messages":[],"score":2,"status":"completed"}',
    b'{"id":"a#0","task_id":"a","input":{},"messages":[],"score":true,"status":"completed"}',
    b'{"id":"a#0","task_id":"a","input":{},"messages":[],"score":0.5,"status":"done"}',
    b'{"id":"a#0","task_id":"","input":{},"messages":[],"score":0.5,"status":"completed"}',
    b'{"id":"a#0","task_id":"a","input":[],"messages":[],"score":0.5,"status":"completed"}',
    b'{"id":"a#0","task_id":"a","input":{},"messages":[{"role":"robot"}],"score":0.5,"status":"completed"}',
    b'{"id":"a#0","task_id":"a","input":{},"messages":[{"role":"user","content":5}],"score":0.5,"status":"completed"}',
    b'{"id":"a#0","task_id":"a","input":{},"messages":[{"role":"user","content":[1]}],"score":0.5,"status":"completed"}',
    b'{"id":"a#0","task_id":"a","input":{},"messages":[{"role":"assistant","tool_calls":[{"function":1}]}],'
    b'"score":0.5,"status":"completed"}',
    b'{"id":"a#0","task_id":"a","input":{},"messages":[],"score":0.5,"status":"completed","sample":-1}',
    b'{"id":"a#0","task_id":"a","input":{},"messages":[],"score":0.5,"status":"completed","sample":1e3}',
    b'{"id":"a#0","task_id":"a","input":{},"messages":[],"score":0.5,"status":"completed","sample":null}',
    b'{"id":"a#0","task_id":"a","input":{},"messages":[],"score":0.5,"status":"completed",'
    b'"usage":{"prompt_tokens":123456789012345678901234}}',
    b'{"id":"a#0","task_id":"a","input":{},"messages":[],"score":0.5,"status":"completed","cost":{"usd":-1}}',
    b'{"id":"a#0","task_id":"a","input":{},"messages":[],"score":0.5,"status":"completed","timing":{"wall_s":1e9}}',
    b'{"id":"a#0","task_id":"a","input":{},"messages":[],"score":0.5,"status":"completed","model":3}',
    b'{"id":"a#0","data_source":"bootcamp/x","prompt":[{"role":"user","content":"hi"}]}',  # a task row
    b'{"id":"a#0","task_id":"a","input":{},"messages":[],"score":0.5,"status":"completed","x":'
    + b"[" * 1030 + b"]" * 1030 + b"}",  # nested deeper than orjson reads
    b'[1, 2]',
]


@pytest.mark.parametrize("line", BAD_LINES, ids=range(len(BAD_LINES)))
def test_a_bad_line_gets_the_same_error_either_way(tmp_path, line):
    good = b'{"id":"g#0","task_id":"g","input":{},"messages":[],"score":0.5,"status":"completed"}'
    path = tmp_path / "bad.jsonl"
    path.write_bytes(good + b"\n" + line + b"\n")
    errors = []
    for partial in (True, False):
        with pytest.raises(InputError) as caught:
            _read(path, partial)
        errors.append(str(caught.value))
    assert errors[0] == errors[1] and "bad.jsonl:2" in errors[0]
    skipped = [_state(_read(path, partial, skip_invalid=True)) for partial in (True, False)]
    assert skipped[0] == skipped[1] and skipped[0]["read"].skipped == 1


def test_random_damage_to_lines_is_refused_or_counted_alike(runs, tmp_path):
    """Bytes flipped, dropped or doubled at random in real lines: each damaged file reads the same either way
    (the same error, or the same counts); the one accepted difference is a number beyond a double's range in a
    field bc-report does not read (valid JSON that orjson refuses)."""
    lines = runs["noisy1"].read_bytes().splitlines()
    rng = random.Random(11)
    outcomes = {"same error": 0, "same counts": 0}
    for trial in range(150):
        line = bytearray(rng.choice(lines))
        for _ in range(rng.randint(1, 3)):
            at = rng.randrange(len(line))
            action = rng.random()
            if action < 0.4:
                line[at] = rng.choice(b'{}[]",:0123456789eE.-+\\ntruefalsnul \xc3\xff')
            elif action < 0.7:
                del line[at]
            else:
                line.insert(at, line[at])
        path = tmp_path / f"damaged{trial}.jsonl"
        path.write_bytes(bytes(line) + b"\n")
        results = []
        for partial in (True, False):
            try:
                results.append(("ok", _state(_read(path, partial))))
            except InputError as exc:
                results.append(("error", str(exc)))
        if results[0] != results[1]:
            assert results[0][0] == "ok" and "number is infinity" in results[1][1], (bytes(line), results)
            continue
        outcomes["same error" if results[0][0] == "error" else "same counts"] += 1
    assert outcomes["same error"] > 20 and outcomes["same counts"] > 20, outcomes


EDGES = [  # each range check_report_row makes, at its bounds and just beyond (the narrow types hold the same bounds)
    *(f'"sample":{v}' for v in ("0", "1000000000", "1000000001", "-1", "1.0", "true", "99999999999999999999999")),
    *(f'"num_turns":{{"assistant":{v}}}' for v in ("2147483647", "-2147483648", "null", "1.5")),
    *(f'"usage":{{"prompt_tokens":{p},"completion_tokens":{c}}}'
      for p, c in (("0", "1000000000"), ("1000000001", "0"), ("-1", "null"), ("null", "5"), ("1.0", "2"))),
    *(f'"cost":{{"usd":{v}}}' for v in ("0", "-0.0", "1000000", "1000000.0001", "-1e-300", "null")),
    *(f'"timing":{{"wall_s":{v}}}' for v in ("0", "10000000", "10000000.5", "-0.0", "null")),
    *(f'"score":{v}' for v in ("0", "1", "1.0", "-0.0", "1.0000000000000002", "-1e-320", "1e-320")),
    '"id":""', '"task_id":""', '"id":"\\u00e9"',
]


@pytest.mark.parametrize("edge", EDGES)
def test_values_at_the_bounds_read_the_same_either_way(tmp_path, edge):
    row = orjson.loads(b'{"id":"a#0","task_id":"a","input":{},"messages":[],"score":0.5,"status":"completed"}')
    line = orjson.dumps(row)[:-1] + b"," + edge.encode() + b"}"  # the edge's key last: it wins over the one above
    path = tmp_path / "edge.jsonl"
    path.write_bytes(line + b"\n")
    results = []
    for partial in (True, False):
        try:
            results.append(("ok", _state(_read(path, partial))))
        except InputError as exc:
            results.append(("error", str(exc)))
    assert results[0] == results[1]

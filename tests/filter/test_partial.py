"""bc-filter's partial decoding (bc_filter/partial.py) against the full decode of every row, on varied rows.

The reference is the same loop with `partial=False`: every line decoded by orjson and checked in full. Both must
write the same bytes, count the same drops and refuse the same lines with the same FILE:LINE message.
"""
from __future__ import annotations

import base64
import io
import json
import random
import sys

import orjson
import pytest

from bc_common.errors import InputError
from bc_filter import fast
from bc_filter.partial import RowView, reads_of
from bc_filter.pipeline import build_processor, check_trajectory_or_task
from bc_filter.stats import ProcessStats

from .rows import task, trajectory

PNG = "data:image/png;base64," + base64.b64encode(b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4).decode()


def _rows() -> list[bytes]:
    """Valid trajectories of many shapes, one JSONL line each."""
    rows = [trajectory(task(i, bootcamp=("arithmetic", "tictactoe")[i % 2], split=("train", "test")[i % 3 == 0],
                            generator=("easy", "hard")[i % 4 == 0]), i % 3, score=[0.0, 0.5, 0.95, 1.0][i % 4],
                       status=["completed", "max_turns", "error"][i % 3], tool_error=i % 5 == 0,
                       assistant_turns=1 + i % 3) for i in range(12)]
    unicode = trajectory(task(20), answer="Ответ: 42 — 答案 😀 \u2028 \"quoted\" \\ back", score=1.0)
    unicode["input"]["data_source"] = "bootcamp/ünï"
    big = trajectory(task(21), score=12345678901234567890123, sample=2**70)  # orjson reads big ints as floats
    big["input"]["extra_info"]["seed"] = -(2**80)
    nested = trajectory(task(22), score=0.97, extra={"a": [[[{"b": [1, 2.5e-300, None, True]}]]], "c": {}})
    image = trajectory(task(23, bootcamp="chart_read"), score=1.0)
    image["messages"][0] = {"role": "user", "content": [{"type": "text", "text": "Read the chart."},
                                                        {"type": "image_url", "image_url": {"url": PNG}}]}
    no_turn_counts = trajectory(task(24), score=1.0, assistant_turns=3)
    del no_turn_counts["num_turns"]  # the turns filter counts the messages instead
    odd_extra = trajectory(task(25), score=1.0)
    odd_extra["input"]["extra_info"] = "not an object"
    no_source = trajectory(task(26), score=0.2)
    del no_source["input"]["data_source"]
    int_score = trajectory(task(27), score=1, status="length")
    # deep reads (input.extra_info.bootcamp, num_turns.assistant) meeting what their scalar leaves do not take:
    # a number for a name, an int past int64 (a float to orjson), a container, null on the way
    odd_leaves = []
    for i, (bootcamp, assistant) in enumerate([(7, 2**63 - 1), (["arithmetic"], 2**63), ("arithmetic", 2**70),
                                               (None, 1.0), ("tictactoe", True), ("arithmetic", [2])]):
        row = trajectory(task(40 + i), score=0.96, assistant_turns=2)
        row["input"]["extra_info"]["bootcamp"] = bootcamp
        row["num_turns"]["assistant"] = assistant
        row["usage"] = {"total_tokens": assistant}
        # keys that hold a scalar in a trajectory (decoded as one) holding something else
        row["input"]["data_source"] = [5, ["bootcamp/arithmetic"], "bootcamp/arithmetic", None, {}, 2**64][i]
        row["success"] = [True, "yes", None, 1, [], {"a": 1}][i]
        row["model"] = [None, 7, ["m"], "m", {}, 2**70][i]
        odd_leaves.append(row)
    null_counts = trajectory(task(46), score=0.96, assistant_turns=1)
    null_counts["num_turns"] = None
    seed_row = {"input": task(28), "messages": trajectory(task(28))["messages"], "score": 1.0, "success": True,
                "evaluation_config": {"model": "m"}}
    lines = [orjson.dumps(r) + b"\n" for r in
             rows + [unicode, nested, image, no_turn_counts, odd_extra, no_source, int_score, seed_row, null_counts]]
    lines.insert(13, json.dumps(big, separators=(",", ":")).encode() + b"\n")  # orjson writes no big int
    lines += [json.dumps(row, separators=(",", ":")).encode() + b"\n" for row in odd_leaves]
    lines.append(b'  {"id":"x#0","task_id":"x","input":{},"messages":[],"score":0.91,"status":"completed"}\r\n')
    lines.append(b'{"id":"d#0","task_id":"d","input":{},"messages":[],"score":0.1,"score":0.99,'
                 b'"status":"error","status":"completed"}\n')  # duplicate keys: the last one counts
    lines.append(b"\n")  # a blank line is skipped
    return lines


def _with_task_row() -> list[bytes]:
    return _rows() + [orjson.dumps(task(30)) + b"\n"]


BAD_LINES = [
    b'{"id":"a","task_id":"a","input":{"x":"\xff"},"messages":[],"score":1,"status":"completed"}\n',  # bad UTF-8
    b'{"id":"a","task_id":"a","input":{"\xc0\xaf":1},"messages":[],"score":1,"status":"completed"}\n',
    b'{"id":"a","task_id":"a","input":{"x":"\xed\xa0\x80"},"messages":[],"score":1,"status":"completed"}\n',
    b'{"id":"a","task_id":"a","input":{"x":"\\ud800"},"messages":[],"score":1,"status":"completed"}\n',
    b'{"id":"a","task_id":"a","input":{"x":[1,]},"messages":[],"score":1,"status":"completed"}\n',
    b'{"id":"a","task_id":"a","input":{},"messages":[],"score":1,"status":"completed"} trailing\n',
    b'{"id":"a","task_id":"a","input":{"x":' + b"[" * 1025 + b"]" * 1025 + b'},"messages":[],"score":1,'
    b'"status":"completed"}\n',
    b'{"id":"a","task_id":"a","input":{},"messages":[],"score":1e400,"status":"completed"}\n',
    b'{"id":"a","task_id":"a","input":{},"messages":[],"score":true,"status":"completed"}\n',
    b'{"id":"a","task_id":"a","input":{},"messages":[],"score":"1","status":"completed"}\n',
    b'{"id":"a","task_id":"a","input":[],"messages":[],"score":1,"status":"completed"}\n',
    b'{"id":"a","task_id":"a","input":{},"messages":[{"role":"robot"}],"score":1,"status":"completed"}\n',
    b'{"id":"a","task_id":"a","input":{},"messages":[{"role":"user","content":5}],"score":1,"status":"completed"}\n',
    b'{"id":"a","task_id":"a","input":{},"messages":[{"role":"user","content":[1]}],"score":1,'
    b'"status":"completed"}\n',
    b'{"id":"a","task_id":"a","input":{},"messages":[{"role":"assistant","tool_calls":[{"function":"f"}]}],'
    b'"score":1,"status":"completed"}\n',
    b'{"id":"a","task_id":"a","input":{},"messages":[],"score":1,"status":"done"}\n',
    b'{"task_id":"a","input":{},"messages":[],"score":1,"status":"completed"}\n',
    b'[1, 2]\n',
    b'{"id":"a","task_id":"a","input":{},"messages":[],"score":1,"status":"completed",\n',
]
DEEP = (b'{"id":"a","task_id":"a","input":{"x":' + b"[" * 1000 + b"]" * 1000 + b'},"messages":[],"score":1,'
        b'"status":"completed"}\n')  # deep but valid: msgspec gives up, the full decode accepts it
# numbers beyond a double's range: valid JSON that orjson refuses; the partial decode passes them where no filter
# reads them (see bc_filter/partial.py)
OUT_OF_RANGE = [
    b'{"id":"a","task_id":"a","input":{"x":1e400},"messages":[],"score":1,"status":"completed"}\n',
    b'{"id":"a","task_id":"a","input":{"x":-1' + b"0" * 400 + b'},"messages":[],"score":1,"status":"completed"}\n',
]

FILTERS = [
    {"min_score": 0.9}, {"max_score": 0.5}, {"status": ["completed", "length"]}, {"success": True},
    {"data_source": "bootcamp/arith*"}, {"bootcamp": ["tictactoe"]}, {"split": ["test"]}, {"generator": ["hard"]},
    {"min_turns": 2}, {"max_turns": 1}, {"has_tool_error": True},
    {"where": ["error=null"]}, {"where": ["usage.total_tokens<20"]}, {"where": ["input.extra_info.seed=7"]},
    {"where": ["sample>=1"]}, {"where": ["messages[-1].role=assistant"]},
    {"min_score": 0.5, "status": ["completed"], "bootcamp": ["arithmetic"], "has_tool_error": False},
    {"where": ["num_turns.assistant>=2"]}, {"where": ["input.extra_info.tools_kwargs.calculate.x=null"]},
    {"where": ["input.extra_info.identity!=null"]}, {"where": ["turns[0].type=model"]},
    {"bootcamp": ["arithmetic"], "where": ["input.extra_info={}"]}, {"where": ["model=m"]},
]


def _run(lines: list[bytes], options: dict, *, partial: bool, skip_invalid: bool = True, detailed: bool = True,
         tmp_path=None, validate=check_trajectory_or_task):
    src = tmp_path / f"in-{partial}.jsonl"
    src.write_bytes(b"".join(lines))
    stages = build_processor(**options).stages
    stats = ProcessStats(detailed=detailed)
    out = io.BytesIO()
    fast.filter_jsonl([str(src)], out, stats, stages, skip_invalid=skip_invalid, validate=validate,
                      partial=partial)
    return out.getvalue(), stats.to_dict() | {"invalid_reasons": [r.replace(str(src), "F") for r in
                                                                   stats.invalid_reasons]}


@pytest.mark.parametrize("options", FILTERS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
@pytest.mark.parametrize("detailed", [True, False])
def test_partial_decoding_writes_what_the_full_decode_writes(tmp_path, options, detailed):
    lines = _with_task_row() + BAD_LINES + [DEEP]
    got = _run(lines, options, partial=True, detailed=detailed, tmp_path=tmp_path)
    want = _run(lines, options, partial=False, detailed=detailed, tmp_path=tmp_path)
    assert got == want
    assert got[0] or "max_turns" in options or "where" in options  # most filters keep something here


@pytest.mark.parametrize("limit", [400, 5000])
def test_the_recursion_limit_does_not_change_what_is_refused(tmp_path, limit):
    """msgspec's depth limit is the interpreter's recursion limit (a library in the same process may raise it);
    orjson's is fixed. A line nested past orjson's limit is refused either way, and a deep valid one kept."""
    lines = _rows()[:3] + BAD_LINES[6:7] + [DEEP]
    before = sys.getrecursionlimit()
    sys.setrecursionlimit(limit)
    try:
        got = _run(lines, {"min_score": 0.5}, partial=True, detailed=False, tmp_path=tmp_path)
    finally:
        sys.setrecursionlimit(before)
    want = _run(lines, {"min_score": 0.5}, partial=False, detailed=False, tmp_path=tmp_path)
    assert got == want
    assert got[1]["invalid"] == 1 and got[0].endswith(DEEP)


@pytest.mark.parametrize("bad", range(len(BAD_LINES) + 1))
def test_a_bad_line_is_refused_with_the_same_message(tmp_path, bad):
    lines = _rows()[:3] + (BAD_LINES + [DEEP])[bad:bad + 1]
    errors = []
    for partial in (True, False):
        try:
            errors.append(_run(lines, {"min_score": 0.0}, partial=partial, skip_invalid=False, tmp_path=tmp_path))
        except InputError as exc:
            errors.append(str(exc).replace(f"in-{partial}.jsonl", "F"))
    assert errors[0] == errors[1]
    if bad < len(BAD_LINES):  # the deep line is valid JSON for orjson
        assert "F:4: " in str(errors[0])


def test_every_line_is_checked_as_json_whatever_the_filter_reads(tmp_path):
    """Mutated lines (a byte changed, dropped or added, seeded): the partial path accepts and refuses exactly
    the lines the full decode does."""
    rng = random.Random(29)
    valid = [line for line in _rows() if line.strip()]
    alphabet = b'{}[]":,0123456789eE+-.\\ \xff\xc3\xa9tfnul\x00\x1f'
    lines = []
    for _ in range(1500):
        line = bytearray(rng.choice(valid).rstrip(b"\n"))
        for _ in range(rng.randint(1, 3)):
            pos = rng.randrange(len(line))
            action = rng.randrange(3)
            if action == 0:
                line[pos] = rng.choice(alphabet)
            elif action == 1:
                del line[pos]
            else:
                line.insert(pos, rng.choice(alphabet))
        lines.append(bytes(line).replace(b"\n", b" ") + b"\n")
    got = _run(lines, {"min_score": 0.5}, partial=True, tmp_path=tmp_path)
    want = _run(lines, {"min_score": 0.5}, partial=False, tmp_path=tmp_path)
    assert got == want
    assert 0 < got[1]["invalid"] < len(lines)  # the mutations made both kinds


def test_unchanged_rows_are_written_as_the_bytes_read(tmp_path):
    lines = _rows()
    out, _ = _run(lines, {"min_score": 0.0}, partial=True, tmp_path=tmp_path)
    written = out.splitlines(keepends=True)
    assert written[:12] == lines[:12]  # byte-for-byte, key order and number spelling as read
    assert b'"score":0.91' in out and b"\r\n" not in out  # the CRLF line is kept, its ending normalised


def test_reads_name_the_keys_a_filter_needs():
    processor = build_processor(min_score=0.9, bootcamp=["a"], has_tool_error=True)
    assert reads_of(keep for _, keep, _ in processor.stages) == {
        "score", "input.extra_info.bootcamp", "input.data_source", "turns"}
    assert reads_of([lambda row: True]) is None  # a filter of one's own: the full row
    assert reads_of(keep for _, keep, _ in build_processor(where=["messages[0].role=user"]).stages) is None
    view = RowView.for_reads({"score", "input.data_source", "error"})
    line = orjson.dumps(trajectory(task(3), score=0.25))
    assert view.decode(line) == {"score": 0.25, "input": {"data_source": "bootcamp/arithmetic"}, "error": None}
    assert view.decode(line.replace(b'"status":"completed"', b'"status":"bogus"')) is None


@pytest.fixture(autouse=True)
def default_recursion_limit():
    """A view hands lines longer than 2 KiB to the full decode while the recursion limit lets the full decode go
    deeper than orjson (a library imported earlier in the same test process may have raised it): the fast path's
    tests run at Python's default limit."""
    saved = sys.getrecursionlimit()
    sys.setrecursionlimit(1000)
    yield
    sys.setrecursionlimit(saved)


def test_deep_reads_decode_as_far_as_they_go():
    """A dotted read decodes the keys on its way as objects and its leaf as a scalar; a key read whole covers
    the paths below it; a row whose values the leaves do not take needs the full decode (None)."""
    row = trajectory(task(5), score=0.5, assistant_turns=3)
    line = orjson.dumps(row)
    view = RowView.for_reads({"input.extra_info.bootcamp", "input.extra_info.nope", "num_turns.assistant"})
    assert view.decode(line) == {"input": {"extra_info": {"bootcamp": "arithmetic"}}, "num_turns": {"assistant": 3}}
    whole = RowView.for_reads({"input.extra_info", "input.extra_info.bootcamp", "num_turns", "num_turns.x.y"})
    assert whole.decode(line) == {"input": {"extra_info": row["input"]["extra_info"]}, "num_turns": row["num_turns"]}
    for value in (2**63, [3], {"n": 3}, "x" * 3):
        other = orjson.loads(line)
        other["num_turns"]["assistant"] = value
        got = view.decode(json.dumps(other).encode())
        assert got == ({"input": {"extra_info": {"bootcamp": "arithmetic"}}, "num_turns": {"assistant": value}}
                       if isinstance(value, str) else None)
    assert view.decode(line.replace(b'"num_turns":{', b'"num_turns":[{').replace(b'"tool_calls":1}', b'"tool_calls":1}]')) is None


@pytest.mark.parametrize("line", OUT_OF_RANGE)
def test_a_number_beyond_a_double_passes_only_where_no_filter_reads_it(tmp_path, line):
    lines = _rows()[:3] + [line]
    # without --stats (which reads whole rows: code stamps, seats), a line is decoded only as far as filters read
    kept, stats = _run(lines, {"min_score": 0.5}, partial=True, skip_invalid=False, detailed=False, tmp_path=tmp_path)
    assert kept.endswith(line) and stats["invalid"] == 0  # written as read
    with pytest.raises(InputError, match=r"in-False\.jsonl:4: invalid JSON"):
        _run(lines, {"min_score": 0.5}, partial=False, skip_invalid=False, tmp_path=tmp_path)
    for options in ({"where": ["input.x>0"]}, {"where": ["input=null"]}):  # read: refused as by orjson
        refused = []
        for partial in (True, False):
            with pytest.raises(InputError, match=r":4: invalid JSON") as exc:
                _run(lines, options, partial=partial, skip_invalid=False, tmp_path=tmp_path)
            refused.append(str(exc.value).replace(f"in-{partial}.jsonl", "F"))
        assert refused[0] == refused[1]

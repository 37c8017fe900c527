"""bc-train streams its rows (issue 29): the split, the files and the errors are those of a run that held every
row in memory, whatever the number of row groups the rows are written in."""
from __future__ import annotations

import base64
import hashlib
import io
import random
import subprocess
import sys
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from bc_common.errors import InputError
from bc_train import parquet_rows
from bc_train.emit import emit_run
from bc_train.parquet_rows import write_rows
from bc_train.split import Holdout, split_holdout
from bc_train.verl_config import TrainOptions

from .conftest import sft_row, task_row, write_jsonl


def _png() -> str:
    from PIL import Image

    buf = io.BytesIO()
    Image.new("RGB", (8, 6), (200, 30, 30)).save(buf, format="PNG")
    return "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode()


@pytest.mark.parametrize("n", [1, 2, 19, 20, 21, 400, 1279, 1280, 3000])
def test_holdout_over_a_stream_holds_what_split_holdout_holds(n):
    rng = random.Random(n)
    keys = [f"task-{rng.randrange(n * 2 + 1)}" for _ in range(n)]  # repeated keys: ties go to the earlier row
    holdout = Holdout()
    for i, key in enumerate(keys):
        holdout.add(i, key)
    _, val = split_holdout(list(range(n)), lambda i: keys[i])
    assert sorted(holdout.held()) == val


def _rl_rows(n: int) -> list[dict]:
    image = _png()
    rows = []
    for i in range(n):
        row = task_row(i, split="test" if i % 9 == 4 else "train")
        if i in (3, 5):  # prompts with an image, early on: every row gets the images column
            row["prompt"][0]["content"] = [{"type": "text", "text": "Compute 12 + 7 × 3 ✓"},
                                           {"type": "image_url", "image_url": {"url": image}}]
        rows.append(row)
    return rows


def _sft_rows(n: int) -> list[dict]:
    rows = []
    for i in range(n):
        row = sft_row(i)
        if i >= 12:  # tool calls in the first rows only: later row groups hold empty tool_calls lists alone
            row["messages"] = [row["messages"][0], {"role": "assistant", "content": f"33 ünïcode {i}"}]
        rows.append(row)
    return rows


def _run(tmp: Path, name: str, rows: list[dict], monkeypatch, group_rows: int, **kwargs) -> Path:
    monkeypatch.setattr(parquet_rows, "ROW_GROUP_ROWS", group_rows)
    path = write_jsonl(tmp / f"{name}.jsonl", rows)
    out = tmp / name
    emit_run([str(path)], out, TrainOptions(experiment="x"), **kwargs)
    return out


@pytest.mark.parametrize("kind", ["rl", "sft"])
def test_many_row_groups_hold_what_one_row_group_holds(tmp_path, monkeypatch, kind):
    rows = _rl_rows(120) if kind == "rl" else _sft_rows(120)
    one = _run(tmp_path, "one", rows, monkeypatch, 4096)
    many = _run(tmp_path, "many", rows, monkeypatch, 7)
    for name in ("train.parquet", "val.parquet"):
        a, b = pq.ParquetFile(one / name), pq.ParquetFile(many / name)
        assert a.metadata.num_row_groups == 1
        assert b.metadata.num_row_groups == -(-a.metadata.num_rows // 7)
        assert a.schema_arrow == b.schema_arrow and a.read().equals(b.read())
        # one row group: the bytes the in-memory writer (all rows, one table) gives the same rows
        write_rows(a.read().to_pylist(), tmp_path / "ref.parquet")
        assert (tmp_path / "ref.parquet").read_bytes() == (one / name).read_bytes()
    if kind == "rl":
        assert "images" in pq.read_schema(one / "train.parquet").names
    for name in ("config.yaml", "README.md", "bc_train.json", "run.sh"):
        assert (one / name).read_bytes() == (many / name).read_bytes()


def _ids(path: Path) -> list[str]:
    rows = pq.read_table(path).to_pylist()
    return [r["id"] if "id" in r else r["extra_info"]["bc_json"] for r in rows]


def test_the_split_is_the_one_of_a_run_that_held_every_row(tmp_path, monkeypatch):
    marked = _rl_rows(60)
    out = _run(tmp_path, "marked", marked, monkeypatch, 8)
    val = pq.read_table(out / "val.parquet").to_pylist()
    train = pq.read_table(out / "train.parquet").to_pylist()
    want_val = [r["id"] for r in marked if r["extra_info"]["split"] == "test"]
    assert [r["extra_info"]["index"] for r in val] == [int(i[-4:]) for i in want_val]
    assert len(train) == 60 - len(want_val)

    held = [task_row(i) for i in range(1500)]
    out = _run(tmp_path, "held", held, monkeypatch, 100)
    _, ref_val = split_holdout(held, lambda r: r["id"])
    val = pq.read_table(out / "val.parquet").to_pylist()
    assert [r["extra_info"]["index"] for r in val] == [r["extra_info"]["index"] for r in ref_val]
    assert len(val) == 64 and pq.read_metadata(out / "train.parquet").num_rows == 1500 - 64

    sft = _sft_rows(50)
    out = _run(tmp_path, "sft", sft, monkeypatch, 8)
    _, ref_val = split_holdout(sft, lambda r: r["id"])
    assert [r["id"] for r in pq.read_table(out / "val.parquet").to_pylist()] == [r["id"] for r in ref_val]

    out = _run(tmp_path, "single", [task_row(0)], monkeypatch, 8)  # one row trains and validates
    assert pq.read_table(out / "train.parquet").equals(pq.read_table(out / "val.parquet"))
    out = _run(tmp_path, "few", _sft_rows(10), monkeypatch, 8)  # under 20 SFT rows: no val set
    assert not (out / "val.parquet").exists() and pq.read_metadata(out / "train.parquet").num_rows == 10


def test_same_rows_same_bytes(tmp_path, monkeypatch):
    rows = _rl_rows(80)
    first, second = (_run(tmp_path, name, rows, monkeypatch, 16) for name in ("a", "b"))
    for name in ("train.parquet", "val.parquet", "tool_config.yaml", "agent_loops.yaml"):
        assert (first / name).read_bytes() == (second / name).read_bytes()
    assert hashlib.sha256((first / "train.parquet").read_bytes()).hexdigest()


def test_errors_keep_their_order_reading_before_checking(tmp_path):
    """As when every row was read first: a bad line anywhere comes before a row of the other kind, which comes
    before a task row's own error; nothing is written."""
    path = tmp_path / "mixed.jsonl"
    bad_task = {**task_row(1), "prompt": []}
    write_jsonl(path, [task_row(0), bad_task, sft_row(2)])
    with pytest.raises(InputError, match=r"mixed.jsonl:3: mixes task rows with sft rows"):
        emit_run([str(path)], tmp_path / "a", TrainOptions())
    path.write_text(path.read_text() + "{not json\n")
    with pytest.raises(InputError, match=r"mixed.jsonl:4: invalid JSON"):
        emit_run([str(path)], tmp_path / "b", TrainOptions())
    write_jsonl(path, [task_row(0), bad_task, task_row(2)])
    with pytest.raises(InputError, match=r"mixed.jsonl:2: field 'prompt'"):
        emit_run([str(path)], tmp_path / "c", TrainOptions())
    assert not any((tmp_path / d).exists() and any((tmp_path / d).iterdir()) for d in "abc")


def test_stdin_rows_are_named_stdin_and_written_like_a_file(tmp_path):
    rows = _sft_rows(30)
    path = write_jsonl(tmp_path / "rows.jsonl", rows)
    cmd = [sys.executable, "-c", "from bc_train.cli import main; main()"]
    from_file = subprocess.run([*cmd, str(path), "-o", str(tmp_path / "f")], capture_output=True, timeout=120)
    from_stdin = subprocess.run([*cmd, "-o", str(tmp_path / "s")], input=path.read_bytes(), capture_output=True,
                                timeout=120)
    assert from_file.returncode == from_stdin.returncode == 0, from_stdin.stderr
    for name in ("train.parquet", "val.parquet"):
        assert (tmp_path / "f" / name).read_bytes() == (tmp_path / "s" / name).read_bytes()
    bad = subprocess.run([*cmd, "-o", str(tmp_path / "e")], input=path.read_bytes() + b"{oops\n",
                         capture_output=True, timeout=120)
    assert bad.returncode == 2 and b"<stdin>:31: invalid JSON" in bad.stderr, bad.stderr

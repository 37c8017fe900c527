"""bc-filter's worker processes (bc_filter/parallel.py) against one process, on varied input cut into many pieces.

Pieces are made small here (a few rows each) so that every kind of line meets a piece boundary; the reference is
the same run with jobs=1. Both must write the same bytes, count the same rows and drops, and refuse the same lines
with the same FILE:LINE message (the first bad one without --skip-invalid, after the same output).
"""
from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import orjson
import pytest

from bc_common.errors import InputError
from bc_common.jsonl import BOM
from bc_filter import fast, parallel
from bc_filter.pipeline import build_processor, check_trajectory_or_task
from bc_filter.stats import ProcessStats

from .rows import task, trajectory
from .test_partial import BAD_LINES, DEEP, FILTERS, _rows

BIN = Path(sys.executable).parent


@pytest.fixture
def small_pieces(monkeypatch):
    """Every input is split, in pieces of about 600 bytes (a row or two), line ends looked for 50 bytes at a time;
    `calls` records what each parallel pass returned (the first line it left to the caller)."""
    monkeypatch.setattr(parallel, "PARALLEL_MIN", 0)
    monkeypatch.setattr(parallel, "PIECE", 600)
    monkeypatch.setattr(parallel, "_SCAN", 50)
    calls: list[int] = []
    original = parallel.filter_file

    def recorded(*args, **kwargs):
        calls.append(original(*args, **kwargs))
        return calls[-1]

    monkeypatch.setattr(parallel, "filter_file", recorded)
    return calls


def _varied() -> list[bytes]:
    """Valid rows (no seed rows) with bad lines, a deep one, CRLF endings and blank lines between them."""
    valid = [line for line in _rows() if b'"evaluation_config"' not in line]
    lines = []
    for i in range(6):
        lines += valid[i:] + valid[:i]
        lines.append(BAD_LINES[(3 * i) % len(BAD_LINES)])
        lines.append(valid[i].rstrip(b"\n") + b"\r\n")
        lines.append(b"\n")
    return lines + [DEEP]


def _run(path: Path, options: dict, jobs: int, skip_invalid: bool = True, detailed: bool = False):
    stats = ProcessStats(detailed=detailed)
    out = io.BytesIO()
    error = None
    try:
        fast.filter_jsonl([str(path)], out, stats, build_processor(**options).stages, skip_invalid=skip_invalid,
                          validate=check_trajectory_or_task, jobs=jobs)
    except InputError as exc:
        error = str(exc)
    return out.getvalue(), stats.to_dict(), error


@pytest.mark.parametrize("options", FILTERS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
def test_workers_write_what_one_process_writes(tmp_path, small_pieces, options):
    path = tmp_path / "in.jsonl"
    path.write_bytes(b"".join(_varied()))
    got = _run(path, options, jobs=3)
    want = _run(path, options, jobs=1)
    assert got == want
    if "split" not in options:  # a split filter remembers what it refused: one process
        assert small_pieces and small_pieces[0] > 100  # the workers read the file (its line count + 1)
    else:
        assert not small_pieces


@pytest.mark.parametrize("cut", [0, 5, 17, 40, 63, 95])
def test_the_first_bad_line_is_refused_after_the_same_output(tmp_path, small_pieces, cut):
    """The first bad line at several places (the lines before `cut` made valid), in several pieces."""
    valid = [line for line in _rows() if b'"evaluation_config"' not in line]
    lines = [valid[i % len(valid)] if line in BAD_LINES and i < cut else line for i, line in enumerate(_varied())]
    bad = next(i for i in range(cut, len(lines)) if lines[i] in BAD_LINES)
    path = tmp_path / "in.jsonl"
    path.write_bytes(b"".join(lines))
    got = _run(path, {"min_score": 0.5}, jobs=2, skip_invalid=False)
    want = _run(path, {"min_score": 0.5}, jobs=1, skip_invalid=False)
    assert got[2] is not None and got == want
    first_bad = next(i for i, line in enumerate(lines) if line in BAD_LINES)
    assert f"in.jsonl:{first_bad + 1}: " in got[2]
    assert bad >= first_bad
    before = tmp_path / "before.jsonl"  # the rows kept before the bad line are written, as from a buffered stream
    before.write_bytes(b"".join(lines[:first_bad]))
    assert got[0] and got[0] == _run(before, {"min_score": 0.5}, jobs=1, skip_invalid=False)[0]


def test_the_file_edges_and_long_lines(tmp_path, small_pieces):
    """A byte order mark on line 1 (data anywhere else), a last line with no newline, and kept lines longer than a
    piece's shared slot (they come back through the pipe)."""
    valid = [line for line in _rows() if b'"evaluation_config"' not in line]
    long_row = trajectory(task(90), score=1.0, answer="x" * 5000)
    lines = [BOM + valid[3]] + valid * 3 + [orjson.dumps(long_row) + b"\n"] + valid + [BOM + valid[2]]
    lines += [valid[1].rstrip(b"\n")]  # no final newline
    path = tmp_path / "in.jsonl"
    path.write_bytes(b"".join(lines))
    for options in ({"min_score": 0.0}, {"min_score": 0.5}):
        got = _run(path, options, jobs=2)
        assert got == _run(path, options, jobs=1)
        assert got[1]["invalid"] == 1  # the second BOM is not stripped
    assert b"x" * 5000 in got[0] and got[0].endswith(b"}\n")


def test_a_seed_row_sends_the_rest_of_the_file_to_one_process(tmp_path, small_pieces):
    """The seed's evaluator rows number their samples in input order: from the piece holding one, the parent reads
    on itself, and the converted rows are the same."""
    valid = [line for line in _rows() if b'"evaluation_config"' not in line]
    seed_row = next(line for line in _rows() if b'"evaluation_config"' in line)
    lines = valid * 4 + [seed_row] + valid + [seed_row] + valid
    path = tmp_path / "in.jsonl"
    path.write_bytes(b"".join(lines))
    got = _run(path, {"min_score": 0.0}, jobs=2)
    assert got == _run(path, {"min_score": 0.0}, jobs=1)
    assert got[0].count(b'"evaluation_config"') == 2 and b'#1"' in got[0]  # the second is sample 1
    assert 1 < small_pieces[0] <= len(valid) * 4 + 1


def test_stats_and_stateful_filters_stay_in_one_process(tmp_path, small_pieces):
    path = tmp_path / "in.jsonl"
    path.write_bytes(b"".join(_varied()))
    assert _run(path, {"min_score": 0.5}, jobs=2, detailed=True) == _run(path, {"min_score": 0.5}, jobs=1,
                                                                          detailed=True)
    assert not small_pieces


def _big_file(path: Path, size: int) -> list[bytes]:
    valid = [line for line in _rows() if b'"evaluation_config"' not in line]
    written = 0
    lines = []
    with path.open("wb") as fh:
        i = 0
        while written < size:
            line = valid[i % len(valid)]
            if i % 9973 == 5000:
                line = BAD_LINES[i % len(BAD_LINES)]
            fh.write(line)
            written += len(line)
            i += 1
    return lines


@pytest.mark.skipif(not parallel.available(), reason="workers are forked on Linux only")
def test_the_cli_splits_a_large_file_and_writes_the_same_bytes(tmp_path):
    """The real command on a file past PARALLEL_MIN: by default (a worker per core, at least 2 here), with -j 3,
    and from stdin redirected from the file, the same bytes and messages as -j 1."""
    path = tmp_path / "big.jsonl"
    _big_file(path, parallel.PARALLEL_MIN + (3 << 20))
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}

    def run(*args: str, stdin=None):
        proc = subprocess.run([str(BIN / "bc-filter"), "--min-score", "0.5", "--skip-invalid", *args],
                              capture_output=True, stdin=stdin, env=env, timeout=300)
        assert proc.returncode == 0, proc.stderr
        return proc.stdout, proc.stderr.replace(b"<stdin>", str(path).encode())

    want = run("-j", "1", str(path))
    assert want[0] and b"skipped" in want[1]
    assert run("-j", "2", str(path)) == want
    assert run("-j", "3", str(path)) == want
    with path.open("rb") as fh:
        assert run("-j", "2", stdin=fh) == want


_PIECE_FILTER = parallel._filter_piece


def _dies_on_the_third_piece(start: int, end: int, first: bool, slot: int):
    """A worker killed while it filters (run in the worker, which was forked with this in place)."""
    if start > 2 * parallel.PIECE:
        os._exit(9)
    return _PIECE_FILTER(start, end, first, slot)


def test_a_dead_worker_leaves_the_rest_to_one_process(tmp_path, small_pieces, monkeypatch, capfd):
    monkeypatch.setattr(parallel, "_filter_piece", _dies_on_the_third_piece)
    path = tmp_path / "in.jsonl"
    path.write_bytes(b"".join(_varied()))
    got = _run(path, {"min_score": 0.5}, jobs=2)
    monkeypatch.setattr(parallel, "_filter_piece", _PIECE_FILTER)
    assert got == _run(path, {"min_score": 0.5}, jobs=1)
    assert small_pieces[0] < 40  # the pieces the pool lost with the worker (at most those in flight) went to one process
    assert "a worker process died" in capfd.readouterr().err


def test_random_damage_and_piece_sizes(tmp_path, small_pieces, monkeypatch):
    """Seeded rounds of mutated, blank, CRLF and valid lines, pieces of random sizes, 2–4 workers, with and without
    --skip-invalid: the same as one process every time."""
    import random

    rng = random.Random(20261204)
    valid = [line for line in _rows() if b'"evaluation_config"' not in line]
    alphabet = b'{}[]":,0123456789eE+-.\\ \xff\xc3\xa9tfnul\r'
    for round_ in range(12):
        lines = []
        for _ in range(rng.randint(5, 60)):
            line = bytearray(rng.choice(valid))
            kind = rng.random()
            if kind < 0.15:
                pos = rng.randrange(len(line) - 1)
                line[pos] = rng.choice(alphabet)
            elif kind < 0.2:
                line = bytearray(b"\n")
            elif kind < 0.3:
                line = line[:-1] + b"\r\n"
            lines.append(bytes(line))
        if rng.random() < 0.3:
            lines[-1] = lines[-1].rstrip(b"\r\n")
        path = tmp_path / f"in{round_}.jsonl"
        path.write_bytes(b"".join(lines))
        monkeypatch.setattr(parallel, "PIECE", rng.choice([1, 200, 900, 5000]))
        options = rng.choice([{"min_score": 0.5}, {"status": ["completed"]}, {"where": ["num_turns.assistant>=2"]}])
        skip = rng.random() < 0.6
        assert _run(path, options, jobs=rng.randint(2, 4), skip_invalid=skip) == \
            _run(path, options, jobs=1, skip_invalid=skip), (round_, options, skip)


def test_a_filter_of_ones_own_stays_in_one_process_unless_stateless(tmp_path, small_pieces):
    """A filter without `stateless` may keep state (here a counter): the run stays here and it sees every row;
    one that says `stateless = True` goes to the workers, with the same output."""
    from bc_filter.processor import Processor

    path = tmp_path / "in.jsonl"
    path.write_bytes(b"".join(line for line in _varied() if line not in BAD_LINES and line != DEEP))
    seen = []

    def counting(row):
        seen.append(row["id"])
        return row["score"] >= 0.5

    counting.reads = frozenset({"id", "score"})
    out = tmp_path / "out.jsonl"
    stats = Processor().add_filter(counting).process(str(path), str(out), detailed=False, jobs=3)
    assert not small_pieces and len(seen) == stats.rows_in > 50
    counting.stateless = True
    out2 = tmp_path / "out2.jsonl"
    Processor().add_filter(counting).process(str(path), str(out2), detailed=False, jobs=3)
    assert small_pieces and out2.read_bytes() == out.read_bytes()

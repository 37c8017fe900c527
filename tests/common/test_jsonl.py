import gzip
import time

import pytest

from bc_common.errors import InputError
from bc_common.jsonl import AtomicFile, JsonlWriter, ReadStats, write_batched
from bc_common.readers import read_records
from bc_common.records import check_task


def test_malformed_line_names_file_and_line(tmp_path):
    path = tmp_path / "tasks.jsonl"
    path.write_text('{"a": 1}\n\n{"b": 2}\n{oops\n')
    with pytest.raises(InputError) as err:
        list(read_records([path]))
    assert str(err.value).startswith(f"{path}:4: invalid JSON")


def test_validation_error_names_field_and_line(tmp_path):
    path = tmp_path / "tasks.jsonl"
    path.write_text('{"data_source": "bootcamp/x", "prompt": "hi"}\n{"data_source": "bootcamp/x"}\n')
    with pytest.raises(InputError) as err:
        list(read_records([path], validate=check_task))
    assert str(err.value) == f"{path}:2: missing field 'prompt'"
    assert err.value.field == "prompt"


def test_skip_invalid_counts(tmp_path):
    path = tmp_path / "t.jsonl"
    path.write_text('{"a": 1}\nnot json\n[1]\n{"b": 2}\n')
    stats = ReadStats()
    rows = [r.data for r in read_records([path], skip_invalid=True, stats=stats,
                                          validate=lambda d: None if isinstance(d, dict) else
                                          (_ for _ in ()).throw(InputError("not an object")))]
    assert rows == [{"a": 1}, {"b": 2}]
    assert stats.read == 2 and stats.skipped == 2
    assert stats.reasons[0].startswith(f"{path}:2:")


def test_gzip_json_and_raw_bytes(tmp_path):
    gz = tmp_path / "t.jsonl.gz"
    with gzip.open(gz, "wb") as fh:
        fh.write(b'{"x": 1}\n{"x": 2}\n')
    recs = list(read_records([gz]))
    assert [r.data["x"] for r in recs] == [1, 2]
    assert recs[1].raw == b'{"x": 2}' and recs[1].line == 2
    js = tmp_path / "t.json"
    js.write_text('[{"x": 3}, {"x": 4}]')
    assert [r.data["x"] for r in read_records([js])] == [3, 4]


def test_writer_flushes_each_record(tmp_path):
    path = tmp_path / "out.jsonl"
    writer = JsonlWriter(path)
    writer.write({"a": 1})
    assert path.read_bytes() == b'{"a":1}\n'  # visible before close
    writer.close()
    JsonlWriter(path, append=True).write({"b": 2})
    assert path.read_bytes().count(b"\n") == 2


def test_atomic_file_publishes_all_or_nothing(tmp_path):
    path = tmp_path / "data.jsonl"
    path.write_bytes(b"old\n")
    with pytest.raises(RuntimeError):
        with AtomicFile(path) as fh:
            fh.write(b"partial")
            raise RuntimeError("boom")
    assert path.read_bytes() == b"old\n"
    assert list(tmp_path.iterdir()) == [path]  # no temp file left behind
    with AtomicFile(path) as fh:
        fh.write(b"new\n")
    assert path.read_bytes() == b"new\n"


def test_atomic_file_writes_through_devices(tmp_path):
    import os
    import stat

    with AtomicFile("/dev/null") as fh:
        fh.write(b"discarded\n")
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


class _Recorder:
    """A sink that keeps each write (what an unbuffered stdout turns into one system call each)."""

    def __init__(self) -> None:
        self.writes: list[bytes] = []

    def write(self, data: bytes) -> int:
        self.writes.append(bytes(data))
        return len(data)


def test_write_batched_joins_lines_into_few_writes_and_keeps_the_bytes():
    lines = [b'{"i":%d,"pad":"%s"}\n' % (i, b"x" * (i % 300)) for i in range(5000)]
    sink = _Recorder()
    assert write_batched(sink, iter(lines), limit=16384) == 5000
    assert b"".join(sink.writes) == b"".join(lines)
    assert len(sink.writes) <= sum(map(len, lines)) // 16384 + 1
    assert all(len(w) < 16384 + 400 for w in sink.writes)  # a batch ends at the line that passed the limit


def test_write_batched_sends_a_slow_producers_lines_as_they_come():
    """With max_delay, a line made after the delay is written before the next is asked for."""
    sink = _Recorder()
    seen_before: list[int] = []

    def slow():
        for i in range(4):
            seen_before.append(len(sink.writes))
            if i:
                time.sleep(0.06)
            yield b"%d\n" % i

    assert write_batched(sink, slow(), max_delay=0.05) == 4
    assert b"".join(sink.writes) == b"0\n1\n2\n3\n"
    assert seen_before == [0, 1, 2, 3]  # each line was out before the next was made
    assert write_batched(sink := _Recorder(), slow()) == 4 and len(sink.writes) == 1  # no delay: one batch


def test_write_batched_writes_the_lines_made_before_a_failure():
    """A producer that fails mid-batch (a bad input row): the lines before it go out, then the error, as from a
    buffered stream; an output that fails is not written to again."""
    def failing():
        yield b"a\n"
        yield b"b\n"
        raise ValueError("row 3 is bad")

    sink = _Recorder()
    with pytest.raises(ValueError, match="row 3"):
        write_batched(sink, failing(), limit=1 << 20)
    assert b"".join(sink.writes) == b"a\nb\n"

    class Broken(_Recorder):
        def write(self, data: bytes) -> int:
            super().write(data)
            raise BrokenPipeError()

    broken = Broken()
    with pytest.raises(BrokenPipeError):
        write_batched(broken, iter([b"x\n"] * 10), limit=4)
    assert len(broken.writes) == 1

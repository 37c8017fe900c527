"""bc_common I/O edge cases found in QA: parquet round trips, wide integers, byte order marks, split names."""
from __future__ import annotations

import click
import orjson
import pytest

from bc_common.cli import BcCommand
from bc_common.errors import ConfigError
from bc_common.instruction_config import parse_split_samples
from bc_common.jsonl import dumps, loads
from bc_common.parquet_io import read_parquet, write_parquet
from bc_common.readers import read_records


def test_parquet_round_trip_of_odd_rows(tmp_path):
    rows = [{"id": "a", "x": 2 ** 70, "h": 2 ** 63, "f": 1.5, "n": [[1, [2]], []], "u": "é\u2028😀",
             "g": {"a": [1, 2 ** 64]}, "b": True},
            {"id": "b", "x": 3, "h": -5, "f": 2, "n": [], "u": "x", "g": None, "z": None, "b": False},
            {"id": "c", "x": None, "f": -0.0, "u": None}]
    write_parquet(rows, tmp_path / "o.parquet")
    assert read_parquet(tmp_path / "o.parquet") == rows


def test_parquet_keeps_missing_keys_missing(tmp_path):
    rows = [{"a": 1}, {"b": 2}, {"a": None, "b": 3}]
    write_parquet(rows, tmp_path / "o.parquet")
    assert read_parquet(tmp_path / "o.parquet") == rows


def test_wide_integers_read_and_write_exactly(tmp_path):
    big = 123456789012345678901234567890
    assert loads(b'{"n": %d, "s": "%d"}' % (big, big)) == {"n": big, "s": str(big)}
    assert orjson.loads(dumps({"n": 2 ** 64 - 1})) == {"n": 2 ** 64 - 1}
    assert dumps({"n": -big, "u": "é"}) == '{"n":-%d,"u":"é"}\n'.encode() % big
    with pytest.raises(orjson.JSONDecodeError):
        loads(b'{"n": NaN, "m": %d}' % big)
    path = tmp_path / "big.jsonl"
    path.write_bytes(dumps({"n": big}))
    assert [r.data for r in read_records([path])] == [{"n": big}]


def test_byte_order_mark_is_not_data(tmp_path):
    path = tmp_path / "bom.jsonl"
    path.write_bytes(b'\xef\xbb\xbf{"a": 1}\r\n{"a": 2}\n')
    assert [(r.data, r.line, r.raw) for r in read_records([path])] == [({"a": 1}, 1, b'{"a": 1}'),
                                                                      ({"a": 2}, 2, b'{"a": 2}')]
    (tmp_path / "bom.json").write_bytes(b'\xef\xbb\xbf[{"a": 1}]')
    assert [r.data for r in read_records([tmp_path / "bom.json"])] == [{"a": 1}]


@pytest.mark.parametrize("text", ["a/b:1", "..:1", ".x:1", "a\\b:1", "train:1,train:2"])
def test_split_names_that_are_not_file_names_are_refused(text):
    with pytest.raises(ConfigError):
        parse_split_samples(text)


def test_split_names_with_unicode_and_spaces_are_fine():
    assert parse_split_samples("dev v2:3,tést:0") == {"dev v2": 3, "tést": 0}


def test_an_unopenable_path_is_exit_2_naming_it(tmp_path, capsys):
    @click.command("prog", cls=BcCommand)
    def write_to_folder():
        open(tmp_path, "wb")

    with pytest.raises(SystemExit) as info:
        write_to_folder.main([], prog_name="prog")
    assert info.value.code == 2
    assert capsys.readouterr().err.startswith(f"prog: error: {tmp_path}: Is a directory")

"""A record's random stream is the documented one (blake2b blocks of the record key, in counter mode), whatever
the order in which its words are unpacked: rows made by every version of bc-gen stay the same bytes."""
from __future__ import annotations

import hashlib
import struct
from collections.abc import Iterator

import pytest

from bc_common.seeding import RecordRandom, record_key, seed_of


def documented_words(key: bytes) -> Iterator[int]:
    """Word after word of the stream keyed by `key`: block b is blake2b(key + b as 8 little-endian bytes)."""
    block = 0
    while True:
        yield from struct.unpack("<8Q", hashlib.blake2b(key + block.to_bytes(8, "little"), digest_size=64).digest())
        block += 1


@pytest.mark.parametrize("draws", [0, 1, 6, 7, 8, 15, 23])  # within block 0, at its end, across blocks 1 and 2
def test_a_record_stream_draws_the_documented_words(draws):
    rng = RecordRandom()
    for index in range(50):
        key = record_key("noop", "c0ffee", "train", 7, index)
        words = documented_words(key)
        assert rng.seed_record(key) == next(words) == seed_of("noop", "c0ffee", "train", index, 7)
        assert [rng.getrandbits(64) for _ in range(draws)] == [next(words) for _ in range(draws)]
        assert rng.getrandbits(32) == next(words) >> 32
        assert rng.getrandbits(130) >> 2 == (next(words) << 64) | next(words)  # wide draws take whole words


def test_a_saved_state_resumes_the_same_draws_mid_block():
    rng = RecordRandom()
    rng.seed_record(record_key("noop", "c0ffee", "train", 0, 3))
    rng.getrandbits(64)
    state = rng.getstate()
    first = [rng.random() for _ in range(12)]
    rng.seed_record(record_key("noop", "c0ffee", "train", 0, 4))  # another record in between
    rng.setstate(state)
    assert [rng.random() for _ in range(12)] == first

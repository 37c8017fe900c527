"""Per-record seeding: item i is the same on every machine, whatever the sharding.

`Random(seed + idx)` (reasoning-gym) gives neighbouring seeds correlated streams; a blake2b of every
coordinate of the record does not.
"""
from __future__ import annotations

import hashlib
import itertools
import os
import random
import struct

import orjson

_WORDS = struct.Struct("<8Q").unpack
_FIRST_WORDS = struct.Struct("<2Q").unpack_from
_BLOCK0 = bytes(8)
_blake2b = hashlib.blake2b


def record_key(bootcamp: str, config_hash: str, split: str, base_seed: int, index: int, attempt: int = 0) -> bytes:
    """The byte key of one record's random stream: every coordinate, `\\x1f`-separated."""
    return f"{bootcamp}\x1f{config_hash}\x1f{split}\x1f{base_seed}\x1f{index}\x1f{attempt}".encode()


def seed_of(bootcamp: str, config_hash: str, split: str, index: int, base_seed: int, attempt: int = 0) -> int:
    """A 64-bit seed for one record (word 0 of its stream, see `RecordRandom`). Stable forever."""
    key = record_key(bootcamp, config_hash, split, base_seed, index, attempt)
    return _WORDS(hashlib.blake2b(key + _BLOCK0, digest_size=64).digest())[0]


def rng_for(*coords: object) -> random.Random:
    """A `random.Random` seeded from arbitrary coordinates, e.g. `rng_for(task_id, sample, "noisy")`."""
    key = "\x1f".join(map(str, coords)).encode()
    return random.Random(int.from_bytes(hashlib.blake2b(key, digest_size=8).digest(), "little"))


def canonical_json(obj: object) -> bytes:
    """JSON with sorted keys: the one byte form of identities and configs (hashed, embedded in rows, written to
    parquet). Integers beyond 64 bits, which orjson refuses, are written exactly by the standard library."""
    try:
        return orjson.dumps(obj, option=orjson.OPT_SORT_KEYS)
    except orjson.JSONEncodeError:
        import json

        try:
            return json.dumps(obj, sort_keys=True, ensure_ascii=False, allow_nan=False,
                              separators=(",", ":")).encode()
        except (TypeError, ValueError) as exc:
            raise orjson.JSONEncodeError(str(exc)) from None


def config_hash(obj: object) -> str:
    """Short stable hash of a configuration (class path + parameters)."""
    return hashlib.blake2b(canonical_json(obj), digest_size=6).hexdigest()


def identity_hash(identity: object) -> str:
    """Hash that decides whether two task instances are the same (dedup, split disjointness)."""
    return hashlib.blake2b(canonical_json(identity), digest_size=12).hexdigest()


class RecordRandom(random.Random):
    """The per-record `self.rng`: the full `random.Random` API over blake2b in counter mode.

    A stream has a byte key K; its block b (b = 0, 1, ...) is `blake2b(K + b.to_bytes(8, "little"), digest_size=64)`,
    read as eight little-endian 64-bit words, in order. `seed(a)` (an integer) uses K = (a mod 2**64) as 8
    little-endian bytes and draws from word 0. A record's stream (`seed_record`) uses K = `record_key(...)` and draws
    from word 1: word 0 of its block 0 is the record's seed (`seed_of`), which names its row; one hash gives both.
    Mersenne Twister spends ~3.5 µs seeding its 2.5 KB state: more than a small generator spends making a whole row.
    The state is in slots: an attribute in the dict of a subclass of a C type costs ~40 ns a store or load (no
    specialisation), a slot a few.
    """

    __slots__ = ("_block", "_key", "_pos", "_rest", "_words", "gauss_next")

    def __init__(self, seed: int = 0):
        self._key = b""
        self._block = 0
        self._words: tuple[int, ...] = ()
        self._pos = 0
        self._rest: bytes | None = None  # block 0 of a record stream whose words 2-7 are not unpacked yet
        super().__init__(seed)

    def seed(self, a: object = None, version: int = 2) -> None:  # noqa: D102
        if not isinstance(a, int):
            a = int.from_bytes(hashlib.blake2b(repr(a).encode(), digest_size=8).digest(), "little")
        self._key = (a & 0xFFFFFFFFFFFFFFFF).to_bytes(8, "little")
        self._block = 0
        self._words = ()
        self._pos = 0
        self._rest = None
        self.gauss_next = None

    def seed_record(self, key: bytes) -> int:
        """Reseed to the record stream keyed by `key` (a `record_key`); returns the record's seed (`seed_of`)."""
        block = _blake2b(key + _BLOCK0).digest()  # 64 bytes, blake2b's default (no keyword to parse)
        words = _FIRST_WORDS(block)  # the seed and the first draw; a small record draws no more, so words 2-7 are
        self._key = key  # unpacked when a draw needs them (`_next`): the same stream, six ints fewer per record
        self._block = 1
        self._words = words
        self._pos = 1
        self._rest = block
        self.gauss_next = None
        return words[0]

    def _next(self) -> int:
        if self._pos == len(self._words):
            if self._rest is not None:  # the rest of block 0 of a record stream
                self._words = _WORDS(self._rest)[2:]
                self._rest = None
            else:
                self._words = _WORDS(hashlib.blake2b(self._key + self._block.to_bytes(8, "little"),
                                                     digest_size=64).digest())
                self._block += 1
            self._pos = 0
        word = self._words[self._pos]
        self._pos += 1
        return word

    def random(self) -> float:
        return (self._next() >> 11) * (1.0 / 9007199254740992.0)

    def getrandbits(self, k: int) -> int:
        if 0 < k <= 64:
            pos = self._pos  # _next() inlined: this is the hot path of randrange/choice/shuffle
            if pos < len(self._words):
                self._pos = pos + 1
                return self._words[pos] >> (64 - k)
            return self._next() >> (64 - k)
        if k < 0:
            raise ValueError("number of bits must be non-negative")
        out, bits = 0, 0
        while bits < k:
            out = (out << 64) | self._next()
            bits += 64
        return out >> (bits - k)

    def getstate(self) -> tuple:
        return (self._key, self._block, self._words, self._pos, self.gauss_next, self._rest)

    def setstate(self, state: tuple) -> None:
        self._key, self._block, self._words, self._pos, self.gauss_next, *rest = state  # 5 items: an older state
        self._rest = rest[0] if rest else None


_INSTANCE_PREFIX = os.urandom(8).hex()
_instance_counter = itertools.count()


def _new_prefix() -> None:
    global _INSTANCE_PREFIX
    _INSTANCE_PREFIX = os.urandom(8).hex()


os.register_at_fork(after_in_child=_new_prefix)  # forked workers must not repeat their parent's ids


def new_instance_id() -> str:
    """A tool/interaction instance id unique across processes and machines (random per-process prefix and a
    counter: no syscall per trajectory, unlike uuid4)."""
    return f"{_INSTANCE_PREFIX}-{next(_instance_counter):x}"

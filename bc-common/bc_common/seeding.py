"""Per-record seeding: item i is the same on every machine, whatever the sharding.

`Random(seed + idx)` (reasoning-gym) gives neighbouring seeds correlated streams; a keyed blake2b of every
coordinate of the record does not.
"""
from __future__ import annotations

import hashlib
import itertools
import os
import random
import struct

import orjson


def seed_of(bootcamp: str, config_hash: str, split: str, index: int, base_seed: int, attempt: int = 0) -> int:
    """A 64-bit seed for one record. `seed_of("arithmetic", "ab12", "train", 3, 7)` is stable forever."""
    key = f"{bootcamp}\x1f{config_hash}\x1f{split}\x1f{base_seed}\x1f{index}\x1f{attempt}".encode()
    return int.from_bytes(hashlib.blake2b(key, digest_size=8).digest(), "little")


def rng_for(*coords: object) -> random.Random:
    """A `random.Random` seeded from arbitrary coordinates, e.g. `rng_for(task_id, sample, "noisy")`."""
    key = "\x1f".join(map(str, coords)).encode()
    return random.Random(int.from_bytes(hashlib.blake2b(key, digest_size=8).digest(), "little"))


def canonical_json(obj: object) -> bytes:
    """JSON with sorted keys: the byte form hashed for identities and configs."""
    try:
        return orjson.dumps(obj, option=orjson.OPT_SORT_KEYS)
    except orjson.JSONEncodeError:  # integers beyond 64 bits: the standard library writes them exactly
        import json

        return json.dumps(obj, sort_keys=True, ensure_ascii=False, separators=(",", ":")).encode()


def config_hash(obj: object) -> str:
    """Short stable hash of a configuration (class path + parameters)."""
    return hashlib.blake2b(canonical_json(obj), digest_size=6).hexdigest()


def identity_hash(identity: object) -> str:
    """Hash that decides whether two task instances are the same (dedup, split disjointness)."""
    return hashlib.blake2b(canonical_json(identity), digest_size=12).hexdigest()


_WORDS = struct.Struct("<8Q").unpack


class RecordRandom(random.Random):
    """The per-record `self.rng`: the full `random.Random` API over blake2b in counter mode.

    Mersenne Twister spends ~3.5 µs seeding its 2.5 KB state: more than a small generator spends making a whole
    row. Here seeding is an assignment, and each blake2b call yields eight 64-bit words of PRF output.
    """

    def __init__(self, seed: int = 0):
        self._key = b""
        self._block = 0
        self._words: tuple[int, ...] = ()
        self._pos = 0
        super().__init__(seed)

    def seed(self, a: object = None, version: int = 2) -> None:  # noqa: D102
        if not isinstance(a, int):
            a = int.from_bytes(hashlib.blake2b(repr(a).encode(), digest_size=8).digest(), "little")
        self._key = (a & 0xFFFFFFFFFFFFFFFF).to_bytes(8, "little")
        self._block = 0
        self._words = ()
        self._pos = 0
        self.gauss_next = None

    def _next(self) -> int:
        if self._pos == len(self._words):
            self._words = _WORDS(hashlib.blake2b(self._block.to_bytes(8, "little"), digest_size=64,
                                                 key=self._key).digest())
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
        return (self._key, self._block, self._words, self._pos, self.gauss_next)

    def setstate(self, state: tuple) -> None:
        self._key, self._block, self._words, self._pos, self.gauss_next = state


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

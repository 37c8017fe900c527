"""Per-record seeding: item i is the same on every machine, whatever the sharding.

`Random(seed + idx)` (reasoning-gym) gives neighbouring seeds correlated streams; a keyed blake2b of every
coordinate of the record does not.
"""
from __future__ import annotations

import hashlib
import random

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
    return orjson.dumps(obj, option=orjson.OPT_SORT_KEYS)


def config_hash(obj: object) -> str:
    """Short stable hash of a configuration (class path + parameters)."""
    return hashlib.blake2b(canonical_json(obj), digest_size=6).hexdigest()


def identity_hash(identity: object) -> str:
    """Hash that decides whether two task instances are the same (dedup, split disjointness)."""
    return hashlib.blake2b(canonical_json(identity), digest_size=12).hexdigest()

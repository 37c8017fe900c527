"""The fast row path (one hash per row, a bytes template, short dedup keys) against its definitions."""
from __future__ import annotations

import hashlib
import struct

import orjson

from bc_common.registry import get_bootcamp
from bc_common.seeding import RecordRandom, record_key, seed_of
from bc_common.tasks import RowSpec, TaskFactory, _canonical, dedup_key


def spec_for(name: str, **kw) -> RowSpec:
    bc = get_bootcamp(name)
    cls = bc.generator
    return RowSpec(bootcamp=bc.name, generator_class=f"{cls.__module__}.{cls.__qualname__}", params={},
                   tools=bc.tool_specs(), interaction=bc.interaction_spec(), **kw)


def test_record_stream_matches_its_documented_definition():
    key = record_key("noop", "abc", "train", 7, 3, 1)
    assert key == b"noop\x1fabc\x1ftrain\x1f7\x1f3\x1f1"
    blocks = [struct.unpack("<8Q", hashlib.blake2b(key + b.to_bytes(8, "little"), digest_size=64).digest())
              for b in range(3)]
    rng = RecordRandom()
    assert rng.seed_record(key) == blocks[0][0] == seed_of("noop", "abc", "train", 3, 7, 1)
    assert [rng.getrandbits(64) for _ in range(20)] == list(blocks[0][1:] + blocks[1] + blocks[2][:5])
    rng.seed(42)  # integer seeds: K = 8 little-endian bytes, drawn from word 0
    first = struct.unpack("<8Q", hashlib.blake2b((42).to_bytes(8, "little") + bytes(8), digest_size=64).digest())
    assert [rng.getrandbits(64) for _ in range(8)] == list(first)
    rng.seed(42)
    state = rng.getstate()
    a = [rng.random() for _ in range(10)]
    rng.setstate(state)
    assert [rng.random() for _ in range(10)] == a


def test_template_bytes_equal_the_dict_path():
    for name, kw in [("noop", {}), ("arithmetic", {}), ("arithmetic", {"extra": {"difficulty": "50%", "k": [1]}}),
                     ("noop", {"bootcamp": 'odd"%name', "split": "te%st"}), ("noop", {"extra": {"split": "x"}})]:
        spec = spec_for(name, **kw) if "bootcamp" not in kw else RowSpec(
            generator_class="bootcamps.noop.NoopInstructionGenerator", params={}, **kw)
        factory = TaskFactory(spec)
        assert (factory._template is None) == ("split" in spec.extra)
        for index in range(50):
            key, line = factory.row(index)
            seed = factory.rng.seed_record(factory._key_prefix + b"%d\x1f0" % index)
            identity = factory.generator.case_generator()
            row = factory.build(index, identity, seed, orjson.Fragment(_canonical(identity)))
            assert line == orjson.dumps(row, option=orjson.OPT_APPEND_NEWLINE)
            assert key == dedup_key(_canonical(identity)) == factory.identity_hash(identity)
            assert orjson.loads(line)["id"] == f"{spec.bootcamp}-{seed_of(spec.bootcamp, factory.config_hash, spec.split, index, 0):016x}"


def test_dedup_keys_short_and_long_never_collide():
    short = dedup_key(b'{"token":"abc"}')
    long = dedup_key(b'{"token":"' + b"x" * 100 + b'"}')
    assert short == '{"token":"abc"}' and isinstance(long, bytes) and len(long) == 12
    assert dedup_key(b"x" * 64) != dedup_key(b"x" * 65)

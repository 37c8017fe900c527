"""The fast row path (one hash per row, a bytes template, short dedup keys) against its definitions."""
from __future__ import annotations

import hashlib
import struct

import orjson
import pytest

from bc_common.errors import ConfigError
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


def _spec(generator_class: str, **kw) -> RowSpec:
    return RowSpec(bootcamp=kw.pop("bootcamp", "varied"), generator_class=generator_class, params=kw.pop("params", {}),
                   **kw)


def test_lines_loop_writes_the_bytes_of_row_on_varied_rows():
    """`TaskFactory.lines` (the loop plain `bc-gen` runs) against `row(i)` one call at a time: the bytes template
    with tools and an interaction, integers beyond 64 bits (the stdlib fallback), unicode, nested values,
    message prompts (the dict path), and a spec whose extra keys turn the template off."""
    arithmetic = get_bootcamp("arithmetic")
    specs = [spec_for("noop"), spec_for("arithmetic"), spec_for("noop", index_offset=1000, split="te%st"),
             spec_for("noop", extra={"split": "x"}),
             _spec("tests.gen.bigint_gen.BigIntInstructionGenerator", tools=arithmetic.tool_specs()),
             _spec("tests.gen.varied_gen.MessagesInstructionGenerator", bootcamp='odd"%bc',
                   interaction=arithmetic.interaction_spec()),
             _spec("tests.gen.varied_gen.TinyInstructionGenerator", params={"size": 1000})]
    for spec in specs:
        counted = []
        fast = list(TaskFactory(spec).lines(range(60), done=counted.append))
        slow_factory = TaskFactory(spec)
        slow = [slow_factory.row(index)[1] for index in range(60)]
        assert fast == slow, spec.generator_class
        assert counted == [60]
    factory = TaskFactory(specs[4])
    assert factory._template is not None and factory._repeats == 1
    assert orjson.loads(next(factory.lines([3])))["reward_model"]["ground_truth"]["n"] >= 10 ** 29


def test_generate_sequential_path_redraws_like_the_planned_path():
    """One spec, one process (the fast loop) against the chunked planner (`emit` forces it): same bytes, same
    counts, on a space so small that most rows are redrawn, and the same refusal once it is used up."""
    from bc_gen.generate import GenStats, generate

    spec = _spec("tests.gen.varied_gen.TinyInstructionGenerator", params={"size": 40})
    fast_stats, slow_stats = GenStats(), GenStats()
    fast = list(generate(spec, range(60), stats=fast_stats))
    slow = list(generate(spec, range(60), emit=set(range(60)), stats=slow_stats))
    assert fast == slow and len(set(fast)) == 60
    assert (fast_stats.rows, fast_stats.regenerated) == (slow_stats.rows, slow_stats.regenerated)
    assert fast_stats.rows == 60 and fast_stats.regenerated > 10
    with pytest.raises(ConfigError, match="still a duplicate after 64 redraws") as fast_error:
        list(generate(_spec("tests.gen.varied_gen.TinyInstructionGenerator", params={"size": 1}), range(5)))
    with pytest.raises(ConfigError) as slow_error:
        list(generate(_spec("tests.gen.varied_gen.TinyInstructionGenerator", params={"size": 1}), range(5),
                      emit=set(range(5))))
    assert str(fast_error.value) == str(slow_error.value)
    no_dedup = list(generate(spec, range(60), dedup=False))
    assert no_dedup == [TaskFactory(spec).row(i)[1] for i in range(60)] != fast

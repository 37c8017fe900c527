"""The rg/* row path's shortcuts against the slow ways they replace (issue 29): the identity encoder against the
recursive one it replaced, an item made without seeding Python's global `random` against the seeded one, and the
verdict kept per stored answer against the verifier run per item."""
from __future__ import annotations

import enum
import importlib.util
import math
import os
import random
from typing import Any

import pytest

needs_rg = pytest.mark.skipif(not importlib.util.find_spec("reasoning_gym"), reason="needs the reasoning-gym extra")
pytestmark = needs_rg

INT64 = (-(1 << 63), (1 << 64) - 1)


class Unencodable(ValueError):
    pass


def reference_to_json(value: Any) -> tuple[Any, list[list[Any]]]:
    """entry_json.to_json as it was before issue 29's second round: one recursive call per value, a path list per
    value."""
    marks: list[list[Any]] = []
    return _reference(value, [], marks), marks


def _reference(value: Any, path: list[Any], marks: list[list[Any]]) -> Any:
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, int):
        if INT64[0] <= value <= INT64[1]:
            return int(value)
        marks.append([path, "int"])
        return str(value)
    if isinstance(value, float):
        if math.isfinite(value):
            return float(value)
        marks.append([path, "float"])
        return repr(float(value))
    if isinstance(value, str):
        return value.value if isinstance(value, enum.Enum) else str(value)
    if isinstance(value, (list, tuple)):
        if isinstance(value, tuple):
            marks.append([path, "tuple"])
        return [_reference(item, path + [i], marks) for i, item in enumerate(value)]
    if isinstance(value, dict):
        out = {}
        int_keys = []
        for key, item in value.items():
            if isinstance(key, bool) or not isinstance(key, (str, int)):
                raise Unencodable(f"dict key {key!r} at {path}")
            text = str(key)
            if text in out:
                raise Unencodable(f"keys {key!r} and {text!r} collide at {path}")
            if not isinstance(key, str):
                int_keys.append(text)
            out[text] = _reference(item, path + [text], marks)
        if int_keys:
            marks.append([path, "int_keys", int_keys])
        return out
    raise Unencodable(f"{type(value).__name__} at {path}")


class Colour(str, enum.Enum):
    RED = "red"


class Level(enum.IntEnum):
    HIGH = 3


class Point(tuple):
    pass


def test_identity_encoder_matches_the_recursive_one_on_varied_values() -> None:
    """Unicode, big and edge integers, NaN and infinities, tuples (flat, nested, subclassed), int and enum keys,
    enums, grids, dict subclasses and unencodable values, in lists of records and in tables that the encoder copies
    in C where it can: the same JSON, the same marks in the same order, the same errors."""
    from collections import OrderedDict

    from bootcamps.rg import entry_json

    draw = random.Random(29)
    scalars = [None, True, False, 0, 7, -3, 2**70, -2**64, (1 << 64) - 1, 1 << 64, -(1 << 63), -(1 << 63) - 1,
               0.25, -0.0, float("nan"), float("inf"), float("-inf"), "é😀\u2028", "", Colour.RED, Level.HIGH,
               {1, 2}, b"x"]

    def value(depth: int = 0) -> Any:
        if depth >= 4 or draw.random() < 0.3:
            return draw.choice(scalars)
        kind = draw.randrange(8)
        if kind == 0:
            return [value(depth + 1) for _ in range(draw.randrange(5))]
        if kind == 1:
            return tuple(value(depth + 1) for _ in range(draw.randrange(4)))
        if kind == 2:
            return {draw.choice(["a", 1, "b", 2, "1", True, Colour.RED, 2**70, 1.5]): value(depth + 1)
                    for _ in range(draw.randrange(4))}
        if kind == 3:  # flat rows, some with a value that needs a mark
            return [[draw.choice(scalars[:17]) for _ in range(3)] for _ in range(draw.randrange(4))]
        if kind == 4:
            return tuple(draw.choice(scalars[:17]) for _ in range(draw.randrange(4)))
        if kind == 5:
            return Point((draw.choice(scalars[:8]), value(depth + 1)))
        if kind == 6:
            return OrderedDict((str(i), value(depth + 1)) for i in range(draw.randrange(3)))
        return [[value(depth + 1) for _ in range(2)] for _ in range(draw.randrange(3))]

    def encoded(encode: Any, item: Any) -> str:
        try:
            return repr(encode(item))
        except (entry_json.Unencodable, Unencodable) as exc:
            return f"Unencodable: {exc}"

    def plain() -> Any:  # encodable: a scalar (NaN, a big int, an enum: some need a mark), rarely a tuple
        return (plain(), plain()) if draw.random() < 0.04 else draw.choice(scalars[:21])

    def table() -> dict[Any, Any]:  # big enough for the copy made in C (entry_json._C_DICT)
        return {i if draw.random() < 0.03 else draw.choice(["k", "é", "n"]) + str(i): plain() for i in range(9)}

    items = [{"answer": value(), "metadata": {"x": value(), "grid": [[1, 2], [3, 4]], "t": [value() for _ in range(3)],
                                             "records": [{"input": [1, 2], "output": [plain(), plain()]} for _ in range(2)],
                                             "table": table(), "deep": {"inner": table()},
                                             "difficulty": {"n": (3, 10)}}} for _ in range(500)]
    copied = []

    def plain_copy(value: Any) -> Any:
        copy = plain_copy.made(value)
        copied.append(copy is not None)
        return copy

    plain_copy.made = entry_json._plain_copy
    entry_json._plain_copy = plain_copy
    try:
        fast = [encoded(entry_json.to_json, item) for item in items]
    finally:
        entry_json._plain_copy = plain_copy.made
    slow = [encoded(reference_to_json, item) for item in items]
    assert fast == slow
    assert sum(copied) > 300 and len(copied) - sum(copied) > 300  # made in C, and turned down (then made in Python)
    assert sum(f.startswith("Unencodable") for f in fast) > 50 and sum("'tuple'" in f for f in fast) > 50
    assert sum("'int_keys'" in f for f in fast) > 20 and sum("'int']" in f for f in fast) > 20
    assert sum("'float']" in f for f in fast) > 20


def _seeded_item(make: Any, seed: int) -> Any:
    state = random.getstate()
    random.seed(seed)
    try:
        return make()
    finally:
        random.setstate(state)


def test_unseeded_item_is_the_seeded_one_and_the_callers_stream_is_left_alone() -> None:
    """An item that draws nothing from the global stream, one that draws through `random.x`, one through a
    method bound before (`from random import choice`), one that only takes the cached Gaussian, one that reseeds
    it, and ones that fail before or after drawing: each gives what the seeded run gives (or its error), `drew` is
    told exactly when it drew, and the caller's stream continues as if nothing had run."""
    from bootcamps.rg import global_random

    assert global_random._OFFSET is not None  # CPython's layout was found (else every item goes the old way)
    bound_choice = random.choice  # what `from random import choice` holds

    def fails(after_draw: bool) -> Any:
        def make() -> Any:
            if after_draw:
                random.random()
            raise RuntimeError("no item")
        return make

    makers = {
        "none": (lambda: [random.Random(4).random(), 17], False),
        "module": (lambda: [random.random(), random.randrange(10**30), random.choice("abcdef")], True),
        "bound": (lambda: bound_choice(range(1000)), True),
        "gauss": (lambda: random.gauss(0, 1), True),
        "reseeds": (lambda: (random.seed(11), random.random())[1], True),
    }
    for caller_gauss in (False, True):
        for name, (make, draws) in makers.items():
            random.seed(5)
            if caller_gauss:
                random.gauss(0, 1)  # leaves a cached second draw in gauss_next
            expected_next = random.Random()
            expected_next.setstate(random.getstate())
            told: list[str] = []
            made = global_random.made_with_seeded_global(make, 123456789, before_redo=lambda t=told: t.append("redo"),
                                                         drew=lambda t=told: t.append("drew"))
            assert made == _seeded_item(make, 123456789), name
            assert told == (["redo", "drew"] if draws or (name == "gauss" and caller_gauss) else []), (name, told)
            assert random.getstate() == expected_next.getstate(), name
    for after_draw in (False, True):
        random.seed(5)
        state = random.getstate()
        told = []
        with pytest.raises(RuntimeError, match="no item"):
            global_random.made_with_seeded_global(fails(after_draw), 99, before_redo=lambda t=told: t.append("redo"),
                                                  drew=lambda t=told: t.append("drew"))
        assert told == (["redo", "drew"] if after_draw else []) and random.getstate() == state


def test_items_of_a_dataset_that_draws_from_the_global_stream_are_the_seeded_ones(monkeypatch) -> None:
    """list_functions draws from Python's global `random` in some of its generators: each item made from scratch,
    unseeded first, is the one the old seeded protocol made (its dataset rebuilt where the unseeded attempt drew),
    and the dataset is remembered as one that draws."""
    from bootcamps.rg import datasets

    monkeypatch.setenv("BC_INCLUDE_KNOWN_ISSUES", "1")  # list_functions is withheld; never leak it to other tests
    name = "list_functions"
    params = datasets.parse_params(name, {}, "test")
    fast, drew = [], []
    for seed in range(10):
        datasets.clear_caches()
        datasets._DRAWS_GLOBAL.discard(name)
        fast.append(datasets.entry(name, params, seed, 1, 0))
        drew.append(name in datasets._DRAWS_GLOBAL)
    assert any(drew) and not all(drew)
    slow = []
    for seed in range(10):
        datasets.clear_caches()

        def make(seed: int = seed) -> Any:
            with datasets.quiet():
                return datasets.dataset(name, params, seed, 1)[0]
        slow.append(_seeded_item(make, seed * datasets.FULL_SIZE))
    assert fast == slow
    datasets.clear_caches()
    assert [datasets.entry(name, params, seed, 1, 0) for seed in range(10)] == slow  # remembered: seeded first


def test_verdict_kept_per_answer_is_the_verifiers() -> None:
    """For a dataset scored by its answer alone, the verdict kept per (dataset, parameters, answer) is what the
    verifier says of each item, empty, huge and bomb-like answers; a huge-int answer (a mark on it) goes the long
    way); a dataset with its own score_answer is verified per item."""
    from bootcamps.rg import datasets, generator

    plan = generator.Plan("leg_counting", datasets.parse_params("leg_counting", {}, "test"))
    assert plan.answer_only and not generator.Plan("word_sorting", {}).answer_only
    generator._VERDICTS.clear()
    identities = [generator._identity("leg_counting", plan, 0, datasets.FULL_SIZE, i,
                                      datasets.entry("leg_counting", plan.params, 0, datasets.FULL_SIZE, i))
                  for i in range(40)]
    for answer in ("", "9" * 300, "1e99999", "12"):
        identities.append(dict(identities[0], answer=answer))
    identities.append(dict(identities[1], answer="7", restore=[[["answer"], "int"]]))
    kept = [generator.unanswerable(i, plan) for i in identities]
    again = [generator.unanswerable(i, plan) for i in identities]  # from the kept verdicts now
    assert kept == again == [generator._unanswerable(i) for i in identities]
    assert kept[:40] == [None] * 40 and kept[40] is not None  # an empty stored answer never scores
    assert len(generator._VERDICTS) <= 45 and ("leg_counting", plan.key, "7") not in generator._VERDICTS


@pytest.mark.usefixtures("opted_in")  # word_sorting is withheld
def test_score_with_kept_parameters_is_the_score_parsed_each_time() -> None:
    """score() keeps an identity config's parsed parameters per (dataset, config JSON): right and wrong answers
    score as with the config parsed per call, on a default and a set config; a config the dataset refuses is
    refused every time with parse_params' message."""
    from bc_common.errors import ConfigError
    from bc_common.tasks import TaskSet
    from bootcamps.rg import datasets, reward

    def parsed_each_time(identity: dict[str, Any], answer: str) -> float:
        name = identity["dataset"]
        params = datasets.parse_params(name, identity["config"], "test")
        scorer = datasets.dataset(name, params, *datasets.scorer_coordinates(name))
        with datasets.quiet():
            return float(scorer.score_answer(answer, reward.entry_of(identity)) or 0.0)

    cases = [("word_sorting", {}), ("word_sorting", {"min_words": 4, "max_words": 6}), ("leg_counting", {})]
    for name, params in cases:
        tasks = TaskSet(f"rg/{name}", seed=4, params=params)
        for i in range(6):
            identity = tasks.identity(i)
            for answer in (str(identity["answer"]), "cat, dog", ""):
                assert reward.score(identity, answer) == parsed_each_time(identity, answer)
    bad = dict(TaskSet("rg/word_sorting", seed=4).identity(0), config={"min_words": "many"})
    messages = []
    for _ in range(2):
        with pytest.raises(ConfigError) as caught:
            reward.score(bad, "x")
        messages.append(str(caught.value))
    assert messages[0] == messages[1] and "min_words" in messages[0]


def test_bomb_pattern_finds_what_the_quadratic_one_found_in_linear_time() -> None:
    """The verifiers' number-bomb search (bc_common.answer_blocks.number_bomb, rg's and rc's), rewritten to run in
    linear time, finds a bomb in exactly the texts the old pattern did (random texts of digits, spaces, exponents,
    powers and factorials), and a long digit run without one is searched at once (the old pattern took ~0.5 s for
    6,000 digits)."""
    import re
    import time

    from bc_common.answer_blocks import number_bomb

    old = re.compile(r"\d\s*[eE]\s*[+-]?\d{5,}|(\*\*|\^)\s*[(+\s]*\d{4,}|\d{4,}\s*!")
    draw = random.Random(29)
    pieces = ["1", "9", "0", "12345", " ", "  ", "e", "E", "+", "-", "**", "^", "(", "!", "x", "\n"]
    texts = ["".join(draw.choice(pieces) for _ in range(draw.randrange(1, 14))) for _ in range(20000)]
    assert [number_bomb(t) for t in texts] == [bool(old.search(t)) for t in texts]
    assert 500 < sum(bool(old.search(t)) for t in texts) < 19500
    started = time.process_time()
    assert not number_bomb("9" * 200_000) and not number_bomb("**" + " " * 50_000 + "1")
    assert number_bomb("**" + " " * 50_000 + "1234") and number_bomb("x" * 50_000 + "9999 !")
    assert time.process_time() - started < 0.5  # the old pattern: minutes


def test_rows_of_the_hash_seeded_datasets_do_not_follow_the_hash_seed(tmp_path) -> None:
    """Four datasets iterate sets of strings while they make an item. bc-gen runs under PYTHONHASHSEED=0 (it starts
    itself again under it), and a library caller under another hash seed gets its items from a helper interpreter
    under 0: the same rows from bc-gen under seed 1, from TaskSet in a process under seed 2 and in this one."""
    import subprocess
    import sys
    from pathlib import Path

    import orjson

    from bc_common.tasks import TaskSet
    from bootcamps.rg.datasets import HASH_SEEDED

    names = sorted(HASH_SEEDED)
    script = ("import sys, orjson\nfrom bc_common.tasks import TaskSet\n"
              f"for name in {names!r}:\n"
              "    for i in range(3):\n"
              "        sys.stdout.buffer.write(orjson.dumps(TaskSet('rg/' + name, seed=2)[i]) + b'\\n')\n")
    library = subprocess.run([sys.executable, "-c", script], capture_output=True, timeout=300, check=True,
                             env=dict(os.environ, PYTHONHASHSEED="2")).stdout.splitlines()
    cli = subprocess.run([str(Path(sys.executable).parent / "bc-gen"), "rg/isomorphic_strings", "-n", "3", "--seed",
                          "2"], capture_output=True, timeout=300, check=True,
                         env=dict(os.environ, PYTHONHASHSEED="1")).stdout.splitlines()
    assert [orjson.loads(line) for line in cli] == [orjson.loads(line) for line in library[:3]]
    here = [TaskSet(f"rg/{name}", seed=2)[i] for name in names for i in range(3)]
    assert [orjson.loads(line) for line in library] == here

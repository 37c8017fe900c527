"""reasoning-gym's datasets seen from the harness: names, parameters as a Config dataclass, difficulty groups,
and item *i* rebuilt from its coordinates (dataset, config, seed, size, index).

A row's coordinates come from the row's own `self.rng`. Most datasets make item `idx` from `Random(seed + idx)`,
so one dataset object per configuration is built (seed 0, a huge virtual size) and the index is drawn; the few
that draw a pool of `size` items when they are built get a fresh one-item dataset with a drawn seed instead.
"""
from __future__ import annotations

import contextlib
import dataclasses
import datetime
import enum
import functools
import io
import random
import sys
import typing
from collections import OrderedDict
from collections.abc import Iterator
from typing import Any

import orjson
from reasoning_gym.factory import CURRICULA, DATASETS

from bc_common.bootcamp import Group
from bc_common.config import build_dataclass
from bc_common.errors import ConfigError
from bc_common.hashseed import fixed_hash_seed

from . import global_random

OURS = ("seed", "size")  # coordinates the adapter draws per row; not parameters a user sets
FULL_SIZE = 2**31 - 1  # virtual size of a shared dataset object: the index is drawn below it
SIZE_LIMITS = {"word_ladder": 20_000}  # the dataset's own validate() refuses a larger size
# datasets that draw a pool of `size` items (or pool indices) when built: one fresh dataset per row
PER_ROW_SEED = frozenset({"acre", "gsm_symbolic", "list_functions"})
NUMPY_GLOBAL = frozenset({"pool_matrix"})  # seeds numpy's global state (np.random.seed) for each item
MAX_LEVELS = 10  # curriculum levels offered as groups level_0 .. level_9
# The `default` group's parameters where reasoning-gym's own defaults make a group that fails a conformance check
# for a reason of size rather than of the task (too few distinct items, a copied number that answers): dataset ->
# (parameters, why), the dataset's own parameters. Only the default group changes: the level_N groups stay the
# curriculum's, and `--set` still starts from reasoning-gym's defaults in any other group.
DEFAULTS: dict[str, tuple[dict[str, Any], str]] = {
    "circuit_logic": ({"min_inputs": 4, "max_inputs": 8, "min_terms": 4, "max_terms": 8},
                      "with 2-4 inputs the last input's value is the output on 60% of items (copy_number pays); "
                      "larger circuits decorrelate them"),
    "graph_color": ({"min_num_vertices": 15, "max_num_vertices": 20, "edge_probability": 0.2},
                    "10-vertex graphs with 10% of the edges share colourings (103 of 1000 answers solve another item)"),
    "jugs": ({"difficulty": 20},
             "capacities 3-13 repeat puzzles (7 of 100 prompts identical); 3-23 and 20+ moves do not"),
    "lcm": ({"min_value": 10, "max_value": 1000},
            "with values from 1 one number often divides the other and is the LCM (copy_number 10%)"),
    "largest_island": ({"min_rows": 10, "max_rows": 20, "min_cols": 10, "max_cols": 20, "max_island_size": 40},
                       "areas of 0-10 on 5-10 grids repeat (31 of 1000 answers solve another item)"),
    "n_queens": ({"n": 10},
                 "an 8-queens solution (92 exist) completes other items' boards too (31 of 1000); 10 has 724"),
    "number_format": ({"min_num_candidates": 10, "max_num_candidates": 20},
                      "among 2-5 candidates the last one, copied, is often the answer (copy_number 10%)"),
    "prime_factorization": ({"max_value": 100_000},
                            "values up to 1,000 repeat (5 of 100 prompts identical); up to 100,000 they do not"),
    "string_splitting": ({"max_initial_machines": 20},
                         "0-5 machines of each of 3 kinds is 216 starts (20 of 100 prompts identical); 0-20 is 9,261"),
    "string_synthesis": ({"max_initial_blocks": 20},
                         "0-5 blocks of each of 3 kinds is 216 starts (20 of 100 prompts identical); 0-20 is 9,261"),
}
COMPOSITE = "composite"
COMPOSITE_DEFAULT = [  # a mix of quick datasets from several categories; --set datasets=[...] chooses others
    {"name": "decimal_arithmetic", "weight": 1.0, "config": {}},
    {"name": "leg_counting", "weight": 1.0, "config": {}},
    {"name": "word_sorting", "weight": 1.0, "config": {}},
    {"name": "number_sorting", "weight": 1.0, "config": {}},
    {"name": "spell_backward", "weight": 1.0, "config": {}},
]


def names() -> list[str]:
    """Every registered reasoning-gym dataset, sorted."""
    return sorted(DATASETS)


def description(name: str) -> str:
    """One line for `bc-gen --list`: the dataset class's docstring."""
    doc = (DATASETS[name][0].__doc__ or "").strip().splitlines()
    first = doc[0].strip().rstrip(".") if doc else name.replace("_", " ")
    return f"reasoning-gym {name}: {first}."


def canonical(params: dict[str, Any]) -> str:
    """The cache key of a parameter dict (tuples and lists alike)."""
    return orjson.dumps(jsonable(params), option=orjson.OPT_SORT_KEYS).decode()


@functools.cache
def config_class(name: str) -> type:
    """The dataset's parameters (its config dataclass less seed and size) as a dataclass whose `validate()` is
    reasoning-gym's own; `build_dataclass` then refuses unknown keys and wrong types with the key's name."""
    if name == COMPOSITE:
        return CompositeParams
    rg_config = DATASETS[name][1]
    hints = typing.get_type_hints(rg_config)
    fields = []
    for f in dataclasses.fields(rg_config):
        if f.name in OURS:
            continue
        spec: dict[str, Any] = {}
        if f.default is not dataclasses.MISSING:
            spec["default"] = f.default
        elif f.default_factory is not dataclasses.MISSING:
            spec["default_factory"] = f.default_factory
        if f.metadata:
            spec["metadata"] = f.metadata
        fields.append((f.name, _field_type(hints.get(f.name, Any), f.default), dataclasses.field(**spec)))

    def validate(self: Any) -> None:
        made = rg_config(**params_of(self), seed=0, size=1)
        if callable(getattr(made, "validate", None)):
            made.validate()

    validate.__doc__ = (getattr(getattr(rg_config, "validate", None), "__doc__", None)
                        or "reasoning-gym's own checks").strip()
    cls = dataclasses.make_dataclass(f"{camel(name)}Config", fields, namespace={"validate": validate})
    cls.__module__ = __name__
    cls.__doc__ = f"Parameters of reasoning-gym's {name} (its {rg_config.__name__} less seed and size)."
    return cls


def _field_type(hint: Any, default: Any) -> Any:
    """The declared type, widened where reasoning-gym's own default disagrees (rearc's `diff_ub: int = 0.2`)."""
    if hint in (int, float, str, bool) and default is not dataclasses.MISSING and default is not None \
            and not isinstance(default, hint):
        return hint | type(default)
    return hint


def camel(name: str) -> str:
    return "".join(part[:1].upper() + part[1:] for part in name.split("_"))


def params_of(config: Any) -> dict[str, Any]:
    """A Config instance as keyword arguments (not `asdict`: nested values stay as they are)."""
    return {f.name: getattr(config, f.name) for f in dataclasses.fields(config)}


def parse_params(name: str, params: dict[str, Any], source: str) -> dict[str, Any]:
    """Parameters checked and typed by the dataset's Config: JSON values become what a field declares (tuples,
    an options dataclass, an enum member, a date or time). Cached: treat the result as read-only."""
    try:
        key: str | None = canonical(params)
    except TypeError:  # not JSON at all: let the Config say what is wrong
        key = None
    if key is not None and (name, key) in _PARSED:
        return _PARSED[(name, key)]
    hints = _hints(name)
    revived = {k: _revive(value, hints.get(k), f"{source}: key {k!r}") for k, value in params.items()}
    parsed = params_of(build_dataclass(config_class(name), revived, source=source))
    if key is not None:
        if len(_PARSED) > CACHE_SIZE:
            _PARSED.clear()
        _PARSED[(name, key)] = parsed
    return parsed


_PARSED: dict[tuple[str, str], dict[str, Any]] = {}


@functools.cache
def _hints(name: str) -> dict[str, Any]:
    return typing.get_type_hints(config_class(name))


def _revive(value: Any, hint: Any, where: str) -> Any:
    if typing.get_origin(hint) is list and isinstance(value, list):  # aiw's task_types: a list of enum members
        (item_hint,) = typing.get_args(hint) or (Any,)
        if isinstance(item_hint, type) and issubclass(item_hint, enum.Enum):
            return [_revive(item, item_hint, f"{where}[{i}]") for i, item in enumerate(value)]
        return value
    if not isinstance(hint, type) or isinstance(value, hint):
        return value
    if dataclasses.is_dataclass(hint) and isinstance(value, dict):
        return build_dataclass(hint, value, source=where)
    try:
        if issubclass(hint, enum.Enum):
            return hint(value)
        if issubclass(hint, (datetime.date, datetime.time)) and isinstance(value, str):
            return hint.fromisoformat(value)
    except ValueError as exc:
        raise ConfigError(f"{where}: {exc}") from None
    return value


def jsonable(params: dict[str, Any]) -> dict[str, Any]:
    """Parameters as JSON values (an options dataclass as its mapping, an enum as its value, a date or time in
    ISO form), as identities and groups carry them; `parse_params` turns them back."""
    return {key: _plain_value(value) for key, value in params.items()}


_PLAIN_TYPES = frozenset({int, float, str, bool, type(None), list, tuple, dict})  # their exact types pass as they are


def _plain_value(value: Any) -> Any:
    if value.__class__ in _PLAIN_TYPES:  # most parameters: skips the checks below (a cache key is made per item)
        return value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return dataclasses.asdict(value)
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, (datetime.date, datetime.time)):
        return value.isoformat()
    return value


@dataclasses.dataclass
class CompositeParams:
    """Parameters of rg/composite: the datasets to mix, each `{name, weight, config}`."""

    datasets: list = dataclasses.field(default_factory=lambda: [dict(d) for d in COMPOSITE_DEFAULT])

    def validate(self) -> None:
        """Each entry names a dataset once, with a positive weight and that dataset's own parameters."""
        if not isinstance(self.datasets, list) or not self.datasets:
            raise ValueError("datasets must be a non-empty list of {name, weight, config}")
        seen = set()
        for i, spec in enumerate(self.datasets):
            where = f"datasets[{i}]"
            if not isinstance(spec, dict) or set(spec) - {"name", "weight", "config"} or "name" not in spec:
                raise ValueError(f"{where} must be a mapping with name, weight (default 1) and config (default {{}})")
            if spec["name"] not in DATASETS or spec["name"] == COMPOSITE:
                raise ValueError(f"{where}: unknown reasoning-gym dataset {spec['name']!r}")
            if spec["name"] in seen:
                raise ValueError(f"{where}: {spec['name']!r} is listed twice")
            seen.add(spec["name"])
            weight = spec.get("weight", 1.0)
            if isinstance(weight, bool) or not isinstance(weight, (int, float)) or weight <= 0:
                raise ValueError(f"{where}: weight must be a positive number")
            parse_params(spec["name"], spec.get("config") or {}, f"rg/composite {where}.config")


def default_params(name: str) -> dict[str, Any]:
    """The `default` group's parameters as a group holds them (JSON values): reasoning-gym's defaults less what
    `DEFAULTS` changes for the dataset."""
    return _plain(dict(DEFAULTS[name][0])) if name in DEFAULTS else {}


def groups(name: str) -> list[Group]:
    """`default` (reasoning-gym's defaults, or those `DEFAULTS` changes; the only group in the default mix) and,
    where the dataset has a curriculum, `level_0` .. `level_9` (its global levels; ratio 0: chosen with
    `--group level_N`)."""
    out = [Group("default", default_params(name), ratio=1.0)]
    if name not in CURRICULA:
        return out
    defaults = params_of(config_class(name)())
    probe = CURRICULA[name]()
    levels = max((len(a.levels) for a in probe.attributes.values()), default=0)
    for level in range(min(levels, MAX_LEVELS)):
        curriculum = CURRICULA[name]()
        curriculum.set_global_level(level)
        try:
            made = curriculum.generate_configuration({"seed": 0, "size": 1})
            params = {k: v for k, v in params_of(made).items() if k not in OURS and v != defaults.get(k)}
            parse_params(name, params, f"rg/{name} level {level}")
        except Exception:  # noqa: BLE001  (a level reasoning-gym itself cannot configure is not offered)
            continue
        out.append(Group(f"level_{level}", _plain(jsonable(params)), ratio=0.0))
    return out


def _plain(value: Any) -> Any:
    """Tuples as lists, so group parameters print as YAML and JSON."""
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


def coordinates(name: str, rng: random.Random) -> tuple[int, int, int]:
    """(seed, size, index) of a new item, drawn from the row's rng."""
    if name in PER_ROW_SEED:
        return rng.getrandbits(32), 1, 0
    size = SIZE_LIMITS.get(name, FULL_SIZE)
    return 0, size, rng.randrange(size)


def scorer_coordinates(name: str) -> tuple[int, int]:
    """(seed, size) of the dataset object that scores answers (the shared one where there is one)."""
    return (0, 1) if name in PER_ROW_SEED else (0, SIZE_LIMITS.get(name, FULL_SIZE))


_CACHE: OrderedDict[tuple[str, str, int, int], Any] = OrderedDict()
CACHE_SIZE = 64


def dataset(name: str, params: dict[str, Any], seed: int, size: int) -> Any:
    """The reasoning-gym dataset object of (name, parameters, seed, size), cached per process (least recently
    used out first)."""
    return _dataset(name, params, canonical(params), seed, size)


def scorer(name: str, params: dict[str, Any], params_key: str, seed: int, size: int) -> Any:
    """`dataset(...)` where the caller has `canonical(params)` already."""
    return _dataset(name, params, params_key, seed, size)


def _dataset(name: str, params: dict[str, Any], params_key: str, seed: int, size: int) -> Any:
    key = (name, params_key, seed, size)
    found = _CACHE.get(key)
    if found is None:
        dataset_cls, rg_config = DATASETS[name]
        typed = parse_params(name, params, f"rg/{name}")
        with quiet():
            found = _CACHE[key] = dataset_cls(config=rg_config(**typed, seed=seed, size=size))
        while len(_CACHE) > CACHE_SIZE:
            _CACHE.popitem(last=False)
    else:
        _CACHE.move_to_end(key)
    return found


# datasets whose items follow Python's string hash seed (they iterate sets of strings; found by making 50 rows of
# every offered dataset in processes under different PYTHONHASHSEED): made under PYTHONHASHSEED=0, in a helper
# interpreter when this process runs under another (bc_common.hashseed; bc-gen itself runs under 0)
HASH_SEEDED = frozenset({"isomorphic_strings", "polynomial_multiplication", "ransom_note", "word_ladder"})

_ITEMS: OrderedDict[tuple[str, str, int, int, int], dict[str, Any]] = OrderedDict()
ITEMS_CACHED = 256  # some items take seconds to make; the same row asked for twice (dedup, checks) is made once


def entry(name: str, params: dict[str, Any], seed: int, size: int, index: int,
          key: str | None = None) -> dict[str, Any]:
    """Item `index` of the dataset: reasoning-gym's `{question, answer, metadata}` (shared with the cache: copy it
    before changing it). `key` is `canonical(params)` where the caller has it already.
    A dataset that fails is dropped from the cache (some shrink their own size when an item cannot be made),
    so items never depend on what was generated before them."""
    key = (name, canonical(params) if key is None else key, seed, size, index)
    item = _ITEMS.get(key)
    if item is None:
        try:
            item = fixed_hash_seed(_made, name, params, key) if name in HASH_SEEDED else _made(name, params, key)
        except BaseException:
            _CACHE.pop(key[:4], None)
            raise
        _ITEMS[key] = item
        while len(_ITEMS) > ITEMS_CACHED:
            _ITEMS.popitem(last=False)
    else:
        _ITEMS.move_to_end(key)
    return item


def _made(name: str, params: dict[str, Any], key: tuple[str, str, int, int, int]) -> dict[str, Any]:
    """Item `key` made with Python's global `random` seeded from its coordinates (a few reasoning-gym helpers draw
    from it: without this, list_functions items differ from run to run), the caller's stream left as it was;
    numpy's global state too for the dataset that seeds it. Datasets not seen drawing from the global stream skip
    the seeding and the save/restore unless they draw (bootcamps/rg/global_random.py)."""
    _, params_key, seed, size, index = key

    def make() -> dict[str, Any]:
        saved, sys.stdout = sys.stdout, _DISCARD  # as quiet(), without its context object
        try:
            return _dataset(name, params, params_key, seed, size)[index]
        finally:
            sys.stdout = saved

    global_seed = seed * FULL_SIZE + index
    if name in NUMPY_GLOBAL or name in _DRAWS_GLOBAL:
        with _global_rngs(name, seed, index):
            return make()
    return global_random.made_with_seeded_global(make, global_seed, before_redo=lambda: _CACHE.pop(key[:4], None),
                                                 drew=lambda: _DRAWS_GLOBAL.add(name))


_DRAWS_GLOBAL: set[str] = set()  # datasets seen drawing from Python's global `random`: seeded before each item


def clear_caches() -> None:
    """Forget every dataset object and item (tests that check an item is rebuilt the same from scratch)."""
    _CACHE.clear()
    _ITEMS.clear()


def quiet() -> contextlib.AbstractContextManager[None]:
    """Drop what reasoning-gym prints (progress dots, "Error validating move ..."): stdout carries records only.
    Writers hold `sys.stdout.buffer` from before, so their records are not caught here."""
    return contextlib.redirect_stdout(_DISCARD)  # a class, not a generator: entered 2-3 times per row


class _Discard(io.TextIOBase):
    """A text stream that keeps nothing (what is printed while quiet is never read back)."""

    def write(self, text: str) -> int:
        return len(text)


_DISCARD = _Discard()


@contextlib.contextmanager
def _global_rngs(name: str, seed: int, index: int) -> Iterator[None]:
    """Python's global `random` seeded from the item's coordinates while it is made (a few reasoning-gym helpers
    draw from it: without this, list_functions items differ from run to run), then put back as it was; numpy's
    global state too for the dataset that seeds it. The caller's streams are left alone."""
    state = random.getstate()
    numpy = sys.modules.get("numpy") if name in NUMPY_GLOBAL else None
    np_state = numpy.random.get_state() if numpy is not None else None
    random.seed(seed * FULL_SIZE + index)  # global_random.seeded's seed too
    try:
        yield
    finally:
        random.setstate(state)
        if np_state is not None:
            numpy.random.set_state(np_state)

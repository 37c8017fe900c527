"""reasoning-core's tasks seen from the harness: names, parameters as a Config dataclass, difficulty levels as
groups, and item *i* made from its coordinates (task, parameters, level, seed).

reasoning-core draws every item from Python's global `random` (and numpy's), its `Task` objects remember
answers between calls, and it iterates sets of strings (whose order follows the hash seed); so each row seeds both
global streams from a 64-bit seed drawn from the row's own rng, makes the item with a fresh `Task` under
PYTHONHASHSEED=0 (in a helper process when this one runs under another), and puts the global streams back.
"""
from __future__ import annotations

import contextlib
import copy
import dataclasses
import functools
import inspect
import io
import json
import random
import warnings
from collections.abc import Iterator
from typing import Any

from bc_common.bootcamp import Group
from bc_common.errors import ConfigError
from bc_common.hashseed import fixed_hash_seed

OURS = ("level", "seed", "size")  # the adapter's coordinates and reasoning-core's own; not knobs a user sets
LEVELS = 5  # groups: default (level 0, the default mix) and level_1 .. level_4 (ratio 0, chosen by name)
GENERATE_TIMEOUT_S = 60  # reasoning-core's own per-item alarm; an item slower than this is retried by it
# metadata keys that depend on the machine, the clock or tiktoken's presence, not on the item: dropped from rows
VOLATILE = ("_time", "_generator_commit", "_prompt_tokens", "_answer_tokens", "_cot_tokens")


def roster() -> list[str]:
    """reasoning-core's shipped roster (`list_tasks()`), sorted: the tasks it promotes and measures."""
    return list(_roster())


@functools.cache
def _roster() -> tuple[str, ...]:
    # once a process: each list_tasks() walks its registry (the listing asks once per task)
    from reasoning_core import list_tasks

    with quiet():
        return tuple(sorted(list_tasks()))


def task_class(name: str) -> type:
    """The Task class of `name` (imports its module: ModuleNotFoundError names what a task needs)."""
    from reasoning_core import DATASETS

    with quiet():
        return DATASETS[name]._resolved


def summary(name: str) -> str:
    """One line for `bc-gen --list`, from reasoning-core's catalogue (no task module is imported)."""
    return _summaries().get(name) or name.replace("_", " ")


@functools.cache
def _summaries() -> dict[str, str]:
    from reasoning_core import task_catalog

    with quiet():
        return {row["name"]: row["summary"].strip().rstrip(".") for row in task_catalog()}


def description(name: str) -> str:
    return f"reasoning-core {name}: {summary(name)}."


@functools.cache
def config_class(name: str) -> type:
    """The task's knobs (its config dataclass less level, seed and size) as a dataclass; a field's type is its
    default's type (lists stand for tuples), so `--set` refuses unknown keys and wrong types by name."""
    defaults = default_config(name)
    fields = []
    for key, value in defaults.items():
        kind: Any = type(value)
        if value is None:
            kind = Any
        elif isinstance(value, (tuple, list)):
            kind = list
        elif isinstance(value, float):
            kind = float | int
        spec = dataclasses.field(default_factory=functools.partial(_copy, value)) \
            if isinstance(value, (list, tuple, dict)) else dataclasses.field(default=value)
        fields.append((key, kind, spec))
    fields.append(("level", int, dataclasses.field(default=0)))  # the groups' knob: reasoning-core's difficulty level
    cls = dataclasses.make_dataclass(f"{_camel(name)}Config", fields, namespace={"validate": _validate_level})
    cls.__module__ = __name__
    cls.__doc__ = f"Parameters of reasoning-core's {name} (its config less level, seed and size)."
    return cls


def _validate_level(self: Any) -> None:
    """level is a difficulty level from 0 up."""
    if isinstance(self.level, bool) or not isinstance(self.level, int) or self.level < 0:
        raise ValueError(f"level must be an integer >= 0, got {self.level!r}")


def _copy(value: Any) -> Any:
    return list(value) if isinstance(value, (tuple, list)) else dict(value)


@functools.cache
def default_config(name: str) -> dict[str, Any]:
    """The task's configuration at level 0, less the coordinates (JSON values: tuples as lists)."""
    with quiet():
        config = task_class(name)().config
    out = {}
    for f in dataclasses.fields(config):
        if f.name in OURS or f.name.startswith("_"):
            continue
        value = getattr(config, f.name)
        out[f.name] = list(value) if isinstance(value, tuple) else value
    return out


def _camel(name: str) -> str:
    return "".join(part[:1].upper() + part[1:] for part in name.split("_"))


# The `default` group's knobs where reasoning-core's level-0 defaults make a group that fails a conformance check
# for a reason of size rather than of the task: task -> (knobs, why), the task's own knobs. Only the default group
# changes: the level_N groups stay reasoning-core's levels, and `--set` applies on top.
DEFAULTS: dict[str, tuple[dict[str, Any], str]] = {
    "set_expression": ({"min_depth": 3, "max_depth": 4},
                       "expressions of depth 1-2 over 6-element sets often evaluate to one of the sets shown or to "
                       "the empty set (the frequent answer solved 6% at level 0); depth 2-3 does not"),
}


def default_params(name: str) -> dict[str, Any]:
    """The `default` group's parameters: level 0 with reasoning-core's knobs, less what `DEFAULTS` changes."""
    return dict(DEFAULTS[name][0]) if name in DEFAULTS else {}


def groups(name: str) -> list[Group]:
    """`default` (level 0 with the task's knobs, or those `DEFAULTS` changes; the default mix) and `level_1` ..
    `level_4` (reasoning-core's difficulty levels; ratio 0: chosen with `--group level_N`)."""
    return [Group("default", default_params(name), ratio=1.0)] + [Group(f"level_{k}", {"level": k}, ratio=0.0)
                                                                  for k in range(1, LEVELS)]


def make_item(name: str, params: dict[str, Any], level: int, seed: int) -> dict[str, Any]:
    """reasoning-core's item at these coordinates: {prompt, answer, metadata}, the same bytes in every process.

    reasoning-core iterates sets and dicts of strings while it makes items, so an item follows the hash seed:
    items are made under PYTHONHASHSEED=0, here when this process runs under it, else in one helper process
    started with it (kept for the process's life)."""
    return fixed_hash_seed(_make_here, name, params, level, seed)


def _make_here(name: str, params: dict[str, Any], level: int, seed: int) -> dict[str, Any]:
    cls = task_class(name)
    with global_rngs(seed), quiet():
        typed = _typed(name, params)
        _check_knobs(name, json.dumps(typed, sort_keys=True), level)
        task = cls(**typed) if not typed or takes_keywords(name) else cls(config=_config(name, typed))
        example = task.generate_example(level=level, max_tokens=0, timeout=GENERATE_TIMEOUT_S)
    metadata = {k: v for k, v in dict(example.metadata).items() if k not in VOLATILE}
    answer = example.answer
    if answer is not None and not isinstance(answer, (str, int, float, bool)):
        answer = str(answer)  # the reference answers its text form; the generator checks the scorer accepts it
    return {"prompt": str(example.prompt), "answer": answer, "metadata": json.loads(json.dumps(metadata))}


@functools.cache
def takes_keywords(name: str) -> bool:
    """Whether the task's constructor takes knobs as keywords (reasoning-core's `Task.__init__(config=None, ...,
    **kwa)` sets them on its config); 36 tasks of 0.5.0 override it as `__init__(self, config=None)` and take
    knobs only as a config object."""
    params = inspect.signature(task_class(name).__init__).parameters.values()
    return any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params)


def _config(name: str, typed: dict[str, Any]) -> Any:
    """The task's default config object with the knobs `typed` changes, set as reasoning-core's `Task.__init__`
    sets keyword knobs: on the config and in its base snapshot (which `set_level` restores before it applies a
    level), so a level applies on top of them as it does for the tasks that take keywords."""
    with quiet():
        config = copy.deepcopy(task_class(name)().config)
    for key, value in typed.items():
        setattr(config, key, value)
    if hasattr(config, "_base_config_dict"):
        config._base_config_dict.update(copy.deepcopy(typed))
    return config


@functools.cache
def _check_knobs(name: str, typed_json: str, level: int) -> None:
    """ConfigError for a knob that reasoning-core's level setting overwrites whatever it is set to (set_expression's
    level 0 sets `domain_size` to 32 itself): such a `--set` would be silently ignored. A knob counts as overwritten
    when the level gives it the same value from the requested start as from the default one."""
    typed = json.loads(typed_json)
    with global_rngs(0):  # constructing a task may draw (set_expression draws its domains): not from the row's
        base = task_class(name)().config
        for key, value in typed.items():
            default = getattr(base, key)
            value = tuple(value) if isinstance(default, tuple) and isinstance(value, list) else value
            ours, theirs = copy.deepcopy(base), copy.deepcopy(base)
            setattr(ours, key, value)
            if hasattr(ours, "_base_config_dict"):
                ours._base_config_dict[key] = value
            ours.set_level(level)
            theirs.set_level(level)
            if getattr(ours, key) == getattr(theirs, key) and value != getattr(theirs, key):
                raise ConfigError(f"rc/{name}: {key}={value!r} would have no effect: reasoning-core's {name} sets "
                                  f"{key} itself at level {level} (to {getattr(theirs, key)!r})")


def _typed(name: str, params: dict[str, Any]) -> dict[str, Any]:
    """The parameters that differ from the task's defaults, lists back to tuples where its default is a tuple."""
    defaults = default_config(name)
    unknown = sorted(k for k in params if k != "level" and k not in defaults)
    if unknown:
        raise ConfigError(f"rc/{name}: unknown knob {unknown[0]!r} (reasoning-core's {name} has "
                          f"{', '.join(sorted(defaults)) or 'no knobs'})")
    with quiet():
        config = task_class(name)().config
    return {k: tuple(v) if isinstance(getattr(config, k, None), tuple) and isinstance(v, list) else v
            for k, v in params.items() if k != "level" and v != defaults.get(k)}


@contextlib.contextmanager
def global_rngs(seed: int) -> Iterator[None]:
    """Python's and numpy's global random streams seeded from `seed` while an item is made, then put back.

    Some generators reseed the global stream from the OS (gramforge's `generate` calls `random.seed(None)`): while
    an item is made, a reseed without a value takes the next value of a stream keyed by `seed` instead."""
    import numpy

    state, np_state = random.getstate(), numpy.random.get_state()
    reseeds = random.Random(seed ^ 0x5EED)
    py_seed, np_seed = random.seed, numpy.random.seed

    def seed_python(a: Any = None, *args: Any, **kwargs: Any) -> None:
        py_seed(reseeds.getrandbits(64) if a is None else a, *args, **kwargs)

    def seed_numpy(value: Any = None) -> None:
        np_seed(reseeds.getrandbits(32) if value is None else value)

    py_seed(seed)
    np_seed(seed % 2**32)
    random.seed, numpy.random.seed = seed_python, seed_numpy
    try:
        yield
    finally:
        random.seed, numpy.random.seed = py_seed, np_seed
        random.setstate(state)
        numpy.random.set_state(np_state)


@contextlib.contextmanager
def quiet() -> Iterator[None]:
    """Drop what reasoning-core prints or warns (tiktoken missing, progress): stdout carries records only."""
    with contextlib.redirect_stdout(io.StringIO()), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield

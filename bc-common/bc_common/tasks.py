"""Task *i*: one task row from (bootcamp, group, generator config, split, base seed, index).

    tasks = TaskSet("arithmetic", seed=7)
    tasks[0]                 # the row dict of task 0 (what `bc-gen arithmetic --seed 7` writes first)
    list(tasks.lines(100))   # the bytes of `bc-gen arithmetic -n 100 --seed 7`, duplicates redrawn

Row *i* is keyed by all its coordinates (see `record_key`), so it is the same on every machine and shard.
"""
from __future__ import annotations

import hashlib
import random
import re
import sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

import orjson

from .bootcamp import InstructionGenerator
from .classes import dotted_name, load_class
from .seeding import RecordRandom, canonical_json, config_hash, record_key, seed_of
from .stamps import code_stamp
from .tool_config import InteractionSpec, ToolSpec

_DUMP_OPTS = orjson.OPT_APPEND_NEWLINE
DedupKey = str | bytes  # see dedup_key


_canonical = canonical_json  # kept for callers of the old name


@dataclass
class RowSpec:
    """Everything that determines the rows of one generator group in one split. Picklable (for -j)."""

    bootcamp: str
    generator_class: str
    params: dict[str, Any]
    split: str = "train"
    base_seed: int = 0
    generator_name: str = "default"
    tools: list[ToolSpec] = field(default_factory=list)
    interaction: InteractionSpec | None = None
    data_source: str | None = None
    source: str = ""  # where the parameters came from, for error messages
    extra: dict[str, Any] = field(default_factory=dict)
    # added to the written extra_info.index only (seeds use the group's own index): groups of one split number
    # their rows after each other, so the index is unique per split
    index_offset: int = 0

    @property
    def config_hash(self) -> str:
        """Every coordinate that makes a row differ besides its index: generator, parameters, group, tools,
        interaction (two groups with the same parameters, one with tools, give distinct ids)."""
        return config_hash({"class": self.generator_class, "params": self.params, "group": self.generator_name,
                            "tools": [[t.name, t.class_name] for t in self.tools],
                            "interaction": [self.interaction.name, self.interaction.class_name]
                            if self.interaction else None})


def uses_global_random(cls: type) -> bool:
    """Does a module defining `cls` or one of its bases hold the module-level `random` (`import random`, `from
    random import randint`)? Those generators draw outside `self.rng` (the seed's habit)."""
    shared = getattr(random, "_inst", None)
    for klass in cls.__mro__:
        module = sys.modules.get(klass.__module__)
        if module is None or klass.__module__.startswith("bc_common"):
            continue
        for value in vars(module).values():
            if value is random or (shared is not None and getattr(value, "__self__", None) is shared):
                return True
    return False


class TaskFactory:
    """Builds rows by index: `factory.row(i)` -> (dedup key, JSONL bytes). Same inputs, same bytes."""

    def __init__(self, spec: RowSpec):
        self.spec = spec
        cls = load_class(spec.generator_class)
        self.generator: InstructionGenerator = cls(_source=spec.source or f"{spec.bootcamp}/{spec.generator_name}",
                                                   **spec.params)
        self.rng = self.generator.rng = RecordRandom()
        # a seed generator may draw from the module-level `random`: it gets the row's stream there too
        self._seed_global = uses_global_random(cls)
        self.stamp = code_stamp(cls.__module__)  # the generator's folder: a code change shows in every row
        self.data_source = spec.data_source or f"bootcamp/{spec.bootcamp}"
        self.config_hash = spec.config_hash
        self.tool_names = [t.name for t in spec.tools]
        self.interaction_name = spec.interaction.name if spec.interaction else None
        self.agent_name = "bc_agent" if self.tool_names or self.interaction_name else "single_turn_agent"
        # record_key(...) is this constant prefix + b"index\x1fattempt"
        self._key_prefix = record_key(spec.bootcamp, self.config_hash, spec.split, spec.base_seed, 0, 0)[:-3]
        assert self.seed(5, 1) == seed_of(spec.bootcamp, self.config_hash, spec.split, 5, spec.base_seed, 1)
        self._template = self._make_template()
        self._repeats = len(self.tool_names) + (1 if self.interaction_name else 0)

    def seed(self, index: int, attempt: int = 0) -> int:
        """`seed_of(bootcamp, config_hash, split, index, base_seed, attempt)`, with the constant prefix cached."""
        return RecordRandom().seed_record(self._key_prefix + b"%d\x1f%d" % (index, attempt))

    def identity(self, index: int, attempt: int = 0) -> dict[str, Any]:
        self._seed(self._key_prefix + b"%d\x1f%d" % (index, attempt))
        self.generator.index = index
        return self.generator.case_generator()

    def _seed(self, key: bytes) -> int:
        """Key the generator's rng to one row (and the module-level `random`, for a seed generator that uses it)."""
        seed = self.rng.seed_record(key)
        if self._seed_global:
            random.seed(seed)
        return seed

    def identity_hash(self, identity: dict[str, Any]) -> DedupKey:
        """The key deduplication compares identities by (see `dedup_key`)."""
        return dedup_key(_canonical(identity))

    def row(self, index: int) -> tuple[DedupKey, bytes]:
        """(dedup key, row bytes) for `index` (first draw; duplicates are redrawn with `identity(i, k)`)."""
        seed = self._seed(self._key_prefix + b"%d\x1f0" % index)
        self.generator.index = index
        return self.render(index, self.generator.case_generator(), seed)

    def lines(self, indices: Iterable[int], seen: set[DedupKey] | None = None,
              redraw: Callable[[int], tuple[DedupKey, bytes]] | None = None,
              done: Callable[[int], None] | None = None) -> Iterator[bytes]:
        """The bytes of `row(i)` for each of `indices`, in order: `row` and `render` unrolled into one loop (a
        call per row costs as much as the harness's whole share of a small row). With `seen`, a row whose dedup
        key is in it is replaced by `redraw(i)`'s, and each written row's key is added; `done(count)` gets the
        number of rows yielded when the loop ends.

            b"".join(factory.lines(range(100))) == b"".join(factory.row(i)[1] for i in range(100))
        """
        template, repeats = self._template, self._repeats
        first_key = self._key_prefix.replace(b"%", b"%%") + b"%d\x1f0"  # a record's key, as _seed: one operation
        reseed, seed_global = self.rng.seed_record, self._seed_global
        generator = self.generator
        case_generator, prompt_func = generator.case_generator, generator.prompt_func
        offset = self.spec.index_offset
        dumps, sort_keys, fragment, blake2b = orjson.dumps, orjson.OPT_SORT_KEYS, orjson.Fragment, hashlib.blake2b
        count = 0
        try:
            for index in indices:
                seed = reseed(first_key % index)  # as _seed
                if seed_global:
                    random.seed(seed)
                generator.index = index
                identity = case_generator()
                try:  # as render, from here on
                    canonical = dumps(identity, option=sort_keys)
                except orjson.JSONEncodeError:
                    canonical = _canonical(identity)
                key = canonical.decode() if len(canonical) <= _SHORT else blake2b(canonical, digest_size=12).digest()
                prompt = prompt_func(identity)
                if template is not None and prompt.__class__ is str:
                    if repeats == 0:
                        line = template % (seed, dumps(prompt), canonical, index + offset)
                    else:
                        line = template % ((seed, dumps(prompt), canonical, index + offset) + (canonical,) * repeats)
                else:
                    line = dumps(self._build(index + offset, fragment(canonical), seed, prompt), option=_DUMP_OPTS)
                if seen is not None:
                    if key in seen:
                        if redraw is None:
                            raise ValueError("lines(): a seen set needs a redraw function")
                        key, line = redraw(index)
                    seen.add(key)
                count += 1
                yield line
        finally:
            if done is not None:
                done(count)

    def render(self, index: int, identity: dict[str, Any], seed: int | None = None) -> tuple[DedupKey, bytes]:
        """(dedup key, row bytes). The identity is serialised once (canonical: sorted keys) and embedded as is in
        its places in the row; rows with a string prompt fill a precomputed template (the bytes of `build`)."""
        try:
            canonical = orjson.dumps(identity, option=orjson.OPT_SORT_KEYS)
        except orjson.JSONEncodeError:
            canonical = _canonical(identity)
        key = canonical.decode() if len(canonical) <= _SHORT else hashlib.blake2b(canonical, digest_size=12).digest()
        if seed is None:
            seed = self.seed(index)
        prompt = self.generator.prompt_func(identity)
        template = self._template
        shown = index + self.spec.index_offset
        if template is not None and prompt.__class__ is str:
            repeats = self._repeats
            if repeats == 0:
                return key, template % (seed, orjson.dumps(prompt), canonical, shown)
            return key, template % ((seed, orjson.dumps(prompt), canonical, shown) + (canonical,) * repeats)
        row = self._build(shown, orjson.Fragment(canonical), seed, prompt)
        return key, orjson.dumps(row, option=_DUMP_OPTS)

    def build(self, index: int, identity: dict[str, Any], seed: int | None = None,
              embedded: Any = None) -> dict[str, Any]:
        """The task row dict for an identity (the generator's rng continues from the identity draw).
        `embedded` stands for the identity inside the row (its pre-serialised form, when given)."""
        prompt = self.generator.prompt_func(identity)
        return self._build(index + self.spec.index_offset, identity if embedded is None else embedded,
                           self.seed(index) if seed is None else seed, prompt)

    def _build(self, index: Any, identity: Any, seed: Any, prompt: Any) -> dict[str, Any]:
        s = self.spec
        messages = [{"role": "user", "content": prompt}] if isinstance(prompt, str) else self._messages(prompt)
        # the id is the attempt-0 seed: a hash of (bootcamp, config, split, base seed, index)
        row_id = seed if isinstance(seed, orjson.Fragment) else f"{s.bootcamp}-{seed:016x}"
        tools_kwargs = {name: {"create_kwargs": {"identity": identity}} for name in self.tool_names}
        interaction = {"name": self.interaction_name, "identity": identity} if self.interaction_name else {}
        return {
            "id": row_id,
            "data_source": self.data_source,
            "agent_name": self.agent_name,
            "prompt": messages,
            "reward_model": {"style": "rule", "ground_truth": identity},
            "extra_info": {
                "split": s.split,
                "index": index,
                "generator_name": s.generator_name,
                "bootcamp": s.bootcamp,
                "seed": s.base_seed,
                "config_hash": self.config_hash,
                **self.stamp,
                "tools_kwargs": tools_kwargs,
                "need_tools_kwargs": bool(tools_kwargs),
                "interaction_kwargs": interaction,
                **s.extra,
            },
        }

    def _messages(self, prompt: Any) -> list[dict[str, Any]]:
        """Chat messages from a non-string prompt: messages, content parts, or the seed's dict with images."""
        from .errors import ConfigError
        from .images import prompt_messages

        try:
            return prompt_messages(prompt)
        except ValueError as exc:
            raise ConfigError(f"{self.spec.source or self.spec.bootcamp}: {exc}") from None

    def _make_template(self) -> bytes | None:
        """`_build`'s bytes for a string prompt as a `bytes %` template: (seed, prompt JSON, identity, index,
        identity...). None when the row shape is unusual (then rows go through `_build`)."""
        if set(self.spec.extra) & _EXTRA_INFO_KEYS:
            return None
        marks = {name: orjson.Fragment(b"\x00" + name + b"\x00") for name in (b"D", b"P", b"I", b"N")}
        try:
            row = self._build(marks[b"N"], marks[b"I"], marks[b"D"], "")
            row["prompt"][0]["content"] = marks[b"P"]
            text = orjson.dumps(row, option=_DUMP_OPTS)
        except (TypeError, orjson.JSONEncodeError):
            return None
        order = re.findall(rb"\x00([DPIN])\x00", text)
        if order != [b"D", b"P", b"I", b"N"] + [b"I"] * (len(self.tool_names) + bool(self.interaction_name)):
            return None
        id_prefix = orjson.dumps(f"{self.spec.bootcamp}-")[:-1]  # the opening quote and the escaped prefix
        text = text.replace(b"%", b"%%")
        return (text.replace(b"\x00D\x00", id_prefix.replace(b"%", b"%%") + b'%016x"')
                .replace(b"\x00P\x00", b"%b").replace(b"\x00I\x00", b"%b").replace(b"\x00N\x00", b"%d"))


_EXTRA_INFO_KEYS = {"split", "index", "generator_name", "bootcamp", "seed", "config_hash", "tools_kwargs",
                    "need_tools_kwargs", "interaction_kwargs"}
_SHORT = 64


def dedup_key(canonical: bytes) -> DedupKey:
    """What deduplication compares: a short canonical identity itself (as a str: a fresh small object, and never
    equal to a digest), else its 12-byte blake2b."""
    if len(canonical) <= _SHORT:
        return canonical.decode()
    return hashlib.blake2b(canonical, digest_size=12).digest()


class GroupPlan:
    """Which group row *i* belongs to: smooth weighted round-robin over the groups' ratios, so any prefix of
    rows holds each group within one row of its share, and row *i*'s group never depends on how many rows are
    asked for (`-n 10` is a prefix of `-n 1000`)."""

    def __init__(self, ratios: list[float]):
        from fractions import Fraction
        from math import lcm

        fractions = [Fraction(str(r)).limit_denominator(10**6) for r in ratios]
        if not fractions or sum(fractions) <= 0:
            raise ValueError("group ratios must sum to more than zero")
        denominator = lcm(*(f.denominator for f in fractions))
        self.weights = [int(f * denominator) for f in fractions]
        self.total = sum(self.weights)
        self._plan: list[int] = []
        self._current = [0] * len(self.weights)

    def __getitem__(self, index: int) -> int:
        if len(self.weights) == 1:
            return 0
        index %= self.total  # the plan repeats every `total` rows (a cycle picks each group `weight` times)
        while len(self._plan) <= index:
            current = self._current
            for g, w in enumerate(self.weights):
                current[g] += w
            best = max(range(len(current)), key=lambda g: (current[g], -g))
            current[best] -= self.total
            self._plan.append(best)
        return self._plan[index]


class TaskSet:
    """Task *i* of (bootcamp, groups, parameters, split, seed), without the `bc-gen` CLI.

        TaskSet("arithmetic", seed=7)[3]                       # a task row (dict)
        TaskSet("arithmetic", groups=["hard"], params={"max_digits": 9})
        TaskSet("arithmetic", ratios={"medium": 1, "hard": 0.1})   # another mix (bc-gen --curriculum's)

    `ts[i]` is the first draw of row *i*; `bc-gen` writes the same rows except that it redraws an identity that
    already appeared earlier in the split (rare; `--no-dedup` turns that off)."""

    def __init__(self, bootcamp: Any, *, seed: int = 0, split: str = "train", groups: list[str] | None = None,
                 params: dict[str, Any] | None = None, tools: bool = True, interaction: bool = True,
                 ratios: dict[str, float] | None = None):
        from .catalog import get_bootcamp
        from .errors import ConfigError
        from .manifest import Group

        bc = get_bootcamp(bootcamp) if isinstance(bootcamp, str) else bootcamp
        if bc.generator is None:
            raise ConfigError(f"bootcamp {bc.name!r} has no generator")
        self.bootcamp = bc
        known = bc.group_list()
        if groups:
            unknown = [g for g in groups if g not in {k.name for k in known}]
            if unknown:
                raise ConfigError(f"bootcamp {bc.name!r} has no group {unknown[0]!r}; its groups: "
                                  + ", ".join(k.name for k in known))
            # a group kept out of the default mix (ratio 0, e.g. rg/*'s curriculum levels) counts as 1 when named
            known = [k if k.ratio > 0 else Group(k.name, k.params, 1.0, k.tools) for k in known if k.name in groups]
        elif ratios is not None:  # a mix of our own: the groups it weighs, in the manifest's order
            unknown = sorted(set(ratios) - {k.name for k in known})
            if unknown:
                raise ConfigError(f"bootcamp {bc.name!r} has no group {unknown[0]!r}; its groups: "
                                  + ", ".join(k.name for k in known))
            known = [Group(k.name, k.params, float(ratios[k.name]), k.tools) for k in known
                     if ratios.get(k.name, 0) > 0]
        else:
            known = [k for k in known if k.ratio > 0] or known
        if sum(g.ratio for g in known) <= 0:
            raise ConfigError(f"bootcamp {bc.name!r}: the selected groups' ratios sum to zero")
        tool_specs = bc.tool_specs() if tools else []
        for g in known:  # a group's tool selection names the bootcamp's own tools
            unknown = sorted(set(g.tools or ()) - {t.name for t in bc.tool_specs()})
            if unknown:
                raise ConfigError(f"bootcamp {bc.name!r}, group {g.name!r}: no tool {unknown[0]!r}")
        interaction_spec = bc.interaction_spec() if interaction else None
        self.groups = known
        self.specs = [RowSpec(bootcamp=bc.name, generator_class=dotted_name(bc.generator),
                              params={**g.params, **(params or {})}, split=split, base_seed=seed,
                              generator_name=g.name, interaction=interaction_spec,
                              tools=[t for t in tool_specs if g.tools is None or t.name in g.tools],
                              source=f"bootcamp {bc.name}, group {g.name}") for g in known]
        self.params = dict(params or {})
        self.plan = GroupPlan([g.ratio for g in known])
        self._factories: list[TaskFactory | None] = [None] * len(self.specs)

    def factory(self, group: int) -> TaskFactory:
        """The row builder of group number `group` (built on first use: it checks the parameters)."""
        factory = self._factories[group]
        if factory is None:
            from .errors import ConfigError

            try:
                factory = self._factories[group] = TaskFactory(self.specs[group])
            except ConfigError as exc:
                if not self.params or len(self.specs) == 1:
                    raise
                raise ConfigError(f"{exc} (--set parameters apply to every group; pick groups with --group)") \
                    from None
        return factory

    def group_of(self, index: int) -> int:
        return self.plan[index]

    def __getitem__(self, index: int) -> dict[str, Any]:
        if not isinstance(index, int) or isinstance(index, bool) or index < 0:
            raise IndexError(f"task index must be a non-negative integer, got {index!r}")
        return orjson.loads(self.factory(self.plan[index]).row(index)[1])

    def identity(self, index: int) -> dict[str, Any]:
        return self.factory(self.plan[index]).identity(index)

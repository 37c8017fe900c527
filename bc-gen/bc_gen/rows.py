"""One task row from (bootcamp, generator config, split, base seed, index): the unit of reproducibility."""
from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

from bc_common.bootcamp import InstructionGenerator
from bc_common.seeding import RecordRandom, canonical_json, config_hash, record_key, seed_of
from bc_common.tool_config import load_interaction_config, load_tool_config

_DUMP_OPTS = orjson.OPT_APPEND_NEWLINE
DedupKey = str | bytes  # see dedup_key


def _canonical(identity: Any) -> bytes:
    """`canonical_json`, also for identities holding integers beyond 64 bits (which orjson refuses)."""
    try:
        return canonical_json(identity)
    except orjson.JSONEncodeError:
        from bc_common.jsonl import dumps_wide

        return dumps_wide(identity, sort_keys=True)


@dataclass
class RowSpec:
    """Everything that determines the rows of one generator group in one split. Picklable (for -j)."""

    bootcamp: str
    generator_class: str
    params: dict[str, Any]
    split: str = "train"
    base_seed: int = 0
    generator_name: str = "default"
    tool_config: Path | None = None
    interaction_config: Path | None = None
    data_source: str | None = None
    source: str = ""  # where the parameters came from, for error messages
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def config_hash(self) -> str:
        return config_hash({"class": self.generator_class, "params": self.params})


class TaskFactory:
    """Builds rows by index: `factory.row(i)` -> (dedup key, JSONL bytes). Same inputs, same bytes."""

    def __init__(self, spec: RowSpec):
        from bc_common.registry import load_class

        self.spec = spec
        cls = load_class(spec.generator_class)
        self.generator: InstructionGenerator = cls(_source=spec.source or f"{spec.bootcamp}/{spec.generator_name}",
                                                   **spec.params)
        self.rng = self.generator.rng = RecordRandom()
        self.data_source = spec.data_source or f"bootcamp/{spec.bootcamp}"
        self.config_hash = spec.config_hash
        self.tool_names = [t.name for t in load_tool_config(spec.tool_config)] if spec.tool_config else []
        self.interaction_name = (load_interaction_config(spec.interaction_config).name
                                 if spec.interaction_config else None)
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
        self.rng.seed_record(self._key_prefix + b"%d\x1f%d" % (index, attempt))
        return self.generator.case_generator()

    def identity_hash(self, identity: dict[str, Any]) -> DedupKey:
        """The key deduplication compares identities by (see `dedup_key`)."""
        return dedup_key(_canonical(identity))

    def row(self, index: int) -> tuple[DedupKey, bytes]:
        """(dedup key, row bytes) for `index` (first draw; duplicates are redrawn with `identity(i, k)`)."""
        seed = self.rng.seed_record(self._key_prefix + b"%d\x1f0" % index)
        return self.render(index, self.generator.case_generator(), seed)

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
        if template is not None and prompt.__class__ is str:
            repeats = self._repeats
            if repeats == 0:
                return key, template % (seed, orjson.dumps(prompt), canonical, index)
            return key, template % ((seed, orjson.dumps(prompt), canonical, index) + (canonical,) * repeats)
        row = self._build(index, orjson.Fragment(canonical), seed, prompt)
        return key, orjson.dumps(row, option=_DUMP_OPTS)

    def build(self, index: int, identity: dict[str, Any], seed: int | None = None,
              embedded: Any = None) -> dict[str, Any]:
        """The task row dict for an identity (the generator's rng continues from the identity draw).
        `embedded` stands for the identity inside the row (its pre-serialised form, when given)."""
        prompt = self.generator.prompt_func(identity)
        return self._build(index, identity if embedded is None else embedded,
                           self.seed(index) if seed is None else seed, prompt)

    def _build(self, index: Any, identity: Any, seed: Any, prompt: Any) -> dict[str, Any]:
        s = self.spec
        messages = [{"role": "user", "content": prompt}] if isinstance(prompt, str) else list(prompt)
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
                "tools_kwargs": tools_kwargs,
                "need_tools_kwargs": bool(tools_kwargs),
                "interaction_kwargs": interaction,
                **s.extra,
            },
        }

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

"""One task row from (bootcamp, generator config, split, base seed, index): the unit of reproducibility."""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

from bc_common.bootcamp import InstructionGenerator
from bc_common.seeding import RecordRandom, canonical_json, config_hash, seed_of
from bc_common.tool_config import load_interaction_config, load_tool_config

_DUMP_OPTS = orjson.OPT_APPEND_NEWLINE


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
    """Builds rows by index: `factory.row(i)` -> (identity hash, JSONL bytes). Same inputs, same bytes."""

    def __init__(self, spec: RowSpec):
        from bc_common.registry import load_class

        self.spec = spec
        cls = load_class(spec.generator_class)
        self.generator: InstructionGenerator = cls(_source=spec.source or f"{spec.bootcamp}/{spec.generator_name}",
                                                   **spec.params)
        self.generator.rng = RecordRandom()
        self.data_source = spec.data_source or f"bootcamp/{spec.bootcamp}"
        self.config_hash = spec.config_hash
        self.tool_names = [t.name for t in load_tool_config(spec.tool_config)] if spec.tool_config else []
        self.interaction_name = (load_interaction_config(spec.interaction_config).name
                                 if spec.interaction_config else None)
        self.agent_name = "bc_agent" if self.tool_names or self.interaction_name else "single_turn_agent"
        prefix = f"{spec.bootcamp}\x1f{self.config_hash}\x1f{spec.split}\x1f{spec.base_seed}\x1f".encode()
        self._seed_hasher = hashlib.blake2b(prefix, digest_size=8)  # copied per row: the prefix is hashed once
        assert self.seed(5, 1) == seed_of(spec.bootcamp, self.config_hash, spec.split, 5, spec.base_seed, 1)

    def seed(self, index: int, attempt: int = 0) -> int:
        """`seed_of(bootcamp, config_hash, split, index, base_seed, attempt)`, with the constant prefix cached."""
        h = self._seed_hasher.copy()
        h.update(b"%d\x1f%d" % (index, attempt))
        return int.from_bytes(h.digest(), "little")

    def identity(self, index: int, attempt: int = 0) -> dict[str, Any]:
        self.generator.rng.seed(self.seed(index, attempt))
        return self.generator.case_generator()

    def identity_hash(self, identity: dict[str, Any]) -> bytes:
        return hashlib.blake2b(_canonical(identity), digest_size=12).digest()

    def row(self, index: int) -> tuple[bytes, bytes]:
        """(identity hash, row bytes) for `index` (first draw; duplicates are redrawn with `identity(i, k)`)."""
        seed = self.seed(index)
        self.generator.rng.seed(seed)
        return self.render(index, self.generator.case_generator(), seed)

    def render(self, index: int, identity: dict[str, Any], seed: int | None = None) -> tuple[bytes, bytes]:
        """(identity hash, row bytes). The identity is serialised once (canonical: sorted keys), hashed, and
        embedded as is in its three places in the row."""
        canonical = _canonical(identity)
        digest = hashlib.blake2b(canonical, digest_size=12).digest()
        row = self.build(index, identity, seed, orjson.Fragment(canonical))
        return digest, orjson.dumps(row, option=_DUMP_OPTS)

    def build(self, index: int, identity: dict[str, Any], seed: int | None = None,
              embedded: Any = None) -> dict[str, Any]:
        """The task row dict for an identity (the generator's rng continues from the identity draw).
        `embedded` stands for the identity inside the row (its pre-serialised form, when given)."""
        s = self.spec
        prompt = self.generator.prompt_func(identity)
        identity = identity if embedded is None else embedded
        messages = [{"role": "user", "content": prompt}] if isinstance(prompt, str) else list(prompt)
        # the id is the attempt-0 seed: a hash of (bootcamp, config, split, base seed, index)
        row_id = f"{self.seed(index) if seed is None else seed:016x}"
        tools_kwargs = {name: {"create_kwargs": {"identity": identity}} for name in self.tool_names}
        interaction = {"name": self.interaction_name, "identity": identity} if self.interaction_name else {}
        return {
            "id": f"{s.bootcamp}-{row_id}",
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

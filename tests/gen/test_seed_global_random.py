"""A seed generator drawing from the module-level `random` (the seed's habit) is reproducible: bc-gen keys that
stream to each row as it keys `self.rng`."""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

GENERATOR = '''
import random
from random import randint

from bc_common.bootcamp import BaseInstructionGenerator


class GlobalRandomGenerator(BaseInstructionGenerator):
    def __init__(self, **kwargs):
        super().__init__()

    def case_generator(self):
        return {"a": random.randint(0, 10**9), "b": randint(0, 10**9), "c": random.random()}

    def prompt_func(self, identity):
        return f"Add {identity['a']} and {identity['b']} ({random.choice('xyz')})."
'''

CONFIG = '''
instruction_generators:
  default:
    config: {}
    generation_ratio: 1.0
global_config:
  class_name: seedgen.GlobalRandomGenerator
  data_source: bootcamp/seedgen
  default_seed: 999
  default_split_samples:
    train: 20
'''


def generate(tmp_path: Path, out: str, *extra: str) -> list[bytes]:
    env = {**os.environ, "PYTHONPATH": f"{tmp_path}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    proc = subprocess.run([str(Path(sys.executable).parent / "bc-gen"), "--config", str(tmp_path / "cfg.yaml"),
                           "-o", str(tmp_path / out), *extra], capture_output=True, env=env, timeout=120)
    assert proc.returncode == 0, proc.stderr.decode()
    files = sorted((tmp_path / out).rglob("*.jsonl"))
    assert files
    return [f.read_bytes() for f in files]


def test_module_level_random_gives_the_same_rows_every_run(tmp_path):
    (tmp_path / "seedgen.py").write_text(textwrap.dedent(GENERATOR))
    (tmp_path / "cfg.yaml").write_text(CONFIG)
    first, second = generate(tmp_path, "a"), generate(tmp_path, "b")
    assert first == second
    rows = [line for data in first for line in data.splitlines()]
    assert len(rows) == 20 and len(set(rows)) == 20  # and still a different draw per row


def test_built_in_generators_leave_the_module_level_random_alone():
    """Built-ins draw from `self.rng` only: their rows cost no reseeding of the global stream."""
    from bc_common.tasks import uses_global_random
    from bootcamps.arithmetic import ArithmeticInstructionGenerator
    from bootcamps.noop import NoopInstructionGenerator

    assert not uses_global_random(NoopInstructionGenerator)
    assert not uses_global_random(ArithmeticInstructionGenerator)

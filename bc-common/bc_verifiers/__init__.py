"""verifiers' entry to our bootcamps: the taskset id `bc-verifiers` imports this package (verifiers resolves a
taskset id to a top-level package exporting its `Taskset`, `Harness` and `Env` in `__all__`). The code lives in
`bc_common.interop.vf_env`; docs/interop-verifiers.md has the commands."""
from bc_common.interop.vf_env import BootcampEnv, BootcampHarness, BootcampTaskset

__all__ = ["BootcampTaskset", "BootcampHarness", "BootcampEnv"]

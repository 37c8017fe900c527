"""shell_workspace tasks: a generated file tree (from a seed) and a chore to do in it with a shell script."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bc_common.bootcamp import InstructionGenerator

from .chores import BY_KEY, LEVELS
from .tree import SIZES, build_tree

PROMPT = """You work in a folder of files (your working directory): logs/ (a folder per service, a log file per \
day), sales/ (a folder per year, a CSV per month: date,region,product,amount), config/app.ini, data/ (text files, \
some in subfolders) and downloads/.

Task: {task}

Use the `shell` tool to look around and try commands (POSIX sh with coreutils, find, grep, sed, awk, sort and \
python3; no network). What you change with the tool is for trying only: it is not graded. Reply with one shell \
script in a ```sh block. It is run once, in a sandbox, on a fresh copy of the folder, and then the folder's final \
state (every file's path and content) is checked against the task: change nothing else."""


@dataclass
class ShellWorkspaceConfig:
    level: str = "easy"  # which chores: easy (one step), medium (grouping, dedup), hard (several steps, nesting)
    size: str = "small"  # how many files the workspace holds: small, medium, large

    def validate(self) -> None:
        if self.level not in LEVELS:
            raise ValueError(f"level must be one of {', '.join(LEVELS)}")
        if self.size not in SIZES:
            raise ValueError(f"size must be one of {', '.join(SIZES)}")


class ShellWorkspaceInstructionGenerator(InstructionGenerator):
    """Identity: {chore, params, seed (of the workspace), size}."""

    Config = ShellWorkspaceConfig
    name = "shell_workspace"

    def case_generator(self) -> dict[str, Any]:
        chore = self.rng.choice(LEVELS[self.level])  # drawn once: chores that rarely fit a tree stay as frequent
        for _ in range(200):
            seed = self.rng.getrandbits(62)
            params = chore.draw(self.rng, build_tree(seed, self.size))
            if params is not None:
                return {"chore": chore.key, "params": params, "seed": seed, "size": self.size}
        raise RuntimeError(f"no workspace with a non-trivial {chore.key} task in 200 draws")

    def prompt_func(self, identity: dict[str, Any]) -> str:
        return PROMPT.format(task=BY_KEY[identity["chore"]].text.format(**identity["params"]))

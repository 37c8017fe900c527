"""Plays a bootcamp's reference policy on a task row through bc-eval's rollout loop, without a model server."""
from __future__ import annotations

import asyncio
from typing import Any

from bc_common.bootcamp import Bootcamp
from bc_common.builtin_model import reference_trajectory
from bc_common.environment import Environments
from bc_common.tasks import TaskSet

_ENVS = Environments()


def play(bootcamp: Bootcamp, row: dict[str, Any], *, wrong: bool = False) -> list[dict]:
    """The message list of one episode played by the reference policy (wrong answers when `wrong`)."""
    trajectory = asyncio.run(reference_trajectory(row, _ENVS.get(row["data_source"]), wrong=wrong))
    return trajectory["messages"]


def rows_for(name: str, n: int = 200, seed: int = 11) -> list[dict]:
    tasks = TaskSet(name, seed=seed, split="conformance")
    return [tasks[i] for i in range(n)]

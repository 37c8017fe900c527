"""Every file a bc-eval run reads and writes, checked against each other before anything is written: a summary
over the task file, a CSV over the run settings, `-o` over an input (bc_common.paths).

    refuse_colliding_files(config, summary_path="s.json", summary_csv="s.csv")
"""
from __future__ import annotations

from typing import Any

from bc_common.errors import UsageError
from bc_common.jsonl import stdin_has_data
from bc_common.paths import refuse_collisions, stdin_or

from .settings import settings_path


def refuse_colliding_files(config: Any, summary_path: str | None = None, summary_csv: str | None = None,
                           reads: list[tuple[str, str | None]] | None = None) -> None:
    """Raise UsageError (exit 2) when a file the run writes (-o, its settings file, --summary, --summary-csv) is
    one it reads (tasks, configs, the registry, `reads`) or another it writes."""
    output = config.output
    refuse_collisions(
        reads=[*(("TASKS", path) for path in stdin_or(config.tasks)),
               ("--tool-config", config.tool_config), ("--interaction-config", config.interaction_config),
               ("--bootcamp-registry", config.registry_file),
               ("--verify-correction-kwargs @FILE", config.verify_kwargs_file),
               ("--api-extra-params @FILE", config.extra_params_file), *(reads or [])],
        writes=[("-o", output), ("the run settings of -o", None if output == "-" else settings_path(output)),
                ("--summary", summary_path), ("--summary-csv", summary_csv)])


def refuse_registry_without_tasks(config: Any) -> None:
    """Raise UsageError when a registry is given but no tasks are (no TASKS, stdin a terminal or empty): the
    seed's registry-only evaluation would otherwise run 0 tasks and exit 0. The registry says how to score the
    tasks of its bootcamps; `bc-gen --registry` makes the tasks."""
    if config.tasks or not config.registry_file:
        return
    if not stdin_has_data():  # a terminal or an empty stream (the peeked bytes stay for the task reader)
        raise UsageError(f"--bootcamp-registry {config.registry_file} and no tasks: the registry says how to "
                         "score its bootcamps' tasks, it holds none. Generate them first, e.g. `bc-gen --registry "
                         f"{config.registry_file} -o data/ --concat`, then `bc-eval data/test.jsonl "
                         f"--bootcamp-registry {config.registry_file} ...` (or pipe tasks in)")

"""bc_filter: keep and reshape trajectories (SFT data, failure analysis). The Python API behind `bc-filter`.

    from bc_filter import Processor, filter_by_score, BestPerTask, to_sft
    p = Processor().add_filter(filter_by_score(min_score=0.9)).add_selector(BestPerTask()).add_transformer(to_sft)
    stats = p.process("traj.jsonl", "sft.jsonl")

The names are imported from their modules when first used (PEP 562), so `bc-filter --min-score 0.9` starts
without the modules it does not run (the token drift check's HTTP client, the transforms).
"""
from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

_MODULES = {
    "filters": ["assistant_turns", "filter_by_bootcamp", "filter_by_data_source", "filter_by_generator",
                "filter_by_score", "filter_by_split", "filter_by_status", "filter_by_success", "filter_by_turns",
                "filter_has_tool_error", "has_tool_error", "is_success"],
    "paths": ["get_path", "parse_path", "where"],
    "pipeline": ["build_processor", "filter_trajectories"],
    "processor": ["DataPostProcessor", "Processor", "write_records"],
    "select": ["BestPerTask", "Dedup", "TaskOutcome", "conversation_key", "rank_key"],
    "stats": ["ProcessStats"],
    "transforms": ["SHAPES", "create_custom_transformer", "create_field_extractor", "expand_messages_prefixes",
                   "extract_for_training", "extract_messages", "sft_messages", "to_sft", "to_task"],
}
_HOME = {name: module for module, names in _MODULES.items() for name in names}

__all__ = [
    "SHAPES", "BestPerTask", "DataPostProcessor", "Dedup", "ProcessStats", "Processor", "TaskOutcome",
    "assistant_turns", "build_processor", "conversation_key", "create_custom_transformer", "create_field_extractor",
    "expand_messages_prefixes", "extract_for_training", "extract_messages", "filter_by_bootcamp",
    "filter_by_data_source", "filter_by_generator", "filter_by_score", "filter_by_split", "filter_by_status",
    "filter_by_success", "filter_by_turns", "filter_has_tool_error", "filter_trajectories", "get_path",
    "has_tool_error", "is_success", "parse_path", "rank_key", "sft_messages", "to_sft", "to_task", "where",
    "write_records",
]


def __getattr__(name: str) -> Any:
    module = _HOME.get(name)
    if module is None:
        raise AttributeError(f"module 'bc_filter' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_HOME))


if TYPE_CHECKING:
    from .filters import (
        assistant_turns,
        filter_by_bootcamp,
        filter_by_data_source,
        filter_by_generator,
        filter_by_score,
        filter_by_split,
        filter_by_status,
        filter_by_success,
        filter_by_turns,
        filter_has_tool_error,
        has_tool_error,
        is_success,
    )
    from .paths import get_path, parse_path, where
    from .pipeline import build_processor, filter_trajectories
    from .processor import DataPostProcessor, Processor, write_records
    from .select import BestPerTask, Dedup, TaskOutcome, conversation_key, rank_key
    from .stats import ProcessStats
    from .transforms import (
        SHAPES,
        create_custom_transformer,
        create_field_extractor,
        expand_messages_prefixes,
        extract_for_training,
        extract_messages,
        sft_messages,
        to_sft,
        to_task,
    )

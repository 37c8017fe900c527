"""bc_filter: keep and reshape trajectories (SFT data, failure analysis). The Python API behind `bc-filter`.

    from bc_filter import Processor, filter_by_score, BestPerTask, to_sft
    p = Processor().add_filter(filter_by_score(min_score=0.9)).add_selector(BestPerTask()).add_transformer(to_sft)
    stats = p.process("traj.jsonl", "sft.jsonl")
"""
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

__all__ = [
    "SHAPES", "BestPerTask", "DataPostProcessor", "Dedup", "ProcessStats", "Processor", "TaskOutcome",
    "assistant_turns", "build_processor", "conversation_key", "create_custom_transformer", "create_field_extractor",
    "expand_messages_prefixes", "extract_for_training", "extract_messages", "filter_by_bootcamp",
    "filter_by_data_source", "filter_by_generator", "filter_by_score", "filter_by_split", "filter_by_status",
    "filter_by_success", "filter_by_turns", "filter_has_tool_error", "filter_trajectories", "get_path",
    "has_tool_error", "is_success", "parse_path", "rank_key", "sft_messages", "to_sft", "to_task", "where",
    "write_records",
]

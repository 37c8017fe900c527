"""Row filters over trajectory rows: each is a predicate `row -> bool`, combined with AND by the processor.

Factories return predicates carrying a `label` (the name their drops are counted under):

    keep = filter_by_score(min_score=0.9)
    keep(row)  # True when row["score"] >= 0.9
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from fnmatch import fnmatchcase
from typing import Any

from .paths import where

Row = dict[str, Any]
Predicate = Callable[[Row], bool]

__all__ = [
    "assistant_turns", "filter_by_bootcamp", "filter_by_data_source", "filter_by_generator", "filter_by_score",
    "filter_by_split", "filter_by_status", "filter_by_success", "filter_by_turns", "filter_has_tool_error",
    "has_tool_error", "is_success", "label_of", "where",
]


def _labelled(fn: Predicate, label: str, reads: Iterable[str] | None = None, stateless: bool = True) -> Predicate:
    # `reads`: the keys fn looks at (dotted paths: `score`, `input.extra_info.split`), so bc-filter may decode only
    # those (bc_filter/partial.py); a filter that reads beyond them on some row raises KeyError there and gets the
    # whole row. `stateless`: its answer for a row depends on that row alone and it remembers nothing, so worker
    # processes may apply it to parts of the input (bc_filter/parallel.py)
    fn.label = label  # type: ignore[attr-defined]
    fn.reads = None if reads is None else frozenset(reads)  # type: ignore[attr-defined]
    fn.stateless = stateless  # type: ignore[attr-defined]
    return fn


def label_of(fn: Callable[..., Any]) -> str:
    """The name a filter or transform is reported under."""
    return getattr(fn, "label", None) or getattr(fn, "__name__", None) or type(fn).__name__


def _names(values: str | Iterable[str]) -> frozenset[str]:
    """`"a,b"` or `["a", "b,c"]` -> {'a', 'b', 'c'}."""
    items = [values] if isinstance(values, str) else list(values)
    return frozenset(part.strip() for item in items for part in item.split(",") if part.strip())


def _extra(row: Row) -> dict[str, Any]:
    extra = row["input"].get("extra_info")
    return extra if isinstance(extra, dict) else {}


def is_success(row: Row) -> bool:
    """The row's `success` flag; rows without one: status 'completed' and score >= 1.0 (its definition)."""
    flag = row.get("success")
    if isinstance(flag, bool):
        return flag
    return row.get("status") == "completed" and row.get("score", 0) >= 1.0


def filter_by_success(row: Row) -> bool:
    """Keep successful trajectories (see `is_success`)."""
    return is_success(row)


_labelled(filter_by_success, "success", ("success", "status", "score"))


def filter_by_score(min_score: float | None = None, max_score: float | None = None) -> Predicate:
    """Keep rows with min_score <= score <= max_score (either bound optional; no default threshold)."""
    lo = float("-inf") if min_score is None else float(min_score)
    hi = float("inf") if max_score is None else float(max_score)
    parts = ([f"min-score {min_score}"] if min_score is not None else []) + (
        [f"max-score {max_score}"] if max_score is not None else [])
    return _labelled(lambda row: lo <= row["score"] <= hi, " ".join(parts) or "score", ("score",))


def filter_by_status(statuses: str | Iterable[str]) -> Predicate:
    """Keep rows whose status is one of `statuses` ("completed,max_turns" or a list)."""
    wanted = _names(statuses)
    return _labelled(lambda row: row["status"] in wanted, "status " + ",".join(sorted(wanted)), ("status",))


def filter_by_data_source(pattern: str) -> Predicate:
    """Keep rows whose task data_source matches a shell glob (`bootcamp/arith*`)."""
    return _labelled(lambda row: fnmatchcase(str(row["input"].get("data_source", "")), pattern),
                     f"data-source {pattern}", ("input.data_source",))


def filter_by_bootcamp(names: str | Iterable[str]) -> Predicate:
    """Keep rows of the named bootcamps (extra_info.bootcamp, else the data_source 'bootcamp/<name>')."""
    wanted = _names(names)

    def keep(row: Row) -> bool:
        name = _extra(row).get("bootcamp")
        if not isinstance(name, str):
            name = str(row["input"].get("data_source", "")).removeprefix("bootcamp/")
        return name in wanted

    return _labelled(keep, "bootcamp " + ",".join(sorted(wanted)), ("input.extra_info.bootcamp", "input.data_source"))


def filter_by_split(names: str | Iterable[str]) -> Predicate:
    """Keep rows whose task split (extra_info.split) is one of `names`; `.refused` counts the splits it dropped
    (so a run that keeps nothing can say which splits the input has)."""
    wanted = _names(names)
    refused: Counter = Counter()

    def keep(row: Row) -> bool:
        split = _extra(row).get("split")
        if split in wanted:
            return True
        if len(refused) < 20 or split in refused:
            refused[str(split)] += 1
        return False

    keep.refused = refused  # type: ignore[attr-defined]
    return _labelled(keep, "split " + ",".join(sorted(wanted)), ("input.extra_info.split",), stateless=False)


def filter_by_generator(names: str | Iterable[str]) -> Predicate:
    """Keep rows whose task came from one of the named generator groups (extra_info.generator_name)."""
    wanted = _names(names)
    return _labelled(lambda row: _extra(row).get("generator_name") in wanted,
                     "generator " + ",".join(sorted(wanted)), ("input.extra_info.generator_name",))


def assistant_turns(row: Row) -> int:
    """Number of assistant turns: num_turns.assistant when recorded, else the assistant messages."""
    counts = row.get("num_turns")
    if isinstance(counts, dict) and isinstance(counts.get("assistant"), int):
        return counts["assistant"]
    return sum(1 for msg in row["messages"] if isinstance(msg, dict) and msg.get("role") == "assistant")


def filter_by_turns(min_turns: int | None = None, max_turns: int | None = None) -> Predicate:
    """Keep rows with min_turns <= assistant turns <= max_turns (either bound optional)."""
    lo = 0 if min_turns is None else int(min_turns)
    hi = float("inf") if max_turns is None else int(max_turns)
    parts = ([f"min-turns {min_turns}"] if min_turns is not None else []) + (
        [f"max-turns {max_turns}"] if max_turns is not None else [])
    # num_turns decides; a row without it counts its messages, which the partial row lacks (KeyError: full row)
    return _labelled(lambda row: lo <= assistant_turns(row) <= hi, " ".join(parts) or "turns", ("num_turns.assistant",))


def has_tool_error(row: Row) -> bool:
    """True when a tool call in the trajectory failed (a tool turn with a non-null error)."""
    turns = row.get("turns")
    if not isinstance(turns, list):
        return False
    return any(isinstance(t, dict) and t.get("type") == "tool" and t.get("error") for t in turns)


def filter_has_tool_error(row: Row) -> bool:
    """Keep trajectories where at least one tool call failed."""
    return has_tool_error(row)


_labelled(filter_has_tool_error, "has-tool-error", ("turns",))

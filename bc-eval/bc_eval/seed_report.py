"""The seed's summary CSV (its evaluator's sectioned report), for runs in the seed's mode: basic information,
overall statistics, one line per data source and per generator, and the errors.

Where we differ, on purpose: "Success" counts trajectories that ran without error (the seed's meaning, not the
row's `success` field); the request headers are never written (they may hold credentials).
"""
from __future__ import annotations

import csv
import io
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

MEANS = ("assistant_turns", "tool_calls", "interaction_turns", "initial_prompt_tokens", "completion_tokens",
         "global_seq_tokens", "cumulative_prompt_tokens", "total_tokens")
HEADS = ("Avg Assistant Turns", "Avg Tool Calls", "Avg Interaction Turns", "Avg Initial Prompt Tokens",
         "Avg Completion Tokens", "Avg Global Sequence Tokens", "Avg Cumulative Prompt Tokens", "Avg Total Tokens")


@dataclass
class _Stats:
    count: int = 0
    ran: int = 0  # without error: the seed's "success"
    scores: list[float] = field(default_factory=list)
    sums: Counter = field(default_factory=Counter)

    def add(self, row: dict[str, Any]) -> None:
        self.count += 1
        if row.get("status") == "error":
            return
        self.ran += 1
        self.scores.append(float(row.get("score") or 0.0))
        self.sums.update(_measures(row))

    def cells(self) -> list[str]:
        rate = self.ran / self.count if self.count else 0.0
        mean = sum(self.scores) / len(self.scores) if self.scores else 0.0
        high, low = (max(self.scores), min(self.scores)) if self.scores else (0.0, 0.0)
        return [str(self.ran), str(self.count - self.ran), f"{rate:.2%}", f"{mean:.4f}", f"{high:.4f}",
                f"{low:.4f}", *(f"{self.sums[m] / self.ran if self.ran else 0.0:.2f}" for m in MEANS)]


def _measures(row: dict[str, Any]) -> dict[str, int]:
    """The seed's per-trajectory counts: turns, tool calls, interaction rounds and tokens."""
    models = [t for t in row.get("turns") or [] if t.get("type") == "model" and t.get("error") is None]
    replies = [t for t in row.get("turns") or [] if t.get("type") == "interaction" and not t.get("terminate")]
    first = (models[0].get("usage") or {}) if models else {}
    last = (models[-1].get("usage") or {}) if models else {}
    usage = row.get("usage") or {}
    turns = row.get("num_turns") or {}
    return {"assistant_turns": int(turns.get("assistant", 0)), "tool_calls": int(turns.get("tool_calls", 0)),
            "interaction_turns": 1 + len(replies) if models else 0,
            "initial_prompt_tokens": int(first.get("prompt_tokens") or 0),
            "global_seq_tokens": int(last.get("prompt_tokens") or 0) + int(last.get("completion_tokens") or 0),
            "cumulative_prompt_tokens": int(usage.get("prompt_tokens") or 0),
            "completion_tokens": int(usage.get("completion_tokens") or 0),
            "total_tokens": int(usage.get("total_tokens") or 0)}


class SeedReport:
    """Accumulates trajectory rows; `csv(info)` is the seed's report."""

    def __init__(self) -> None:
        self.total = _Stats()
        self.by_source: dict[str, _Stats] = {}
        self.by_generator: dict[tuple[str, str], _Stats] = {}
        self.errors: list[tuple[str, str, str, str]] = []  # generator, data source, task id, message

    def add(self, row: dict[str, Any]) -> None:
        task = row.get("input") or {}
        source = str(task.get("data_source", "Unknown"))
        generator = str((task.get("extra_info") or {}).get("generator_name") or "")
        self.total.add(row)
        self.by_source.setdefault(source, _Stats()).add(row)
        if generator:
            self.by_generator.setdefault((source, generator), _Stats()).add(row)
        if row.get("status") == "error":
            error = row.get("error") or {}
            message = f"{error.get('type', 'error')}: {error.get('message', '')}"
            self.errors.append((generator or "N/A", source, str(row.get("task_id", "Unknown")), message))

    def csv(self, info: dict[str, Any]) -> str:
        """The report; `info` is the seed's "Basic Evaluation Information" (label -> value)."""
        buf = io.StringIO()
        out = csv.writer(buf)
        out.writerow(["Basic Evaluation Information"])
        out.writerow(["Item", "Value"])
        out.writerows([label, "" if value is None else value] for label, value in info.items())
        out.writerow([])
        total = self.total
        mean = sum(total.scores) / total.count if total.count else 0.0  # the seed divides by every sample
        out.writerow(["Overall Statistics"])
        out.writerow(["Metric", "Value"])
        out.writerows([["Total Samples", total.count], ["Successful Samples", total.ran],
                       ["Failed Samples", total.count - total.ran],
                       ["Success Rate", f"{total.ran / total.count if total.count else 0.0:.2%}"],
                       ["Overall Average Score", f"{mean:.4f}"]])
        out.writerow([])
        if self.by_source:
            out.writerow(["Data Source Summary Statistics"])
            # the empty third column is the seed's: scripts that read its CSV by position expect it
            out.writerow(["Data Source", "Total Samples", "", "Success Count", "Failed Count", "Success Rate",
                          "Average Score", "Max Score", "Min Score", *HEADS])
            for source, stats in sorted(self.by_source.items()):
                out.writerow([source, stats.count, "", *stats.cells()])
            out.writerow([])
            out.writerow(["Generator Detailed Statistics"])
            out.writerow(["Data Source", "Generator Name", "Sample Count", "Success Count", "Failed Count",
                          "Success Rate", "Average Score", "Max Score", "Min Score", *HEADS])
            for source, stats in sorted(self.by_source.items()):
                generators = sorted((g, s) for (src, g), s in self.by_generator.items() if src == source)
                for generator, gen in generators or [("N/A", stats)]:
                    out.writerow([source, generator, gen.count, *gen.cells()])
            out.writerow([])
        if self.errors:
            out.writerow(["Error Type Statistics"])
            out.writerow(["Error Type", "Occurrence Count"])
            out.writerows(list(item) for item in Counter(e[3][:50] for e in self.errors).items())
            out.writerow([])
            out.writerow(["Detailed Error Information"])
            out.writerow(["Generator Name", "Data Source", "Sample ID", "Error Message"])
            out.writerows(list(e) for e in self.errors)
        return buf.getvalue()

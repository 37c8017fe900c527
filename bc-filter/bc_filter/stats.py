"""What a filter run did: rows in and out, drops per stage, score histograms, counts per data_source."""
from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass, field
from typing import Any

BIN_LABELS = [f"{i / 10:.1f}-{(i + 1) / 10:.1f}" for i in range(10)] + ["1.0"]


def score_bin(score: Any) -> int:
    """Histogram bin of a score: ten bins of width 0.1 ([0.9, 1.0) is the last) and one for exactly >= 1.0."""
    if not isinstance(score, (int, float)) or isinstance(score, bool):
        return 0
    if score >= 1.0:
        return 10
    return min(max(int(score * 10), 0), 9)


@dataclass
class ProcessStats:
    """Counts of one run. `kept` counts trajectories that passed every filter and selector, before
    transforms; `rows_out` counts rows written (after expansion/reshaping)."""

    detailed: bool = True  # False: skip the histograms and per-data_source counts (faster)
    rows_in: int = 0
    invalid: int = 0
    invalid_reasons: list[str] = field(default_factory=list)
    kept: int = 0
    rows_out: int = 0
    dropped: dict[str, int] = field(default_factory=dict)
    transformed: dict[str, list[int]] = field(default_factory=dict)  # label -> [rows in, rows out]
    score_hist_in: list[int] = field(default_factory=lambda: [0] * 11)
    score_hist_kept: list[int] = field(default_factory=lambda: [0] * 11)
    data_sources_in: Counter = field(default_factory=Counter)
    data_sources_kept: Counter = field(default_factory=Counter)
    # detailed only (None otherwise: their modules are not imported, bc-filter's start-up is shorter)
    stamps: Any = None  # bc_common.stamps.StampMix: input rows' code versions per bootcamp
    matches: Any = None  # bc_common.ratings.MatchTally: input rows of matches (bc-eval --opponent-model)

    def __post_init__(self) -> None:
        if self.detailed:
            from bc_common.ratings import MatchTally
            from bc_common.stamps import StampMix
            self.stamps = StampMix() if self.stamps is None else self.stamps
            self.matches = MatchTally() if self.matches is None else self.matches

    def add_invalid(self, reason: str) -> None:
        self.invalid += 1
        if len(self.invalid_reasons) < 20:
            self.invalid_reasons.append(reason)

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        del out["detailed"]
        out["score_hist_in"] = dict(zip(BIN_LABELS, self.score_hist_in, strict=True))
        out["score_hist_kept"] = dict(zip(BIN_LABELS, self.score_hist_kept, strict=True))
        out["data_sources_in"] = dict(self.data_sources_in)
        out["data_sources_kept"] = dict(self.data_sources_kept)
        out["mixed_code_versions"] = self.stamps.lines() if self.stamps is not None else []
        del out["stamps"]
        del out["matches"]
        out["ratings"] = asdict(self.ratings()) if self.matches is not None and self.matches.matches else None
        return out

    def ratings(self) -> Any:
        """Ratings of the input's matches (bc_common.ratings; 1,000 bootstrap resamples, seed 0)."""
        from bc_common.ratings import rate
        return rate(self.matches, n_boot=1000, seed=0)

    def format(self) -> str:
        """A short human report (what `bc-filter --stats` prints to stderr)."""
        lines = [f"rows in: {self.rows_in}   invalid skipped: {self.invalid}   kept: {self.kept}   "
                 f"rows out: {self.rows_out}"]
        for reason in self.invalid_reasons[:5]:
            lines.append(f"  invalid: {reason}")
        for label, count in self.dropped.items():
            lines.append(f"  dropped by {label}: {count}")
        for label, (n_in, n_out) in self.transformed.items():
            lines.append(f"  {label}: {n_in} -> {n_out} rows")
        if not self.detailed:
            return "\n".join(lines)
        lines.append("score histogram (in -> kept):")
        for label, n_in, n_kept in zip(BIN_LABELS, self.score_hist_in, self.score_hist_kept, strict=True):
            if n_in or n_kept:
                lines.append(f"  {label:>9}: {n_in:>8} -> {n_kept}")
        lines.append("per data_source (in -> kept):")
        for source in sorted(self.data_sources_in, key=str):
            lines.append(f"  {source}: {self.data_sources_in[source]} -> {self.data_sources_kept.get(source, 0)}")
        if self.matches.matches:
            lines += self.ratings().lines()
        mixed = self.stamps.lines()
        if mixed:
            lines.append("warning: the input mixes code versions of a bootcamp (rows graded by different code; "
                         "bc-eval --rescore re-grades them):")
            lines += [f"  {line}" for line in mixed]
        return "\n".join(lines)

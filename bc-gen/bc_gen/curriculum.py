"""The curriculum step: the next round's group mix from a run's per-group pass rates.

    rates = pass_rates(["eval.jsonl"], "arithmetic")          # {"easy": GroupRate(...), ...}
    mix = next_mix(get_bootcamp("arithmetic").group_list(), rates, Band(0.2, 0.8))

Groups whose pass rate lies in the band (learnable: neither solved nor hopeless) share the rows equally; groups
above it (too easy) or below it (too hard) keep `explore` of a share, so the next run still measures them; a group
the run did not measure gets a full share. When no group is in the band or unmeasured, the group nearest to it
takes a full share. The mix is a function of the rates alone, so the rows that follow are as deterministic and
shardable as any bc-gen run.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bc_common.errors import ConfigError, InputError
from bc_common.manifest import Group
from bc_common.readers import read_records
from bc_common.records import check_trajectory


@dataclass(frozen=True)
class Band:
    """The pass rates worth training on, both ends included."""

    low: float = 0.2
    high: float = 0.8

    @classmethod
    def parse(cls, text: str) -> Band:
        """`LO:HI` with 0 <= LO <= HI <= 1, e.g. `0.2:0.8`."""
        low, sep, high = text.partition(":")
        try:
            band = cls(float(low), float(high))
        except ValueError:
            band = None
        if not sep or band is None or not 0 <= band.low <= band.high <= 1:
            raise ConfigError(f"--band {text!r}: expected LO:HI with 0 <= LO <= HI <= 1, e.g. --band 0.2:0.8")
        return band

    def place(self, rate: float) -> str:
        return "too hard" if rate < self.low else "too easy" if rate > self.high else "in band"

    def distance(self, rate: float) -> float:
        return max(self.low - rate, rate - self.high, 0.0)


@dataclass
class GroupRate:
    """A group's graded trajectories (status error excluded: a failed model call says nothing of the task) and
    how many passed (`success`: completed with score 1.0)."""

    graded: int = 0
    passed: int = 0
    errors: int = 0

    @property
    def rate(self) -> float | None:
        return self.passed / self.graded if self.graded else None


@dataclass(frozen=True)
class MixEntry:
    group: str
    weight: float
    rate: float | None
    graded: int
    reason: str  # in band, too easy, too hard, not measured, nearest to the band


def _trajectory(row: object) -> None:
    check_trajectory(row)
    if not isinstance(row.get("input"), dict):  # type: ignore[union-attr]
        raise InputError("field 'input' must be the task row", field="input")


def bootcamp_of(row: dict) -> str:
    task = row["input"]
    extra = task.get("extra_info") if isinstance(task.get("extra_info"), dict) else {}
    return str(extra.get("bootcamp") or str(task.get("data_source", "")).removeprefix("bootcamp/"))


def pass_rates(paths: Sequence[str], bootcamp: str | None) -> tuple[str, dict[str, GroupRate]]:
    """(the bootcamp, its groups' pass rates) from trajectory files. `bootcamp` None: the files' only bootcamp."""
    by_bootcamp: dict[str, dict[str, GroupRate]] = {}
    for rec in read_records(list(paths), validate=_trajectory):
        row = rec.data
        extra = row["input"].get("extra_info") if isinstance(row["input"].get("extra_info"), dict) else {}
        tally = by_bootcamp.setdefault(bootcamp_of(row), {}).setdefault(str(extra.get("generator_name")
                                                                            or "default"), GroupRate())
        if row["status"] == "error":
            tally.errors += 1
            continue
        tally.graded += 1
        tally.passed += row.get("success") is True
    if bootcamp is None:
        if len(by_bootcamp) != 1:
            found = ", ".join(sorted(by_bootcamp)) or "none"
            raise ConfigError(f"--curriculum {', '.join(paths)}: name the BOOTCAMP (the trajectories hold "
                              f"{len(by_bootcamp)} bootcamps: {found})")
        bootcamp = next(iter(by_bootcamp))
    return bootcamp, by_bootcamp.get(bootcamp, {})


def next_mix(groups: Sequence[Group], rates: dict[str, GroupRate], band: Band, explore: float = 0.1,
             only: Sequence[str] = ()) -> list[MixEntry]:
    """The next round's weight per group, in the manifest's order. Candidates: `only` when given, else the groups
    of the default mix (ratio > 0) and every group the run measured."""
    known = {g.name for g in groups}
    unknown = sorted(set(only) - known)
    if unknown:
        raise ConfigError(f"no group {unknown[0]!r}; the groups: {', '.join(g.name for g in groups)}")
    if only:
        candidates = [g.name for g in groups if g.name in only]
    else:
        candidates = [g.name for g in groups if g.ratio > 0 or rates.get(g.name, GroupRate()).graded]
    entries = []
    for name in candidates:
        tally = rates.get(name, GroupRate())
        rate = tally.rate
        if rate is None:
            entries.append(MixEntry(name, 1.0, None, 0, "not measured"))
        else:
            place = band.place(rate)
            entries.append(MixEntry(name, 1.0 if place == "in band" else explore, rate, tally.graded, place))
    if entries and not any(e.weight == 1.0 for e in entries):
        nearest = min(entries, key=lambda e: band.distance(e.rate))  # first in manifest order on a tie
        entries = [MixEntry(e.group, 1.0, e.rate, e.graded, f"{e.reason}, nearest to the band") if e is nearest
                   else e for e in entries]
    return entries


def describe_mix(entries: Sequence[MixEntry], band: Band) -> list[str]:
    """One stderr line per group: `medium: pass rate 0.45 (40 graded), in band -> share 0.48`."""
    total = sum(e.weight for e in entries) or 1.0
    lines = []
    for e in entries:
        measured = "not measured" if e.rate is None else f"pass rate {e.rate:.2f} ({e.graded} graded)"
        reason = "" if e.rate is None else f", {e.reason}"
        lines.append(f"{e.group}: {measured}{reason} -> share {e.weight / total:.2f}")
    return [f"band {band.low:g}:{band.high:g}"] + lines

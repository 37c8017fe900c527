"""Re-scoring (`bc-eval --rescore RUN.jsonl`): today's verifier over stored trajectories, no model called.

    summary = rescore(EvalConfig(tasks=["run.jsonl"], output="rescored.jsonl"))
    summary.lines()   # ["bootcamp/arithmetic: 200 rows, 3 changed (2 up, 1 down), mean score 0.710 -> 0.715"]

Each row keeps what it was graded with before, beside the new grade: `rescore: {score, bootcamp_version,
code_hash}` holds the old score and stamp, and `score`, `reward.score`, `success` and the row's stamp are today's.
Interaction scores (`reward.turn_scores`, `interaction_score`) are kept as recorded: replaying an interaction
would need its environment's replies, which a stored row cannot guarantee.
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from bc_common.bootcamp import final_assistant_text
from bc_common.environment import identity_of
from bc_common.errors import BcError, GraderUnavailable, InputError
from bc_common.jsonl import AtomicFile, JsonlWriter, ReadStats, dumps
from bc_common.locks import OutputLock
from bc_common.readers import read_records
from bc_common.records import check_trajectory
from bc_common.rollout import verify_messages
from bc_common.rubric import check_value, combine, rubric_of
from bc_common.stamps import FIELDS, code_stamp

SHOWN_IDS = 5  # changed row ids shown per bootcamp on stderr (the JSON summary lists them all)


@dataclass
class _Bootcamp:
    rows: int = 0
    up: list[str] = field(default_factory=list)
    down: list[str] = field(default_factory=list)
    old_sum: float = 0.0
    new_sum: float = 0.0

    def report(self) -> dict[str, Any]:
        n = max(self.rows, 1)
        return {"rows": self.rows, "changed": len(self.up) + len(self.down), "up": len(self.up),
                "down": len(self.down), "mean_score_before": self.old_sum / n, "mean_score_after": self.new_sum / n,
                "changed_ids": sorted(self.up + self.down)}


@dataclass
class RescoreSummary:
    """Per bootcamp: rows, how many changed and which way, the mean score before and after."""

    by_source: dict[str, _Bootcamp] = field(default_factory=lambda: defaultdict(_Bootcamp))
    read: ReadStats = field(default_factory=ReadStats)

    def add(self, source: str, row_id: str, before: float, after: float) -> None:
        group = self.by_source[source]
        group.rows += 1
        group.old_sum += before
        group.new_sum += after
        if after > before:
            group.up.append(row_id)
        elif after < before:
            group.down.append(row_id)

    def report(self) -> dict[str, Any]:
        return {"rescore": {source: g.report() for source, g in sorted(self.by_source.items())}}

    def lines(self) -> list[str]:
        out = []
        for source, g in sorted(self.by_source.items()):
            r = g.report()
            ids = r["changed_ids"][:SHOWN_IDS]
            more = f", +{r['changed'] - len(ids)} more" if r["changed"] > len(ids) else ""
            shown = f": {', '.join(ids)}{more}" if ids else ""
            out.append(f"{source}: {r['rows']} rows, {r['changed']} changed ({r['up']} up, {r['down']} down), "
                       f"mean score {r['mean_score_before']:.3f} -> {r['mean_score_after']:.3f}{shown}")
        return out


def rescore_row(row: dict[str, Any], env: Any, verify_kwargs: dict[str, Any]) -> dict[str, Any]:
    """The trajectory graded again by `env`'s verifier: new score, success and stamp; the old ones in `rescore`."""
    task = row["input"]
    score = verify_messages(env, row["messages"], identity_of(task), verify_kwargs)
    reward = row.get("reward") if isinstance(row.get("reward"), dict) else {}
    rubric = rubric_of(env.reward)
    if rubric is not None:  # the verifier's and the checks' components graded again, the judge's as recorded
        recorded = reward.get("components") if isinstance(reward.get("components"), dict) else {}
        answer = env.reward.extract_output(final_assistant_text(row["messages"]))
        answer = answer if isinstance(answer, str) else ""
        values = {c.name: recorded.get(c.name) if c.judge is not None else
                  check_value(c, answer, identity_of(task)) if c.score is not None else score
                  for c in rubric.components}
        graded = combine(rubric, values)
        score = graded.score
        reward = {**reward, "components": graded.components, "weights": graded.weights}
    before = {"score": row["score"], **{name: row.get(name) for name in FIELDS}}
    return {**row, "score": score, "reward": {**reward, "score": score},
            "success": row.get("status") == "completed" and score >= 1.0,
            **code_stamp(env.reward.__module__), "rescore": before}


def rescore(config: Any, environments: Any, summary: RescoreSummary | None = None) -> RescoreSummary:
    """Re-grade every trajectory of `config.tasks` into `config.output` (a file appears whole or not at all: a
    bad row at line 900 leaves no half output and an existing file untouched)."""
    summary = summary or RescoreSummary()
    with OutputLock(config.output, prog="bc-eval"):
        if config.output == "-":
            writer = JsonlWriter("-", flush_each=False)
            try:
                _run(config, environments, summary, writer.write_raw)
            finally:
                writer.close()
        else:
            with AtomicFile(config.output) as fh:
                _run(config, environments, summary, fh.write)
    return summary


def _run(config: Any, environments: Any, summary: RescoreSummary, write: Any) -> None:
    for rec in read_records(config.tasks, skip_invalid=config.skip_invalid, stats=summary.read,
                            validate=check_trajectory):
        row = rec.data
        source = str(row["input"].get("data_source"))
        try:
            env = environments.get(source)
        except BcError as exc:  # an unknown or unavailable bootcamp: name the row that needs it
            raise InputError(str(exc), source=rec.source, line=rec.line, field="input.data_source") from None
        try:
            out = rescore_row(row, env, config.verify_kwargs)
        except GraderUnavailable as exc:  # no grade at all (the output is not written): say which row, and why
            raise GraderUnavailable(f"{rec.source}:{rec.line}: the verifier could not run: {exc}") from exc
        summary.add(source, str(row["id"]), float(row["score"]), out["score"])
        write(dumps(out))

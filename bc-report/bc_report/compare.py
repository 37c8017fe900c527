"""`--compare`: trajectories of two runs matched by (task id, sample), the per-task paired differences, and two
paired tests — exact McNemar on pass/fail, and on the score difference a task-bootstrap interval with a sign-flip
randomization p-value — so that a difference within noise (5 points on 100 tasks, say) is reported as such."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .analysis import Columns
from .rows import MAX_SAMPLE
from .stats import ALPHA, PairedTest, format_p, mcnemar, paired_test, rng_for


@dataclass
class Comparison:
    """`other` against `base` on the pairs both ran (differences are other minus base)."""

    base: str
    other: str
    scope: str  # "all" or a bootcamp
    pairs: int
    tasks: int
    only_base: int
    only_other: int
    mean_base: float
    mean_other: float
    pass_base: float
    pass_other: float
    test: PairedTest
    b: int  # pairs that passed in base only
    c: int  # pairs that passed in other only
    p_mcnemar: float
    task_diffs: np.ndarray = field(repr=False, default_factory=lambda: np.zeros(0))

    @property
    def significant_score(self) -> bool:
        return self.test.p_value < ALPHA

    @property
    def significant_pass(self) -> bool:
        return self.p_mcnemar < ALPHA

    @property
    def verdict(self) -> str:
        """One phrase a reader can act on."""
        if self.pairs == 0:
            return "no matched pairs"
        if self.significant_score and self.significant_pass:
            return "significant (score and pass/fail)"
        if self.significant_score:
            return "significant (score only)"
        if self.significant_pass:
            return "significant (pass/fail only)"
        return "not significant: within noise"

    def p_texts(self) -> tuple[str, str]:
        return format_p(self.test.p_value, self.test.n_boot), format_p(self.p_mcnemar)


def _matched(base: Columns, other: Columns) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Row numbers of matched pairs in each run (in the base run's row order), and each pair's task number."""
    base_task, base_sample, other_task, other_sample = base.row_task, base.row_sample, other.row_task, other.row_sample
    other_no = other.run.task_no
    # each base task's number in the other run (-1: not there), then a row's (task, sample) as one key there
    to_other = np.array([other_no.get(t, -1) for t in base.run.task_ids], dtype=np.int64)
    span = MAX_SAMPLE + 1
    wanted = to_other[base_task] * span + base_sample if len(base_task) else np.zeros(0, dtype=np.int64)
    keys = other_task.astype(np.int64) * span + other_sample
    order = np.argsort(keys, kind="stable")
    ordered = keys[order]
    at = np.minimum(np.searchsorted(ordered, wanted), max(len(ordered) - 1, 0))
    hit = (wanted >= 0) & (ordered[at] == wanted) if len(ordered) else np.zeros(len(wanted), dtype=bool)
    rows_a = np.nonzero(hit)[0].astype(np.int64)
    return rows_a, order[at[hit]].astype(np.int64), base_task[hit].astype(np.int64)


def _compare_rows(base: Columns, other: Columns, rows_a: np.ndarray, rows_b: np.ndarray, task: np.ndarray,
                  scope: str, n_boot: int, seed: int) -> Comparison:
    score_a, score_b = base.score[rows_a], other.score[rows_b]
    pass_a, pass_b = base.passed[rows_a].astype(bool), other.passed[rows_b].astype(bool)
    _, task = np.unique(task, return_inverse=True)
    n_tasks = int(task.max()) + 1 if len(task) else 0
    diff_sum = np.bincount(task, weights=score_b - score_a, minlength=n_tasks)
    pairs = np.bincount(task, minlength=n_tasks).astype(float)
    test = paired_test(diff_sum, pairs, n_boot, rng_for(seed, "compare", base.run.label, other.run.label, scope))
    b, c = int((pass_a & ~pass_b).sum()), int((~pass_a & pass_b).sum())
    n = len(rows_a)

    def mean(x: np.ndarray) -> float:
        return float(x.mean()) if n else float("nan")

    return Comparison(base.run.label, other.run.label, scope, n, n_tasks, 0, 0, mean(score_a), mean(score_b),
                      mean(pass_a), mean(pass_b), test, b, c, mcnemar(b, c),
                      diff_sum / np.maximum(pairs, 1))


def compare(base: Columns, other: Columns, n_boot: int, seed: int) -> list[Comparison]:
    """The overall comparison, then one per bootcamp (by the base run's bootcamp of each pair)."""
    rows_a, rows_b, task = _matched(base, other)
    overall = _compare_rows(base, other, rows_a, rows_b, task, "all", n_boot, seed)
    overall.only_base = base.run.count - len(rows_a)
    overall.only_other = other.run.count - len(rows_b)
    out = [overall]
    bootcamp_of_pair = base.bootcamp_of[base.group[rows_a]] if len(rows_a) else np.zeros(0, dtype=object)
    for bootcamp in sorted(set(bootcamp_of_pair)):
        mask = bootcamp_of_pair == bootcamp
        out.append(_compare_rows(base, other, rows_a[mask], rows_b[mask], task[mask], bootcamp, n_boot, seed))
    return out

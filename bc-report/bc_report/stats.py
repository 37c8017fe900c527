"""The statistics of the report: unbiased pass@k, task-level bootstrap confidence intervals, and the paired tests
of `--compare` (exact McNemar on pass/fail; on scores, a paired bootstrap interval and a sign-flip test).

Samples of one task are correlated, so every bootstrap resamples tasks (a cluster bootstrap), never trajectories.
"""
from __future__ import annotations

import hashlib
import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

ALPHA = 0.05  # 95% intervals, 5% tests


def pass_at_k(n: int, c: int, k: int) -> float:
    """Unbiased pass@k of one task (Chen et al. 2021): 1 - C(n-c, k) / C(n, k), n samples of which c passed.

    >>> pass_at_k(4, 1, 2)
    0.5
    """
    if n <= 0:
        return 0.0
    k = min(k, n)
    if n - c < k:
        return 1.0
    return 1.0 - math.prod(1.0 - k / i for i in range(n - c + 1, n + 1))


def pass_at_k_many(n: np.ndarray, c: np.ndarray, k: int) -> np.ndarray:
    """`pass_at_k` of every task (arrays of sample and pass counts); computed once per distinct (n, c)."""
    if len(n) == 0:
        return np.zeros(0)
    if n.min() < 0 or c.min() < 0:  # counts never are; one integer key below needs them non-negative
        pairs, inverse = np.unique(np.stack([n, c], axis=1), axis=0, return_inverse=True)
        values = np.array([pass_at_k(int(a), int(b), k) for a, b in pairs])
        return values[inverse.reshape(-1)]
    width = int(c.max()) + 1  # (n, c) as one integer: a 1-d unique sorts it ~10x faster than rows of two
    keys, inverse = np.unique(n.astype(np.int64) * width + c, return_inverse=True)
    values = np.array([pass_at_k(int(key) // width, int(key) % width, k) for key in keys])
    return values[inverse.reshape(-1)]


def ks_for(min_samples: int) -> list[int]:
    """The k of pass@k worth a column when every task has at least `min_samples` samples: 1, powers of 2, the max."""
    ks = [1]
    while ks[-1] * 2 < min_samples:
        ks.append(ks[-1] * 2)
    if min_samples > 1:
        ks.append(min_samples)
    return ks


def rng_for(seed: int, *coords: object) -> np.random.Generator:
    """A numpy generator keyed by the seed and a name (`"arithmetic/easy"`): one interval never depends on the
    order in which the others were computed."""
    key = "\x1f".join(map(str, (seed, *coords))).encode()
    return np.random.default_rng(int.from_bytes(hashlib.blake2b(key, digest_size=8).digest(), "little"))


def unique_rows(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """`np.unique(rows, axis=0, return_counts=True)`, the same arrays (rows in lexicographic order), faster: each
    column becomes its rank among the column's values and the ranks one integer key, so one 1-d sort replaces the
    sort of structured rows (50k rows of four floats: 83 -> 12 ms). Columns holding NaN or -0.0 (where
    equality and order part ways) take `np.unique` itself."""
    odd = rows.dtype.kind == "f" and (bool(np.isnan(rows).any()) or bool(np.signbit(rows[rows == 0]).any()))
    if rows.ndim != 2 or rows.shape[1] == 0 or odd:
        return np.unique(rows, axis=0, return_counts=True)
    key = np.zeros(len(rows), dtype=np.int64)
    size = 1
    for column in rows.T:
        values, ranks = np.unique(column, return_inverse=True)
        size *= len(values)
        if size >= 2**62:  # the key would overflow
            return np.unique(rows, axis=0, return_counts=True)
        key = key * len(values) + ranks.reshape(-1)
    _, first, counts = np.unique(key, return_index=True, return_counts=True)
    return rows[first], counts


def resampled_sums(rows: np.ndarray, n_boot: int, rng: np.random.Generator) -> np.ndarray:
    """Column sums of `n_boot` bootstrap resamples of the rows (one row per task): shape (n_boot, columns).

    Identical rows are drawn together (a multinomial over the distinct rows is the same bootstrap), which makes
    pass/fail data of 100k tasks cost as much as a handful; other data is resampled by index in chunks."""
    t = len(rows)
    if t == 0:
        return np.zeros((n_boot, rows.shape[1] if rows.ndim == 2 else 0))
    distinct, counts = unique_rows(rows)
    if len(distinct) * 4 <= t:
        weights = rng.multinomial(t, counts / t, size=n_boot)
        return weights @ distinct
    out = np.empty((n_boot, rows.shape[1]))
    chunk = max(1, 4_000_000 // t)  # indices of one chunk stay under ~32 MB
    for start in range(0, n_boot, chunk):
        stop = min(n_boot, start + chunk)
        idx = rng.integers(0, t, size=(stop - start, t))
        out[start:stop] = rows[idx].sum(axis=1)
    return out


@dataclass(frozen=True)
class Estimate:
    """A point estimate and its 95% bootstrap interval."""

    value: float
    lo: float
    hi: float

    def format(self, digits: int = 3, sign: bool = False) -> str:
        f = f"{{:+.{digits}f}}" if sign else f"{{:.{digits}f}}"
        return f"{f.format(self.value)} [{f.format(self.lo)}, {f.format(self.hi)}]"


def interval(value: float, draws: np.ndarray) -> Estimate:
    """Percentile interval of bootstrap draws around `value`."""
    if len(draws) == 0 or not np.isfinite(value):
        return Estimate(value, value, value)
    lo, hi = np.quantile(draws, [ALPHA / 2, 1 - ALPHA / 2])
    return Estimate(float(value), float(lo), float(hi))


def task_estimates(n: np.ndarray, c: np.ndarray, score_sum: np.ndarray, ks: Sequence[int], n_boot: int,
                   rng: np.random.Generator) -> dict[str, Estimate]:
    """Mean score (over trajectories) and pass@k (averaged over tasks) with task-bootstrap intervals.

    Arrays hold one entry per task: samples, passed samples, summed scores."""
    if len(n) == 0:
        return {}
    columns = [n.astype(float), score_sum.astype(float)] + [pass_at_k_many(n, c, k) for k in ks]
    rows = np.stack(columns, axis=1)
    total = rows.sum(axis=0)
    draws = resampled_sums(rows, n_boot, rng)
    t = len(n)
    out = {"mean_score": interval(total[1] / total[0], draws[:, 1] / draws[:, 0])}
    for j, k in enumerate(ks):
        out[f"pass@{k}"] = interval(total[2 + j] / t, draws[:, 2 + j] / t)
    return out


def mcnemar(b: int, c: int) -> float:
    """Exact two-sided McNemar p-value: `b` pairs passed only in the first run, `c` only in the second."""
    m = b + c
    if m == 0:
        return 1.0
    low = min(b, c)
    log_half = m * math.log(0.5)
    terms = [math.lgamma(m + 1) - math.lgamma(i + 1) - math.lgamma(m - i + 1) + log_half for i in range(low + 1)]
    top = max(terms)
    tail = math.exp(top) * sum(math.exp(t - top) for t in terms)
    return min(1.0, 2.0 * tail)


@dataclass(frozen=True)
class PairedTest:
    """The mean score difference (second run minus first) with its paired-bootstrap interval, and the p-value of a
    paired sign-flip randomization test of "no difference"."""

    diff: Estimate
    p_value: float
    n_boot: int


def sign_flip_p(diff_sum: np.ndarray, n_draws: int, rng: np.random.Generator) -> float:
    """Two-sided p of a paired randomization test: under no difference each task's summed difference is as likely
    negated (the runs' labels swapped), so draw random signs and count sums at least as far from zero.

    Tasks with the same |difference| are drawn together (their sign sum is binomial), so pass/fail data is cheap.
    On pass/fail data with one sample per task this is the exact sign test McNemar's is, up to Monte Carlo error."""
    observed = abs(float(diff_sum.sum()))
    magnitudes, counts = np.unique(np.abs(diff_sum[diff_sum != 0]), return_counts=True)
    sums = np.zeros(n_draws)
    for value, count in zip(magnitudes, counts, strict=True):
        sums += value * (2.0 * rng.binomial(count, 0.5, size=n_draws) - count)
    hits = int(np.sum(np.abs(sums) >= observed - 1e-9 * max(1.0, observed)))
    return (1 + hits) / (1 + n_draws)


def paired_test(diff_sum: np.ndarray, pairs: np.ndarray, n_boot: int, rng: np.random.Generator) -> PairedTest:
    """Mean of per-pair score differences: a task-bootstrap interval and a sign-flip p-value. Arrays hold one entry
    per task: summed differences over its matched pairs, number of pairs.

    The p-value comes from the randomization test rather than from the bootstrap draws: a percentile bootstrap is
    too sure of itself on a handful of discordant tasks (5 of 100 all one way is p = 0.06, not 0.01)."""
    if len(pairs) == 0 or pairs.sum() == 0:
        return PairedTest(Estimate(float("nan"), float("nan"), float("nan")), 1.0, n_boot)
    rows = np.stack([pairs.astype(float), diff_sum.astype(float)], axis=1)
    value = rows[:, 1].sum() / rows[:, 0].sum()
    draws = resampled_sums(rows, n_boot, rng)
    return PairedTest(interval(value, draws[:, 1] / draws[:, 0]), sign_flip_p(rows[:, 1], n_boot, rng), n_boot)


def format_p(p: float, n_draws: int | None = None) -> str:
    """`p=0.031`, or `p<0.001` (a Monte Carlo p cannot be told apart below one over its draws)."""
    floor = max(1.0 / (n_draws + 1) if n_draws else 0.0, 0.001)
    if p <= floor * 1.0001:
        return f"p<{floor:.2g}" if p < floor else f"p≤{floor:.2g}"
    return f"p={p:.3f}" if p < 0.1 else f"p={p:.2f}"


def percentiles(values: np.ndarray, qs: Sequence[float]) -> list[float | None]:
    """The quantiles `qs` of the values (one partition for all), None each when there are none."""
    return [float(v) for v in np.quantile(values, qs)] if len(values) else [None] * len(qs)

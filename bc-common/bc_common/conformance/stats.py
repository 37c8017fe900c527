"""The sampling error the signal checks allow for: standard errors of a difference of two group measurements, and
the share of repeats that uniform draws from a space of known size give."""
from __future__ import annotations

import math
from statistics import fmean, variance


def proportion_rise_se(successes_a: int, n_a: int, successes_b: int, n_b: int) -> float:
    """Standard error of p_b - p_a under "no difference" (the pooled two-proportion test): a rise of success from
    group a to group b is beyond sampling error when it exceeds z times this."""
    if n_a <= 0 or n_b <= 0:
        return math.inf
    pooled = (successes_a + successes_b) / (n_a + n_b)
    return math.sqrt(pooled * (1 - pooled) * (1 / n_a + 1 / n_b))


def mean_difference_se(a: list[float], b: list[float]) -> float:
    """Welch's standard error of mean(b) - mean(a) (0 when both samples are constant)."""
    if not a or not b:
        return math.inf
    var_a = variance(a) if len(a) > 1 else 0.0
    var_b = variance(b) if len(b) > 1 else 0.0
    return math.sqrt(var_a / len(a) + var_b / len(b))


def mean(values: list[float]) -> float:
    return fmean(values) if values else 0.0


def expected_distinct(space: int, draws: int) -> float:
    """How many distinct items `draws` uniform draws (with replacement) from `space` items give on average."""
    if space <= 0:
        return 0.0
    return space * -math.expm1(draws * math.log1p(-1 / space)) if space > 1 else min(1.0, float(draws))


def allowed_repeats(share: float, n: int, stated_at: int, level: float = 0.99) -> int:
    """Repeats allowed in `n` rows for a limit of `share` stated at `stated_at` rows. At `stated_at` rows or more
    it is the limit itself; on a smaller sample, the `level` quantile of the repeats that the smallest space
    meeting the limit at `stated_at` rows gives in n uniform draws (so a sample too small to tell is not failed)."""
    if n >= stated_at:
        return math.floor(share * n + 1e-9)
    target = share * stated_at  # repeats at `stated_at` rows of the borderline space
    lo, hi = 1.0, 1e15
    while hi / lo > 1.0001:  # repeats fall as the space grows: bisect for the borderline space
        mid = math.sqrt(lo * hi)
        lo, hi = (mid, hi) if stated_at - expected_distinct(int(mid), stated_at) > target else (lo, mid)
    return poisson_quantile(n - expected_distinct(int(hi), n), level)


def poisson_quantile(mean: float, level: float) -> int:
    """The smallest k with P(X <= k) >= level for X ~ Poisson(mean)."""
    k, term = 0, math.exp(-mean)
    total = term
    while total < level:
        k += 1
        term *= mean / k
        total += term
    return k


def explained_repeats(space: int, draws: int, sd: float) -> int:
    """Repeats that `draws` uniform draws from `space` items give, plus `sd` standard deviations (Poisson)."""
    expected = draws - expected_distinct(space, draws)
    return math.floor(expected + sd * math.sqrt(expected) + 1e-9)

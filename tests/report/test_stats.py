"""pass@k, the task bootstrap and the paired tests behave as the statistics say."""
from __future__ import annotations

import itertools
import math
import random

import numpy as np
import pytest

from bc_report.stats import (
    ks_for,
    mcnemar,
    paired_test,
    pass_at_k,
    pass_at_k_many,
    resampled_sums,
    rng_for,
    task_estimates,
    unique_rows,
)


@pytest.mark.parametrize("n,c,k", [(4, 1, 2), (5, 2, 3), (10, 0, 4), (6, 6, 2), (8, 3, 1), (3, 1, 3), (2, 1, 5)])
def test_pass_at_k_is_the_chance_that_some_of_k_draws_passes(n, c, k):
    draws = list(itertools.combinations([True] * c + [False] * (n - c), min(k, n)))
    assert pass_at_k(n, c, k) == pytest.approx(sum(any(d) for d in draws) / len(draws))


def test_pass_at_k_many_matches_the_scalar_form():
    n = np.array([4, 4, 4, 8, 8])
    c = np.array([0, 1, 4, 3, 3])
    assert pass_at_k_many(n, c, 2).tolist() == pytest.approx([pass_at_k(a, b, 2) for a, b in zip(n, c, strict=True)])


def test_ks_are_one_the_powers_of_two_and_the_samples_the_data_has():
    assert ks_for(1) == [1]
    assert ks_for(2) == [1, 2]
    assert ks_for(5) == [1, 2, 4, 5]
    assert ks_for(8) == [1, 2, 4, 8]


def _rows(kind: str, rng: np.random.Generator, shape: tuple[int, int]) -> np.ndarray:
    if kind == "few":
        return rng.integers(0, 4, size=shape).astype(float)
    if kind == "distinct":
        return rng.random(shape)
    if kind == "ints":
        return rng.integers(-5, 5, size=shape)
    values = {"awkward": [0.0, 0.25, 1 / 3, 1.0, -1.5, 1e300, np.inf, -np.inf], "nan": [0.0, 1.0, np.nan],
              "signed_zero": [0.0, -0.0, 1.0]}[kind]
    return rng.choice(values, size=shape)


@pytest.mark.parametrize("kind", ["few", "awkward", "distinct", "ints", "nan", "signed_zero"])
def test_unique_rows_gives_numpys_rows_and_counts(kind):
    """The bootstrap's draws depend on the distinct rows' order: it must be np.unique's, bit for bit."""
    rng = np.random.default_rng(len(kind))
    for _ in range(20):
        rows = _rows(kind, rng, (int(rng.integers(1, 2000)), int(rng.integers(1, 6))))
        want, want_counts = np.unique(rows, axis=0, return_counts=True)
        got, counts = unique_rows(rows)
        assert got.dtype == want.dtype and got.tobytes() == want.tobytes()
        assert counts.tolist() == want_counts.tolist()


def test_grouped_and_indexed_resampling_draw_the_same_bootstrap():
    rng = random.Random(0)
    rows = np.array([[2, rng.choice([0.0, 1.0, 2.0])] for _ in range(4000)])  # few distinct rows: multinomial path
    grouped = resampled_sums(rows, 2000, rng_for(0, "a"))
    noisy = rows + np.array([0, 1e-9]) * np.arange(len(rows))[:, None]  # all distinct: the index path
    indexed = resampled_sums(noisy, 2000, rng_for(0, "b"))
    for draws in (grouped, indexed):
        means = draws[:, 1] / draws[:, 0]
        assert means.mean() == pytest.approx(rows[:, 1].sum() / rows[:, 0].sum(), abs=0.003)
    assert (grouped[:, 1] / grouped[:, 0]).std() == pytest.approx((indexed[:, 1] / indexed[:, 0]).std(), rel=0.1)


def test_a_95_percent_interval_has_the_binomial_width():
    rng = np.random.default_rng(1)
    passed = rng.random(400) < 0.5
    est = task_estimates(np.ones(400, dtype=np.int64), passed.astype(np.int64), passed.astype(float), [1], 1000,
                         rng_for(0, "width"))
    half = 1.96 * math.sqrt(0.25 / 400)
    assert est["pass@1"].hi - est["pass@1"].lo == pytest.approx(2 * half, rel=0.15)
    assert est["pass@1"].lo < est["pass@1"].value < est["pass@1"].hi


def test_intervals_are_reproducible_per_seed_and_name():
    n, c, s = np.array([2] * 50), np.array([1, 2] * 25), np.array([1.0, 2.0] * 25)
    a = task_estimates(n, c, s, [1, 2], 500, rng_for(7, "x"))
    b = task_estimates(n, c, s, [1, 2], 500, rng_for(7, "x"))
    assert a == b


@pytest.mark.parametrize("b,c,p", [(0, 0, 1.0), (5, 5, 1.0), (0, 6, 2 / 64), (1, 9, 22 / 1024), (10, 30, 0.00222)])
def test_mcnemar_exact_p_values(b, c, p):
    assert mcnemar(b, c) == pytest.approx(p, rel=0.01)


def test_mcnemar_handles_large_counts():
    assert mcnemar(50_000, 50_000) == pytest.approx(1.0)
    assert mcnemar(49_000, 51_000) < 1e-9


def pairs_of(tasks: int, both: int, base_only: int, other_only: int) -> tuple[np.ndarray, np.ndarray]:
    """Per-task score differences of pass/fail runs, one sample per task."""
    diff = np.zeros(tasks)
    diff[both:both + base_only] = -1.0
    diff[both + base_only:both + base_only + other_only] = 1.0
    return diff, np.ones(tasks)


@pytest.mark.parametrize("base_only,other_only", [(10, 15), (0, 5), (3, 8)])
def test_five_points_on_100_tasks_is_not_mistaken_for_progress(base_only, other_only):
    # 100 tasks, the new run passes 5 more: even when no task got worse (0 vs 5) chance does that 6% of the time
    diff, pairs = pairs_of(100, 55, base_only, other_only)
    test = paired_test(diff, pairs, 2000, rng_for(0, "five"))
    assert test.diff.value == pytest.approx(0.05)
    assert test.p_value > 0.05
    assert mcnemar(base_only, other_only) > 0.05


def test_the_sign_flip_test_agrees_with_the_exact_sign_test():
    diff, pairs = pairs_of(100, 50, 2, 12)
    test = paired_test(diff, pairs, 20_000, rng_for(1, "sign"))
    assert test.p_value == pytest.approx(mcnemar(2, 12), abs=0.005)


def test_a_real_difference_on_enough_tasks_is_significant():
    rng = np.random.default_rng(3)
    base = (rng.random(1000) < 0.60).astype(float)
    other = (rng.random(1000) < 0.75).astype(float)
    b, c = int(((base == 1) & (other == 0)).sum()), int(((base == 0) & (other == 1)).sum())
    test = paired_test(other - base, np.ones(1000), 1000, rng_for(3, "t"))
    assert test.p_value < 0.01 and mcnemar(b, c) < 0.01
    assert 0.08 < test.diff.value < 0.22 and test.diff.lo > 0


def test_no_difference_gives_p_one():
    test = paired_test(np.zeros(50), np.ones(50), 500, rng_for(0, "z"))
    assert test.p_value == 1.0 and test.diff.value == 0.0

"""Every threshold of the conformance suite, in one frozen dataclass: what a bootcamp must meet, and the sample
sizes it is measured on. A bootcamp that fails is fixed by reward and task design; these numbers do not move."""
from __future__ import annotations

from dataclasses import dataclass


class ConformanceError(AssertionError):
    """A check a bootcamp fails; the message names the bootcamp, the check, the group and the measured number."""


@dataclass(frozen=True)
class Thresholds:
    """The limits of issue 23 (signal) and of the attack checks, with the sample sizes they are measured on."""

    # attack checks
    max_share: float = 0.02  # cross-instance and most-frequent-answer: at most 2% of gradings may score 1.0
    hostile_budget_s: float = 0.05  # verify_score on hostile text
    # (a) every declared baseline, in every group
    min_baselines: int = 2
    baseline_mean: float = 0.25
    baseline_success: float = 0.05
    decision_success_margin: float = 0.05  # a decision among k actions: success <= 1/k + this
    label_margin: float = 0.10  # no action is the best one in more than 1/k + this of a group's tasks
    # (b) noisy (builtin:noisy at this error rate) below the reference by at least `noisy_gap` mean reward
    noisy_error_rate: float = 0.3
    noisy_gap: float = 0.10
    # (c) difficulty order: a rise of a weak policy's success (or a fall of the reference's effort) from a group to
    # the next harder one fails when it exceeds `order_z` standard errors (one-sided, about 1% by chance)
    order_z: float = 2.326
    # (d) distinctness per group, stated at `distinct_n` rows; a smaller sample allows the 99% quantile of the
    # repeats that the borderline space (one just meeting the limit at `distinct_n` rows) gives (stats.allowed_repeats)
    distinct_n: int = 1000
    duplicate_identities: float = 0.01
    identical_prompts: float = 0.05
    # with a declared space size S, repeats up to what n uniform draws from S give (+ this many of its standard
    # deviations, Poisson) are explained by the space
    space_sd: float = 3.0
    # sample sizes: tasks per group and policy for (a)-(c), and the least any bootcamp may ask for
    signal_n: int = 50
    min_signal_n: int = 20
    adapter_min_n: int = 50  # rg/* and other adapters: every check on at least this many items per dataset


THRESHOLDS = Thresholds()

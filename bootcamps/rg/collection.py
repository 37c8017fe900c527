"""The rg collection: one bootcamp `rg/<dataset>` per reasoning-gym dataset, built on first use."""
from __future__ import annotations

from bc_common.bootcamp import Bootcamp, Unavailable, include_known_issues, withheld

from . import datasets
from .balance import answer_of
from .baselines import BASELINES
from .generator import generator_class
from .known_issues import (
    CONFORMANCE_N,
    DISTINCT_N,
    KNOWN_ISSUES,
    NO_ANSWER_LEVELS,
    SAMPLE,
    SMALL_ANSWER_SPACE,
)
from .policy import RGPolicy
from .reward import RGRewardCalculator
from .withheld import LABELS, SMALL, WITHHELD


class Collection:
    """`names()` lists the datasets; `load(name)` is the manifest of rg/<name> (KeyError for an unknown one)."""

    def names(self) -> list[str]:
        return datasets.names()

    def load(self, name: str) -> Bootcamp | Unavailable:
        """rg/<name>'s manifest; a dataset that fails the conformance suite is withheld (with the reason) unless
        `BC_INCLUDE_KNOWN_ISSUES=1`."""
        if name not in datasets.DATASETS:
            raise KeyError(name)
        if name in WITHHELD and not include_known_issues():
            return withheld(datasets.description(name), WITHHELD[name])
        conformance: dict = {"n": SAMPLE.get(name, CONFORMANCE_N), "distinct_n": DISTINCT_N}
        if name in KNOWN_ISSUES:
            conformance["known_issues"] = dict(KNOWN_ISSUES[name])
        if name in LABELS:  # a decision among k labels, kept uniform by the answer balance
            conformance.update(actions=LABELS[name], label=answer_of,
                               small_answer_space=f"a decision among {LABELS[name]} labels")
        elif name in SMALL_ANSWER_SPACE or name in SMALL:  # answers repeat; the balance flattens them
            conformance["small_answer_space"] = SMALL_ANSWER_SPACE.get(name) or SMALL[name]
        groups = [g for g in datasets.groups(name) if g.name not in NO_ANSWER_LEVELS.get(name, {})]
        return Bootcamp(description=datasets.description(name), generator=generator_class(name),
                        reward=RGRewardCalculator, policy=RGPolicy, groups=groups, conformance=conformance,
                        baselines=list(BASELINES))


collection = Collection()

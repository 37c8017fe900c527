"""The rc collection: one bootcamp `rc/<task>` per task of reasoning-core's shipped roster, built on first use."""
from __future__ import annotations

from bc_common.bootcamp import Bootcamp, Unavailable, include_known_issues, withheld

from . import tasks
from .balance import label
from .baselines import BASELINES
from .generator import generator_class
from .known_issues import CONFORMANCE_N, DISTINCT_N, missing_need
from .policy import RCPolicy
from .reward import RCRewardCalculator
from .withheld import LABELS, SMALL, WITHHELD


class Collection:
    """`names()` lists the tasks; `load(name)` is the manifest of rc/<name> (KeyError for an unknown one)."""

    def names(self) -> list[str]:
        return tasks.roster()

    def load(self, name: str) -> Bootcamp | Unavailable:
        """rc/<name>'s manifest; unavailable when it needs what is not here, withheld (with the reason) when it
        fails the conformance suite unless `BC_INCLUDE_KNOWN_ISSUES=1`."""
        if name not in tasks.roster():
            raise KeyError(name)
        need = missing_need(name)
        if need is not None:
            return Unavailable(description=tasks.description(name), extra="", missing=[],
                               withheld=f"unavailable: {need}")
        if name in WITHHELD and not include_known_issues():
            return withheld(tasks.description(name), WITHHELD[name])
        conformance = {"n": CONFORMANCE_N, "distinct_n": DISTINCT_N}
        if name in LABELS:  # a decision among k labels, kept uniform by the answer balance
            conformance.update(actions=LABELS[name], label=label,
                               small_answer_space=f"a decision among {LABELS[name]} labels")
        elif name in SMALL:  # answers repeat; the balance flattens them
            conformance.update(small_answer_space=SMALL[name])
        return Bootcamp(description=tasks.description(name), generator=generator_class(name),
                        reward=RCRewardCalculator, policy=RCPolicy, groups=tasks.groups(name),
                        conformance=conformance, baselines=list(BASELINES))


collection = Collection()

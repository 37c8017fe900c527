"""Answer balancing for single-answer generators: rejection sampling against the answer shares of a fixed
training sample, so that the answer a lazy policy learns from the distribution pays little.

    balance = AnswerBalance.from_sample(answers_of_a_fixed_sample)
    balance.labels                         # k when the items are a decision among k labels, else None
    want = balance.target_label(index, salt)   # labels: the row's label (they take turns), else None
    if balance.accept(answer, rng, want):  # keep the item; otherwise the generator draws another
        ...

Two regimes, read off the sample:
- **labels** (at most `MAX_LABELS` distinct answers, those seen at least 1 / (k * MAX_DRAWS_FACTOR) of the time
  making up `LABEL_COVERAGE` of the sample): those labels take turns by row index (so a row costs about
  MAX_DRAWS_FACTOR * k draws at most), in an order shuffled per block of k rows: any k consecutive rows hold
  each label once, so a constant answer earns 1/k and no label is the answer of more than ceil(n/k) of n rows. That is what the conformance suite's `actions` and
  `labels_balanced` checks ask of a decision among k actions. Without an index, each label is kept with
  probability (the rarest label's share) / (its share): uniform in expectation.
- **open** (more answers): an answer seen c times is kept with probability 1/c (the rarest seen answer's share
  over its own), answers the sample never saw always: the seen answers come out about as frequent as one another
  and as the unseen ones, so no answer (a frequent "No solution", "0" or "None") stands out. The most frequent
  answer then earns about 1 / (the number of distinct answers the sample saw): a space that small is what
  the conformance suite's `small_answer_space` (`small_space`) states.

Draws come from the row's own rng and the turns from its index, so rows stay deterministic (same seed, same
bytes, however the work is sharded).
"""
from __future__ import annotations

import hashlib
import random
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

__all__ = ["LABEL_COVERAGE", "MAX_DRAWS_FACTOR", "MAX_LABELS", "AnswerBalance", "small_space"]

MAX_LABELS = 16  # a sample with at most this many distinct answers is a decision among labels
LABEL_COVERAGE = 0.9  # labels: those that take turns are at least this share of the sample
MAX_DRAWS_FACTOR = 2  # labels: a label takes turns when its share is at least 1 / (this * k) (bounds a row's draws)


@dataclass(frozen=True)
class AnswerBalance:
    """Acceptance probabilities for the answers of one generator configuration (see the module)."""

    shares: dict[str, float] = field(default_factory=dict)
    turns: tuple[str, ...] = ()  # labels: the labels rows take turns at (sorted)
    target: float = 1.0  # the share every answer is flattened down to

    @property
    def labels(self) -> int | None:
        """k for a decision among k labels, else None."""
        return len(self.turns) or None

    @classmethod
    def from_sample(cls, answers: Iterable[str]) -> AnswerBalance:
        counts = Counter(answers)
        total = sum(counts.values())
        if len(counts) < 2:
            return cls()  # nothing to balance (a sample with one answer: the task's own checks catch it)
        shares = {a: c / total for a, c in counts.items()}
        if len(counts) <= MAX_LABELS:
            floor = 1 / (len(counts) * MAX_DRAWS_FACTOR)
            turns = tuple(sorted(a for a, share in shares.items() if share >= floor))
            # labels cover the sample (a long tail of rare answers is an open space, not a decision)
            if len(turns) >= 2 and sum(shares[a] for a in turns) >= LABEL_COVERAGE:
                return cls(shares, turns, min(shares[a] for a in turns))
        return cls(shares, (), min(shares.values()))

    def target_label(self, index: int | None, salt: str = "") -> str | None:
        """The label row `index` must have (labels, with an index), else None: the labels in an order shuffled
        per block of k rows (the shuffle keyed by `salt` and the block)."""
        if not self.turns or index is None:
            return None
        k = len(self.turns)
        block, turn = divmod(index, k)
        key = hashlib.blake2b(f"{salt}\x1f{block}".encode(), digest_size=8).digest()
        order = list(self.turns)
        random.Random(int.from_bytes(key, "little")).shuffle(order)
        return order[turn]

    def keep_probability(self, answer: str) -> float:
        share = self.shares.get(answer)
        if share is None or share <= self.target:
            return 1.0
        return self.target / share

    def accept(self, answer: str, rng: random.Random, label: str | None = None) -> bool:
        """Whether to keep an item with this answer: the row's `label` when it has one, else with
        `keep_probability` (one draw from `rng` when the answer is over its share)."""
        if label is not None:
            return answer == label
        p = self.keep_probability(answer)
        return p >= 1.0 or rng.random() < p

    def fallback(self, answers: list[str]) -> int:
        """Which of a row's draws to keep when the balance turned them all away: the one whose answer the sample
        saw least (never the frequent answer the balance exists to hold back)."""
        return min(range(len(answers)), key=lambda i: self.shares.get(answers[i], 0.0))

    def expected_shares(self) -> dict[str, float]:
        """Each seen answer's share among the kept items, if the sample's shares were exact."""
        if self.turns:
            return {a: (1 / len(self.turns) if a in self.turns else 0.0) for a in self.shares}
        kept = {a: s * self.keep_probability(a) for a, s in self.shares.items()}
        total = sum(kept.values()) or 1.0
        return {a: v / total for a, v in kept.items()}


def small_space(answers: Iterable[str]) -> str | None:
    """Why a training sample's answers form a small space (some repeat), for a manifest's `small_answer_space`;
    None when every answer is distinct."""
    answers = list(answers)
    counts = Counter(answers)
    repeated = sum(1 for c in counts.values() if c > 1)
    if not repeated:
        return None
    return (f"{len(counts)} distinct answers in {len(answers)} training items ({repeated} repeated), flattened by "
            "the answer balance")

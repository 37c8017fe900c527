"""bc_common.answer_balance: labels take turns by row index (exactly balanced over any k consecutive rows), open
answer spaces are flattened, and both are deterministic."""
from __future__ import annotations

import random
from collections import Counter

import pytest

from bc_common.answer_balance import MAX_DRAWS_FACTOR, MAX_LABELS, AnswerBalance, small_space
from bc_common.seeding import RecordRandom


def _draw(rng: random.Random, weights: dict[str, float]) -> str:
    return rng.choices(list(weights), weights=list(weights.values()))[0]


def _generate(balance: AnswerBalance, weights: dict[str, float], n: int, salt: str = "t") -> list[str]:
    """Rows as a generator makes them: draws from the row's rng until the balance keeps one (at most 128)."""
    out = []
    for index in range(n):
        rng = RecordRandom()
        rng.seed_record(b"row\x1f%d" % index)
        want = balance.target_label(index, salt)
        drawn = []
        for _ in range(128):
            answer = _draw(rng, weights)
            if balance.accept(answer, rng, want):
                break
            drawn.append(answer)
        else:
            answer = drawn[balance.fallback(drawn)]
        out.append(answer)
    return out


def test_a_skewed_decision_comes_out_balanced_over_every_k_rows() -> None:
    weights = {"Yes": 0.6, "No": 0.22, "Maybe": 0.18}
    sample = _generate(AnswerBalance(), weights, 200)  # the raw distribution (an empty balance keeps everything)
    balance = AnswerBalance.from_sample(sample)
    assert balance.labels == 3 and balance.turns == ("Maybe", "No", "Yes")
    rows = _generate(balance, weights, 300)
    for start in range(0, 300, 3):
        assert sorted(rows[start:start + 3]) == ["Maybe", "No", "Yes"]
    assert Counter(rows[:50]).most_common(1)[0][1] <= 17  # ceil(50 / 3): a constant answer earns 1/k
    assert rows == _generate(balance, weights, 300)  # deterministic
    assert _generate(balance, weights, 300, salt="other")[:30] != rows[:30]  # the turn order is shuffled per block


def test_a_long_tail_of_rare_answers_is_an_open_space_not_a_decision() -> None:
    sample = ["1"] * 40 + ["2"] * 25 + ["3"] * 15 + [str(g) for g in range(4, 14)] * 2  # 13 distinct, 20% tail
    balance = AnswerBalance.from_sample(sample)
    assert balance.labels is None and balance.target_label(0, "s") is None
    assert balance.keep_probability("1") == pytest.approx(2 / 40)


def test_a_label_too_rare_to_take_turns_is_not_one_of_the_k() -> None:
    counts = {"A": 60, "B": 35, "C": 5}  # C: 5% < 1 / (3 * MAX_DRAWS_FACTOR); A and B cover 95%
    assert 0.05 < 1 / (3 * MAX_DRAWS_FACTOR)
    balance = AnswerBalance.from_sample([a for a, c in counts.items() for _ in range(c)])
    assert balance.labels == 2 and balance.turns == ("A", "B")
    assert balance.expected_shares() == {"A": 0.5, "B": 0.5, "C": 0.0}


def test_without_an_index_labels_are_kept_in_inverse_proportion() -> None:
    balance = AnswerBalance.from_sample(["x"] * 75 + ["y"] * 25)
    rng = RecordRandom(3)
    kept = Counter()
    for _ in range(20_000):
        answer = "x" if rng.random() < 0.75 else "y"
        if balance.accept(answer, rng):
            kept[answer] += 1
    assert abs(kept["x"] / sum(kept.values()) - 0.5) < 0.02


def test_an_open_space_is_flattened_and_unseen_answers_always_kept() -> None:
    sample = ["0"] * 20 + ["None"] * 5 + [str(i) for i in range(1, 76)]  # 77 distinct: open
    balance = AnswerBalance.from_sample(sample)
    assert balance.labels is None and len(set(sample)) > MAX_LABELS
    assert balance.keep_probability("0") == pytest.approx(1 / 20)
    assert balance.keep_probability("None") == pytest.approx(1 / 5)
    assert balance.keep_probability("never seen") == 1.0
    assert balance.keep_probability("7") == 1.0  # seen once
    shares = balance.expected_shares()
    assert max(shares.values()) == pytest.approx(min(shares.values())) == pytest.approx(1 / 77)  # the 20% answer is as rare as the rest
    assert small_space(sample) == "77 distinct answers in 100 training items (2 repeated), flattened by the answer balance"
    assert small_space([str(i) for i in range(50)]) is None


def test_a_long_tail_does_not_become_the_new_mode() -> None:
    """gcd-like answers (share of g about 1/g^2): after the balance the most frequent answer is about as rare as
    one over the distinct answers the sample saw, not a tail answer the sample missed."""
    weights = {str(g): 1 / g**2 for g in range(1, 400)}
    rng = random.Random(5)
    sample = [_draw(rng, weights) for _ in range(100)]
    balance = AnswerBalance.from_sample(sample)
    rows = _generate(balance, weights, 2000)
    top, count = Counter(rows).most_common(1)[0]
    assert count / 2000 < 2.5 / len(set(sample)), (top, count, len(set(sample)))


def test_an_empty_or_single_answer_sample_balances_nothing() -> None:
    assert AnswerBalance.from_sample([]).labels is None
    single = AnswerBalance.from_sample(["only"] * 10)
    assert single.labels is None and single.target_label(3, "s") is None
    assert single.keep_probability("only") == 1.0  # no draws wasted on a task that has one answer

"""The signal checks (bc_common.conformance.signal) on deliberately bad bootcamps: each fails with a message that
names the check and the measured number; the good ones pass."""
from __future__ import annotations

import re

import pytest

from bc_common.bootcamp import Baseline, Group
from bc_common.conformance import CHECKS, THRESHOLDS, Conformance, ConformanceError
from bc_common.conformance.signal import SIGNAL_CHECKS, Signal
from bc_common.conformance.stats import allowed_repeats, expected_distinct, proportion_rise_se
from tests.bootcamps import signal_toys as toys


def failure(bootcamp, check: str) -> str:
    with pytest.raises(ConformanceError) as caught:
        Signal(bootcamp, seed=3).__getattribute__(check)()
    message = str(caught.value)
    assert message.startswith(f"{bootcamp.name}: {check}: "), message
    return message


def test_thresholds_live_in_one_frozen_place():
    with pytest.raises(AttributeError):
        THRESHOLDS.baseline_mean = 0.5  # type: ignore[misc]
    assert (THRESHOLDS.baseline_mean, THRESHOLDS.baseline_success, THRESHOLDS.noisy_gap) == (0.25, 0.05, 0.1)
    assert set(SIGNAL_CHECKS) <= set(CHECKS)


def test_a_good_bootcamp_passes_every_signal_check():
    good = toys.toy("good_sum", groups=[Group("easy", {"space": 1000}), Group("hard", {"space": 10**6})])
    signal = Signal(good, seed=3)
    for check in SIGNAL_CHECKS:
        signal.__getattribute__(check)()
    assert len(signal.runs("builtin:reference")["easy"]) == THRESHOLDS.signal_n


def test_noisy_equal_to_reference_fails():
    message = failure(toys.toy("lenient_sum", reward=toys.LenientReward), "noisy_below_reference")
    assert "reference 1.000, noisy 1.000: gap 0.000 < 0.1" in message


@pytest.mark.parametrize(("noisy_solved", "passes"), [(18, True), (19, False)])
def test_a_gap_of_exactly_the_limit_meets_it(noisy_solved: int, passes: bool):
    # 20 tasks, the reference solves all, noisy 18: the gap is exactly 0.1 (1.0 - 0.9 is 0.0999...98 in floats)
    signal = Signal(toys.toy("good_sum"), seed=3)
    signal._runs = {"builtin:reference": {"default": [{"score": 1.0}] * 20},
                    "builtin:noisy": {"default": [{"score": 1.0}] * noisy_solved + [{"score": 0.0}] * (20 - noisy_solved)}}
    if passes:
        signal.noisy_below_reference()
    else:
        assert "gap 0.050 < 0.1 (n=20)" in failure_of(signal, "noisy_below_reference")


def failure_of(signal: Signal, check: str) -> str:
    with pytest.raises(ConformanceError) as caught:
        getattr(signal, check)()
    return str(caught.value)


def test_a_constant_answer_earning_0_3_fails():
    message = failure(toys.toy("floor_sum", reward=toys.FloorReward), "baselines_score_low")
    assert "group default: builtin:baseline/zero: mean reward 0.300 (limit 0.25)" in message


def test_groups_in_the_wrong_order_fail():
    backwards = toys.toy("backwards_sum", groups=[Group("easy", {"space": 1000}), Group("hard", {"space": 2})])
    message = failure(backwards, "difficulty_order")
    found = re.search(r"builtin:baseline/zero success rises from easy 0\.0% to hard (\d+\.\d)%", message)
    assert found and float(found.group(1)) > 15, message


def test_a_visual_task_solvable_by_tools_alone_fails():
    peeking = toys.toy("peek_sum", picture=True, tools=[toys.PeekTool],
                       baselines=[*toys.BASELINES, Baseline("peek", toys.PeekPolicy, "tools only", blind=True)])
    Signal(peeking, seed=3).visual_blind_baseline()  # it declares its blind baseline ...
    message = failure(peeking, "baselines_score_low")  # ... which solves every task without the picture
    assert "builtin:baseline/peek: mean reward 1.000 (limit 0.25), success 100.0% (limit 5.0%)" in message


def test_a_visual_task_without_a_blind_baseline_fails():
    message = failure(toys.toy("unseen_sum", picture=True), "visual_blind_baseline")
    assert "the prompts carry images but no declared baseline is blind" in message


def test_ten_percent_duplicate_prompts_fail():
    # 67 x 67 operand pairs: 1000 uniform draws repeat about 10% of them
    crowded = toys.toy("crowded_sum", groups=[Group("small", {"space": 67})])
    message = failure(crowded, "distinct_per_group")
    found = re.search(r"group small: (\d+\.\d)% identical prompts \((\d+) of 1000; allowed 50\)", message)
    assert found and 8.0 <= float(found.group(1)) <= 13.0, message
    assert "declare conformance['space_size']" in message and "declare conformance['prompt_space']" in message


def test_a_declared_space_size_explains_repeats():
    declared = toys.toy("declared_sum", groups=[Group("small", {"space": 67})],
                        conformance={"space_size": {"small": 67 * 67}})
    Signal(declared, seed=3).distinct_per_group()
    wrong = toys.toy("overclaimed_sum", groups=[Group("small", {"space": 67})],
                     conformance={"space_size": {"small": 10**6}})
    assert "; a space of 1000000 explains at most 2" in failure(wrong, "distinct_per_group")


def test_fewer_than_two_baselines_fail():
    message = failure(toys.toy("lonely_sum", baselines=toys.BASELINES[:1]), "baselines_declared")
    assert "1 baselines declared (zero); at least 2 are required" in message


def test_a_decision_bootcamp_states_its_labels():
    # the best action is the sum's parity: balanced, so the check passes; a constant label is 100% of the tasks
    balanced = toys.toy("parity_sum", conformance={"actions": 2, "label": lambda i: (i["a"] + i["b"]) % 2})
    Signal(balanced, seed=3).labels_balanced()
    skewed = toys.toy("skewed_sum", conformance={"actions": 2, "label": lambda i: "even"})
    assert "'even' is the best action in 100.0% of 50 tasks (limit 60.0% for k=2)" in failure(skewed,
                                                                                              "labels_balanced")


def test_a_hidden_state_tool_without_an_enforced_budget_fails():
    spam = [*toys.BASELINES, Baseline("spam", toys.PeekPolicy, "peeks three times")]
    open_tool = toys.toy("open_peek", tools=[toys.PeekTool], baselines=spam,
                         conformance={"hidden_state_tools": {"peek": {"budget": 1, "baseline": "spam"}}})
    assert "peek answered 3 calls > budget 1" in failure(open_tool, "hidden_state_budget")
    kept = toys.toy("kept_peek", tools=[toys.BudgetPeekTool], baselines=spam,
                    conformance={"hidden_state_tools": {"peek": {"budget": 1, "baseline": "spam"}}})
    Signal(kept, seed=3).hidden_state_budget()
    undeclared = toys.toy("nobody_peeks", tools=[toys.BudgetPeekTool],
                          conformance={"hidden_state_tools": {"peek": {"budget": 1, "baseline": "spam"}}})
    assert "its blind spender 'spam' is not a declared baseline" in failure(undeclared, "hidden_state_budget")


def test_the_whole_suite_runs_on_a_manifest_object():
    results = dict(Conformance(toys.toy("whole_sum"), n=20).run(SIGNAL_CHECKS))
    assert results == {check: None for check in SIGNAL_CHECKS}


def test_sampling_error_helpers():
    assert proportion_rise_se(0, 50, 0, 50) == 0.0
    assert 0.06 < proportion_rise_se(0, 50, 12, 50) < 0.07
    assert round(expected_distinct(625, 1000)) == 499  # mastermind's easy group: 625 codes
    assert allowed_repeats(0.05, 1000, 1000) == 50 and allowed_repeats(0.01, 1000, 1000) == 10
    # a smaller sample allows what the borderline space (10 repeats in 1000 draws) gives 99% of the time
    assert allowed_repeats(0.01, 50, 1000) == 1 and allowed_repeats(0.05, 100, 1000) == 3


def test_expected_failures_given_to_the_suite_are_xfails_with_their_reason():
    from bc_common.conformance import pytest_suite

    suite = pytest_suite(["noop"], expected={"noop": {"difficulty_order": "measured: rises by 0.3"}})
    marks = {p.values[1]: p.marks for p in suite.pytestmark[0].args[1]}
    assert [m.name for m in marks["difficulty_order"] if m.name != "xdist_group"] == ["xfail"]
    assert "measured: rises by 0.3" in marks["difficulty_order"][0].kwargs["reason"]
    assert not [m for m in marks["baselines_score_low"] if m.name != "xdist_group"] and set(marks) == set(CHECKS)


def test_the_reference_taking_less_effort_on_a_harder_group_fails():
    # a declared effort measure: the operand range; "hard" has the smaller one
    effort = {"effort": lambda t: float(t["input"]["reward_model"]["ground_truth"]["space"])}
    shrinking = toys.toy("shrinking_sum", groups=[Group("easy", {"space": 1000}), Group("hard", {"space": 100})],
                         conformance=effort)
    message = failure(shrinking, "difficulty_order")
    assert "the reference's effort falls from easy 1000.00 to hard 100.00 (-900.000 > 2.326 SE = 0.000)" in message


class CountingGenerator(toys.SumGenerator):
    """Counts the tasks it makes, to see which rows the checks share."""

    made = 0

    def case_generator(self):
        CountingGenerator.made += 1
        return super().case_generator()


def test_distinctness_counts_the_played_rows_without_making_them_again():
    counted = toys.toy("counted_sum", conformance={"signal_n": 30, "distinct_n": 100})
    counted.generator = CountingGenerator
    signal = Signal(counted, seed=3)
    CountingGenerator.made = 0
    signal.runs("builtin:reference")
    assert CountingGenerator.made == 30
    signal.distinct_per_group()
    assert CountingGenerator.made == 100  # the 30 played rows are the first 30 counted, then 70 more
    assert len(signal.rows("default")) == 30  # only the played rows are kept in memory


def test_a_declared_prompt_space_explains_identical_prompts_but_not_more_prompts_than_declared():
    # a hidden-information toy: one rules prompt per group, the secret differs (identities stay distinct)
    hidden = toys.toy("hidden_sum", groups=[Group("small", {"space": 67})],
                      conformance={"space_size": {"small": 67 * 67}, "prompt_space": {"small": 67 * 67}})
    Signal(hidden, seed=3).distinct_per_group()
    under = toys.toy("underclaimed_sum", groups=[Group("small", {"space": 67})],
                     conformance={"space_size": {"small": 67 * 67}, "prompt_space": {"small": 10}})
    message = failure(under, "distinct_per_group")
    assert re.search(r"group small: \d+ prompts seen in 1000 rows, more than the declared prompt_space 10", message)
    undeclared = toys.toy("undeclared_sum", groups=[Group("small", {"space": 67})])
    assert "declare conformance['prompt_space']" in failure(undeclared, "distinct_per_group")


def test_cross_instance_answers_allow_what_a_declared_decision_explains():
    # sums of two bits: 0, 1 or 2, so about 37% of (answer i, task j) pairs agree
    undeclared = toys.toy("bit_sum", groups=[Group("default", {"space": 2})])
    with pytest.raises(ConformanceError, match=r"bit_sum: cross_instance_answers: \d+ of \d+ answers of one task "
                                               r"solve another \(limit 2%\)"):
        Conformance(undeclared, n=50).check("cross_instance_answers")
    declared = toys.toy("bit_decision", groups=[Group("default", {"space": 2})],
                        conformance={"actions": 2, "label": lambda i: i["a"] + i["b"]})
    Conformance(declared, n=50).check("cross_instance_answers")  # within 1/2 + 5%
    three = toys.toy("trit_decision", groups=[Group("default", {"space": 3})],
                     conformance={"actions": 6, "label": lambda i: i["a"] + i["b"]})
    with pytest.raises(ConformanceError, match=r"\(limit 22%\)"):  # 1/6 + 5%: sums of trits agree more often
        Conformance(three, n=50).check("cross_instance_answers")

"""game24: the verifier checks the rule (numbers, operators, exact value), never one stored expression; every
generated puzzle is solvable; generation at the hard level is varied."""
from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from bc_common.bootcamp import final_assistant_text
from bc_common.tasks import TaskSet
from bootcamps.game24.generator import Game24InstructionGenerator as Generator
from bootcamps.game24.policy import Game24Policy
from bootcamps.game24.reward import Game24RewardCalculator as Reward
from bootcamps.game24.rules import check_expression
from bootcamps.game24.solver import solve
from bootcamps.game24.tools import CalculateTool

from .puzzle_helpers import assert_fast_zero, call_tool, identities, play, policy_scores, runtime_call

EASY = {"count": 4, "min_value": 1, "max_value": 9, "min_target": 24, "max_target": 24}  # the classic game
DRAWN = {"count": 4, "min_value": 1, "max_value": 13, "min_target": 12, "max_target": 99}  # the easy group
HARD = {"count": 5, "min_value": 1, "max_value": 30, "min_target": 30, "max_target": 150}
PUZZLE = {"numbers": [1, 2, 3, 4], "target": 24}


def score(expression: str, identity: dict = PUZZLE) -> float:
    return Reward.verify_score(f"Here it is: <answer>{expression}</answer>", identity)


@pytest.mark.parametrize("expression", [
    "1*2*3*4", "(1+2+3)*4", "4 * (3 + 2 + 1)", "(4 × 3 × 2) ÷ 1", "4*3*2/1", "((1+3)*(2+4))",
    "1 * 2 * 3 * 4 = 24", "(2 + 4) * (3 + 1)", "4 * 3 * 2 * 1", "\n(1 + 2 + 3) * 4\n",
])
def test_every_valid_expression_scores_one(expression):
    assert score(expression) == 1.0


def test_fractions_along_the_way_are_exact():
    assert score("8 / (3 - 8 / 3)", {"numbers": [3, 3, 8, 8], "target": 24}) == 1.0
    assert score("5 * (5 - 1 / 5)", {"numbers": [1, 5, 5, 5], "target": 24}) == 1.0


@pytest.mark.parametrize("expression, reason, numbers", [
    ("4*6*1*1", "the seed's constant: not these numbers", [1, 2, 3, 4]),
    ("1*2*3*4*1", "a number used twice", [1, 2, 3, 4]),
    ("2*3*4", "a number left out", [1, 2, 3, 4]),
    ("12*2", "digits joined (1 and 2 make 12)", [1, 2, 2]),
    ("(1+2+3)*4 + 0", "an extra number", [1, 2, 3, 4]),
    ("-(-(1*2*3*4))", "unary signs", [1, 2, 3, 4]),
    ("2**3*3", "a power", [2, 3, 3]),
    ("4//1*2*3", "floor division", [1, 2, 3, 4]),
    ("(1+2+3)*4.0", "a decimal", [1, 2, 3, 4]),
    ("1*2*3*4e0", "exponent notation", [1, 2, 3, 4]),
    ("(1+2)*3*4", "wrong value (36)", [1, 2, 3, 4]),
    ("1*2*3*4 = 25", "claims another target", [1, 2, 3, 4]),
    ("１*２*３*４", "fullwidth digits", [1, 2, 3, 4]),
    ("abs(1*2*3*4)", "a call", [1, 2, 3, 4]),
    ("__import__('os')", "code", [1, 2, 3, 4]),
    ("4 / (1 - 1) * 2 * 3", "division by zero", [1, 1, 2, 3, 4]),
    ("", "empty", [1, 2, 3, 4]),
])
def test_wrong_answers_score_zero(expression, reason, numbers):
    assert score(expression, {"numbers": numbers, "target": 24}) == 0.0, reason


def test_only_the_last_answer_block_counts():
    right, wrong = "<answer>1*2*3*4</answer>", "<answer>4*6*1*1</answer>"
    assert Reward.verify_score(right * 500 + wrong, PUZZLE) == 0.0
    assert Reward.verify_score(wrong * 500 + right, PUZZLE) == 1.0
    assert Reward.verify_score("1*2*3*4", PUZZLE) == 0.0  # no answer block


def test_hostile_text_scores_zero_fast():
    assert_fast_zero(Reward, PUZZLE)


def test_check_expression_says_why():
    assert "exactly once" in check_expression("4*6*1*1", [1, 2, 3, 4], 24)
    assert "equals 36" in check_expression("(1+2)*3*4", [1, 2, 3, 4], 24)
    assert check_expression("1*2*3*4", [4, 3, 2, 1], 24) is None


def test_solver_is_complete_on_the_classic_deck():
    """1362 of the 1820 hands of four cards 1-13 make 24 (the well-known count), each with a checked witness."""
    solvable = 0
    for hand in itertools.combinations_with_replacement(range(1, 14), 4):
        expression = solve(list(hand), 24)
        if expression is not None:
            assert check_expression(expression, list(hand), 24) is None
            solvable += 1
    assert solvable == 1362
    assert solve([1, 1, 1, 1], 24) is None and solve([3, 3, 8, 8], 24) is not None


@pytest.mark.parametrize("params", [EASY, DRAWN, {}, HARD, {"count": 6, "max_value": 50, "min_target": 100,
                                                      "max_target": 999}])
def test_every_generated_puzzle_is_solvable(params):
    for identity in identities(Generator, 60 if params.get("count", 4) < 6 else 15, **params):
        assert len(identity["numbers"]) == params.get("count", 4)
        assert all(params.get("min_value", 1) <= n <= params.get("max_value", 13) for n in identity["numbers"])
        assert params.get("min_target", 24) <= identity["target"] <= params.get("max_target", 24)
        expression = solve(identity["numbers"], identity["target"])  # proved again, independently
        assert expression is not None and score(expression, identity) == 1.0


def test_the_seed_constant_never_scores_on_generated_puzzles():
    puzzles = identities(Generator, 300, **EASY) + identities(Generator, 300, **HARD)
    hits = [p for p in puzzles if score("4*6*1*1", p) == 1.0]
    assert all(sorted(p["numbers"]) == [1, 1, 4, 6] and p["target"] == 24 for p in hits)
    assert len(hits) <= 2


@pytest.mark.slow
def test_two_thousand_hard_rows_are_at_least_99_percent_distinct():
    tasks = TaskSet("game24", seed=5, groups=["hard"])  # the manifest's hard group, as bc-gen draws it
    puzzles = [tasks[i]["reward_model"]["ground_truth"] for i in range(2_000)]
    distinct = {(tuple(p["numbers"]), p["target"]) for p in puzzles}
    assert len(distinct) >= 1_980, len(distinct)


def test_generation_is_deterministic():
    assert identities(Generator, 20, **HARD) == identities(Generator, 20, **HARD)
    assert identities(Generator, 20, **HARD) != identities(Generator, 20, seed=b"other", **HARD)


def test_config_bounds_are_checked():
    from bc_common.errors import ConfigError

    for bad in ({"count": 1}, {"count": 7}, {"min_value": 5, "max_value": 4}, {"min_target": 0},
                {"min_target": 30, "max_target": 20}, {"countt": 4}):
        with pytest.raises(ConfigError):
            Generator(**bad)


def test_prompt_names_numbers_and_target_but_not_a_solution():
    gen = Generator()
    identity = {"numbers": [3, 3, 8, 8], "target": 24}
    prompt = gen.prompt_func(identity)
    assert "3, 3, 8, 8" in prompt and "24" in prompt and "calculate" in prompt
    assert Reward.verify_score(prompt, identity) == 0.0
    assert "calculate" not in Generator(tool_hint=False).prompt_func(identity)


def test_calculator_is_exact_and_refuses_other_operators():
    text, reward, _ = call_tool(CalculateTool, PUZZLE, {"expression": "8 / (3 - 8 / 3)"})
    assert text == "24" and reward == 0.0
    text, _, _ = call_tool(CalculateTool, PUZZLE, {"expression": "8 / 3"})
    assert text.startswith("8/3 ") and Fraction(text.split()[0]) == Fraction(8, 3)
    from bc_common.errors import ToolError

    for expression, kind in (("2 ** 10", "invalid_expression"), ("1 / 0", "division_by_zero"),
                             ("__import__('os')", "invalid_expression"), ("1+" * 1000 + "1", "invalid_expression")):
        with pytest.raises(ToolError) as err:
            call_tool(CalculateTool, PUZZLE, {"expression": expression})
        assert err.value.kind == kind


@pytest.mark.parametrize("params", [EASY, HARD])
def test_reference_policy_solves_through_the_calculator(params):
    for identity in identities(Generator, 20, **params):
        assert Reward.verify_score(play(Game24Policy, CalculateTool, identity), identity) == 1.0
        assert Reward.verify_score(play(Game24Policy, None, identity), identity) == 1.0
        assert Reward.verify_score(play(Game24Policy, CalculateTool, identity, wrong=True), identity) == 0.0


def test_reference_answers_do_not_solve_other_puzzles():
    puzzles = identities(Generator, 100, **HARD)
    answers = [play(Game24Policy, None, p) for p in puzzles]
    hits = sum(Reward.verify_score(a, q) == 1.0 for i, a in enumerate(answers) for j, q in enumerate(puzzles)
               if i != j)
    assert hits == 0
    assert final_assistant_text([{"role": "assistant", "content": answers[0]}]) == answers[0]


@pytest.mark.parametrize("arguments, kind", [
    ('{"expression": "' + "1+" * 3_000_000 + '1"}', "invalid_arguments"),
    ('{"expression": 24}', "invalid_arguments"),
    ('{"expression": "1", "numbers": [1]}', "invalid_arguments"),
    ("not json", "invalid_arguments"),
    ('{"expression": "9**9**9"}', "invalid_expression"),
])
def test_hostile_calculator_arguments_are_typed_errors(arguments, kind):
    result = runtime_call("game24", PUZZLE, "calculate", arguments)
    assert result.error is not None and result.error["type"] == kind, result
    assert result.reward == 0.0


def test_identity_schema_accepts_generated_and_refuses_malformed_identities():
    from jsonschema import Draft202012Validator

    schema = Draft202012Validator(Reward.identity_schema)
    for identity in identities(Generator, 20, **EASY) + identities(Generator, 20, **HARD):
        assert not list(schema.iter_errors(identity))
    assert list(schema.iter_errors({"numbers": [1, 2, 3, 4], "target": 24, "solution": "1*2*3*4"}))
    for bad in ({"numbers": [1, 2, 3, 4]}, {"numbers": "1234", "target": 24}, {"numbers": [1.5, 2], "target": 3}):
        assert list(schema.iter_errors(bad))
        assert Reward.verify_score("<answer>1*2*3*4</answer>", bad) == 0.0  # refused, never raises


def test_an_unsolvable_configuration_is_a_config_error():
    from bc_common.errors import ConfigError

    with pytest.raises(ConfigError, match="no solvable puzzle"):
        identities(Generator, 1, count=2, min_value=1, max_value=1)  # 1 and 1 never make 24


def test_targets_are_drawn_across_the_range():
    targets = {p["target"] for p in identities(Generator, 200, **DRAWN)}
    assert len(targets) >= 60 and min(targets) <= 15 and max(targets) >= 90


def test_calculator_answers_three_calls_a_task_so_it_cannot_drive_a_search():
    from bc_common.errors import ToolError

    tool = CalculateTool()

    async def run() -> list:
        instance = await tool.create(identity=PUZZLE)
        out = []
        for _ in range(4):
            try:
                out.append((await tool.execute(instance, {"expression": "1 + 2"}))[0])
            except ToolError as err:
                out.append(err.kind)
        return out

    import asyncio

    assert asyncio.run(run()) == ["3", "3", "3", "budget_spent"]


@pytest.mark.parametrize("group", ["easy", "medium", "hard"])
@pytest.mark.parametrize("baseline", ["sum", "template", "random", "calculator_search"])
def test_the_cheap_answers_earn_almost_nothing(baseline, group):
    """A fixed target of 24 let `a + b + c - d` solve 10% of the card game's hands; drawn targets do not."""
    scores = policy_scores("game24", f"builtin:baseline/{baseline}", group=group, n=60)
    assert sum(scores) / len(scores) <= 0.05, scores


def test_a_fixed_target_lets_one_template_answer_many_hands():
    """Why the groups draw their targets: with 24 fixed, one answer shape solves a tenth of the card game."""
    hands = [list(h) for h in itertools.combinations_with_replacement(range(1, 14), 4) if solve(list(h), 24)]
    template = sum(check_expression(f"{d} + {c} + {b} - {a}", h, 24) is None for h in hands for a, b, c, d in
                   [sorted(h)])
    assert template / len(hands) > 0.05

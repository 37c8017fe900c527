"""binairo: any grid that keeps the rules scores 1.0 (no stored solution), each broken rule is caught, and
every generated puzzle has exactly one solution."""
from __future__ import annotations

import pytest

from bootcamps.binairo.generator import BinairoInstructionGenerator as Generator
from bootcamps.binairo.policy import BinairoPolicy
from bootcamps.binairo.reward import BinairoRewardCalculator as Reward
from bootcamps.binairo.rules import violations
from bootcamps.binairo.solver import count_solutions, solutions
from bootcamps.binairo.tools import CheckGridTool

from .puzzle_helpers import assert_fast_zero, call_tool, identities, play, policy_scores, runtime_call

SOLVED = ["101010", "010011", "100101", "011010", "010101", "101100"]
GIVENS = ["1.1...", "......", "...1..", "0.....", "......", ".....0"]
PUZZLE = {"size": 6, "givens": GIVENS}


def answer(rows: list[str], identity: dict = PUZZLE) -> float:
    return Reward.verify_score("My grid:\n<answer>\n" + "\n".join(rows) + "\n</answer>", identity)


def test_the_example_grid_is_valid():
    assert violations(SOLVED, GIVENS) == []
    assert answer(SOLVED) == 1.0


def test_every_valid_grid_scores_one_not_just_one_stored_solution():
    open_puzzle = {"size": 6, "givens": ["." * 6] * 6}
    grids = solutions(open_puzzle["givens"], limit=50)
    assert len(grids) == 50 and len({tuple(g) for g in grids}) == 50
    assert all(answer(g, open_puzzle) == 1.0 for g in grids)


@pytest.mark.parametrize("text", [
    "<answer>\n" + "\n".join(" ".join(r) for r in SOLVED) + "\n</answer>",  # spaces between cells
    "<answer>" + "\n".join("|".join(r) for r in SOLVED) + "</answer>",  # bars, no blank lines
    "<answer>\n\n" + "\n\n".join(SOLVED) + "\n\n</answer>",  # blank lines
])
def test_grid_layouts_are_read(text):
    assert Reward.verify_score(text, PUZZLE) == 1.0


def flip(rows: list[str], i: int, j: int) -> list[str]:
    row = rows[i]
    return rows[:i] + [row[:j] + ("1" if row[j] == "0" else "0") + row[j + 1:]] + rows[i + 1:]


@pytest.mark.parametrize("grid, rule", [
    (flip(SOLVED, 1, 1), "balance"),
    (["010101", "101010", "010101", "101010", "010101", "101010"], "unique_lines"),  # balanced, no triples
    (["001011", "110100", "001011", "110100", "011001", "100110"], "unique_lines"),  # equal rows
    (["000111", "111000", "000111", "111000", "010101", "101010"], "three_in_a_row"),
    (SOLVED[:5], "the grid must be 6 rows"),
    ([r + "0" for r in SOLVED], "the grid must be 6 rows"),
    (SOLVED[:5] + ["1101a0"], "cells must be"),
    (SOLVED[:5] + ["11010."], "incomplete"),
    (SOLVED[:5] + ["110102"], "cells must be"),
])
def test_each_broken_rule_is_reported_and_scores_zero(grid, rule):
    problems = violations(grid, ["." * 6] * 6)
    assert any(p.startswith(rule) for p in problems), problems
    assert answer(grid, {"size": 6, "givens": ["." * 6] * 6}) == 0.0


def test_equal_columns_are_caught():
    grid = ["010110", "101001", "110100", "001011", "101010", "010101"]  # unique rows, balanced, no triples
    assert violations(grid, ["." * 6] * 6) == ["unique_lines: columns 2 and 4 are equal"]
    assert answer(grid, {"size": 6, "givens": ["." * 6] * 6}) == 0.0


def test_a_valid_grid_that_changes_a_given_scores_zero():
    other = next(g for g in solutions(["." * 6] * 6, limit=10) if g != SOLVED)
    assert violations(other, ["." * 6] * 6) == []  # a valid binairo grid...
    i, j = next((i, j) for i in range(6) for j in range(6) if other[i][j] != SOLVED[i][j])
    givens = ["." * 6] * 6
    givens[i] = "." * j + SOLVED[i][j] + "." * (5 - j)  # ...that changes this puzzle's one given
    assert violations(other, givens) == [f"givens: row {i + 1}, column {j + 1} must stay {SOLVED[i][j]}"]
    assert answer(other, {"size": 6, "givens": givens}) == 0.0
    assert answer(SOLVED, {"size": 6, "givens": givens}) == 1.0


def test_only_the_last_answer_block_counts():
    right = "<answer>\n" + "\n".join(SOLVED) + "\n</answer>"
    wrong = "<answer>\n" + "\n".join(flip(SOLVED, 0, 0)) + "\n</answer>"
    assert Reward.verify_score(right * 300 + wrong, PUZZLE) == 0.0
    assert Reward.verify_score(wrong * 300 + right, PUZZLE) == 1.0


def test_hostile_text_scores_zero_fast():
    assert_fast_zero(Reward, PUZZLE)
    assert_fast_zero(Reward, PUZZLE, texts=("<answer>\n" + "01\n" * 200_000 + "</answer>",
                                            "<answer>" + "0" * 5000 + "</answer>"))


def test_solver_counts_small_grids():
    assert count_solutions(["...."] * 4, limit=1000) == 72  # the number of valid 4x4 binairo grids
    assert count_solutions(GIVENS, limit=2) == 2  # the hand-made example is not unique
    assert count_solutions(["00.."] + ["...."] * 3, limit=100) == 12  # 72 / 6 first rows: 0011 is forced
    assert count_solutions(["00.."] + ["...."] * 3, limit=5) == 5  # the count stops at the limit
    assert count_solutions(["000."] + ["...."] * 3, limit=2) == 0


@pytest.mark.parametrize("params", [{"size": 6}, {"size": 8}, {"size": 10}, {"size": 6, "extra_givens": 0.5}])
def test_generated_puzzles_have_exactly_one_solution(params):
    for identity in identities(Generator, 15 if params["size"] < 10 else 4, **params):
        n = identity["size"]
        assert n == params["size"] and len(identity["givens"]) == n
        found = solutions(identity["givens"], limit=2)
        assert len(found) == 1
        assert violations(found[0], identity["givens"]) == []
        givens = sum(c != "." for row in identity["givens"] for c in row)
        assert givens < n * n * (0.7 if params.get("extra_givens") else 0.4)


def test_extra_givens_make_easier_puzzles():
    minimal = identities(Generator, 10, size=6)
    easier = identities(Generator, 10, size=6, extra_givens=0.5)
    count = lambda ps: sum(c != "." for p in ps for row in p["givens"] for c in row)  # noqa: E731
    assert count(easier) > count(minimal)


def test_generation_is_deterministic_and_varied():
    first = identities(Generator, 30, size=6)
    assert first == identities(Generator, 30, size=6)
    assert len({tuple(p["givens"]) for p in first}) == 30


def test_config_bounds_are_checked():
    from bc_common.errors import ConfigError

    for bad in ({"size": 5}, {"size": 16}, {"extra_givens": 1.5}, {"sizes": 6}):
        with pytest.raises(ConfigError):
            Generator(**bad)


def test_check_grid_tool_reports_rules_and_never_rewards():
    text, reward, metrics = call_tool(CheckGridTool, PUZZLE, {"rows": SOLVED})
    assert text.startswith("Solved") and reward == 0.0
    text, reward, metrics = call_tool(CheckGridTool, PUZZLE, {"rows": flip(SOLVED, 0, 0)})
    assert text.startswith("Not solved") and "givens: row 1, column 1" in text and reward == 0.0
    text, _, _ = call_tool(CheckGridTool, PUZZLE, {"rows": ["0.1...", "......"]})
    assert "6 rows of 6 cells" in text
    text, _, _ = call_tool(CheckGridTool, PUZZLE, {"rows": GIVENS})
    assert "incomplete: 31 empty cells" in text and "balance" not in text


@pytest.mark.parametrize("params", [{"size": 6}, {"size": 8}])
def test_reference_policy_solves_through_check_grid(params):
    for identity in identities(Generator, 8, **params):
        assert Reward.verify_score(play(BinairoPolicy, CheckGridTool, identity), identity) == 1.0
        assert Reward.verify_score(play(BinairoPolicy, CheckGridTool, identity, wrong=True), identity) == 0.0


def test_prompt_shows_the_givens_not_the_solution():
    gen = Generator(size=6)
    identity = identities(Generator, 1, size=6)[0]
    prompt = gen.prompt_func(identity)
    assert " ".join(identity["givens"][0]) in prompt and "check_grid" in prompt
    assert Reward.verify_score(prompt, identity) == 0.0
    assert "\n".join(solutions(identity["givens"], 1)[0]) not in prompt


@pytest.mark.parametrize("arguments, kind", [
    ('{"rows": "101010"}', "invalid_arguments"),
    ('{"rows": [' + ",".join(['"01"'] * 100) + "]}", "invalid_arguments"),
    ('{"rows": ["' + "0" * 1000 + '"]}', "invalid_arguments"),
    ('{"rows": [1, 0]}', "invalid_arguments"),
    ('{"grid": []}', "invalid_arguments"),
])
def test_hostile_check_grid_arguments_are_typed_errors(arguments, kind):
    result = runtime_call("binairo", PUZZLE, "check_grid", arguments)
    assert result.error is not None and result.error["type"] == kind, result
    ok = runtime_call("binairo", PUZZLE, "check_grid", {"rows": ["0" * 6] * 6})
    assert ok.ok and "balance: row 1" in ok.text and ok.reward == 0.0


def test_identity_schema_accepts_generated_and_refuses_malformed_identities():
    from jsonschema import Draft202012Validator

    schema = Draft202012Validator(Reward.identity_schema)
    for identity in identities(Generator, 10, size=6) + [PUZZLE]:
        assert not list(schema.iter_errors(identity))
    for bad in ({"size": 6}, {"size": 7, "givens": GIVENS}, {"size": 6, "givens": ["012..."] * 6},
                {"size": 6, "givens": GIVENS, "solution": SOLVED}):
        assert list(schema.iter_errors(bad))
    assert answer(SOLVED, {"size": 8, "givens": GIVENS}) == 0.0  # size and givens disagree: refused, no crash
    assert answer(SOLVED, {"size": 6, "givens": GIVENS[:5] + ["....."]}) == 0.0


@pytest.mark.parametrize("group", ["easy", "hard"])
@pytest.mark.parametrize("baseline", ["copy", "first_legal", "random", "alternating"])
def test_the_cheap_grids_earn_nothing(baseline, group):
    scores = policy_scores("binairo", f"builtin:baseline/{baseline}", group=group, n=20)
    assert sum(scores) <= 1, scores


def test_no_generated_puzzle_falls_to_greedy_filling():
    from bc_common.grids import fill_in_order, greedy_solves

    for identity in identities(Generator, 40, size=6, extra_givens=0.3):
        assert not greedy_solves(identity["givens"], "01", violations)
        assert Reward.verify_score("<answer>\n" + "\n".join(fill_in_order(identity["givens"], "01", violations))
                                   + "\n</answer>", identity) == 0.0

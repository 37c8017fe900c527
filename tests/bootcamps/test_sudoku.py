"""sudoku: any completion that keeps the rules and the givens scores 1.0 (no stored solution), each broken rule
is caught, every generated puzzle has one solution and needs exactly the techniques of its level."""
from __future__ import annotations

import pytest

from bootcamps.sudoku.generator import SudokuInstructionGenerator as Generator
from bootcamps.sudoku.grid import UNITS, to_cells, to_rows, violations
from bootcamps.sudoku.logic import ALL, Board, grade, solves
from bootcamps.sudoku.policy import SudokuPolicy
from bootcamps.sudoku.reward import SudokuRewardCalculator as Reward
from bootcamps.sudoku.solver import count_solutions, solutions
from bootcamps.sudoku.tools import CheckTool

from .puzzle_helpers import assert_fast_zero, call_tool, identities, play, policy_scores, runtime_call

GIVENS = ["53..7....", "6..195...", ".98....6.", "8...6...3", "4..8.3..1", "7...2...6", ".6....28.",
          "...419..5", "....8..79"]
SOLVED = ["534678912", "672195348", "198342567", "859761423", "426853791", "713924856", "961537284",
          "287419635", "345286179"]
PUZZLE = {"givens": GIVENS, "level": 1}
# Arto Inkala's puzzle, published as the hardest of its day: no level-2 technique cracks it
INKALA = ["8........", "..36.....", ".7..9.2..", ".5...7...", "....457..", "...1...3.", "..1....68",
          "..85...1.", ".9....4.."]
EMPTY = ["." * 9] * 9


def answer(rows: list[str], identity: dict = PUZZLE) -> float:
    return Reward.verify_score("Done.\n<answer>\n" + "\n".join(rows) + "\n</answer>", identity)


def test_the_classic_puzzle_and_its_solution():
    assert violations(SOLVED, GIVENS) == []
    assert answer(SOLVED) == 1.0
    assert to_rows(solutions(to_cells(GIVENS), 1)[0]) == SOLVED and count_solutions(to_cells(GIVENS)) == 1


def test_every_valid_completion_scores_one_not_just_one_stored_solution():
    few = GIVENS[:3] + EMPTY[3:]  # three rows of givens leave many completions
    grids = [to_rows(s) for s in solutions(to_cells(few), limit=20)]
    assert len({tuple(g) for g in grids}) == 20
    assert all(answer(g, {"givens": few}) == 1.0 for g in grids)


@pytest.mark.parametrize("layout", [
    lambda rows: "\n".join(" ".join(r) for r in rows),
    lambda rows: "\n".join(" | ".join(" ".join(r[c:c + 3]) for c in (0, 3, 6)) + ("\n------+-------+------"
                                                                                    if k in (2, 5) else "")
                           for k, r in enumerate(rows)),
    lambda rows: "\n\n".join(",".join(r) for r in rows),
])
def test_grid_layouts_are_read(layout):
    assert Reward.verify_score(f"<answer>\n{layout(SOLVED)}\n</answer>", PUZZLE) == 1.0


def swap_digits(rows: list[str], a: str, b: str) -> list[str]:
    return [r.translate(str.maketrans(a + b, b + a)) for r in rows]


@pytest.mark.parametrize("grid, rule", [
    ([SOLVED[0][1] + SOLVED[0][0] + SOLVED[0][2:]] + SOLVED[1:], "repeat: column 1"),  # two cells of a row swapped
    ([SOLVED[1]] + [SOLVED[0]] + SOLVED[2:], "givens"),  # rows swapped: still a valid sudoku, givens moved
    (["534678915"] + SOLVED[1:], "repeat: row 1"),  # the 2 became a second 5
    (["".join(str((r + c) % 9 + 1) for c in range(9)) for r in range(9)], "repeat: box 1"),  # rows, columns fine
    (SOLVED[:8], "the grid must be 9 rows"),
    (SOLVED[:8] + [SOLVED[8] + "1"], "the grid must be 9 rows"),
    (SOLVED[:8] + ["34528617."], "incomplete"),
    (SOLVED[:8] + ["345286170"], "cells must be"),
    (SOLVED[:8] + ["34528617x"], "cells must be"),
])
def test_each_broken_rule_is_reported_and_scores_zero(grid, rule):
    problems = violations(grid, EMPTY if rule != "givens" else GIVENS)
    assert any(p.startswith(rule) for p in problems), problems
    assert answer(grid, {"givens": EMPTY if rule != "givens" else GIVENS}) == 0.0


def test_latin_square_with_broken_boxes_only():
    grid = ["".join(str((r + c) % 9 + 1) for c in range(9)) for r in range(9)]
    assert all(p.startswith("repeat: box") for p in violations(grid, EMPTY))


def test_a_valid_sudoku_that_changes_a_given_scores_zero():
    relabelled = swap_digits(SOLVED, "1", "2")
    assert violations(relabelled, EMPTY) == []  # a valid grid...
    assert all(p.startswith("givens") for p in violations(relabelled, GIVENS))  # ...but not this puzzle's
    assert answer(relabelled) == 0.0


def test_only_the_last_answer_block_counts():
    right = "<answer>\n" + "\n".join(SOLVED) + "\n</answer>"
    wrong = "<answer>\n" + "\n".join(swap_digits(SOLVED, "1", "2")) + "\n</answer>"
    assert Reward.verify_score(right * 300 + wrong, PUZZLE) == 0.0
    assert Reward.verify_score(wrong * 300 + right, PUZZLE) == 1.0


def test_hostile_text_scores_zero_fast():
    assert_fast_zero(Reward, PUZZLE)
    assert_fast_zero(Reward, PUZZLE, texts=("<answer>\n" + "123456789\n" * 100_000 + "</answer>",
                                            "<answer>" + "1" * 4000 + "</answer>"))


def test_solver_counts_up_to_the_limit():
    assert count_solutions(to_cells(EMPTY), limit=5) == 5
    assert count_solutions(to_cells(INKALA), limit=2) == 1
    clash = ["11......."] + EMPTY[1:]
    assert count_solutions(to_cells(clash)) == 0
    # a deadly rectangle: digits a b / b a on two rows and two columns spanning two boxes can be swapped
    r1, r2, c1, c2 = next((r1, r2, c1, c2) for r1 in range(9) for r2 in range(r1 + 1, 9) for c1 in range(9)
                          for c2 in range(c1 + 1, 9)
                          if SOLVED[r1][c1] == SOLVED[r2][c2] and SOLVED[r1][c2] == SOLVED[r2][c1]
                          and len({(r // 3, c // 3) for r in (r1, r2) for c in (c1, c2)}) == 2)
    cells = to_cells(SOLVED)
    for r, c in ((r1, c1), (r1, c2), (r2, c1), (r2, c2)):
        cells[r * 9 + c] = 0
    assert count_solutions(cells, limit=10) == 2
    assert solutions(to_cells(GIVENS), 1, forbid=(2, 4)) == []  # the only solution has a 4 there


def board_with(cands: dict[int, int]) -> Board:
    board = Board([0] * 81)
    for i, mask in cands.items():
        board.cands[i] = mask
    return board


def bits(*digits: int) -> int:
    return sum(1 << (d - 1) for d in digits)


def test_pointing_clears_the_rest_of_the_line():
    box0_not_row0 = [9, 10, 11, 18, 19, 20]
    board = board_with({i: ALL & ~bits(1) for i in box0_not_row0})  # in box 1, a 1 can only go in row 1
    assert board.locked_candidates()
    assert all(not board.cands[i] & bits(1) for i in range(3, 9))  # row 1 outside box 1
    assert all(board.cands[i] & bits(1) for i in (0, 1, 2, 27, 80))


def test_claiming_clears_the_rest_of_the_box():
    row4_outside_box4 = [36 + c for c in range(9) if c not in (3, 4, 5)]
    board = board_with({i: ALL & ~bits(5) for i in row4_outside_box4})  # row 5's 5 is in box 5
    assert board.locked_candidates()
    box4_other_rows = [30, 31, 32, 48, 49, 50]
    assert all(not board.cands[i] & bits(5) for i in box4_other_rows)
    assert all(board.cands[i] & bits(5) for i in (39, 40, 41))


def test_naked_and_hidden_pairs():
    board = board_with({0: bits(1, 2), 1: bits(1, 2)})
    assert board.subsets()
    assert all(not board.cands[i] & bits(1, 2) for i in UNITS[0][2:])
    hidden = board_with({i: ALL & ~bits(8, 9) for i in UNITS[9][2:]})  # column 1: 8, 9 only in rows 1, 2
    assert hidden.subsets()
    assert hidden.cands[0] == bits(8, 9) and hidden.cands[9] == bits(8, 9)


def test_grades_of_known_puzzles():
    assert grade(to_cells(GIVENS)) == 1
    assert grade(to_cells(INKALA)) == 3
    assert not solves(to_cells(INKALA), 2)


@pytest.mark.parametrize("level, n", [(1, 10), (2, 4), (3, 4)])
def test_generated_puzzles_are_unique_and_need_their_level(level, n):
    for identity in identities(Generator, n, level=level):
        cells = to_cells(identity["givens"])
        assert identity["level"] == level and count_solutions(cells, limit=2) == 1
        assert grade(cells) == level
        assert solves(cells, 1) == (level == 1)


def test_min_givens_stops_the_emptying():
    for identity in identities(Generator, 5, level=1, min_givens=36):
        assert sum(c != "." for row in identity["givens"] for c in row) == 36


def test_generation_is_deterministic_and_varied():
    first = identities(Generator, 10, level=1)
    assert first == identities(Generator, 10, level=1)
    assert len({tuple(p["givens"]) for p in first}) == 10


def test_config_bounds_are_checked():
    from bc_common.errors import ConfigError

    for bad in ({"level": 0}, {"level": 4}, {"min_givens": 16}, {"min_givens": 81}, {"levle": 1}):
        with pytest.raises(ConfigError):
            Generator(**bad)


def test_check_tool_reports_rules_and_never_rewards():
    text, reward, _ = call_tool(CheckTool, PUZZLE, {"rows": SOLVED})
    assert text.startswith("Solved") and reward == 0.0
    text, reward, _ = call_tool(CheckTool, PUZZLE, {"rows": swap_digits(SOLVED, "1", "2")})
    assert text.startswith("Not solved") and "givens" in text and reward == 0.0
    text, _, _ = call_tool(CheckTool, PUZZLE, {"rows": GIVENS})
    assert text == "Not solved:\n- incomplete: 51 empty cells"
    text, _, _ = call_tool(CheckTool, PUZZLE, {"rows": ["1" * 9] * 9})
    assert text.count("\n- ") == 20 and text.endswith("... and 34 more")  # long reports are cut
    text, _, _ = call_tool(CheckTool, {"givens": EMPTY}, {"rows": ["1" * 9] * 9})
    assert "- repeat: row 1 has 1 more than once" in text
    text, _, _ = call_tool(CheckTool, PUZZLE, {"rows": ["123"]})
    assert "9 rows of 9 cells" in text


@pytest.mark.parametrize("level", [1, 3])
def test_reference_policy_solves_through_check(level):
    for identity in identities(Generator, 4, level=level):
        assert Reward.verify_score(play(SudokuPolicy, CheckTool, identity), identity) == 1.0
        assert Reward.verify_score(play(SudokuPolicy, CheckTool, identity, wrong=True), identity) == 0.0
    assert Reward.verify_score(play(SudokuPolicy, None, PUZZLE), PUZZLE) == 1.0


def test_prompt_shows_the_givens_not_the_solution():
    prompt = Generator().prompt_func(PUZZLE)
    assert "5 3 . | . 7 . | . . ." in prompt and "check" in prompt
    assert Reward.verify_score(prompt, PUZZLE) == 0.0
    assert "534678912" not in prompt


@pytest.mark.parametrize("arguments, kind", [
    ('{"rows": "534678912"}', "invalid_arguments"),
    ('{"rows": [' + ",".join(['"1"'] * 40) + "]}", "invalid_arguments"),
    ('{"rows": ["' + "1" * 500 + '"]}', "invalid_arguments"),
    ('{"rows": [534678912]}', "invalid_arguments"),
    ("[]", "invalid_arguments"),
])
def test_hostile_check_arguments_are_typed_errors(arguments, kind):
    result = runtime_call("sudoku", PUZZLE, "check", arguments)
    assert result.error is not None and result.error["type"] == kind, result
    ok = runtime_call("sudoku", PUZZLE, "check", {"rows": ["١٢٣٤٥٦٧٨٩"] * 9})
    assert ok.ok and "cells must be digits" in ok.text


def test_identity_schema_accepts_generated_and_refuses_malformed_identities():
    from jsonschema import Draft202012Validator

    schema = Draft202012Validator(Reward.identity_schema)
    for identity in identities(Generator, 5, level=1) + [PUZZLE, {"givens": GIVENS}]:
        assert not list(schema.iter_errors(identity))
    for bad in ({"level": 1}, {"givens": GIVENS[:8]}, {"givens": ["0" * 9] * 9}, {"givens": GIVENS, "level": 4}):
        assert list(schema.iter_errors(bad))
    assert answer(SOLVED, {"givens": GIVENS[:8] + ["...."]}) == 0.0  # malformed givens: refused, no crash


@pytest.mark.parametrize("baseline", ["copy", "first_legal", "row_fill", "random"])
def test_the_cheap_grids_earn_nothing(baseline):
    scores = policy_scores("sudoku", f"builtin:baseline/{baseline}", group="easy", n=15)
    assert sum(scores) == 0, scores

"""pz/<puzzle>: the rules each verifier checks (hand-made grids), the SAT helpers and the uniqueness proof, seeded
rows, and the collection listed unavailable without pycosat."""
import itertools
import random
import subprocess
import sys

import pytest

pytest.importorskip("pycosat")

from bc_common.catalog import get_bootcamp  # noqa: E402
from bc_common.tasks import TaskSet  # noqa: E402
from bootcamps.pz.policy import corrupt  # noqa: E402
from bootcamps.pz.puzzle import parse_answer  # noqa: E402
from bootcamps.pz.puzzles import PUZZLES  # noqa: E402
from bootcamps.pz.puzzles.tents import matched  # noqa: E402
from bootcamps.pz.reward import PzRewardCalculator  # noqa: E402
from bootcamps.pz.sat import CNF, block, solve, unique  # noqa: E402


def score(identity, rows):
    return PzRewardCalculator.verify_score("<answer>\n" + "\n".join(rows) + "\n</answer>", identity)


NONOGRAM = {"puzzle": "nonogram", "size": 3, "rows": [[1], [3], [1]], "cols": [[1], [3], [1]]}
MOSAIC = {"puzzle": "mosaic", "size": 3, "clues": ["1..", ".2.", "..1"]}
SKYSCRAPERS = {"puzzle": "skyscrapers", "size": 3, "top": [3, 2, 1], "bottom": [0, 0, 0], "left": [0, 0, 0],
               "right": [0, 0, 0], "givens": ["...", "...", "..."]}
TENTS = {"puzzle": "tents", "size": 3, "trees": ["T..", "...", "..T"], "rows": [1, 0, 1], "cols": [0, 2, 0]}
KENKEN = {"puzzle": "kenken", "size": 3, "cages": [
    {"cells": [[0, 0], [0, 1]], "op": "+", "target": 3}, {"cells": [[0, 2]], "op": "=", "target": 3},
    {"cells": [[1, 0], [2, 0]], "op": "x", "target": 6}, {"cells": [[1, 1], [1, 2]], "op": "-", "target": 2},
    {"cells": [[2, 1], [2, 2]], "op": "-", "target": 1}]}
# a 4x4 killer sudoku (2x2 boxes): cages of the grid 1234/3412/2143/4321
KILLER = {"puzzle": "killer_sudoku", "size": 4, "cages": [
    {"cells": [[0, 0], [0, 1]], "sum": 3}, {"cells": [[0, 2], [0, 3]], "sum": 7},
    {"cells": [[1, 0], [2, 0]], "sum": 5}, {"cells": [[1, 1], [1, 2], [1, 3]], "sum": 7},
    {"cells": [[2, 1], [2, 2], [2, 3]], "sum": 8}, {"cells": [[3, 0], [3, 1]], "sum": 7},
    {"cells": [[3, 2], [3, 3]], "sum": 3}]}
AKARI = {"puzzle": "akari", "size": 3, "board": [".1.", "...", "#.."]}
THERMOMETERS = {"puzzle": "thermometers", "size": 2, "thermometers": [[[0, 0], [0, 1]], [[1, 0], [1, 1]]],
                "rows": [1, 0], "cols": [1, 0]}
AQUARIUM = {"puzzle": "aquarium", "size": 2, "tanks": [[[0, 0], [1, 0]], [[0, 1], [1, 1]]], "rows": [1, 2],
            "cols": [1, 2]}
# 1 2 / 1 1: shade the lower left 1 (the upper right 2 stays; the three unshaded cells connect)
HITORI = {"puzzle": "hitori", "size": 2, "board": [["1", "2"], ["1", "1"]]}
KAKURASU = {"puzzle": "kakurasu", "size": 2, "rows": [1, 2], "cols": [1, 2]}
FUTOSHIKI = {"puzzle": "futoshiki", "size": 3, "givens": ["...", "...", "..."],
             "signs": [[[0, 0], [0, 1], "<"], [[0, 1], [1, 1], "<"]]}

# (identity, a solution, one rule broken, an alternative solution where the rules allow one)
CASES = {
    "aquarium": (AQUARIUM, [". #", "# #"], ["# #", ". #"], None),
    "hitori": (HITORI, [". .", "# ."], ["# .", ". #"], None),
    "kakurasu": (KAKURASU, ["# .", ". #"], [". #", "# ."], None),
    "futoshiki": (FUTOSHIKI, ["1 2 3", "2 3 1", "3 1 2"], ["2 1 3", "1 3 2", "3 2 1"], None),
    "thermometers": (THERMOMETERS, ["# .", ". ."], [". #", ". ."], None),
    "akari": (AKARI, ["L 1 .", ". . L", "# L ."], ["L 1 L", ". . .", "# L ."], None),
    "killer_sudoku": (KILLER, ["1 2 3 4", "3 4 1 2", "2 1 4 3", "4 3 2 1"], ["2 1 3 4", "3 4 1 2", "1 2 4 3",
                                                                          "4 3 2 1"], None),
    "kenken": (KENKEN, ["1 2 3", "2 3 1", "3 1 2"], ["2 1 3", "1 3 2", "3 2 1"], None),
    "nonogram": (NONOGRAM, [". # .", "# # #", ". # ."], [". # .", "# # #", "# . ."], None),
    "mosaic": (MOSAIC, ["# . .", ". . .", ". . #"], ["# . .", ". # .", ". . #"], [". # .", ". . .", ". # ."]),
    "skyscrapers": (SKYSCRAPERS, ["1 2 3", "2 3 1", "3 1 2"], ["1 3 2", "2 1 3", "3 2 1"], None),
    "tents": (TENTS, ["T A .", ". . .", ". A T"], ["T . .", "A . .", ". A T"], None),
}


def test_every_puzzle_has_hand_cases():
    assert set(CASES) == set(PUZZLES)


@pytest.mark.parametrize("name", sorted(CASES))
def test_verifier_on_hand_made_grids(name):
    identity, right, broken, alternative = CASES[name]
    assert score(identity, right) == 1.0
    assert score(identity, broken) == 0.0
    assert PUZZLES[name].violations(parse_answer("<answer>\n" + "\n".join(broken) + "\n</answer>",
                                                 numbers=False), identity)
    if alternative:
        assert score(identity, alternative) == 1.0
    assert score(identity, right[:-1]) == 0.0  # a row short
    assert score(identity, [r + " ." for r in right]) == 0.0  # a column too many
    assert score(identity, [right[0].replace(right[0][0], "X", 1), *right[1:]]) == 0.0  # a foreign symbol
    assert PzRewardCalculator.verify_score("\n".join(right), identity) == 0.0  # no answer block


def test_tents_pairs_each_tent_with_its_own_tree():
    assert matched([(1, 0), (0, 1)], [(0, 0), (1, 1)])
    assert not matched([(1, 0), (0, 1)], [(0, 0), (2, 2)])  # one tree, two tents beside it


def test_aquarium_water_fills_each_tank_from_the_bottom():
    tank = {"puzzle": "aquarium", "size": 2, "tanks": [[[0, 0], [0, 1], [1, 1]], [[1, 0]]], "rows": [1, 1],
            "cols": [0, 2]}
    assert score(tank, [". #", ". #"]) == 0.0  # water above the tank's empty cell (0, 0) on the same row
    assert score({**tank, "rows": [0, 1], "cols": [0, 1]}, [". .", ". #"]) == 1.0


def test_hitori_needs_the_unshaded_cells_connected():
    board = {"puzzle": "hitori", "size": 3, "board": [["1", "2", "3"], ["2", "3", "1"], ["3", "1", "2"]]}
    assert score(board, [". . .", ". . .", ". . ."]) == 1.0
    assert score(board, [". # .", "# . .", ". . ."]) == 0.0  # the top left cell is cut off
    # every way to break the repeats cuts a corner off: the solver's cut clauses find that no grid is left
    assert PUZZLES["hitori"].solve({"size": 3, "board": [["1", "1", "2"], ["1", "2", "1"], ["2", "1", "1"]]}) is None
    assert PUZZLES["hitori"].solve(HITORI) == [[".", "."], ["#", "."]]


def test_regions_cover_the_grid_connected_and_sized():
    from bootcamps.pz.puzzle import neighbours
    from bootcamps.pz.puzzles.regions import partition
    for seed in range(20):
        regions = partition(random.Random(seed), 7, 2, 5)
        cells = [c for r in regions for c in r]
        assert sorted(cells) == [(i, j) for i in range(7) for j in range(7)]
        for region in regions:
            assert len(region) >= 2
            seen, todo = {region[0]}, [region[0]]
            while todo:
                c = todo.pop()
                for d in neighbours(*c, 7, 7):
                    if d in region and d not in seen:
                        seen.add(d)
                        todo.append(d)
            assert seen == set(region)


def test_cardinality_encodings_match_brute_force():
    for n in range(1, 6):
        for k in range(n + 1):
            for kind, holds in (("at_most", lambda s, k=k: s <= k), ("at_least", lambda s, k=k: s >= k),
                                ("exactly", lambda s, k=k: s == k)):
                cnf = CNF()
                xs = cnf.new(n)
                getattr(cnf, kind)(xs, k)
                for bits in itertools.product((0, 1), repeat=n):
                    units = [[x if b else -x] for x, b in zip(xs, bits, strict=True)]
                    assert (solve(cnf.clauses + units) is not None) == holds(sum(bits)), (kind, n, k, bits)


def test_uniqueness_proof_tells_one_solution_from_two():
    two = {"puzzle": "nonogram", "size": 2, "rows": [[1], [1]], "cols": [[1], [1]]}  # either diagonal
    puzzle = PUZZLES["nonogram"]
    cnf, x = puzzle._cnf(two)
    model = solve(cnf.clauses)
    shown = [v for row in x for v in row]
    assert not unique(cnf.clauses, model, shown)
    assert score(two, ["# .", ". #"]) == score(two, [". #", "# ."]) == 1.0
    cnf, x = puzzle._cnf(NONOGRAM)
    model = solve(cnf.clauses)
    assert unique(cnf.clauses, model, [v for row in x for v in row])
    assert solve(cnf.clauses + [block(model, [v for row in x for v in row])]) is None


@pytest.mark.parametrize("name", sorted(PUZZLES))
def test_rows_are_deterministic_unique_and_solved(name):
    manifest = get_bootcamp(f"pz/{name}")
    puzzle = PUZZLES[name]
    groups = manifest.group_list()
    for group in groups:
        identity = TaskSet(manifest, seed=5, split="train", groups=[group.name])[0]["reward_model"]["ground_truth"]
        solution = puzzle.solve(identity)
        assert puzzle.violations(solution, identity) == []
        assert puzzle.violations(puzzle.start(identity), identity)  # the puzzle as shown is not solved
        wrong = corrupt(solution, puzzle.start(identity), puzzle.blank, puzzle.symbols(identity), random.Random(0))
        assert puzzle.violations(wrong, identity)
    first = groups[0].name
    row = TaskSet(manifest, seed=5, split="train", groups=[first])[0]
    assert TaskSet(manifest, seed=5, split="train", groups=[first])[0] == row  # item i alone: shards agree
    assert TaskSet(manifest, seed=6, split="train", groups=[first])[0] != row


def test_collection_is_unavailable_without_pycosat():
    code = ("import sys; sys.modules['pycosat'] = None\n"
            "from bc_common.catalog import get_bootcamp\n"
            "import bootcamps.pz as pz\n"
            "print(pz.bootcamp.extra, pz.bootcamp.missing)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "puzzles ['pycosat']"


def test_hostile_identity_and_text_score_zero():
    assert PzRewardCalculator.verify_score("<answer>" + "#" * 5000 + "</answer>", NONOGRAM) == 0.0
    assert PzRewardCalculator.verify_score("<answer>\n" + "# \n" * 40 + "</answer>", NONOGRAM) == 0.0

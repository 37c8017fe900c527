"""al/*: each problem's verifier on hand-checked instances (a correct answer, another correct answer, a valid but
worse answer, a malformed one), the exact solvers against brute force, and the generated rows (deterministic
however they are drawn; the reference scores 1, its corrupted answers and every baseline 0)."""
from __future__ import annotations

import itertools
import random
import re

import pytest

from bc_common.catalog import get_bootcamp, load
from bc_common.seeding import rng_for
from bc_common.tasks import TaskSet
from bootcamps.al.collection import classes
from bootcamps.al.core import groups, numbers, pairs
from bootcamps.al.known_issues import WITHHELD
from bootcamps.al.problems import PROBLEMS
from bootcamps.al.problems.assignment import cheapest_assignment
from bootcamps.al.problems.josephus import last_removed
from bootcamps.al.problems.lcs import longest_common
from bootcamps.al.problems.lis import longest_increasing
from bootcamps.al.problems.matrix_chain import cheapest, tree_cost
from bootcamps.al.problems.min_cut import max_flow

OFFERED = sorted(set(PROBLEMS) - set(WITHHELD))


def tagged(body: str) -> str:
    return f"Working...\n<answer>{body}</answer>"


# problem: (instance, [correct answers], [wrong answers: valid but worse, or invalid], [malformed answers])
CASES = {
    "lis": ({"sequence": [3, 1, 4, 1, 5, 9, 2, 6], "optimum": 4, "solution": [1, 4, 5, 9]},
            ["1 4 5 9", "3, 4, 5, 6"], ["1 4 5", "9 5 4 1", "1 2 5 9"], ["1, four", "1 4.5"]),
    "lcs": ({"first": "abcbdab", "second": "bdcaba", "optimum": 4, "solution": "bcba"},
            ["bcba", " bdab "], ["bab", "abcb"], ["b c-a", "bcba1"]),
    "edit_distance": ({"first": "ab", "second": "ba", "optimum": 2, "solution": ["ab-", "-ba"]},
                      ["ab-\n-ba", "\n-ab\nba-\n", "ab\nba"], ["ab--\n--ba", "ab\nab", "-ab\n-ba"], ["ab", "a b\nb a"]),
    "bipartite_matching": ({"size": 3, "can_do": [[1, 2], [1, 2], [3]], "optimum": 3,
                            "solution": [[1, 1], [2, 2], [3, 3]]},
                           ["1-1, 2-2, 3-3", "(1,2) (2,1) (3,3)"], ["1-1, 3-3", "1-3, 2-2", "1-1, 2-1, 3-3"],
                           ["1 to 1", "1-1 2"]),
    "assignment": ({"cost": [[4, 1, 2], [2, 0, 5], [3, 2, 2]], "optimum": 5, "solution": [2, 1, 3]},
                   ["2 1 3", "3 2 1"], ["1 2 3", "1 1 3", "2 1"], ["2 1 three"]),
    "interval_scheduling": ({"intervals": [[0, 2, 4], [2, 4, 4], [0, 4, 8], [4, 6, 3]], "optimum": 11,
                             "solution": [1, 2, 4]},
                            ["1 2 4", "3 4"], ["1 2", "1 3", "4 4 3"], ["1 + 2"]),
    "mst": ({"nodes": 4, "edges": [[1, 2, 1], [2, 3, 1], [3, 4, 2], [4, 1, 2], [1, 3, 5]], "optimum": 4,
             "solution": [[1, 2], [2, 3], [3, 4]]},
            ["1-2, 2-3, 3-4", "2-1, 3-2, 1-4"], ["1-2, 3-4, 1-3", "1-2, 2-3, 1-3", "1-2, 2-4, 3-4"],
            ["1-2, 2", "1 2 3 4"]),
    "shortest_path": ({"nodes": 4, "arcs": [[1, 2, 1], [2, 4, 3], [1, 3, 2], [3, 4, 2], [1, 4, 5]], "start": 1,
                       "goal": 4, "optimum": 4, "solution": [1, 2, 4]},
                      ["1 2 4", "1 -> 3 -> 4"], ["1 4", "1 3 2 4", "2 4"], ["1 to 4"]),
    "min_cut": ({"nodes": 4, "arcs": [[1, 2, 3], [1, 3, 2], [2, 4, 2], [3, 4, 3], [2, 3, 1]], "optimum": 5,
                 "solution": [[1, 2], [1, 3]]},
                ["1-2, 1-3", "2-4, 3-4", "1-3, 2-4, 2-3"], ["1-2, 3-4", "2-4", "1-2, 1-3, 1-3"], ["1->2, 1->3"]),
    "topological_order": ({"nodes": 4, "arcs": [[3, 1], [2, 4]], "solution": [2, 3, 1, 4]},
                          ["2 3 1 4", "2, 3, 1, 4"], ["3 1 2 4", "1 2 3 4", "2 3 1"], ["2 3 1 x"]),
    "scc": ({"nodes": 5, "arcs": [[1, 2], [2, 1], [2, 3], [3, 4], [4, 3]], "solution": [[1, 2], [3, 4], [5]]},
            ["{1, 2} {3, 4} {5}", "{5} {4,3} {2,1}"], ["{1, 2, 3, 4} {5}", "{1} {2} {3} {4} {5}", "{1, 2} {3, 4}"],
            ["1,2 3,4 5", "{1, 2} {3, 4} {5} x"]),
    "coin_change": ({"coins": [2, 3, 5, 7], "amount": 10, "optimum": 2, "solution": [5, 5]},
                    ["5 5", "3 7"], ["2 3 5", "4 6", "5 3"], ["five five"]),
    "subset_sum": ({"values": [3, 5, 8, 2], "target": 10, "solution": [3, 4]},
                   ["3 4", "1 2 4"], ["1 2", "3 3", "5 1"], ["3 + 4"]),
    "matrix_chain": ({"dims": [10, 30, 5, 60], "optimum": 4500, "solution": [[1, 2], 3]},
                     ["4500; ((A1A2)A3)", "4500;(A1 * A2) * A3"],
                     ["27000; (A1(A2A3))", "4500; (A1(A2A3))", "4000; ((A1A2)A3)", "4500; ((A1A3)A2)", "1500; (A1A2)"],
                     ["((A1A2)A3)", "4500; (A1A2A3)", "4500; A1A2A3"]),
    "two_sat": ({"variables": 3, "clauses": [[1, 2], [-1, 3], [-2, -3]], "solution": [1, 3]},
                ["1 3", "2"], ["1 2 3", "", "1"], ["x1 x3"]),
    "crt": ({"residues": [2, 3, 2], "moduli": [3, 5, 7], "modulus": 105, "solution": 23},
            ["23", " 23 "], ["128", "24", "-82"], ["twenty-three", "23 128"]),
    "linear_recurrence": ({"coeffs": [1, 1], "start": [0, 1], "index": 20, "modulus": 10007, "solution": 6765},
                          ["6765"], ["6766", "1"], ["6,765", "6765.0"]),
    "discrete_log": ({"prime": 11, "base": 2, "target": 3, "solution": 8},
                     ["8"], ["9", "18", "3"], ["x=8"]),
    "josephus": ({"people": 7, "step": 3, "first": 1, "solution": [5, 1, 4]},
                 ["5 1 4", "5, 1, 4"], ["4 1 5", "5 1", "7 1 4"], ["5 one 4"]),
    "dag_paths": ({"nodes": 4, "arcs": [[1, 2], [1, 3], [2, 4], [3, 4], [1, 4]], "start": 1, "goal": 4, "solution": 3},
                  ["3", " 3 "], ["2", "4"], ["three", "3 4"]),
    "longest_path": ({"nodes": 4, "arcs": [[1, 2, 1], [2, 4, 3], [1, 3, 2], [3, 4, 1], [1, 4, 4], [2, 3, 1]],
                      "start": 1, "goal": 4, "optimum": 4, "solution": [1, 2, 4]},
                     ["1 2 4", "1 -> 4"], ["1 3 4", "1 2 3 4", "2 4"], ["1 to 4"]),
    "tree_diameter": ({"nodes": 4, "edges": [[1, 2, 3], [2, 3, 4], [2, 4, 4]], "optimum": 8, "solution": [3, 2, 4]},
                      ["3 2 4", "4 2 3"], ["1 2 3", "3 4", "3 2 4 2"], ["3 2 x"]),
    "vertex_cover_tree": ({"nodes": 4, "edges": [[1, 2], [2, 3], [2, 4]], "weights": [1, 3, 1, 1], "optimum": 3,
                           "solution": [2]},
                          ["2", "1 3 4"], ["1 3", "1 2", "2 2"], ["two"]),
    "lca": ({"nodes": 5, "root": 1, "parent": [[2, 1], [3, 1], [4, 2], [5, 2]], "queries": [[4, 5], [4, 3], [2, 4]],
             "solution": [2, 1, 2]},
            ["2 1 2", "2, 1, 2"], ["2 1", "1 1 1", "2 1 4"], ["2 1 two"]),
    "euler_path": ({"nodes": 4, "edges": [[1, 2], [2, 3], [3, 1], [3, 4]], "solution": [4, 3, 1, 2, 3]},
                   ["4 3 1 2 3", "3 2 1 3 4"], ["1 2 3 4", "4 3 1 2 3 1", "1 2 4"], ["1 2 x"]),
    "hamiltonian_path": ({"nodes": 4, "edges": [[1, 2], [2, 3], [3, 4], [1, 3]], "solution": [1, 2, 3, 4]},
                         ["1 2 3 4", "2 1 3 4"], ["1 2 4 3", "1 2 3", "1 3 2 4"], ["1-2-3-4"]),
    "graph_coloring": ({"nodes": 4, "edges": [[1, 2], [2, 3], [3, 1], [3, 4]], "optimum": 3, "solution": [1, 2, 3, 1]},
                       ["1 2 3 1", "3 1 2 1"], ["1 2 3 4", "1 2 1 2", "1 2 3"], ["red blue"]),
    "max_clique": ({"nodes": 5, "edges": [[1, 2], [2, 3], [1, 3], [3, 4], [4, 5], [3, 5]], "optimum": 3,
                    "solution": [1, 2, 3]},
                   ["1 2 3", "5 4 3"], ["1 2", "1 2 3 4", "2 3 4"], ["{1,2,3}"]),
    "rod_cutting": ({"length": 4, "prices": [2, 5, 7, 10], "optimum": 10, "solution": [4]},
                    ["4", "2 2"], ["1 3", "1 1 1 1", "2 1"], ["2+2"]),
    "palindrome_partition": ({"string": "abab", "optimum": 2, "solution": ["aba", "b"]},
                             ["aba b", "a|bab"], ["a b a b", "ab ab", "aba"], ["aba b1"]),
    "scs": ({"first": "ab", "second": "ba", "optimum": 3, "solution": "aba"},
            ["aba", "bab"], ["abba", "ab", "aab"], ["ab-a"]),
    "word_break": ({"words": ["a", "ab", "ba", "aba"], "string": "ababa", "optimum": 2, "solution": ["aba", "ba"]},
                   ["aba ba", "ab aba"], ["ab ab a", "a ba ba", "abab a"], ["ab-aba"]),
    "bracket_repair": ({"string": "(]", "optimum": 4, "solution": "()[]"},
                       ["()[]", "( [ ] )"], ["()[]()", "(])", "[]()"], ["( ] x"]),
    "job_sequencing": ({"jobs": [[2, 2, 5], [1, 2, 4], [1, 3, 3], [1, 3, 3]], "optimum": 8, "solution": [1, 3]},
                       ["1 3", "1, 4"], ["3 1", "2 3", "1 1"], ["1 & 3"]),
    "knapsack_2d": ({"items": [[2, 3, 4], [3, 2, 5], [5, 5, 9]], "weight": 5, "volume": 5, "optimum": 9,
                     "solution": [1, 2]},
                    ["1 2", "3"], ["1", "1 3", "2 2"], ["1 and 2"]),
    "convex_hull": ({"points": [[0, 0], [2, 0], [2, 2], [0, 2], [1, 1], [1, 0]], "solution": [1, 2, 3, 4]},
                    ["1 2 3 4", "3 2 1 4"], ["1 6 2 3 4", "1 3 2 4", "1 2 3"], ["(0,0) (2,0)"]),
    "polygon_area": ({"corners": [[0, 0], [4, 0], [4, 3], [1, 1]], "twice_area": 13, "solution": 13},
                     ["6.5", "13/2", "6.50"], ["6", "7", "13"], ["6,5", "6.25"]),
    "closest_pair": ({"points": [[0, 0], [3, 0], [0, 4], [3, 4], [10, 10]], "optimum": 9, "solution": [1, 2]},
                     ["1-2", "(4, 3)"], ["1-3", "1-1", "2-5"], ["1 2", "1-2, 3-4"]),
    "nim": ({"piles": [5, 6, 7], "solution": [1, 4]},
            ["1 4", "2, 4", "3 4"], ["1 5", "1 6", "3 3"], ["1", "1 4 5"]),
    "determinant": ({"matrix": [[1, 2, 3], [0, 1, 4], [5, 6, 0]], "solution": 1},
                    ["1", " 1 "], ["-1", "0"], ["1.0", "one"]),
    "linear_system": ({"prime": 7, "matrix": [[1, 1], [1, 2]], "right": [3, 5], "solution": [1, 2]},
                      ["1 2", "1, 2"], ["2 1", "8 2", "1"], ["x1=1"]),
    "partition_count": ({"parts": [1, 2], "total": 4, "solution": 3},
                        ["3"], ["5", "4"], ["3 ways"]),
    "permutation_rank": ({"permutation": [2, 1, 3], "solution": 3},
                         ["3"], ["2", "4"], ["#3"]),
    "stable_matching": ({"men": [[1, 2, 3], [2, 1, 3], [3, 1, 2]], "women": [[2, 1, 3], [1, 2, 3], [3, 1, 2]],
                         "solution": [[1, 1], [2, 2], [3, 3]]},
                        ["1-1, 2-2, 3-3", "3-3, 1-2, 2-1"], ["1-3, 2-2, 3-1", "1-1, 2-2", "1-1, 1-2, 3-3"],
                        ["1 1, 2 2, 3 3"]),
    "max_subarray": ({"values": [5, -5, 4, -1, 2], "optimum": 5, "solution": [1, 1]},
                     ["1 1", "3 5", "1, 5"], ["3 4", "2 5", "5 3"], ["1", "1 to 5"]),
    "interval_rooms": ({"meetings": [[0, 2], [1, 3], [2, 4]], "optimum": 2, "solution": [1, 2, 1]},
                       ["1 2 1", "2 1 2"], ["1 2 3", "1 1 2", "1 2"], ["A B A"]),
    "bin_packing": ({"sizes": [60, 50, 40, 30, 20], "capacity": 100, "optimum": 2, "solution": [1, 2, 1, 2, 2]},
                    ["1 2 1 2 2", "2 1 2 1 1"], ["1 2 3 2 2", "1 1 2 2 2", "1 2 1 2"], ["1 2 1 2 x"]),
    "inversion_count": ({"sequence": [3, 1, 2, 5, 4], "solution": 3}, ["3", " 3 "], ["2", "4"], ["three", "3 4"]),
    "kth_pair_sum": ({"first": [1, 5], "second": [2, 3], "k": 3, "solution": 7}, ["7"], ["8", "4"], ["7.0"]),
    "set_cover": ({"universe": 5, "sets": [[1, 2, 3], [3, 4], [4, 5], [1, 5], [2, 4], [2, 3, 4]], "optimum": 2,
                   "solution": [1, 3]},
                  ["1 3", "6, 4"], ["1 2 3", "1 2", "1 1 3", "7 1"], ["1 and 3"]),
    "palindrome_subsequence": ({"string": "abcab", "optimum": 3, "solution": "aca"},
                               ["aca", "b a b", "aba"], ["aa", "abc", "cbc"], ["a-c-a", "ac1"]),
    "tsp": ({"distances": [[0, 1, 5, 2], [1, 0, 2, 6], [5, 2, 0, 1], [2, 6, 1, 0]], "optimum": 6,
             "solution": [1, 2, 3, 4]},
            ["1 2 3 4", "3 2 1 4", "2 3 4 1 2"], ["1 2 4 3", "1 2 3", "1 2 3 3", "1 2 3 4 2", "1 2 3 1"],
            ["1-2-3-4"]),
    "widest_path": ({"nodes": 4, "arcs": [[1, 2, 5], [2, 4, 3], [1, 3, 4], [3, 4, 4], [2, 3, 9]], "optimum": 4,
                     "solution": [1, 3, 4]},
                    ["1 3 4", "1 2 3 4"], ["1 2 4", "1 4", "2 3 4"], ["1 to 4"]),
    "path_cover": ({"nodes": 4, "arcs": [[1, 2], [1, 3], [2, 4], [3, 4]], "optimum": 2, "solution": [[1, 2, 4], [3]]},
                   ["1 2 4 | 3", "1 2\n3 4"], ["1 | 2 4 | 3", "1 2 3 | 4", "1 2 4 | 3 | 3", "1 2 4, 3"],
                   ["1 2 4 | three"]),
    "max_flow": ({"nodes": 4, "arcs": [[1, 2, 3], [1, 3, 2], [2, 4, 2], [3, 4, 3], [2, 3, 1]], "optimum": 5,
                  "solution": [[1, 2, 3], [1, 3, 2], [2, 3, 1], [2, 4, 2], [3, 4, 3]]},
                 ["1-2:3, 1-3:2, 2-4:2, 2-3:1, 3-4:3", "(1->2: 3) (1->3: 2) (2->4: 2) (2->3: 1) (3->4: 3)"],
                 ["1-2:2, 1-3:2, 2-4:2, 3-4:2", "1-2:3, 1-3:2, 2-4:3, 3-4:2", "1-2:3, 1-3:2, 2-4:2, 3-4:3", "1-4:1",
                  "1-2:3, 1-2:3"],
                 ["1-2 3", "1-2:3 and more"]),
    "min_cost_flow": ({"nodes": 4, "arcs": [[1, 2, 1, 1], [1, 3, 1, 5], [2, 3, 1, 1], [2, 4, 1, 5], [3, 4, 1, 1],
                                            [1, 4, 1, 20]], "amount": 2, "optimum": 12,
                       "solution": [[1, 2, 1], [1, 3, 1], [2, 4, 1], [3, 4, 1]]},
                      ["1-2:1, 1-3:1, 2-4:1, 3-4:1", "1->3:1, 3->4:1, 2->4:1, 1->2:1, 2-3:0"],
                      ["1-2:1, 2-4:1, 1-4:1", "1-2:1, 2-3:1, 3-4:1", "1-2:1, 1-3:1, 2-4:1", "1-2:2, 2-4:1, 2-3:1"],
                      ["1-2=1;x"]),
    "optimal_bst": ({"counts": [5, 1, 5], "optimum": 18, "solution": [0, 3, 1]},
                    ["0 3 1", "3, 1, 0"], ["2 0 2", "0 1 0", "0 1 2", "0 3 3", "0 3"], ["0 3 one"]),
    "chinese_postman": ({"nodes": 4, "edges": [[1, 2, 1], [2, 3, 1], [3, 4, 1], [4, 1, 1], [1, 3, 5]], "optimum": 11,
                         "solution": [1, 3, 2, 1, 2, 3, 4, 1]},
                        ["1 3 2 1 2 3 4 1", "3 4 1 4 3 2 1 3"],
                        ["1 2 3 4 1", "1 2 3 4 1 3 1", "1 2 4 1", "1 2 3 4 1 3"], ["1 2 3 x"]),
    "articulation_points": ({"nodes": 6, "edges": [[1, 2], [2, 3], [1, 3], [3, 4], [4, 5], [3, 5], [5, 6]],
                             "solution": [3, 5]},
                            ["3 5", "5, 3"], ["3", "3 5 4", "3 3 5", "3 5 7"], ["3 and 5"]),
    "bridges": ({"nodes": 8, "edges": [[1, 2], [2, 3], [3, 4], [1, 4], [4, 5], [5, 6], [6, 7], [5, 7], [7, 8]],
                 "solution": [[4, 5], [7, 8]]},
                ["4-5, 7-8", "8-7, (5,4)"], ["4-5", "4-5, 7-8, 1-2", "4-5, 5-4, 7-8", "4-5, 7-9"], ["4 5, 7 8"]),
    "vertex_cover_bipartite": ({"left": 2, "right": 3, "edges": [[1, 3], [1, 4], [1, 5], [2, 3]], "optimum": 2,
                                "solution": [1, 3]},
                               ["1 3", "3, 1", "1 2"], ["1", "1 2 3", "1 1", "1 6"], ["1 & 3"]),
    "dominating_set_tree": ({"nodes": 6, "edges": [[1, 2], [2, 3], [3, 4], [4, 5], [4, 6]], "optimum": 2,
                             "solution": [2, 4]},
                            ["2 4", "4, 1"], ["2 5", "2 3 4", "2 2", "2 7"], ["2 and 4"]),
    "bipartite_check": ({"nodes": 6, "edges": [[1, 2], [2, 3], [3, 4], [4, 5], [5, 1], [5, 6]], "bipartite": False,
                         "solution": ["cycle", [1, 2, 3, 4, 5]]},
                        ["cycle: 1 2 3 4 5", "Cycle: 5 4 3 2 1", "CYCLE: 3, 4, 5, 1, 2", "cycle: 2 3 4 5 1 2"],
                        ["colors: 1 2 1 2 1 2", "cycle: 1 2 3 4", "cycle: 1 2 3", "colors: 1 2", "cycle: 1 2 3 4 5 1 2",
                         "cycle: 1 2 3 4 1"],
                        ["1 2 3 4 5", "cycle 1 2 3 4 5", "colors: red blue"]),
}


def test_every_problem_has_hand_checked_cases():
    assert sorted(CASES) == sorted(PROBLEMS)


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_verifier_on_hand_checked_answers(name):
    reward = classes(name)["reward"]
    inst, right, wrong, malformed = CASES[name]
    identity = {"problem": name, **inst}
    for body in right:
        assert reward.verify_score(tagged(body), identity) == 1.0, body
    for body in wrong:
        score, why = reward.problem.verify(identity, tagged(body))
        assert score == 0.0 and why != "correct" and not why.startswith("malformed"), (body, why)
    for body in malformed:
        assert reward.problem.verify(identity, tagged(body)) == (0.0, f"malformed answer: {body!r}"), body
    assert reward.verify_score(right[0], identity) == 0.0  # no answer block
    assert reward.problem.verify(identity, "no block")[1].startswith("no <answer>")


def test_an_identity_of_another_problem_is_refused():
    with pytest.raises(ValueError, match="lis"):
        classes("lcs")["reward"].check_identity({"problem": "lis"})


def test_answer_parsers():
    assert numbers("3 -> 1 -> 4") == [3, 1, 4] == numbers("3,1;4") == numbers(" [3, 1, 4] ") and numbers("") == []
    assert numbers("[3, 1, 4") is None and numbers("[[3]]") is None
    assert numbers("1 2e3") is None and numbers("١٢") is None and numbers("1 " * 401) is None
    assert pairs("1-4, 2-3") == [(1, 4), (2, 3)] == pairs("(1, 4)\n(2,3)") == pairs("1:4; 2:3")
    assert pairs("1-4 x") is None and pairs("1 4") is None
    assert groups("{1, 4} {2}") == [[1, 4], [2]] and groups("{1} 2") is None and groups("{1} {a}") is None


def _brute_lis(seq):
    return max(len(c) for r in range(len(seq) + 1) for c in itertools.combinations(seq, r)
               if all(a < b for a, b in zip(c, c[1:], strict=False)))


def _brute_cut(n, arcs):
    """The least capacity of arcs leaving S over every S with the source and not the sink."""
    inner = range(2, n)
    best = None
    for r in range(len(inner) + 1):
        for extra in itertools.combinations(inner, r):
            side = {1, *extra}
            cap = sum(c for u, v, c in arcs if u in side and v not in side)
            best = cap if best is None else min(best, cap)
    return best


def _josephus_order(n, k, first):
    circle, pos, out = list(range(1, n + 1)), first - 1, []
    while circle:
        pos = (pos + k - 1) % len(circle)
        out.append(circle.pop(pos))
    return out


def test_the_exact_solvers_agree_with_brute_force():
    rng = random.Random(5)
    for _ in range(60):
        seq = [rng.randint(1, 9) for _ in range(rng.randint(1, 9))]
        assert len(longest_increasing(seq)) == _brute_lis(seq)
        cost = [[rng.randint(1, 20) for _ in range(4)] for _ in range(4)]
        best = min(sum(cost[w][j] for w, j in enumerate(p)) for p in itertools.permutations(range(4)))
        total, jobs = cheapest_assignment(cost)
        assert total == best == sum(cost[w][j - 1] for w, j in enumerate(jobs))
        a, b = ("".join(rng.choice("ab") for _ in range(rng.randint(1, 7))) for _ in range(2))
        brute = max(r for r in range(len(a) + 1) for c in itertools.combinations(a, r)
                    if "".join(c) in {"".join(d) for d in itertools.combinations(b, r)})
        assert len(longest_common(a, b)) == brute
        dims = [rng.randint(2, 30) for _ in range(5)]
        trees = [((1, 2), (3, 4)), (((1, 2), 3), 4), ((1, (2, 3)), 4), (1, ((2, 3), 4)), (1, (2, (3, 4)))]
        assert cheapest(dims)[0] == min(tree_cost(t, dims)[0] for t in trees)
        n = 5
        arcs = [[u, v, rng.randint(1, 9)] for u in range(1, n) for v in range(2, n + 1) if u != v and rng.random() < .5]
        assert max_flow(n, arcs, 1, n)[0] == _brute_cut(n, arcs)
        n, k = rng.randint(3, 40), rng.randint(2, 9)
        first = rng.randint(1, n)
        assert last_removed(n, k, first) == _josephus_order(n, k, first)[-3:]


def test_a_withheld_problem_is_listed_with_its_reason():
    assert set(WITHHELD) < set(PROBLEMS)
    for name, reason in WITHHELD.items():
        manifest = load(f"al/{name}")
        assert not manifest.available and reason in manifest.reason


@pytest.mark.parametrize("name", OFFERED)
def test_rows_are_deterministic_however_they_are_drawn(name):
    bootcamp = get_bootcamp(f"al/{name}")
    forward = TaskSet(bootcamp, seed=7, split="train")
    backward = TaskSet(bootcamp, seed=7, split="train")
    rows = [forward[i] for i in range(12)]
    assert [backward[i] for i in reversed(range(12))] == rows[::-1]
    for row in rows:  # the prompt is fully rendered: no template field left in it
        assert re.search(r"\{[A-Za-z_][A-Za-z_0-9]+", row["prompt"][0]["content"]) is None
    assert [TaskSet(bootcamp, seed=8, split="train")[i] for i in range(12)] != rows


@pytest.mark.parametrize("name", OFFERED)
def test_reference_wins_and_corrupted_answers_and_baselines_lose(name):
    made = classes(name)
    reward, problem = made["reward"], made["generator"].problem
    bootcamp = get_bootcamp(f"al/{name}")
    for group in problem.groups:
        tasks = TaskSet(bootcamp, seed=3, split="test", groups=[group])
        for i in range(8):
            identity = tasks[i]["reward_model"]["ground_truth"]
            policy = made["policy"](identity)
            policy.rng = rng_for(name, i)
            assert reward.verify_score(policy.respond([])["content"], identity) == 1.0
            assert reward.verify_score(policy.respond([], wrong=True)["content"], identity) == 0.0
            for base in problem.baselines:
                assert reward.verify_score(made[f"baseline_{base}"](identity).respond([])["content"], identity) == 0.0


def test_the_new_exact_solvers_agree_with_brute_force():
    from fractions import Fraction

    from bootcamps.al.core import random_graph, random_tree
    from bootcamps.al.problems.bin_packing import fewest_bins
    from bootcamps.al.problems.bracket_repair import balanced, shortest_repair
    from bootcamps.al.problems.determinant import determinant
    from bootcamps.al.problems.graph_coloring import fewest_colors
    from bootcamps.al.problems.job_sequencing import best_schedule, on_time
    from bootcamps.al.problems.knapsack_2d import best_pack
    from bootcamps.al.problems.max_clique import largest_clique
    from bootcamps.al.problems.max_subarray import best_stretch
    from bootcamps.al.problems.partition_count import ways
    from bootcamps.al.problems.permutation_rank import rank
    from bootcamps.al.problems.stable_matching import blocking_pair, gale_shapley
    from bootcamps.al.problems.vertex_cover_tree import lightest_cover

    rng = random.Random(9)
    subsets = lambda xs: (c for r in range(len(xs) + 1) for c in itertools.combinations(xs, r))  # noqa: E731
    for _ in range(25):
        n = rng.randint(3, 5)
        edges = random_graph(rng, n, 0.5)
        near = {u: set() for u in range(1, n + 1)}
        for u, v in edges:
            near[u].add(v)
            near[v].add(u)
        colors = min(k for k in range(1, n + 1) for c in itertools.product(range(k), repeat=n)
                     if all(c[u - 1] != c[v - 1] for u, v in edges))
        assert max(fewest_colors(n, {u: sorted(vs) for u, vs in near.items()})) == colors
        assert len(largest_clique(near)) == max(len(s) for s in subsets(range(1, n + 1))
                                                if all(v in near[u] for u, v in itertools.combinations(s, 2)))
        tree, weight = random_tree(rng, n), [rng.randint(1, 9) for _ in range(n)]
        assert lightest_cover(n, tree, weight)[0] == min(sum(weight[u - 1] for u in s) for s in subsets(range(1, n + 1))
                                                         if all(u in s or v in s for u, v in tree))
        s = "".join(rng.choice("()[]") for _ in range(rng.randint(1, 4)))
        fewest = next(k for k in range(len(s) + 1) for t in itertools.product("()[]", repeat=len(s) + k)
                      if balanced("".join(t)) and is_sub(s, "".join(t)))
        assert len(shortest_repair(s)) == len(s) + fewest
        jobs = [[rng.randint(1, 4), rng.randint(1, 8), rng.randint(1, 9)] for _ in range(rng.randint(1, 5))]
        assert best_schedule(jobs)[0] == max(sum(jobs[k - 1][2] for k in c) for c in subsets(range(1, len(jobs) + 1))
                                             if any(on_time(jobs, list(o)) for o in itertools.permutations(c)))
        items = [[rng.randint(1, 6), rng.randint(1, 6), rng.randint(1, 9)] for _ in range(5)]
        assert best_pack(items, 9, 8)[0] == max(sum(items[k][2] for k in c) for c in subsets(range(5))
                                               if sum(items[k][0] for k in c) <= 9 and sum(items[k][1] for k in c) <= 8)
        m = [[Fraction(rng.randint(-5, 5)) for _ in range(4)] for _ in range(4)]
        assert determinant([[int(x) for x in row] for row in m]) == sum(
            (-1) ** sum(a > b for a, b in itertools.combinations(p, 2)) * m[0][p[0]] * m[1][p[1]] * m[2][p[2]] * m[3][p[3]]
            for p in itertools.permutations(range(4)))
        parts, total = sorted(rng.sample(range(1, 7), 3)), rng.randint(1, 15)
        assert ways(parts, total) == sum(1 for c in itertools.product(*(range(total // q + 1) for q in parts))
                                         if sum(a * q for a, q in zip(c, parts, strict=True)) == total)
        values = [rng.randint(-9, 9) for _ in range(rng.randint(1, 9))]
        assert best_stretch(values)[0] == max(sum(values[i:j]) for i in range(len(values))
                                              for j in range(i + 1, len(values) + 1))
        men, women = ([rng.sample(range(1, n + 1), n) for _ in range(n)] for _ in range(2))
        matched = gale_shapley(men, women)
        assert sorted(w for _, w in matched) == list(range(1, n + 1)) and blocking_pair(men, women, matched) is None
        sizes = [rng.randint(10, 60) for _ in range(rng.randint(1, 6))]
        assert max(fewest_bins(sizes, 100)) == next(
            k for k in range(1, len(sizes) + 1) if any(
                all(sum(s for s, b in zip(sizes, a, strict=True) if b == j) <= 100 for j in range(k))
                for a in itertools.product(range(k), repeat=len(sizes))))
    assert [rank(list(p)) for p in itertools.permutations(range(1, 5))] == list(range(1, 25))


def is_sub(small, big):
    it = iter(big)
    return all(ch in it for ch in small)


def test_the_third_batch_of_solvers_agree_with_brute_force():
    from bootcamps.al.problems.bipartite_check import proof
    from bootcamps.al.problems.inversion_count import inversions
    from bootcamps.al.problems.kth_pair_sum import kth_sum
    from bootcamps.al.problems.max_flow import flow_on_arcs, value
    from bootcamps.al.problems.optimal_bst import cheapest_tree, tree_cost
    from bootcamps.al.problems.palindrome_subsequence import longest_palindrome
    from bootcamps.al.problems.tsp import shortest_tour, tour_length
    from bootcamps.al.problems.widest_path import widest

    def trees(i, j, depth):  # the search cost of every binary search tree on keys i..j
        if i > j:
            yield lambda f: 0
            return
        for r in range(i, j + 1):
            for left in trees(i, r - 1, depth + 1):
                for right in trees(r + 1, j, depth + 1):
                    yield lambda f, r=r, a=left, b=right: f[r - 1] * depth + a(f) + b(f)

    rng = random.Random(13)
    for _ in range(30):
        seq = rng.sample(range(1, 30), rng.randint(1, 9))
        assert inversions(seq) == sum(a > b for a, b in itertools.combinations(seq, 2))
        a, b = [rng.randint(1, 20) for _ in range(3)], [rng.randint(1, 20) for _ in range(4)]
        k = rng.randint(1, 12)
        assert kth_sum(a, b, k) == sorted(x + y for x in a for y in b)[k - 1]
        s = "".join(rng.choice("abc") for _ in range(rng.randint(1, 8)))
        best = longest_palindrome(s)
        assert best == best[::-1] and is_sub(best, s) and len(best) == max(
            r for r in range(1, len(s) + 1) for c in itertools.combinations(s, r) if c == c[::-1])
        n = 5
        dist = [[0] * n for _ in range(n)]
        for i, j in itertools.combinations(range(n), 2):
            dist[i][j] = dist[j][i] = rng.randint(1, 20)
        total, tour = shortest_tour(dist)
        assert total == tour_length(dist, tour) == min(tour_length(dist, [1, *p]) for p in itertools.permutations(range(2, 6)))
        arcs = [[u, v, rng.randint(1, 9)] for u in range(1, n) for v in range(2, n + 1) if u < v and rng.random() < .6]
        flow = flow_on_arcs(n, arcs, 1, n)
        assert value(flow, 1) == _brute_cut(n, arcs) and all(0 <= f <= c for (u, v), f in flow.items()
                                                             for c in [next(a[2] for a in arcs if a[:2] == [u, v])])
        out = {}
        for u, v, c in arcs:
            out.setdefault(u, []).append((v, c))
        paths = [p for r in range(n - 1) for p in itertools.permutations(range(2, n), r)]
        widths = [min(c for x, y, c in arcs for e in zip((1, *p), (*p, n), strict=True) if (x, y) == e)
                  for p in paths if all(any(a[:2] == list(e) for a in arcs) for e in zip((1, *p), (*p, n), strict=True))]
        assert widest(out, 1, n)[0] == max(widths, default=0)
        freq = [rng.randint(1, 9) for _ in range(rng.randint(1, 6))]
        cost, parent = cheapest_tree(freq)
        assert cost == tree_cost(freq, parent) == min(t(freq) for t in trees(1, len(freq), 1))
        edges = random_graph_edges(rng, 6)
        kind, witness = proof(6, edges)
        two = any(all(c[u - 1] != c[v - 1] for u, v in edges) for c in itertools.product((1, 2), repeat=6))
        assert (kind == "colors") == two


def random_graph_edges(rng, n):
    return [[u, v] for u, v in itertools.combinations(range(1, n + 1), 2) if rng.random() < 0.35]


def _lowlink(n, edges):
    """Cut nodes and bridges by Tarjan's depth-first lowlinks (an independent check of the removal tests)."""
    near = {u: [] for u in range(1, n + 1)}
    for k, (u, v) in enumerate(edges):
        near[u].append((v, k))
        near[v].append((u, k))
    order, low, cuts, bridges = {}, {}, set(), set()

    def visit(u, via):
        order[u] = low[u] = len(order)
        children = 0
        for v, k in near[u]:
            if k == via:
                continue
            if v in order:
                low[u] = min(low[u], order[v])
                continue
            children += 1
            visit(v, k)
            low[u] = min(low[u], low[v])
            if low[v] > order[u]:
                bridges.add(frozenset((u, v)))
            if via is not None and low[v] >= order[u]:
                cuts.add(u)
        if via is None and children > 1:
            cuts.add(u)

    visit(1, None)
    return cuts, bridges


def test_cut_nodes_and_bridges_agree_with_lowlinks():
    from bootcamps.al.problems.articulation_points import block_graph, cut_nodes
    from bootcamps.al.problems.bridges import bridge_edges

    rng = random.Random(17)
    for _ in range(40):
        n, edges = block_graph(rng, rng.randint(1, 5), rng.randint(0, 3))
        cuts, bridges = _lowlink(n, edges)
        assert set(cut_nodes(n, edges)) == cuts
        assert {frozenset(e) for e in bridge_edges(n, edges)} == bridges


def test_dominating_set_and_konig_cover_agree_with_brute_force():
    from bootcamps.al.core import random_tree
    from bootcamps.al.problems.dominating_set_tree import smallest_dominating
    from bootcamps.al.problems.vertex_cover_bipartite import konig_cover

    rng = random.Random(19)
    subsets = lambda xs: (set(c) for r in range(len(xs) + 1) for c in itertools.combinations(xs, r))  # noqa: E731
    for _ in range(60):
        n = rng.randint(1, 8)
        edges = random_tree(rng, n)
        near = {u: {v for e in edges for v in e if u in e and v != u} for u in range(1, n + 1)}
        best = smallest_dominating(n, edges)
        assert all(u in best or near[u] & set(best) for u in range(1, n + 1))
        assert len(best) == min(len(c) for c in subsets(range(1, n + 1))
                                if all(u in c or near[u] & c for u in range(1, n + 1)))
        a, b = rng.randint(1, 4), rng.randint(1, 4)
        bip = [[u, a + v] for u in range(1, a + 1) for v in range(1, b + 1) if rng.random() < 0.5]
        cover = konig_cover(a, bip)
        assert all(set(e) & set(cover) for e in bip)
        assert len(cover) == min(len(c) for c in subsets(range(1, a + b + 1)) if all(set(e) & c for e in bip))


def test_flow_reader_is_the_old_one_in_linear_time():
    """read_flows (max_flow, min_cost_flow) with its arc pattern rewritten to start at a "(" or a digit reads
    exactly what the old pattern read (random bodies of digits, arrows, separators, brackets and whitespace), and
    a run of whitespace is read at once (the old pattern: 0.3 s for 4,000 newlines)."""
    import time

    from bootcamps.al.core import MAX_ITEMS
    from bootcamps.al.problems.max_flow import _ARC, read_flows

    old = re.compile(r"\(?\s*([0-9]{1,6})\s*(?:-|->|→)\s*([0-9]{1,6})\s*[:=]\s*([0-9]{1,9})\s*\)?")

    def old_read(body):
        found = old.findall(body)
        if len(found) > MAX_ITEMS or old.sub("", body).strip(" \t\r\n,;"):
            return None
        return [(int(u), int(v), int(f)) for u, v, f in found]

    draw = random.Random(7)
    pieces = ["1", "23", "4567890", "-", "->", "→", ":", "=", "(", ")", " ", "\n", ",", ";", "x", "1-2:5", "(3->4= 6)"]
    bodies = ["".join(draw.choice(pieces) for _ in range(draw.randrange(1, 16))) for _ in range(20000)]
    read = [read_flows(b) for b in bodies]
    assert read == [old_read(b) for b in bodies]
    assert sum(r is not None and len(r) > 0 for r in read) > 300
    assert _ARC.pattern != old.pattern
    started = time.process_time()
    assert read_flows("\n" * 40_000) == []  # nothing but separators: no arc (as before)
    for body in (" " * 40_000 + "x", "(" + " " * 40_000, "1" * 40_000):
        assert read_flows(body) is None
    assert time.process_time() - started < 0.2

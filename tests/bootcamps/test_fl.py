"""fl/*: each task's verifier on hand-checked instances (a correct answer, another correct answer, wrong ones and
malformed ones), the exact solvers against brute force, and the generated rows (deterministic; the reference scores
1, its corrupted answers and every baseline 0)."""
from __future__ import annotations

import itertools
import random
import re

import pytest

from bc_common.catalog import get_bootcamp
from bc_common.tasks import TaskSet
from bootcamps.fl.automata import classes, random_dfa, shortest_difference
from bootcamps.fl.collection import classes as made
from bootcamps.fl.core import satisfied
from bootcamps.fl.grammar import (
    derivable_lengths,
    derived,
    parse_trees,
    random_grammar,
    sample_word,
    tree_counts,
)
from bootcamps.fl.known_issues import WITHHELD
from bootcamps.fl.tasks import TASKS
from bootcamps.fl.tasks.cfg_derivation import leftmost, step_error, tree
from bootcamps.fl.tasks.ctl_check import holds, random_formula
from bootcamps.fl.tasks.horn_least_model import chain
from bootcamps.fl.tasks.lambda_normal_form import normalize, parse, random_term, text
from bootcamps.fl.tasks.ltl_counterexample import evaluate
from bootcamps.fl.tasks.ltl_counterexample import random_formula as random_ltl
from bootcamps.fl.tasks.max_sat import falsified_counts
from bootcamps.fl.tasks.mealy_preimage import preimages
from bootcamps.fl.tasks.mealy_preimage import run as run_mealy
from bootcamps.fl.tasks.min_dnf import cost, covers, minimum_cover, primes
from bootcamps.fl.tasks.nfa_determinize import as_dfa, minimal, subset_dfa
from bootcamps.fl.tasks.petri_reachability import fire, shortest
from bootcamps.fl.tasks.regex_synthesis import all_words, compile_pattern, random_pattern
from bootcamps.fl.tasks.resolution_refutation import replay, resolvent, satisfiable, tree_refutation
from bootcamps.fl.tasks.sat_backbone import backbone
from bootcamps.fl.tasks.unification import unify
from bootcamps.fl.tasks.wang_tiling import count_tilings, fits

OFFERED = sorted(set(TASKS) - set(WITHHELD))


def tagged(body: str) -> str:
    return f"Working...\n<answer>{body}</answer>"


# task: (instance, [correct answers], [wrong answers], [malformed answers])
CASES = {
    "cnf_sat": ({"variables": 3, "clauses": [[1, 2, 3], [-1, -2, 3], [1, -3, 2]], "solution": [1, 3]},
                ["1 3", "2", "[1, 3]"], ["3", "1 1", "4"], ["x1 x3", "1 3.5"]),
    "countermodel": ({"variables": 2, "premises": [["or", ["var", 1], ["var", 2]]], "conclusion": ["var", 1],
                      "solution": [2]},
                     ["2", "[2]"], ["1", "1 2", "none", "3"], ["x2"]),
    "max_sat": ({"variables": 2, "clauses": [[1], [-1], [2], [1, 2]], "optimum": 3, "solution": [2]},
                ["2", "1 2"], ["1", "none"], ["two"]),
    "knights_knaves": ({"people": 3, "statements": [[0, ["is", 1, True]], [1, ["differ", 0, 2]],
                                                     [2, ["both_knaves", 0, 1]]], "solution": ["Ada", "Ben"]},
                       ["Ada, Ben", "Ben and Ada"], ["Ada", "none", "Ada, Ben, Cy", "Ada, Dora", "Ada, Ada"],
                       ["Ada; Zed", "Ada, ben"]),
    "cellular_automaton": ({"rule": 90, "start": "0100", "steps": 1, "solution": "1010"},
                           ["1010", "1 0 1 0"], ["0100", "101", "0101"], ["1a10"]),
    "turing_machine": ({"rules": {"A": [[1, "R", "B"], [0, "L", "A"]], "B": [[1, "L", "A"], [1, "R", "B"]]},
                        "tape": "000", "steps": 2, "solution": ["110", "A", 0]},
                       ["110 A 0", "110, state A, head 0"], ["110 B 0", "100 A 0", "110 A 1"], ["110 A", "11x A 0"]),
    "dfa_minimize": ({"dfa": {"alphabet": "ab", "delta": [[1, 2], [1, 2], [1, 2]], "accepting": [1, 2]},
                      "solution": [[0], [1, 2]]},
                     ["{q0} {q1, q2}", "{q2,q1} {q0}", "{0} {1 2}"], ["{q0} {q1} {q2}", "{q0, q1, q2}", "{q0} {q1}"],
                     ["q0 | q1 q2", "{q0} {qx}"]),
    "dfa_distinguish": ({"first": {"alphabet": "ab", "delta": [[1, 0], [1, 0]], "accepting": [1]},
                         "second": {"alphabet": "ab", "delta": [[0, 0]], "accepting": []}, "length": 1,
                         "solution": "a"},
                        ["a", " a "], ["b", "aa", "empty", "c"], ["a b", "x"]),
    "pcp": ({"tiles": [["b", "ca"], ["a", "ab"], ["ca", "a"], ["abc", "c"]], "limit": 7, "solution": [2, 1, 3, 2, 4]},
            ["2 1 3 2 4", "2, 1, 3, 2, 4"], ["2 1 3", "1", "5", "none", "2 1 3 2 4 2 1 3 2 4"], ["2 1 x"]),
    "string_rewriting": ({"rules": [["ab", "ba"]], "start": "aab", "goal": "baa", "longest": 5, "steps": 2,
                          "solution": ["aba", "baa"]},
                         ["aba, baa", "aab -> aba -> baa"], ["baa", "aba, aba, baa", "aba"], ["ab1"]),
    "unification": ({"left": "f(X, g(Y))", "right": "f(g(Z), X)", "terms": [["f", "X", ["g", "Y"]],
                                                                             ["f", ["g", "Z"], "X"]],
                     "solution": {"X": "g(Y)", "Z": "Y"}},
                    ["X = g(Y); Z = Y", "X = g(Z); Y = Z", "X = g(Z)\nY = Z", "Z = Y; X = g(Z)"],
                    ["X = g(a); Y = a; Z = a", "X = g(Y)", "none", "X = g(Y); Y = Z; Z = Y"],
                    ["X := g(Y)", "x = g(Y)", "X = " + "g(" * 50 + "a" + ")" * 50]),
    "cfg_member": ({"grammar": {"S": [["A", "B"]], "A": [["a"]], "B": [["B", "B"], ["b"]]}, "letters": "abc",
                    "length": 3, "solution": "abb"},
                   ["abb", " abb "], ["aab", "ab", "bbb", "abc"], ["abz", "a1b"]),
    "cfg_ambiguity": ({"grammar": {"S": [["S", "S"], ["a"]]}, "letters": "abc", "length": 3, "solution": "aaa"},
                      ["aaa"], ["aa", "aaaa", "b"], ["abz"]),
    "regex_synthesis": ({"positive": ["", "ab", "abab"], "negative": ["a", "b", "aba"], "limit": 5,
                         "solution": "(ab)*"},
                        ["(ab)*", " (ab)* ", "(ab)*"], ["(ab)+", "(a|b)*", "(ab)*b?"], ["(ab", "a{2}", "[ab]*"]),
    "lambda_normal_form": ({"term": "(\\x. \\y. y x) p", "tree": ["a", ["l", ["l", ["a", ["v", 0], ["v", 1]]]],
                                                                  ["f", "p"]], "steps": 1, "solution": "\\x. x p"},
                           ["\\y. y p", "λz. z p", "\\x.x p", "(\\u. u p)"],
                           ["\\y. p y", "(\\x. \\y. y x) p", "\\y. y q"], ["\\y y p", "(\\y. y p"]),
    "min_dnf": ({"variables": 2, "ones": [[0, 1], [1, 0], [1, 1]], "cost": [2, 2], "solution": "x1 | x2"},
                ["x1 | x2", "x2 + x1", "x1 OR x2"],
                ["x1 | ~x1 & x2", "x1 & x2", "x1 | x2 | x1 & x2", "x1 | y2", "x1 | x3"], []),
    "horn_least_model": ({"variables": 4, "facts": [1], "rules": [[[1], 2], [[2, 3], 4], [[3], 1]], "solution": [1, 2]},
                         ["1 2", "2, 1", "[1, 2]"], ["1", "1 2 3", "1 2 4", "5", "1 1 2", "none"], ["x1 x2"]),
    "ctl_check": ({"successors": [[1], [2], [2]], "labels": [[], [], ["p"]], "formula": ["EX", ["p"]],
                   "solution": [1, 2]},
                  ["s1 s2", "1 2", "s2, s1"], ["s2", "s0 s1 s2", "none", "s1 s2 s3"], ["t1 t2"]),
    "resolution_refutation": ({"variables": 2, "clauses": [[1], [-1, 2], [-2]], "limit": 2, "solution": [[1, 2], [4, 3]]},
                              ["(1, 2) (4, 3)", "1 2, 3 4", "(2,1)(3,4)"],
                              ["(1, 2)", "(1, 3)", "(1, 2) (4, 3) (1, 2)", "none", "(1, 2) (5, 3)"],
                              ["(1, 2) (4)", "(1, x)"]),
    "petri_reachability": ({"net": [[[1, 0], [0, 1]], [[0, 2], [1, 0]]], "start": [2, 0], "target": [1, 0], "limit": 3,
                            "solution": [1, 1, 2]},
                           ["t1 t1 t2", "1 1 2", "t1, t1, t2"], ["t1 t2", "t1", "t3", "t1 t1 t2 t1", "none"],
                           ["t1 x2", "t1.5"]),
    "wang_tiling": ({"tiles": ["RYBG", "GGBY", "BYRY", "RRRR"], "border": {"north": "RG", "south": "RR", "west": "GY",
                                                                          "east": "GY"}, "solution": [[1, 2], [3, 3]]},
                    ["1 2 / 3 3", "1 2\n3 3", "1, 2 / 3, 3"],
                    ["1 2 / 3 4", "1 1 / 3 3", "1 2", "1 2 / 3 3 / 3 3", "1 2 / 3 5"], ["1 2 / 3 x", "a b"]),
    "register_machine": ({"program": [["dec", 0, 1, 2], ["inc", 1, 0], ["halt"]], "start": [2, 1, 0],
                          "solution": [0, 3, 0, 5]},
                         ["r1=0, r2=3, r3=0, steps=5", "R1 = 0; r2 = 3; r3 = 0; steps = 5"],
                         ["r1=0, r2=3, r3=0, steps=4", "r1=2, r2=1, r3=0, steps=0", "r1=0, r2=2, r3=0, steps=5"],
                         ["0 3 0 5", "r1=0, r2=3, steps=5"]),
    "ltl_counterexample": ({"successors": [[1], [0, 1]], "labels": [[], ["p"]], "formula": ["G", ["not", ["p"]]],
                            "longest": 4, "solution": [[0], [1]]},
                           ["s0 (s1)", "(s0 s1)", "s0 s1 (s0 s1)", "0 (1)"],
                           ["(s0)", "s1 (s1)", "s0 s1 s0 (s1 s0)", "s0 (s2)"], ["s0 s1", "s0 (s1", "()"]),
    "nfa_determinize": ({"nfa": {"delta": [[[0, 1], [0]], [[], []]], "accepting": [1]}, "limit": 2,
                         "solution": [["A", {"a": "B", "b": "A"}, False], ["B", {"a": "B", "b": "A"}, True]]},
                        ["A: a->B, b->A; B: a->B, b->A, accept", "X: b->X, a->Y\nY: a->Y, b->X, accepting",
                         "P:a->Q,b->P;Q:a->Q,b->P,accept"],
                        ["A: a->A, b->A, accept", "A: a->B, b->A; B: a->B, b->A",
                         "A: a->B, b->A; B: a->B, b->A, accept; C: a->C", "A: a->B, b->A; B: a->C, b->A, accept",
                         "A: a->B; B: a->B, b->A, accept"],
                        ["A a->B", "A: a->B, b->A, maybe", "A: a->B; A: b->A"]),
    "cfg_derivation": ({"grammar": {"S": [["A", "B"]], "A": [["a"]], "B": [["B", "B"], ["b"]]}, "letters": "abc",
                        "word": "abb", "solution": ["S", "AB", "aB", "aBB", "abB", "abb"]},
                       ["S => A B => a B => a B B => a b B => a b b", "S=>AB=>aB=>aBB=>abB=>abb"],
                       ["S => A B => a B => a b b", "S => abb", "S => A B => A b => a b", "A B => a B",
                        "S => A B => a B => a B B => a b B => a b b => a b b"], ["S -> A B", "S => A1 B"]),
    "mealy_preimage": ({"machine": [[[1, "0"], [0, "1"], [0, "1"]], [[1, "1"], [0, "0"], [1, "0"]]], "target": "01",
                        "solution": "aa"},
                       ["aa", " a a "], ["ab", "a", "aaa", "bb"], ["ad", "a1"]),
    "sat_backbone": ({"variables": 3, "clauses": [[1, 2], [1, -2], [-3, 2]], "model": [1], "solution": [1]},
                     ["x1", "1", "[1]"], ["x1 x2", "NOT x1", "none", "x1 x1", "x4", "x1 NOT x3"], ["x1 y2", "maybe"]),
    "tag_system": ({"rules": {"a": "c", "b": "acb", "c": "bb"}, "start": "abc", "steps": 1, "solution": "cc"},
                   ["cc", " c c "], ["abc", "bb", "ccc"], ["cd", "c1"]),
}


def test_every_task_has_hand_checked_cases():
    assert sorted(CASES) == sorted(TASKS)


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_verifier_on_hand_checked_answers(name):
    reward = made(name)["reward"]
    inst, right, wrong, malformed = CASES[name]
    identity = {"task": name, **inst}
    for body in right:
        assert reward.verify_score(tagged(body), identity) == 1.0, (body, reward.task.verify(identity, tagged(body)))
    for body in wrong:
        score, why = reward.task.verify(identity, tagged(body))
        assert score == 0.0 and why != "correct" and not why.startswith("malformed"), (body, why)
    for body in malformed:
        assert reward.task.verify(identity, tagged(body)) == (0.0, f"malformed answer: {body[:80]!r}"), body
    assert reward.verify_score(right[0], identity) == 0.0  # no answer block
    assert reward.task.verify(identity, "no block")[1].startswith("no <answer>")


def test_an_identity_of_another_task_is_refused():
    with pytest.raises(ValueError, match="cnf_sat"):
        made("max_sat")["reward"].check_identity({"task": "cnf_sat"})


def test_max_sat_counts_agree_with_direct_evaluation():
    rng = random.Random(3)
    for _ in range(20):
        n = rng.randint(2, 6)
        clauses = [[v * rng.choice((1, -1)) for v in rng.sample(range(1, n + 1), rng.randint(1, min(3, n)))]
                   for _ in range(rng.randint(1, 12))]
        counts = falsified_counts(n, clauses)
        for mask in range(1 << n):
            true = {v for v in range(1, n + 1) if mask >> (v - 1) & 1}
            assert counts[mask] == sum(not satisfied(c, true) for c in clauses)


def test_min_dnf_cover_is_the_least_over_every_set_of_primes():
    rng = random.Random(4)
    for _ in range(25):
        n = 3
        rows = list(itertools.product((0, 1), repeat=n))
        ones = set(rng.sample(rows, rng.randint(1, 7)))
        found = primes(n, ones)
        brute = min(cost(list(s)) for k in range(1, len(found) + 1) for s in itertools.combinations(found, k)
                    if all(any(covers(c, r) for c in s) for r in ones))
        best = minimum_cover(found, ones)
        assert cost(best) == brute and all(any(covers(c, r) for c in best) for r in ones)


def test_dfa_classes_and_shortest_difference_agree_with_enumeration():
    rng = random.Random(5)
    for _ in range(20):
        a, b = random_dfa(rng, 4, "ab"), random_dfa(rng, 4, "ab")
        words = ["".join(w) for k in range(7) for w in itertools.product("ab", repeat=k)]

        groups = classes(a)
        for g in groups:
            for p, q in itertools.combinations(sorted(g), 2):
                assert _language(a, p, words) == _language(a, q, words)
        for g, h in itertools.combinations(groups, 2):
            assert _language(a, min(g), words) != _language(a, min(h), words)
        found = shortest_difference(a, b)
        differ = [w for w in words if a.accepts(w) != b.accepts(w)]
        assert (found is None) == (not differ)
        if differ:
            assert len(found) == len(differ[0]) and a.accepts(found) != b.accepts(found)


def _language(dfa, q, words):
    out = []
    for w in words:
        r = q
        for ch in w:
            r = dfa.delta[r][dfa.alphabet.index(ch)]
        out.append(r in dfa.accepting)
    return tuple(out)


def test_cyk_counts_agree_with_the_derivation_table_and_sampled_words_parse():
    rng = random.Random(6)
    for _ in range(15):
        grammar = random_grammar(rng, 4, "ab", binary=2, terminal=0.9)
        table = derived(grammar, 5)["S"]
        for n in range(1, 6):
            for w in ("".join(t) for t in itertools.product("ab", repeat=n)):
                assert parse_trees(grammar, w) == table[n].get(w, 0)
        trees = tree_counts(grammar, 5)["S"]
        assert all(trees[n] >= len(table[n]) and (trees[n] == 0) == (not table[n]) for n in range(1, 6))
        can = derivable_lengths(grammar, 6)
        for n in can["S"]:
            assert parse_trees(grammar, sample_word(grammar, can, "S", n, rng)) >= 1


def test_the_regex_automaton_agrees_with_python_re():
    rng = random.Random(7)
    for _ in range(40):
        pattern = random_pattern(rng, 3)
        nfa, s, e = compile_pattern(pattern)
        for w in all_words(5):
            assert nfa.matches(s, e, w) == bool(re.fullmatch(pattern, w)), (pattern, w)


def test_lambda_normal_forms():
    k, i = "\\x. \\y. x", "\\x. x"
    assert normalize(parse(f"({k}) p q"), 10, 50)[0] == parse("p")
    assert normalize(parse(f"(\\f. \\x. f (f x)) ({i}) q"), 10, 50) == (parse("q"), 4)  # outer, then I (I q), I q, q
    assert normalize(parse("(\\x. x x) (\\x. x x)"), 30, 50) is None  # no normal form
    assert parse("\\x. \\y. x y") == parse("λa b. a b") != parse("\\x. \\y. y x")
    rng = random.Random(8)
    for _ in range(30):
        term = random_term(rng, 2)
        assert parse(text(term)) == term


def test_unifiers():
    assert unify(("f", "X", "b"), ("f", "a", "Y")) == {"X": "a", "Y": "b"}
    assert unify("X", ("g", "X")) is None  # occurs check
    assert unify(("f", "a"), ("g", "a")) is None


@pytest.mark.parametrize("name", OFFERED)
def test_generated_rows_are_deterministic_and_graded(name):
    manifest = get_bootcamp(f"fl/{name}")
    task = made(name)["generator"].task
    rng = random.Random(0)
    for group in manifest.groups:
        rows = TaskSet(manifest, seed=3, split="test", groups=[group.name])
        first = [rows[i] for i in range(3)]
        assert first == [TaskSet(manifest, seed=3, split="test", groups=[group.name])[i] for i in range(3)]
        for row in first:
            identity = row["reward_model"]["ground_truth"]
            assert task.verify(identity, tagged(task.show(task.solve(identity))))[0] == 1.0
            wrong = task.wrong_answer(identity, rng)
            assert wrong is None or task.verify(identity, tagged(task.show(wrong)))[0] == 0.0
            for base in task.baselines:
                answer = task.baseline(base, identity, rng)
                assert answer is None or task.verify(identity, tagged(task.show(answer)))[0] == 0.0, base


def test_horn_chaining_finds_the_intersection_of_all_models():
    rng = random.Random(9)
    for _ in range(30):
        n = 5
        facts = rng.sample(range(1, n + 1), rng.randint(0, 2))
        rules = [[rng.sample(range(1, n + 1), rng.randint(1, 2)), rng.randint(1, n)] for _ in range(rng.randint(1, 6))]
        models = [m for m in (frozenset(v for v in range(1, n + 1) if mask >> (v - 1) & 1) for mask in range(1 << n))
                  if set(facts) <= m and all(h in m or not set(b) <= m for b, h in rules)]
        assert chain(facts, rules)[0] == set.intersection(*map(set, models))


def _paths(succ, s, length):
    """Every path of `length` states from s."""
    out = [[s]]
    for _ in range(length - 1):
        out = [p + [t] for p in out for t in succ[p[-1]]]
    return out


def test_ctl_fixpoints_agree_with_path_enumeration():
    rng = random.Random(10)
    for _ in range(25):
        n = 5
        succ = [sorted(rng.sample(range(n), rng.randint(1, 2))) for _ in range(n)]
        labels = [[a for a in "pq" if rng.random() < 0.5] for _ in range(n)]
        f, g = random_formula(rng, 1), random_formula(rng, 0)
        in_f, in_g = holds(f, succ, labels), holds(g, succ, labels)
        long = n + 1  # a path of n + 1 states repeats one: it stands for an infinite path
        for s in range(n):
            paths = _paths(succ, s, long)
            assert (s in holds(["EG", f], succ, labels)) == any(all(t in in_f for t in p) for p in paths)
            assert (s in holds(["AF", f], succ, labels)) == all(any(t in in_f for t in p) for p in paths)
            until = any(any(p[k] in in_g and all(t in in_f for t in p[:k]) for k in range(long)) for p in paths)
            assert (s in holds(["EU", f, g], succ, labels)) == until
            assert (s in holds(["AG", f], succ, labels)) == all(all(t in in_f for t in p) for p in paths)


def test_resolution_refutations_from_decision_trees_replay():
    rng = random.Random(11)
    checked = 0
    while checked < 20:
        n = 4
        clauses = list({frozenset(v * rng.choice((1, -1)) for v in rng.sample(range(1, n + 1), rng.randint(1, 3)))
                        for _ in range(12)})
        if satisfiable(n, clauses):
            continue
        steps = tree_refutation(n, clauses, rng.sample(range(1, n + 1), n))
        assert replay(clauses, steps)[1] is None
        checked += 1
    assert resolvent(frozenset({1, 2}), frozenset({-1, -2})) is None  # two clashes: a tautology, not a step
    assert replay([frozenset({1, 2}), frozenset({-1, -2})], [(0, 1)])[1].startswith("step 1")


def test_petri_shortest_sequences_are_shortest():
    rng = random.Random(12)
    for _ in range(15):
        net = [[[rng.randint(0, 1) for _ in range(3)], [rng.randint(0, 1) for _ in range(3)]] for _ in range(3)]
        start = tuple(rng.randint(0, 2) for _ in range(3))
        reach = {start: 0}
        frontier = [start]
        for depth in range(1, 5):  # every marking within four firings, by plain enumeration
            frontier = [m2 for m in frontier for t in range(3) if (m2 := fire(net, m, t)) is not None]
            for m in frontier:
                reach.setdefault(m, depth)
        for goal, depth in reach.items():
            path = shortest(net, start, goal, 4)
            assert path is not None and len(path) == depth
            m = start
            for t in path:
                m = fire(net, m, t)
            assert m == goal


def test_wang_tilings_counted_by_backtracking_agree_with_enumeration():
    rng = random.Random(13)
    for _ in range(20):
        tiles = sorted({"".join(rng.choice("RG") for _ in range(4)) for _ in range(6)})
        border = {side: "".join(rng.choice("RG") for _ in range(2)) for side in ("north", "east", "south", "west")}
        grids = [[list(cells[:2]), list(cells[2:])] for cells in itertools.product(range(len(tiles)), repeat=4)]
        assert count_tilings(tiles, border, 2, 1000) == sum(fits(tiles, border, g) is None for g in grids)


def _ahead(i, start, n):
    """The lasso positions from i on, enough of them to see every position it repeats (the loop starts at start)."""
    out = []
    for _ in range(2 * n):
        out.append(i)
        i = i + 1 if i + 1 < n else start
    return out


def test_ltl_on_lassos_agrees_with_reading_the_positions_ahead():
    rng = random.Random(14)
    for _ in range(40):
        labels = [[a for a in "pq" if rng.random() < 0.5] for _ in range(6)]
        prefix, loop = rng.sample(range(6), rng.randint(0, 2)), rng.sample(range(6), rng.randint(1, 3))
        n = len(prefix) + len(loop)
        f, g = random_ltl(rng, 1), random_ltl(rng, 0)
        vf, vg = evaluate(f, labels, prefix, loop), evaluate(g, labels, prefix, loop)
        for i in range(n):
            seq = _ahead(i, len(prefix), n)
            assert evaluate(["F", f], labels, prefix, loop)[i] == any(vf[j] for j in seq)
            assert evaluate(["G", f], labels, prefix, loop)[i] == all(vf[j] for j in seq)
            assert evaluate(["X", f], labels, prefix, loop)[i] == vf[seq[1]]
            assert evaluate(["U", f, g], labels, prefix, loop)[i] == any(
                vg[seq[k]] and all(vf[j] for j in seq[:k]) for k in range(len(seq)))


def test_the_minimal_dfa_accepts_what_the_nfa_accepts_and_no_two_states_agree():
    rng = random.Random(15)
    words = ["".join(w) for k in range(8) for w in itertools.product("ab", repeat=k)]
    for _ in range(20):
        n = 4
        nfa = {"delta": [[sorted(rng.sample(range(n), rng.randint(0, 2))) for _ in "ab"] for _ in range(n)],
               "accepting": sorted(rng.sample(range(n), rng.randint(1, 2)))}

        def runs(w, nfa=nfa):
            now = {0}
            for ch in w:
                now = {r for q in now for r in nfa["delta"][q]["ab".index(ch)]}
            return bool(now & set(nfa["accepting"]))

        states, k = minimal(subset_dfa(nfa))
        dfa = as_dfa(states)
        assert all(dfa.accepts(w) == runs(w) for w in words)
        languages = {_language(dfa, q, words) for q in range(k)}
        assert len(languages) == k  # no two states accept the same words: none can be merged


def test_a_parse_tree_exists_exactly_for_the_words_cyk_parses_and_reads_as_a_leftmost_derivation():
    rng = random.Random(16)
    for _ in range(15):
        grammar = random_grammar(rng, 4, "ab", binary=2, terminal=0.9)
        for w in ("".join(t) for n in range(1, 6) for t in itertools.product("ab", repeat=n)):
            t = tree(grammar, w)
            assert (t is not None) == (parse_trees(grammar, w) > 0)
            if t is not None:
                forms = leftmost(t)
                assert forms[0] == "S" and forms[-1] == w and len(forms) == 2 * len(w)
                assert all(step_error(grammar, a, b) is None for a, b in zip(forms, forms[1:], strict=False))


def test_mealy_preimages_are_counted_as_enumeration_counts_them():
    rng = random.Random(17)
    for _ in range(20):
        machine = [[[rng.randrange(3), rng.choice("01")] for _ in "abc"] for _ in range(3)]
        target = "".join(rng.choice("01") for _ in range(5))
        inputs = ("".join(t) for t in itertools.product("abc", repeat=5))
        assert preimages(machine, target) == sum(run_mealy(machine, w) == target for w in inputs)


def test_the_backbone_is_what_every_model_agrees_on():
    rng = random.Random(18)
    for _ in range(30):
        n = 5
        clauses = [[v * rng.choice((1, -1)) for v in rng.sample(range(1, n + 1), rng.randint(1, 3))]
                   for _ in range(rng.randint(2, 9))]
        found = [{v for v in range(1, n + 1) if mask >> (v - 1) & 1} for mask in range(1 << n)]
        models = [m for m in found if all(satisfied(c, m) for c in clauses)]
        expected = None if not models else [v if all(v in m for m in models) else -v for v in range(1, n + 1)
                                            if all(v in m for m in models) or all(v not in m for m in models)]
        assert backbone(n, clauses) == expected

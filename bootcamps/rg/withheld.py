"""rg datasets withheld by default: each fails a check of the conformance suite (attack or signal) on the
reclassification sample; `BC_INCLUDE_KNOWN_ISSUES=1` offers them anyway. Written by scripts/rg_reclassify.py
(dataset -> the failing checks with their measured numbers); do not edit by hand, run the script."""
from __future__ import annotations

WITHHELD: dict[str, str] = {
    'ab': "most_frequent_answer: the answer '<answer>#A B# B# A#</answer>' solves 5 of 200",
    'acre': 'baselines_score_low: group default: builtin:baseline/frequent: mean reward 0.440 (limit 0.25), success 44.0% (limit 5.0%), n=50',
    'aiw': "cross_instance_answers: 176 of 1000 answers of one task solve another, e.g. [('rg/aiw-60d298880264a0fe', 'rg/aiw-60a524a216d6450a'), ('rg/aiw-7f8eed1b8e29dfca', 'rg/aiw-dd8ec814add3aed0'), ('rg/aiw-eb1fe17751ae207f', 'rg/aiw-a3505c5567573757')]",
    'basic_arithmetic': "most_frequent_answer: the answer '<answer>-3</answer>' solves 5 of 200",
    'binary_alternation': 'baselines_score_low: group default: builtin:baseline/frequent: mean reward 0.240 (limit 0.25), success 24.0% (limit 5.0%), n=50',
    'calendar_arithmetic': "cross_instance_answers: 53 of 1000 answers of one task solve another, e.g. [('rg/calendar_arithmetic-390a32a2137f41ed', 'rg/calendar_arithmetic-2e29faa5f076edc4'), ('rg/calendar_arithmetic-7d44f8405b5882f3', 'rg/calendar_arithmetic-4355884034e88809'), ('rg/calendar_arithmetic-4355884034e88809', 'rg/calendar_arithmetic-3ab6",
    'chain_sum': "most_frequent_answer: the answer '<answer>6</answer>' solves 5 of 200",
    'circuit_logic': 'baselines_score_low: group default: builtin:baseline/frequent: mean reward 0.600 (limit 0.25), success 60.0% (limit 5.0%), n=50; group default: builtin:baseline/copy_number: mean reward 0.580 (limit 0.25), success 58.0% (limit 5.0%), n=50',
    'codeio': "most_frequent_answer: the answer '<answer>34</answer>' solves 2 of 50",
    'coin_flip': 'baselines_score_low: group default: builtin:baseline/frequent: mean reward 0.140 (limit 0.25), success 14.0% (limit 5.0%), n=50; group default: builtin:baseline/copy_number: mean reward 0.060 (limit 0.25), success 6.0% (limit 5.0%), n=50',
    'color_cube_rotation': 'baselines_score_low: group default: builtin:baseline/frequent: mean reward 0.069 (limit 0.25), success 6.0% (limit 5.0%), n=50',
    'complex_arithmetic': 'noisy_below_reference: reference 1.000, noisy 0.969: gap 0.031 < 0.1 (n=50)',
    'count_bits': 'baselines_score_low: group default: builtin:baseline/frequent: mean reward 0.080 (limit 0.25), success 8.0% (limit 5.0%), n=50',
    'course_schedule': 'baselines_score_low: group default: builtin:baseline/frequent: mean reward 0.540 (limit 0.25), success 54.0% (limit 5.0%), n=50',
    'dice': "most_frequent_answer: the answer '<answer>11/20</answer>' solves 6 of 200",
    'family_relationships': 'baselines_score_low: group default: builtin:baseline/frequent: mean reward 0.160 (limit 0.25), success 16.0% (limit 5.0%), n=50',
    'futoshiki': 'time: not classified: the suite did not finish within 900 s on 50 items (items too slow to make or to score)',
    'game_of_life': 'baselines_score_low: group default: builtin:baseline/frequent: mean reward 0.967 (limit 0.25), success 10.0% (limit 5.0%), n=50',
    'game_of_life_halting': 'baselines_score_low: group default: builtin:baseline/frequent: mean reward 1.000 (limit 0.25), success 100.0% (limit 5.0%), n=50; group default: builtin:baseline/copy_number: mean reward 1.000 (limit 0.25), success 100.0% (limit 5.0%), n=50; group default: builtin:baseline/banana: mean reward 1.000 (limit 0.25), success',
    'gcd': 'baselines_score_low: group default: builtin:baseline/frequent: mean reward 0.300 (limit 0.25), success 30.0% (limit 5.0%), n=50',
    'graph_color': "cross_instance_answers: 103 of 1000 answers of one task solve another, e.g. [('rg/graph_color-d375cb32c9ebb37f', 'rg/graph_color-62affc1f167ca327'), ('rg/graph_color-435962135fd770d0', 'rg/graph_color-b93e4f1ffc1f1011'), ('rg/graph_color-87cca0f52c97456f', 'rg/graph_color-ef67b9e406967118')]",
    'gsm_symbolic': "most_frequent_answer: the answer '<answer>50</answer>' solves 6 of 200",
    'intermediate_integration': 'time: not classified: the suite did not finish within 900 s on 50 items (items too slow to make or to score)',
    'isomorphic_strings': 'baselines_score_low: group default: builtin:baseline/frequent: mean reward 0.540 (limit 0.25), success 54.0% (limit 5.0%), n=50',
    'jugs': "distinct_per_group: group default: 6.0% identical prompts (6 of 100; allowed 3); declare conformance['space_size'] if the group is that small",
    'knight_swap': 'time: not classified: the suite did not finish within 900 s on 50 items (items too slow to make or to score)',
    'largest_island': 'baselines_score_low: group default: builtin:baseline/frequent: mean reward 0.180 (limit 0.25), success 18.0% (limit 5.0%), n=50; group default: builtin:baseline/copy_number: mean reward 0.180 (limit 0.25), success 18.0% (limit 5.0%), n=50',
    'lcm': 'baselines_score_low: group default: builtin:baseline/copy_number: mean reward 0.100 (limit 0.25), success 10.0% (limit 5.0%), n=50',
    'leg_counting': "most_frequent_answer: the answer '<answer>214</answer>' solves 5 of 200",
    'letter_counting': 'baselines_score_low: group default: builtin:baseline/frequent: mean reward 0.200 (limit 0.25), success 20.0% (limit 5.0%), n=50',
    'letter_jumble': 'noisy_below_reference: reference 1.000, noisy 0.939: gap 0.061 < 0.1 (n=50)',
    'list_functions': 'baselines_score_low: group default: builtin:baseline/frequent: mean reward 0.080 (limit 0.25), success 8.0% (limit 5.0%), n=50',
    'mahjong_puzzle': 'baselines_score_low: group default: builtin:baseline/frequent: mean reward 0.360 (limit 0.25), success 36.0% (limit 5.0%), n=50',
    'manipulate_matrix': 'baselines_score_low: group default: builtin:baseline/copy_number: mean reward 0.067 (limit 0.25), success 6.0% (limit 5.0%), n=50',
    'maze': 'baselines_score_low: group default: builtin:baseline/frequent: mean reward 0.180 (limit 0.25), success 18.0% (limit 5.0%), n=50',
    'mini_sudoku': 'noisy_below_reference: reference 1.000, noisy 0.950: gap 0.050 < 0.1 (n=50)',
    'n_queens': "cross_instance_answers: 26 of 1000 answers of one task solve another, e.g. [('rg/n_queens-4ab2da4ec72d7260', 'rg/n_queens-9de5caefcb24cf9f'), ('rg/n_queens-9472600de02cf540', 'rg/n_queens-f2eb4a3d8726cada'), ('rg/n_queens-9169ea97282273c1', 'rg/n_queens-ad5014229514fd8a')]",
    'number_format': 'baselines_score_low: group default: builtin:baseline/copy_number: mean reward 0.100 (limit 0.25), success 10.0% (limit 5.0%), n=50',
    'number_sequence': 'baselines_score_low: group default: builtin:baseline/copy_number: mean reward 0.220 (limit 0.25), success 22.0% (limit 5.0%), n=50',
    'polynomial_equations': 'baselines_score_low: group default: builtin:baseline/frequent: mean reward 0.339 (limit 0.25), success 28.0% (limit 5.0%), n=50',
    'power_function': 'baselines_score_low: group default: builtin:baseline/frequent: mean reward 0.129 (limit 0.25), success 12.0% (limit 5.0%), n=50',
    'prime_factorization': "distinct_per_group: group default: 7.0% identical prompts (7 of 100; allowed 3); declare conformance['space_size'] if the group is that small",
    'products': 'baselines_score_low: group default: builtin:baseline/frequent: mean reward 0.060 (limit 0.25), success 6.0% (limit 5.0%), n=50; group default: builtin:baseline/copy_number: mean reward 0.080 (limit 0.25), success 8.0% (limit 5.0%), n=50',
    'propositional_logic': "cross_instance_answers: 458 of 1000 answers of one task solve another, e.g. [('rg/propositional_logic-b4ac20dee8b24b6f', 'rg/propositional_logic-81d73e1625bee437'), ('rg/propositional_logic-81d73e1625bee437', 'rg/propositional_logic-5a1f7c00e8928f15'), ('rg/propositional_logic-2831ff73e7768ff5', 'rg/propositional_logic-b00",
    'puzzle24': 'baselines_score_low: group default: builtin:baseline/frequent: mean reward 1.000 (limit 0.25), success 100.0% (limit 5.0%), n=50',
    'quantum_lock': "most_frequent_answer: the answer '<answer>C → A → A</answer>' solves 2 of 50",
    'ransom_note': 'baselines_score_low: group default: builtin:baseline/frequent: mean reward 0.500 (limit 0.25), success 50.0% (limit 5.0%), n=50',
    'rearc': "most_frequent_answer: the answer '<answer>0</answer>' solves 6 of 200",
    'rectangle_count': 'baselines_score_low: group default: builtin:baseline/frequent: mean reward 0.422 (limit 0.25), success 16.0% (limit 5.0%), n=50; group default: builtin:baseline/copy_number: mean reward 0.365 (limit 0.25), success 8.0% (limit 5.0%), n=50',
    'rotten_oranges': 'baselines_score_low: group default: builtin:baseline/frequent: mean reward 0.060 (limit 0.25), success 6.0% (limit 5.0%), n=50',
    'rush_hour': 'time: not classified yet: the reclassification run of 2026-12-01 was stopped before it reached this dataset (make rg-reclassify)',
    'self_reference': 'baselines_score_low: group default: builtin:baseline/frequent: mean reward 0.260 (limit 0.25), success 26.0% (limit 5.0%), n=50',
    'shortest_path': 'baselines_score_low: group default: builtin:baseline/frequent: mean reward 0.300 (limit 0.25), success 30.0% (limit 5.0%), n=50',
    'simple_equations': 'time: not classified yet: the reclassification run of 2026-12-01 was stopped before it reached this dataset (make rg-reclassify)',
    'simple_geometry': 'time: not classified yet: the reclassification run of 2026-12-01 was stopped before it reached this dataset (make rg-reclassify)',
    'simple_integration': 'time: not classified yet: the reclassification run of 2026-12-01 was stopped before it reached this dataset (make rg-reclassify)',
    'sokoban': 'time: not classified: the suite did not finish within 900 s on 50 items (items too slow to make or to score)',
    'string_splitting': "distinct_per_group: group default: 20.0% identical prompts (20 of 100; allowed 3); declare conformance['space_size'] if the group is that small",
    'string_synthesis': "distinct_per_group: group default: 16.0% identical prompts (16 of 100; allowed 3); declare conformance['space_size'] if the group is that small",
    'sudoku': 'noisy_below_reference: reference 1.000, noisy 0.975: gap 0.025 < 0.1 (n=50)',
    'syllogism': 'baselines_score_low: group default: builtin:baseline/frequent: mean reward 0.740 (limit 0.25), success 74.0% (limit 5.0%), n=50',
    'time_intervals': 'noisy_below_reference: reference 1.000, noisy 0.996: gap 0.004 < 0.1 (n=50)',
    'tower_of_hanoi': "distinct_per_group: group default: 40.0% identical prompts (40 of 100; allowed 3); declare conformance['space_size'] if the group is that small",
    'tsumego': "most_frequent_answer: the answer '<answer>I5</answer>' solves 7 of 200",
    'word_sorting': 'noisy_below_reference: reference 1.000, noisy 0.951: gap 0.049 < 0.1 (n=50)',
    'zebra_puzzles': 'baselines_score_low: group default: builtin:baseline/frequent: mean reward 0.300 (limit 0.25), success 30.0% (limit 5.0%), n=50',
}

# default answers that are a decision among k labels (the answer balance keeps them uniform): the
# conformance suite's `actions` (a constant answer may earn 1/k)
LABELS: dict[str, int] = {
}

# default answers that repeat within the training sample (the answer balance flattens them): the
# conformance suite's `small_answer_space` (answers balanced instead of never repeated)
SMALL: dict[str, str] = {
}

"""What the conformance suite finds in some reasoning-gym datasets, with the reason. A known issue is reported as
an expected failure (xfail) with its reason, and `bc-gen --describe rg/NAME` shows it; nothing is dropped.

The figures are those of the conformance sample (seed 11, split `conformance`) with reasoning-gym 0.1.25.
"""
from __future__ import annotations

CONFORMANCE_N = 200  # tasks per dataset in the conformance suite: the platform's default
DISTINCT_N = 100  # rows per dataset for the distinctness check (the suite scales its limits to this size)
# datasets whose items take long to make or to score get a smaller sample, but never under the 50 items every
# check of an adapter's dataset runs on (bc_common.conformance.thresholds: adapter_min_n)
SAMPLE: dict[str, int] = {
    name: 50 for name in (
        # items take a second or more to make
        "futoshiki", "knight_swap", "sokoban", "zebra_puzzles", "puzzle24", "quantum_lock", "countdown",
        "polynomial_equations", "polynomial_multiplication", "sudoku",
        # sympy scorers take 0.1-2 s per wrong answer (the cross-instance check grades up to 1000 of them)
        "intermediate_integration", "simple_integration",
        # scorers of tens of milliseconds, or a breadth-first solver in the reference
        "codeio", "rubiks_cube", "rush_hour")
}

# curriculum levels not offered as groups: no item of theirs has an answer the verifier accepts
NO_ANSWER_LEVELS: dict[str, dict[str, str]] = {
    "rubiks_cube": {"level_3": "6-cubes: the scorer drops layer numbers (2F), and inner layers of a 6-cube cannot "
                               "be turned without them"},
}


def _set(kind: str) -> str:
    return f"the answer is {kind}"


# Tiny answer spaces: the most-frequent-answer check asks for a balanced split of answers instead.
SMALL_ANSWER_SPACE: dict[str, str] = {
    "acre": _set("on, off or undetermined"),
    "circuit_logic": _set("0 or 1"),
    "course_schedule": _set("True or False"),
    "isomorphic_strings": _set("True or False"),
    "ransom_note": _set("True or False"),
    "syllogism": _set("Yes or No"),
    "mahjong_puzzle": _set("Peng, Chi or Pass"),
    "color_cube_rotation": _set("one of a dozen colour names"),
    "family_relationships": _set("one of about twenty relation words"),
    "zebra_puzzles": _set("one of the puzzle's few names or attributes"),
    "aiw": _set("a small count (number of siblings or colleagues)"),
    "binary_alternation": _set("a small number of swaps, or -1"),
    "count_bits": _set("a bit count between 0 and 32"),
    "gcd": _set("a greatest common divisor, mostly a small number"),
    "largest_island": _set("a small island area, often 0"),
    "letter_counting": _set("a letter count, mostly 0 to 5"),
    "maze": _set("a shortest path length of a few steps"),
    "rectangle_count": _set("a small count of rectangles"),
    "self_reference": _set("a number of true statements between 0 and 7"),
}


def _small(share: str) -> str:
    return f"answers come from a small set: another item's answer is right on {share} graded pairs"


def _repeats(answer: str, hits: int, n: int) -> str:
    return (f"answers repeat across items: {answer} is the answer of {hits} of {n} sampled items, so a constant "
            f"answer earns about {100 * hits / n:.1f}%")


# dataset -> {conformance check: why it fails}
KNOWN_ISSUES: dict[str, dict[str, str]] = {
    **{name: {"cross_instance_answers": _small(share)} for name, share in {
        "acre": "362 of 1000", "circuit_logic": "498 of 1000", "course_schedule": "492 of 1000",
        "isomorphic_strings": "484 of 1000", "ransom_note": "486 of 1000", "syllogism": "534 of 1000",
        "mahjong_puzzle": "341 of 1000", "color_cube_rotation": "66 of 1000", "family_relationships": "108 of 1000",
        "zebra_puzzles": "54 of 132", "aiw": "176 of 1000", "binary_alternation": "111 of 1000",
        "count_bits": "100 of 1000", "gcd": "173 of 1000", "largest_island": "56 of 1000",
        "letter_counting": "209 of 1000", "maze": "237 of 1000", "rectangle_count": "97 of 1000",
        "self_reference": "238 of 1000",
    }.items()},
    # the verifier accepts answers that do not answer the item
    "game_of_life_halting": {
        check: "reasoning-gym's score_answer compares bool(answer) with bool(stored answer): every non-empty "
               "answer scores 1.0, the prompt included" for check in
        ("prompt_does_not_give_the_answer", "cross_instance_answers", "most_frequent_answer")},
    "puzzle24": {
        check: "reasoning-gym's score_answer checks that the expression makes 24, not that it uses the item's "
               "numbers: one answer solves every item (the seed's puzzle24 defect; the game24 bootcamp does it "
               "right)" for check in ("cross_instance_answers", "most_frequent_answer")},
    "propositional_logic": {
        check: "any non-trivial conclusion that follows from the premises scores 1.0, and short ones such as ¬Q "
               "follow from many items' premises over the same variables (¬Q solves 66 of 200)"
        for check in ("cross_instance_answers", "most_frequent_answer")},
    "graph_color": {
        check: "any proper colouring scores 1.0, and the sparse default graphs on vertices 0-9 share colourings "
               "(103 of 1000 pairs; one colouring solves 13 of 200)"
        for check in ("cross_instance_answers", "most_frequent_answer")},
    "n_queens": {
        check: "any completion of the board scores 1.0, and an 8-queens solution completes other items' boards "
               "too (26 of 1000 pairs; one solves 10 of 200)" for check in ("cross_instance_answers",
                                                                            "most_frequent_answer")},
    "jugs": {
        check: "any move list that measures the target scores 1.0, and one list often works for other items' "
               "jugs (28 of 1000 pairs; one solves 9 of 200)" for check in ("cross_instance_answers",
                                                                           "most_frequent_answer")},
    "calendar_arithmetic": {
        check: "some question kinds have Yes/No or weekday answers ('No' solves 23 of 200; 53 of 1000 pairs)"
        for check in ("cross_instance_answers", "most_frequent_answer")},
    "shortest_path": {
        check: "'infeasible' is the answer of 76 of 200 sampled items (147 of 1000 pairs)"
        for check in ("cross_instance_answers", "most_frequent_answer")},
    "rotten_oranges": {
        check: "-1 (not every orange rots) is the answer of 72 of 200 sampled items (225 of 1000 pairs)"
        for check in ("cross_instance_answers", "most_frequent_answer")},
    "number_sequence": {
        check: "0 is the next term of 24 of 200 sampled sequences (22 of 1000 pairs)"
        for check in ("cross_instance_answers", "most_frequent_answer")},
    "polynomial_equations": {
        check: "0 is a root of many equations: 0.0 solves 4 of 20 sampled items (12 of 380 pairs)"
        for check in ("cross_instance_answers", "most_frequent_answer")},
    # a frequent answer pays more than 2%
    "ab": {"most_frequent_answer": _repeats("'#A B# B# A#'", 5, 200)},
    "basic_arithmetic": {"most_frequent_answer": _repeats("-3", 5, 200)},
    "chain_sum": {"most_frequent_answer": _repeats("6", 5, 200)},
    "coin_flip": {"most_frequent_answer": _repeats("0.5", 13, 200)},
    "dice": {"most_frequent_answer": _repeats("11/20", 6, 200)},
    "game_of_life": {"most_frequent_answer": _repeats("the empty board", 23, 200)},
    "gsm_symbolic": {"most_frequent_answer": _repeats("50", 6, 200)},
    "leg_counting": {"most_frequent_answer": _repeats("214", 5, 200)},
    "list_functions": {"most_frequent_answer": _repeats("[1]", 10, 200)},
    "manipulate_matrix": {"most_frequent_answer": _repeats("0", 9, 200)},
    "power_function": {"most_frequent_answer": _repeats("1.0", 27, 200)},
    "products": {"most_frequent_answer": _repeats("0", 12, 200)},
    "rearc": {"most_frequent_answer": _repeats("0", 6, 200)},
    "simple_equations": {"most_frequent_answer": _repeats("60", 7, 200)},
    "string_splitting": {"most_frequent_answer": _repeats("'0 0 0 1 0 3'", 6, 200)},
    "string_synthesis": {"most_frequent_answer": _repeats("'0 0 0 1 0 0 1 1 0'", 6, 200)},
    "tower_of_hanoi": {"most_frequent_answer": _repeats("the 3-disk solution", 6, 200)},
    "tsumego": {"most_frequent_answer": _repeats("I5", 7, 200)},
    # reasoning-gym's own scorer is slower than the 50 ms budget on any answer
    **{name: {"hostile_text": "reasoning-gym's sympy scorer takes 50-100 ms even on a one-character answer "
                             "(and 0.1-2 s on a wrong expression)"}
       for name in ("intermediate_integration", "simple_integration")},
}

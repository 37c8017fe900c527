"""The OpenSpiel games the adapter offers, and those it lists unavailable with the measured reason (open-spiel
2.0.2; measured with positions.draw at the boards of games.py)."""
from __future__ import annotations

CONFORMANCE_N = 50  # tasks per game in the attack checks: the least an adapter's bootcamp is checked on
DISTINCT_N = 100  # rows per group for distinctness (the suite scales its limits to this size)

OFFERED = ("hex",)

UNAVAILABLE: dict[str, str] = {
    "breakthrough": "fails the conformance suite's cross_instance_answers (30 of 1,000 reference answers of one task "
                    "win another: races to the far row share their moves) and most_frequent_answer (one pair of "
                    "moves wins 6 of 50 tasks)",
    "mnk": "fails the conformance suite's most_frequent_answer on 5x5 and 6x6 boards (four in a row): one pair of "
           "moves wins 2 of 50 tasks (limit 1)",
    "connect_four": "no position with a forced win in 2 that random play finds with at most 2% chance: 0 kept of "
                    "1,023 random games (7 columns: a random mover finds each of the two moves 1 time in 7)",
    "clobber": "no position with a forced win in exactly 2 within the 3,000-node proof budget: 0 kept of 3,367 "
               "random games on 5x5, 0 of 1,420 on 6x6",
    "othello": "no endgame position with a forced win in exactly 2 within the 3,000-node proof budget: 0 kept of "
               "1,449 random games",
    "dots_and_boxes": "no position with a forced win in exactly 2 (the most boxes at the end) within the "
                      "3,000-node proof budget: 0 kept of 43,109 random games on 2x2",
}

"""The OpenSpiel games the adapter offers, and those it lists unavailable with the measured reason (open-spiel
2.0.2; measured with positions.draw at the boards of games.py)."""
from __future__ import annotations

# tasks per game in the attack checks (the least for an adapter is 50): small boards repeat their tactics, so a
# constant pair of moves wins a few tasks; 150 measures that share (limit 2%) on more than one coincidence
CONFORMANCE_N = 150
DISTINCT_N = 100  # rows per group for distinctness (the suite scales its limits to this size)

OFFERED = ("hex", "y")

UNAVAILABLE: dict[str, str] = {
    "breakthrough": "fails the conformance suite's cross_instance_answers (30 of 1,000 reference answers of one task "
                    "win another: races to the far row share their moves) and most_frequent_answer (one pair of "
                    "moves wins 6 of 50 tasks)",
    "mnk": "fails the conformance suite's most_frequent_answer (four in a row): one pair of moves wins 6 of 150 "
           "tasks on 5x5, 4 of 150 on 6x6 and on 7x7 (limit 2%; 7x7 also takes 0.95 s a row)",
    "connect_four": "no position with a forced win in 2 that random play finds with at most 2% chance: 0 kept of "
                    "1,023 random games (7 columns: a random mover finds each of the two moves 1 time in 7)",
    "clobber": "no position with a forced win in exactly 2 within the 3,000-node proof budget: 0 kept of 3,367 "
               "random games on 5x5, 0 of 1,420 on 6x6",
    "othello": "no endgame position with a forced win in exactly 2 within the 3,000-node proof budget: 0 kept of "
               "1,449 random games",
    "checkers": "OpenSpiel's checkers text leaves out a capture sequence in progress (and the draw counter), so the "
                "exact search cannot remember positions by their text: a reference replay found no winning move "
                "where the generator had proved one; and a row takes 0.52 s",
    "havannah": "fails the conformance suite's most_frequent_answer: one pair of moves wins 4 of 150 tasks on size 5 "
                "and 6 of 150 on size 4 (limit 2%)",
    "twixt": "fails the conformance suite's most_frequent_answer on 8x8: one pair of moves wins 4 of 150 tasks "
             "(limit 2%); every other check passes (random and first_legal 0.00, 0.27 s a row)",
    "tic_tac_toe": "no position with a forced win in 2 that random play finds with at most 2% chance: 0 kept of "
                   "91,848 random games (too few empty cells)",
    "pentago": "too slow to generate: 7.6 s a row (288 moves a turn: a proof in 2 moves rarely fits the 3,000-node "
               "budget; 1 position kept of 3 random games in 7.6 s)",
    "oware": "no position with a forced win in exactly 2 (more than half the seeds) within the 3,000-node proof "
             "budget: 0 kept of 152 random games",
    "nine_mens_morris": "too slow to generate: 5.1 s a row (1 position kept of 83 random games)",
    "lines_of_action": "too slow to generate: no position kept in 5.8 s (2 random games; 30+ moves a turn)",
    "ultimate_tic_tac_toe": "no position with a forced win in exactly 2 within the 3,000-node proof budget: 0 kept of "
                            "221 random games",
    "antichess": "no position with a forced win in exactly 2 within the 3,000-node proof budget: 0 kept of 28 "
                 "random games in 5 s",
    "amazons": "no position with a forced win in exactly 2 within the 3,000-node proof budget: 0 kept of 125 "
               "random games in 5 s (hundreds of moves a turn)",
    "dots_and_boxes": "no position with a forced win in exactly 2 (the most boxes at the end) within the "
                      "3,000-node proof budget: 0 kept of 43,109 random games on 2x2",
}

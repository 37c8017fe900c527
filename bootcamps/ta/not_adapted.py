"""Why a TextArena game that starts offline is not adapted: the design reason, where one is known, in place of the
survey's "not adapted yet" (bootcamps/ta/catalogue.py). A bootcamp must have a reference that wins every task
and baselines that win almost none; these games give no such design with the adapter as it is."""
from __future__ import annotations

CHANCE = ("a game of chance or hidden cards: no policy wins every deal, so no reference wins every task "
          "(the conformance suite's first check)")
SIMULTANEOUS = ("a simultaneous-move or bargaining game against another player: the result depends on the "
                "opponent's choices, and a scripted opponent the reference always beats is a script to exploit, "
                "not the game")
LARGE_BOARD = ("a two-player board game with no exact solver in the adapter: no reference is known to beat a "
               "strong scripted opponent from every drawn start")

NOT_ADAPTED: dict[str, str] = {
    "2048": "new tiles fall at random: a target tile is not reached in every game, so no reference wins every task",
    "bandit": CHANCE,
    "battleship": CHANCE,
    "blackjack": CHANCE,
    "briscola": CHANCE,
    "german_whist": CHANCE,
    "golf": CHANCE,
    "high_society": CHANCE,
    "indian_poker": CHANCE,
    "kuhn_poker": CHANCE,
    "liars_dice": CHANCE,
    "memory_game": CHANCE + "; Player 1's lucky flips decide the match",
    "pig_dice": CHANCE,
    "poker": CHANCE,
    "secretary": CHANCE + " (the best stopping rule picks the best candidate in about two games of five)",
    "spite_and_malice": CHANCE,
    "stratego": CHANCE,
    "colonel_blotto": SIMULTANEOUS,
    "game_of_pure_strategy": SIMULTANEOUS,
    "iterated_matching_pennies": SIMULTANEOUS,
    "iterated_prisoners_dilemma": SIMULTANEOUS,
    "iterated_rock_paper_scissors": SIMULTANEOUS,
    "iterated_two_thirds_average": SIMULTANEOUS,
    "iterated_ultimatum_game": SIMULTANEOUS,
    "market_entry_game": SIMULTANEOUS,
    "new_recruit": SIMULTANEOUS,
    "public_goods_game": SIMULTANEOUS,
    "simple_blind_auction": SIMULTANEOUS,
    "simple_negotiation": SIMULTANEOUS,
    "truth_and_deception": SIMULTANEOUS,
    "two_dollar": SIMULTANEOUS,
    "alquerque": LARGE_BOARD,
    "breakthrough": LARGE_BOARD,
    "connect_four": LARGE_BOARD + " (a win-in-k puzzle from drawn positions needs a search too slow for task "
                                  "generation in pure Python)",
    "crusade": LARGE_BOARD,
    "lines_of_action": LARGE_BOARD,
    "othello": LARGE_BOARD,
    "quantum_tic_tac_toe": LARGE_BOARD,
    "santorini_base_fixed": LARGE_BOARD,
    "simple_tak": LARGE_BOARD,
    "snake": LARGE_BOARD + " (and its apples fall at random)",
    "surround": LARGE_BOARD,
    "tak": LARGE_BOARD,
    "ultimate_tic_tac_toe": LARGE_BOARD,
    "wild_tic_tac_toe": LARGE_BOARD,
    "tic_tac_toe": ("perfect play draws, so a reference wins only from drawn positions with a forced win; there are "
                    "few such positions and a random mover wins a fork in two moves about one time in twenty"),
    "logic_puzzle": ("TextArena's puzzle file holds 40 puzzles (20 per difficulty): tasks repeat, and one "
                     "puzzle's answer solves its repeats"),
    "set": ("TextArena tops the board up only when the next move is made: after a board with no Set, that move is "
            "played against cards not yet shown, so a perfect player's line fails by chance (12 cards hold no Set "
            "about one time in thirty), and a win is any one Set found in 20 turns"),
    "slitherlink": ("TextArena's loops are rectangles of 2-4 cells a side: a few dozen distinct answers, so one "
                    "task's answer solves others"),
}

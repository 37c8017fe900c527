"""Adapted games that fail a check of the conformance suite (attack or signal), withheld by default with the
measured reason; `BC_INCLUDE_KNOWN_ISSUES=1` offers them anyway."""
from __future__ import annotations

CONFORMANCE_N = 60  # tasks per game in the conformance suite: at least the 50 every adapter's check runs on

KNOWN_ISSUES: dict[str, str] = {
    "fifteen_puzzle": ("not measured whole: TextArena 0.7.4's crash on the solving move is handled now (the adapter "
                       "ends a solved board as a win), and 20 of the suite's 21 checks pass (reference_scores_one "
                       "60 of 60), but noisy_below_reference ran past the suite's 300 s timeout at load 7-12 (noisy "
                       "games replan the staged solution after each wrong move and run to 140 turns, every turn a "
                       "replay); offered once that check finishes and passes"),
    "rush_hour": ("fails most_frequent_answer: TextArena's boards vary little, so one shortest solution "
                  "([B+] [B+] [B+] [C-] [X+] [X+] [X+] [X+]) solved 4 of 60 boards of 6 moves or more (the limit "
                  "is 1), and at 8 moves or more another ([H+] [B+] [B+] [B+] [X+] [X+] [X+] [X+]) solved 3 of 60"),
}

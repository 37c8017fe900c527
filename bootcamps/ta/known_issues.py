"""Adapted games that fail a check of the conformance suite (attack or signal), withheld by default with the
measured reason; `BC_INCLUDE_KNOWN_ISSUES=1` offers them anyway."""
from __future__ import annotations

CONFORMANCE_N = 60  # tasks per game in the conformance suite: at least the 50 every adapter's check runs on

KNOWN_ISSUES: dict[str, str] = {
    "fifteen_puzzle": ("not measured whole: TextArena 0.7.4's crash on the solving move is handled now (the adapter "
                       "ends a solved board as a win: reference_scores_one passes, 60 of 60 at seed 11), but the whole "
                       "suite did not finish in 900 s at load 13-16 on the shared machine, and an earlier unfinished "
                       "run reported two failing checks it did not name; offered once a full run passes"),
    "rush_hour": ("fails most_frequent_answer: TextArena's boards vary little, so one shortest solution "
                  "([B+] [B+] [B+] [C-] [X+] [X+] [X+] [X+]) solved 4 of 60 boards of 6 moves or more (the limit "
                  "is 1), and at 8 moves or more another ([H+] [B+] [B+] [B+] [X+] [X+] [X+] [X+]) solved 3 of 60"),
}

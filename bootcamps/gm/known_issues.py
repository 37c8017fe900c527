"""The gm puzzles withheld by default, with the measured reason (a puzzle that fails a conformance check is listed
unavailable; `BC_INCLUDE_KNOWN_ISSUES=1` offers it anyway)."""
from __future__ import annotations

WITHHELD: dict[str, str] = {
    "peg_solitaire": "fails distinct_per_group at its manifest's sizes (seed 11): group easy (5x5, 6-7 jumps) repeats "
                     "79 of 1,000 identities (allowed 10; 4x5 repeated 393): few starts survive the random-play cap of "
                     "2% (a 6x6 easy board still repeats 14 of 1,000 draws before the greedy filter); medium (5x6) "
                     "passes now, and every other check passes at the manifest's and CI's sizes (2.8-3.1 s CPU)",
}

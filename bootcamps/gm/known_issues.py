"""The gm puzzles withheld by default, with the measured reason (a puzzle that fails a conformance check is listed
unavailable; `BC_INCLUDE_KNOWN_ISSUES=1` offers it anyway)."""
from __future__ import annotations

WITHHELD: dict[str, str] = {
    "peg_solitaire": "groups enlarged (easy 5x5, medium 5x6; 4x5 and 5x5 repeated 393 and 14 of 1,000 identities at "
                     "the manifest's sizes); not yet measured at the manifest's sizes",
    "dial_lock": "easy enlarged to 5 dials (4 dials geared one each repeated 135 of 1,000 identities at the manifest's "
                 "sizes); not yet measured at the manifest's sizes",
    "water_jugs": "redesigned (one jug part full at the start, the goal an amount in every jug): passes every check "
                  "at CI's sizes (2.6 s CPU); not yet measured at the manifest's sizes",
}

"""The gm puzzles withheld by default, with the measured reason (a puzzle that fails a conformance check is listed
unavailable; `BC_INCLUDE_KNOWN_ISSUES=1` offers it anyway)."""
from __future__ import annotations

WITHHELD: dict[str, str] = {
    "water_jugs": "fails distinct_per_group and most_frequent_answer: three jugs of at most 15 litres whose goal "
                  "lies 5-6 pours deep are few (10 of 100 easy rows repeat an identity, 3 of 100 hard ones at up "
                  "to 30 litres; the limit is 1%), and at CI sizes the most frequent reference answer solved 2 of "
                  "10 tasks (limit 2%); every other check passes",
}

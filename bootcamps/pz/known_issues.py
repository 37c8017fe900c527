"""The conformance sizes of every pz puzzle, and the puzzle types listed unavailable with the measured reason."""
from __future__ import annotations

# tasks in the attack checks and rows per group for distinctness (each row proves its uniqueness with a few SAT calls)
CONFORMANCE = {"n": 100, "distinct_n": 200}

UNAVAILABLE: dict[str, str] = {
    "dominosa": "random layouts are almost never unique: 0 of 80 random tilings with shuffled dominoes had one "
                "solution at each of k = 4, 5, 6 (2-3 s a row before giving up; a generator that repairs the "
                "ambiguous 2x2 squares, as Tatham's does, is not written)",
}

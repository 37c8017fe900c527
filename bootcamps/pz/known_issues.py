"""The conformance sizes of every pz puzzle, and the puzzle types listed unavailable with the measured reason."""
from __future__ import annotations

# tasks in the attack checks and rows per group for distinctness (each row proves its uniqueness with a few SAT calls)
CONFORMANCE = {"n": 100, "distinct_n": 200}

UNAVAILABLE: dict[str, str] = {
    "dominosa": "random layouts are almost never unique: 0 of 80 random tilings with shuffled dominoes had one "
                "solution at each of k = 4, 5, 6 (2-3 s a row before giving up; a generator that repairs the "
                "ambiguous 2x2 squares, as Tatham's does, is not written)",
    "star_battle": "one star per row, column and region: its answers are the permutations with no two neighbours "
                   "touching, 14 on 5x5 and 90 on 6x6, so one answer solves 1/14 to 1/90 of the tasks (the "
                   "most-frequent-answer limit is 2%); random regions grown from the stars are unique in 2 of 100 "
                   "draws on 7x7 and 0 of 100 on 8x8 (two stars a line would need larger grids still)",
}

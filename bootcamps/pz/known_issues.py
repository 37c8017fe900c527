"""The conformance sizes of every pz puzzle, and the puzzle types listed unavailable with the measured reason."""
from __future__ import annotations

# tasks in the attack checks and rows per group for distinctness (each row proves its uniqueness with a few SAT calls)
CONFORMANCE = {"n": 100, "distinct_n": 200}

UNAVAILABLE: dict[str, str] = {
    "dominosa": "random layouts are almost never unique: 0 of 80 random tilings with shuffled dominoes had one "
                "solution at each of k = 4, 5, 6 (2-3 s a row before giving up; a generator that repairs the "
                "ambiguous 2x2 squares, as Tatham's does, is not written)",
    "norinori": "random regions (2-6 cells) are almost never unique: 1 in 260 draws on 6x6 and 1 in 510 on 7x7 "
                "had one solution, and the most frequent solution solved 6% of 6x6 tasks (the limit is 2%); a "
                "generator that grows the regions around a drawn domino layout and repairs ambiguity is not written",
    "suguru": "random regions seldom admit any fill: of 300 random cuts of 6x6 into regions of 2-5 cells, 151 "
              "grew a region past 5 and 147 of the rest had no fill at all (2 had one); regions of 1-5 cells: 0 of "
              "300 fillable; a generator that cuts regions around a drawn fill is not written",
    "star_battle": "one star per row, column and region: its answers are the permutations with no two neighbours "
                   "touching, 14 on 5x5 and 90 on 6x6, so one answer solves 1/14 to 1/90 of the tasks (the "
                   "most-frequent-answer limit is 2%); random regions grown from the stars are unique in 2 of 100 "
                   "draws on 7x7 and 0 of 100 on 8x8 (two stars a line would need larger grids still)",
}

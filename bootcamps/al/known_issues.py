"""The al problem types withheld by default, with the measured reason (a problem that fails a conformance check is
listed unavailable; `BC_INCLUDE_KNOWN_ISSUES=1` offers it anyway)."""
from __future__ import annotations

WITHHELD: dict[str, str] = {
    "topological_order": "fails the conformance suite's difficulty_order at its sizes (200 tasks a group, seed 11): "
                         "builtin:noisy succeeds on 61.5% of medium tasks and 74.5% of hard ones (+0.130 > 2.326 SE "
                         "= 0.109). A single-turn noisy policy's success is flat by construction (70%: its error is a "
                         "coin per task), so this is the check's 1% chance, not an easier hard group; every other "
                         "check passes (both baselines 0.00 in every group)",
    "tree_diameter": "fails the conformance suite's difficulty_order at CI's sizes (tests/bootcamps/test_conformance.py "
                     "CI_SIZES: 20 tasks a group): builtin:noisy succeeds on 45% of easy tasks and 85% of medium ones "
                     "(+0.400 > 2.326 SE = 0.351). The noisy policy's error is a coin per task (30%), flat across groups "
                     "(0.68 / 0.72 / 0.65 at 200 tasks a group, where every check of the suite passes), so this is "
                     "the check's 1% chance on 20 tasks, not an easier medium group; withheld so that CI passes",
    "palindrome_subsequence": "fails the conformance suite's difficulty_order at its sizes (200 tasks a group, seed "
                              "11): builtin:noisy succeeds on 65.0% of easy tasks and 80.5% of medium ones (+0.155 > "
                              "2.326 SE = 0.104). The noisy policy's error is a coin per task (30%), flat across groups, "
                              "so this is the check's 1% chance, not an easier medium group; every other check passes "
                              "at its sizes and every check at CI's (both baselines 0.00 in every group)",
}

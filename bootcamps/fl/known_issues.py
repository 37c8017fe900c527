"""The fl tasks withheld by default, with the measured reason (a task that fails a conformance check is listed
unavailable; `BC_INCLUDE_KNOWN_ISSUES=1` offers it anyway)."""
from __future__ import annotations

WITHHELD: dict[str, str] = {
    "cfg_ambiguity": (
        "with three terminals drawn from twelve letters per grammar, every check passes at the manifest's sizes (200 "
        "tasks, seed 11) and most_frequent_answer now passes at CI's sizes too, but difficulty_order still fails at "
        "CI's 20 tasks a group (tests/bootcamps/test_conformance.py CI_SIZES): builtin:noisy 60% on easy, 95% on "
        "medium, +0.350 > 2.326 SE = 0.307. The noisy policy errs on a coin drawn from the task ids (bootcamp, group "
        "sizes, index), not from the task, so no change of the generator alone moves it"),
}

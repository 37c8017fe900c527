"""What the conformance suite finds wrong with some reasoning-gym datasets, with the reason (each is reported as
an expected failure, and `bc-gen --describe` shows it), and the conformance sample size of the slow ones."""
from __future__ import annotations

# dataset -> {conformance check: why it fails}
KNOWN_ISSUES: dict[str, dict[str, str]] = {}

# datasets whose answers come from a small set (yes/no, a colour, a count): the most-frequent-answer check asks
# for a balanced split instead of "no constant answer pays"
SMALL_ANSWER_SPACE: dict[str, str] = {}

CONFORMANCE_N = 50  # tasks per dataset in the conformance suite (reasoning-gym items are single-turn)
# datasets whose items take seconds to make (or to score): a smaller sample keeps the suite within minutes
SLOW: dict[str, int] = {
    "futoshiki": 10, "knight_swap": 10, "sokoban": 12, "zebra_puzzles": 15, "intermediate_integration": 10,
    "puzzle24": 20, "quantum_lock": 20, "countdown": 20, "polynomial_equations": 20,
}

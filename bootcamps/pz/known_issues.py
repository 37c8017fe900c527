"""The conformance sizes of every pz puzzle, and the puzzle types listed unavailable with the measured reason."""
from __future__ import annotations

# tasks in the attack checks and rows per group for distinctness (each row proves its uniqueness with a few SAT calls)
CONFORMANCE = {"n": 100, "distinct_n": 200}

UNAVAILABLE: dict[str, str] = {}

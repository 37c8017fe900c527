"""Adapted games that fail a check of the conformance suite (attack or signal), withheld by default with the
measured reason; `BC_INCLUDE_KNOWN_ISSUES=1` offers them anyway."""
from __future__ import annotations

CONFORMANCE_N = 60  # tasks per game in the conformance suite: at least the 50 every adapter's check runs on

KNOWN_ISSUES: dict[str, str] = {}

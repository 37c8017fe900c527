"""The al problem types listed unavailable, with the measured reason (a problem that fails a conformance check)."""
from __future__ import annotations

UNAVAILABLE: dict[str, str] = {}

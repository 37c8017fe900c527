"""The fl tasks withheld by default, with the measured reason (a task that fails a conformance check is listed
unavailable; `BC_INCLUDE_KNOWN_ISSUES=1` offers it anyway)."""
from __future__ import annotations

_PENDING = "the conformance suite at the manifest's sizes has not yet been run to completion on this version"
WITHHELD: dict[str, str] = {name: _PENDING for name in (
    "cfg_ambiguity", "cfg_member", "countermodel", "lambda_normal_form", "min_dnf",
    "regex_synthesis")}

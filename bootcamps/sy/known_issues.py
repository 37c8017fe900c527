"""The sy tasks withheld by default, with the measured reason (a task that fails a conformance check, or has not
yet been run through the whole suite at its manifest's sizes, is listed unavailable; `BC_INCLUDE_KNOWN_ISSUES=1`
offers it anyway)."""
from __future__ import annotations

NOT_YET_RUN = ("not yet run through the whole conformance suite at its manifest's sizes (every task is offered only "
               "after it passes there)")

WITHHELD: dict[str, str] = {
}

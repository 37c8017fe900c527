"""Hero's actions: the bet-size menu of a spot, reading `<action>...</action>` from text, and legality.

Bets and raises are "to" amounts (hero's total chips in this street). The menu: a bet of 1/3, 1/2, 2/3, 1 or 1.5
pots, or a raise to villain's bet plus that share of the pot after calling, clipped to pokerkit's legal bounds,
and all-in. Any other amount is an illegal size.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from .ev import Spot

MENU_FRACTIONS = (1 / 3, 1 / 2, 2 / 3, 1.0, 1.5)
_ACTION = re.compile(r"<action>([^<]{0,40})</action>", re.IGNORECASE)
_WORDS = {"fold": "fold", "check": "check", "call": "call", "bet": "raise", "raise": "raise", "allin": "allin",
          "all-in": "allin", "all_in": "allin", "shove": "allin"}


@dataclass(frozen=True)
class Action:
    """A parsed action: kind in fold/check/call/raise/allin, amount for raise (a "to" amount), else None."""

    kind: str
    amount: int | None = None

    def text(self) -> str:
        return f"{self.kind} {self.amount}" if self.amount is not None else self.kind


def menu(spot: Spot) -> list[int]:
    """The legal bet/raise-to amounts of a spot, ascending (the last one is all-in); [] when hero cannot raise."""
    if spot.min_raise_to is None or spot.max_raise_to is None:
        return []
    base = spot.pot + spot.to_call  # the pot once hero has called
    sizes = {min(spot.max_raise_to, max(spot.min_raise_to, round(spot.villain_bet + f * base)))
             for f in MENU_FRACTIONS}
    sizes.add(spot.max_raise_to)
    return sorted(sizes)


def parse_action(text: str) -> Action | None:
    """The last `<action>...</action>` of a text, or None when there is none; an unreadable tag gives
    Action("invalid")."""
    found = _ACTION.findall(text or "")
    if not found:
        return None
    words = found[-1].strip().lower().split()
    if not words or words[0] not in _WORDS:
        return Action("invalid")
    kind = _WORDS[words[0]]
    if kind == "raise":
        amount = words[-1] if len(words) >= 2 else ""
        if words[1:2] == ["to"] and len(words) == 3 or len(words) == 2:
            if amount.isascii() and amount.isdigit() and len(amount) <= 9:
                return Action("raise", int(amount))
        return Action("invalid")
    return Action(kind) if len(words) == 1 else Action("invalid")


def legalize(action: Action, spot: Spot) -> Action | str:
    """The action as played (all-in becomes a raise to the menu's top, or a call), or why it is illegal."""
    sizes = menu(spot)
    if action.kind == "invalid":
        return "not an action: write fold, check, call, raise N (N from the menu) or allin"
    if action.kind == "fold":
        return action if spot.to_call > 0 else "nothing to fold to: check instead"
    if action.kind == "check":
        return action if spot.to_call == 0 else f"cannot check facing a bet of {spot.to_call}"
    if action.kind == "call":
        return action if spot.to_call > 0 else "nothing to call: check instead"
    if action.kind == "allin":
        if sizes:
            return Action("raise", sizes[-1])
        return Action("call") if spot.to_call > 0 else "all-in is not possible here"
    if not sizes:
        return "no bet or raise is possible here"
    if action.amount not in sizes:
        low, high = spot.min_raise_to, spot.max_raise_to
        why = ("below the minimum" if action.amount < low else "above your stack" if action.amount > high
               else "not on the menu")
        return f"illegal size {action.amount} ({why}); legal: {', '.join(map(str, sizes))}"
    return action

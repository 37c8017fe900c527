"""Baselines: the passive rules a lazy policy finds first. Each asks `equity` once per decision (so it states its
equity and the EVs of the passive actions exactly), never evaluates a bet or raise, and plays `check_fold` (check
when free, else fold) or `pot_odds` (check when free, else call when the equity covers the pot odds, else fold)."""
from __future__ import annotations

from typing import Any

from bc_common.bootcamp import tool_call

from .ev import Spot
from .policy import HoldemPolicy, latest_tool_body, table_text


def passive_evs(spot: Spot, equity: float) -> dict[str, float]:
    """The EV model's value of the legal passive actions (check, or fold and call)."""
    if spot.to_call == 0:
        return {"check": equity * spot.pot}
    paid = min(spot.to_call, spot.hero_stack)
    return {"fold": 0.0, "call": equity * (spot.pot - (spot.to_call - paid) + paid) - paid}


class PassivePolicy(HoldemPolicy):
    """Never bets or raises; `pick` chooses among the passive actions."""

    def pick(self, evs: dict[str, float]) -> str:
        raise NotImplementedError

    def respond(self, messages: list[dict[str, Any]], *, wrong: bool = False) -> dict[str, Any]:
        found = self._decision(messages)
        if isinstance(found, dict):
            return found
        spot, hand, board, expression, _tolerance = found
        body = latest_tool_body(messages)
        if body is None:
            return {"role": "assistant", "content": "My equity first.", "tool_calls": [tool_call(
                "call_equity", "equity", {"hand": hand, "board": board, "range": expression})]}
        evs = passive_evs(spot, body["equity"])
        action = self.pick(evs)
        return {"role": "assistant", "content": f"<action>{action}</action>\n{table_text(evs)}\n"
                                                f"<equity>{body['equity']:.6f}</equity>"}


class CheckFoldPolicy(PassivePolicy):
    """Baseline: check when free, else fold."""

    def pick(self, evs: dict[str, float]) -> str:
        return "check" if "check" in evs else "fold"


class PotOddsPolicy(PassivePolicy):
    """Baseline: check when free, else call when the equity covers the pot odds (call EV >= 0), else fold."""

    def pick(self, evs: dict[str, float]) -> str:
        return "check" if "check" in evs else ("call" if evs["call"] >= 0 else "fold")



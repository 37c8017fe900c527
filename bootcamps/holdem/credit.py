"""A decision's grade: the EV table the agent states, its equity, and the EV its action gives up.

A reply states the EV of every legal action (`<evs>{"fold": 0, "call": 1.5, "raise 12": 3.2, ...}</evs>`),
hero's equity against the range (`<equity>`) and the action played. Credit = (share of legal actions whose stated
EV is within the tolerance of the model's) x (1 when the action is within the tolerance of the best, else
1 - EV lost / (LOSS_SCALE x pot), not below 0); 0 when the equity is off. A passive rule that evaluates only the action it
plays states one EV of the five to eight on the table, so it cannot earn much wherever its action happens to be
best; the table is what makes an answer an evaluation of the spot rather than a guess at its label.
"""
from __future__ import annotations

import math
from typing import Any

import orjson

from bc_common.answer_blocks import last_tagged

from .actions import Action, legalize, parse_action
from .ev import Spot

EQUITY_TOLERANCE = 0.005  # the stated equity within this of the true one (the `equity` tool's answer)
MAX_TABLE_CHARS = 2000  # a spot has at most nine legal actions
MAX_TABLE_ENTRIES = 32
LOSS_SCALE = 0.25  # an action that gives up a quarter of the pot (or more) against the best earns nothing

EvTable = dict[str, float]


def action_key(action: Action) -> str:
    """The table key of a legal action as played: fold, check, call or "raise T"."""
    return f"raise {action.amount}" if action.kind == "raise" else action.kind


def parse_table(text: str) -> EvTable | None:
    """The last `<evs>{...}</evs>` of a reply as {key: EV} (keys as written, lower case), or None when there is
    none or it is not a JSON object of finite numbers."""
    body = last_tagged(text, "evs", max_length=MAX_TABLE_CHARS)
    if body is None:
        return None
    try:
        data = orjson.loads(body.strip())
    except orjson.JSONDecodeError:
        return None
    if not isinstance(data, dict) or len(data) > MAX_TABLE_ENTRIES:
        return None
    out: EvTable = {}
    for key, value in data.items():
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            return None
        out[key.strip().lower()] = float(value)
    return out


def legal_values(evs: dict[str, Any]) -> dict[str, float]:
    """{key: EV} of every legal action from the model's EVs ({"raise": {T: EV}, "fold": ..., ...})."""
    out = {k: float(v) for k, v in evs.items() if k != "raise"}
    out.update({f"raise {int(t)}": float(v) for t, v in (evs.get("raise") or {}).items()})
    return out


def stated(table: EvTable, spot: Spot) -> dict[str, float]:
    """The table's entries by legal key (a key the menu reads as the same action counts: "bet 12", "allin")."""
    out: dict[str, float] = {}
    for key, value in table.items():
        action = parse_action(f"<action>{key}</action>")
        played = legalize(action, spot) if action is not None else "unreadable"
        if isinstance(played, Action):
            out.setdefault(action_key(played), value)
    return out


def credit(spot: Spot, evs: dict[str, Any], equity: float, tolerance: float, action: Action,
           table: EvTable | None, reported_equity: float | None) -> float:
    """The decision's credit in [0, 1] (see the module docstring); `action` must be legal (as played)."""
    if table is None or reported_equity is None or abs(reported_equity - equity) > EQUITY_TOLERANCE:
        return 0.0
    values = legal_values(evs)
    mine = stated(table, spot)
    right = sum(1 for key, value in values.items() if key in mine and abs(mine[key] - value) <= tolerance)
    value = values.get(action_key(action))
    if value is None:
        return 0.0
    lost = max(values.values()) - value
    play = 1.0 if lost <= tolerance else max(0.0, 1.0 - lost / (LOSS_SCALE * spot.pot))
    return right / len(values) * play


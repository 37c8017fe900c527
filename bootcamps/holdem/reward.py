"""Grades hero's actions from the assistant's own texts: `<action>`, `<evs>` (the EV of every legal action) and
`<equity>` of each reply.

decision: the credit of the last reply (credit.py): the share of the legal actions whose EV it states within the
tolerance, times 1 for an action within the tolerance of the best (else 1 - EV lost / (pot / 4), not below 0), 0 when its
equity is off by more than 0.005 or the action is illegal. hand: the hand is replayed against the scripted
villain; score = the mean credit of hero's decisions (an illegal action scores the hand 0; an unfinished hand
counts the awaited decision as 0).
"""
from __future__ import annotations

import re
from typing import Any, ClassVar

from bc_common.answer_blocks import last_tagged
from bc_common.bootcamp import RewardCalculator

from .actions import Action, legalize, parse_action
from .credit import EvTable, credit, parse_table
from .ev import Spot
from .hand import replay, score

_EQUITY = re.compile(r"\s*([01]?(?:\.[0-9]{1,8})?)\s*")

MAX_MOVES = 16  # a hand has at most a handful of hero decisions
_SPOT = {"type": "object", "required": ["pot", "to_call", "hero_bet", "villain_bet", "hero_stack", "villain_stack",
                                        "can_fold", "min_raise_to", "max_raise_to"]}
_CARDS = {"type": "string", "pattern": "^([2-9TJQKA][cdhs])+$"}


def move_in(text: str) -> tuple[Action, EvTable | None, float | None] | None:
    """(action, stated EV table, stated equity; None where missing) of one reply, or None when it has no action
    tag."""
    action = parse_action(text)
    if action is None:
        return None
    body = last_tagged(text, "equity", max_length=40)
    found = _EQUITY.fullmatch(body) if body is not None else None
    equity = float(found[1]) if found and found[1] not in ("", ".") else None
    return action, parse_table(text), equity


class HoldemRewardCalculator(RewardCalculator):
    """A decision's credit (its EV table, its equity, the EV its action gives up); a hand's mean credit."""

    grades = "all"
    identity_schema: ClassVar[dict[str, Any]] = {
        "oneOf": [
            {"type": "object", "required": ["mode", "street", "hero", "board", "villain_range", "spot", "menu", "evs",
                                            "best", "tolerance"],
             "properties": {"mode": {"const": "decision"}, "hero": _CARDS, "spot": _SPOT,
                            "board": {"type": "string", "pattern": "^([2-9TJQKA][cdhs])*$"},
                            "menu": {"type": "array", "items": {"type": "integer"}},
                            "evs": {"type": "object"}, "tolerance": {"type": "number", "minimum": 0}}},
            {"type": "object", "required": ["mode", "hero", "villain", "board", "stacks", "villain_range",
                                            "open_share", "bet_fraction", "tolerance_share", "seed"],
             "properties": {"mode": {"const": "hand"}, "hero": _CARDS, "villain": _CARDS, "board": _CARDS,
                            "stacks": {"type": "object", "required": ["hero", "villain"]},
                            "tolerance_share": {"type": "number", "minimum": 0},
                            "call_floor": {"type": "number", "minimum": 0, "maximum": 1},
                            "seed": {"type": "integer"}}},
        ]}

    @staticmethod
    def extract_output(output_str: Any) -> list[tuple[Action, EvTable | None, float | None]] | None:
        texts = [output_str] if isinstance(output_str, str) else [t for t in output_str if isinstance(t, str)]
        moves = [m for m in (move_in(t) for t in texts) if m is not None]
        return moves[:MAX_MOVES] or None

    @classmethod
    def _verify_correction(cls, extracted: list[tuple[Action, EvTable | None, float | None]],
                           identity: dict[str, Any], **kwargs: Any) -> float:
        if identity["mode"] == "hand":
            return score(replay(identity, extracted, grade_decisions=True))
        action, table, equity = extracted[-1]
        spot = Spot(**identity["spot"])
        played = legalize(action, spot)
        if isinstance(played, str):
            return 0.0
        return credit(spot, identity["evs"], float(identity["equity"]), float(identity["tolerance"]), played, table,
                      equity)

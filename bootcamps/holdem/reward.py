"""Grades hero's actions from the assistant's own texts: `<action>...</action>` and `<ev>...</ev>` of each reply.

decision: the last action must be legal and within the EV tolerance of the best, with its EV stated within the
tolerance too and hero's equity against the range within 0.005 (numbers no other spot shares, so a constant or
copied answer cannot pay). hand: the hand is replayed against the scripted villain; score = the fraction of hero's decisions
that were EV-maximising (an illegal action scores the hand 0; an unfinished hand counts the awaited decision).
"""
from __future__ import annotations

import re
from typing import Any, ClassVar

from bc_common.bootcamp import RewardCalculator

from .actions import Action, legalize, parse_action
from .ev import Spot
from .hand import EQUITY_TOLERANCE, replay, score

_EV = re.compile(r"<ev>\s*(-?[0-9]{1,7}(?:\.[0-9]{1,8})?)\s*</ev>", re.IGNORECASE)
_EQUITY = re.compile(r"<equity>\s*([01]?(?:\.[0-9]{1,8})?)\s*</equity>", re.IGNORECASE)

MAX_MOVES = 16  # a hand has at most a handful of hero decisions
_SPOT = {"type": "object", "required": ["pot", "to_call", "hero_bet", "villain_bet", "hero_stack", "villain_stack",
                                        "can_fold", "min_raise_to", "max_raise_to"]}
_CARDS = {"type": "string", "pattern": "^([2-9TJQKA][cdhs])+$"}


def move_in(text: str) -> tuple[Action, float | None, float | None] | None:
    """(action, stated EV, stated equity; None where missing) of one reply, or None when it has no action tag."""
    action = parse_action(text)
    if action is None:
        return None
    ev = _EV.findall(text)
    equity = [e for e in _EQUITY.findall(text) if e not in ("", ".")]
    return action, (float(ev[-1]) if ev else None), (float(equity[-1]) if equity else None)


class HoldemRewardCalculator(RewardCalculator):
    """1.0 for an EV-maximising decision with its EV stated; a hand scores its share of such decisions."""

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
    def extract_output(output_str: Any) -> list[tuple[Action, float | None, float | None]] | None:
        texts = [output_str] if isinstance(output_str, str) else [t for t in output_str if isinstance(t, str)]
        moves = [m for m in (move_in(t) for t in texts) if m is not None]
        return moves[:MAX_MOVES] or None

    @classmethod
    def _verify_correction(cls, extracted: list[tuple[Action, float | None, float | None]], identity: dict[str, Any],
                           **kwargs: Any) -> float:
        if identity["mode"] == "hand":
            return score(replay(identity, extracted, grade_decisions=True))
        action, reported, equity = extracted[-1]
        spot = Spot(**identity["spot"])
        played = legalize(action, spot)
        if isinstance(played, str) or reported is None or equity is None:
            return 0.0
        if abs(equity - float(identity["equity"])) > EQUITY_TOLERANCE:
            return 0.0
        evs = identity["evs"]
        value = evs["raise"].get(str(played.amount)) if played.kind == "raise" else evs.get(played.kind)
        best = max(max(v.values()) if k == "raise" else v for k, v in evs.items())
        tolerance = float(identity["tolerance"])
        return float(value is not None and value >= best - tolerance and abs(reported - value) <= tolerance)

"""Tools: hand strength (pokerkit's evaluation of 5-7 cards), equity against a range expression (exact on the
turn and river, seeded Monte Carlo before), and pot odds. Pure functions of their arguments: no hidden state."""
from __future__ import annotations

from typing import Any, ClassVar

import orjson

from bc_common.bootcamp import Tool
from bc_common.errors import ToolError

from .equity import MC_SAMPLES
from .ev import DefenceCurve
from .evaluator import cards_str, parse_cards
from .hand import range_equity
from .ranges import parse_expression

MAX_SHARES = 16


def _schema(name: str, description: str, properties: dict[str, Any], required: list[str]) -> dict[str, Any]:
    return {"type": "function", "function": {"name": name, "description": description, "parameters": {
        "type": "object", "properties": properties, "required": required, "additionalProperties": False}}}


def _cards(text: Any, what: str, counts: tuple[int, ...]) -> list[int]:
    if not isinstance(text, str) or len(text) > 40:
        raise ToolError("invalid_cards", f"{what} is a string of cards like 'AsKd'")
    try:
        cards = parse_cards(text)
    except ValueError as exc:
        raise ToolError("invalid_cards", f"{what}: {exc}") from None
    if len(cards) not in counts:
        raise ToolError("invalid_cards", f"{what} has {len(cards)} cards; expected {' or '.join(map(str, counts))}")
    return cards


class HandStrengthTool(Tool):
    """pokerkit's best five-card hand of 5-7 cards, with its strength index (higher is stronger)."""

    tool_schema: ClassVar[dict[str, Any]] = _schema(
        "hand_strength", "The best five-card poker hand of 5 to 7 cards (hole cards and board together), its "
                         "category and pokerkit's strength index (0 = worst high card ... 7461 = royal flush).",
        {"cards": {"type": "string", "description": "5-7 cards, e.g. 'AsKd' + 'Ah7c2d9s'"}}, ["cards"])

    async def execute(self, instance_id: str, parameters: dict[str, Any], **kwargs: Any) -> tuple[str, float, dict]:
        from pokerkit import StandardHighHand

        cards = _cards(parameters["cards"], "cards", (5, 6, 7))
        hand = StandardHighHand.from_game(cards_str(cards))
        entry = hand.entry
        body = {"hand": entry.label.value, "best_five": "".join(repr(c) for c in hand.cards),
                "strength_index": entry.index}
        return orjson.dumps(body).decode(), 0.0, {}


class EquityTool(Tool):
    """Hero's equity against a range expression, and against the strongest shares of it (the part that calls)."""

    tool_schema: ClassVar[dict[str, Any]] = _schema(
        "equity",
        "Your showdown equity against villain's range: exact on the turn and river, seeded Monte Carlo before "
        f"({MC_SAMPLES[3]} board samples on the flop, {MC_SAMPLES[0]} preflop; the same inputs always give the same "
        "result). `range` is pokerkit range notation ('QQ+, AKs, KQo') optionally narrowed by steps "
        "('... | top 0.35 @ Ah7d2c'). `shares` (optional, up to 16): for each share d, the probability that the "
        "strongest d of the range is what you face (among hands your cards leave possible) and your equity "
        "against it.",
        {"hand": {"type": "string", "description": "your two cards, e.g. 'AsKd'"},
         "board": {"type": "string", "description": "0, 3, 4 or 5 board cards ('' preflop)"},
         "range": {"type": "string", "description": "villain's range expression"},
         "shares": {"type": "array", "items": {"type": "number", "minimum": 0, "maximum": 1},
                    "maxItems": MAX_SHARES}},
        ["hand", "board", "range"])

    async def execute(self, instance_id: str, parameters: dict[str, Any], **kwargs: Any) -> tuple[str, float, dict]:
        hero = _cards(parameters["hand"], "hand", (2,))
        board = _cards(parameters["board"], "board", (0, 3, 4, 5)) if parameters["board"] else []
        if set(hero) & set(board):
            raise ToolError("invalid_cards", "a card is both in your hand and on the board")
        expression = parameters["range"]
        try:
            parse_expression(expression)
            rq = range_equity(cards_str(hero), cards_str(board), expression)
        except ValueError as exc:
            raise ToolError("invalid_range", str(exc)) from None
        live = sum(1 for w, e in zip(rq.weights, rq.equities, strict=True) if w > 0 and e is not None)
        if live == 0:
            raise ToolError("empty_range", "no hand of that range is possible with these cards")
        body: dict[str, Any] = {"equity": round(rq.equity(), 6), "live_combos": live,
                                "method": "exact" if len(board) >= 4 else
                                f"monte carlo, {MC_SAMPLES[len(board)]} board samples"}
        shares = parameters.get("shares") or []
        if shares:
            curve = DefenceCurve(rq)
            body["shares"] = [{"share": d, "probability": round(q, 6), "equity": round(e, 6)}
                              for d, (q, e) in ((d, curve.at(d)) for d in shares)]
        return orjson.dumps(body).decode(), 0.0, {"live_combos": live}


class PotOddsTool(Tool):
    """The equity a call needs to break even: to_call / (pot + to_call)."""

    tool_schema: ClassVar[dict[str, Any]] = _schema(
        "pot_odds", "The equity a call needs to break even, to_call / (pot + to_call); pot includes every bet so far.",
        {"pot": {"type": "number", "minimum": 0}, "to_call": {"type": "number", "minimum": 0}}, ["pot", "to_call"])

    async def execute(self, instance_id: str, parameters: dict[str, Any], **kwargs: Any) -> tuple[str, float, dict]:
        pot, to_call = parameters["pot"], parameters["to_call"]
        if pot + to_call <= 0 or pot > 1e12 or to_call > 1e12:
            raise ToolError("invalid_amounts", "pot and to_call must be non-negative, not both 0, below 1e12")
        return orjson.dumps({"required_equity": round(to_call / (pot + to_call), 6)}).decode(), 0.0, {}

"""Grades the game from the assistant's own moves: the `reveal` calls in its messages, replayed on the identity's
board. Tool output (the boards the model was shown) is never read, and a claimed win without moves earns 0."""
from __future__ import annotations

from typing import Any, ClassVar

import orjson

from bc_common.bootcamp import RewardCalculator

from .board import replay

MAX_MOVES = 10_000  # a board has at most 720 cells; anything longer is noise


def reveal_moves(messages: list[Any]) -> list[tuple[int, int]]:
    """The (row, col) of every `reveal` call in the assistant messages, in order, with the tool's argument rules:
    a JSON object of exactly `row` and `col`, integers (2.0 counts as 2, as JSON Schema says). A call the tool
    would refuse as malformed is skipped, as it changed nothing."""
    moves = []
    for msg in messages:
        if not isinstance(msg, dict) or msg.get("role") != "assistant":
            continue
        for call in msg.get("tool_calls") or ():
            fn = call.get("function") if isinstance(call, dict) else None
            if not isinstance(fn, dict) or fn.get("name") != "reveal":
                continue
            move = _cell(fn.get("arguments"))
            if move is not None:
                moves.append(move)
                if len(moves) >= MAX_MOVES:
                    return moves
    return moves


def _cell(arguments: Any) -> tuple[int, int] | None:
    if isinstance(arguments, (str, bytes)):
        if len(arguments) > 1 << 20:
            return None
        try:
            arguments = orjson.loads(arguments) if arguments.strip() else {}
        except orjson.JSONDecodeError:
            return None
    if not isinstance(arguments, dict) or set(arguments) != {"row", "col"}:
        return None
    values = []
    for key in ("row", "col"):
        v = arguments[key]
        if isinstance(v, bool) or not (isinstance(v, int) or (isinstance(v, float) and v.is_integer())):
            return None
        values.append(int(v))
    return values[0], values[1]


class MinesweeperRewardCalculator(RewardCalculator):
    """1.0 when the replayed reveals clear the board, else 0 (a mine, or safe cells left hidden).

    It grades assistant messages only, and the tool calls are part of them: `verify_score` needs the message
    list (bc-eval and the conformance suite pass it). A plain text has no tool calls and scores 0."""

    grades = "all"
    identity_schema: ClassVar[dict[str, Any]] = {
        "type": "object",
        "required": ["rows", "cols", "mines", "start"],
        "properties": {
            "rows": {"type": "integer", "minimum": 1, "maximum": 24},
            "cols": {"type": "integer", "minimum": 1, "maximum": 30},
            "mines": {"type": "array", "items": {"type": "array", "minItems": 2, "maxItems": 2,
                                                 "items": {"type": "integer"}}},
            "start": {"type": "array", "minItems": 2, "maxItems": 2, "items": {"type": "integer"}},
        },
    }

    @classmethod
    def verify_score(cls, model_output: Any, identity: dict[str, Any], format_score: float = 0.0,
                     **kwargs: Any) -> float:
        try:
            moves = cls.extract_output(model_output)
            if not moves:
                return 0.0
            return 1.0 if cls._verify_correction(moves, identity) >= 1.0 else float(format_score)
        except Exception:  # a verifier must not crash on hostile input
            return 0.0

    @staticmethod
    def extract_output(output_str: Any) -> list[tuple[int, int]] | None:
        if not isinstance(output_str, list):
            return None  # text alone carries no moves
        return reveal_moves(output_str) or None

    @classmethod
    def _verify_correction(cls, extracted: list[tuple[int, int]], identity: dict[str, Any], **kwargs: Any) -> float:
        return 1.0 if replay(identity, extracted).board.result == "won" else 0.0

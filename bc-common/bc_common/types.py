"""The shapes a bootcamp hands back to the harness, as named types.

    return ToolResult("3 + 4 = 7")                                  # Tool.execute
    return InteractionReply(terminate=False, text="Too low.", turn_score=0.0)   # Interaction.generate_response

Ported seed code may still return the tuples these replace, `(text, reward, metrics)` and
`(terminate, text, turn_score, extra)`: `ToolResult.of` and `InteractionReply.of` accept both and say what is
wrong with anything else. A manifest's declarations are named types too: `Group` and `Baseline`
(`bc_common.manifest`).
"""
from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, NamedTuple


def _number(value: Any, what: str, where: str) -> float:
    try:
        number = float(value)
    except (TypeError, ValueError):
        number = math.nan
    if isinstance(value, str) or not math.isfinite(number):
        raise TypeError(f"{where}: {what} must be a finite number, got {value!r}")
    return number


def _mapping(value: Any, what: str, where: str) -> dict[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise TypeError(f"{where}: {what} must be a dict, got {type(value).__name__}")
    return value


@dataclass
class ToolResult:
    """What one tool call gives back: the text the model reads, a step reward (never positive for merely
    calling the tool), metrics, and `error` (`{"type", "message"}`) when the call failed. It unpacks as the
    seed's `(text, reward, metrics)`, so code written for the tuple keeps working."""

    text: str
    reward: float = 0.0
    metrics: dict[str, Any] = field(default_factory=dict)
    error: dict[str, str] | None = None

    @property
    def ok(self) -> bool:
        return self.error is None

    def __iter__(self) -> Iterator[Any]:
        return iter((self.text, self.reward, self.metrics))

    @classmethod
    def of(cls, value: Any, where: str = "tool") -> ToolResult:
        """`Tool.execute`'s return as a ToolResult: one, or the seed's `(text, reward, metrics)` tuple.
        TypeError naming `where` otherwise."""
        if isinstance(value, ToolResult):
            return value
        if not isinstance(value, (tuple, list)) or len(value) != 3:
            raise TypeError(f"{where}: execute must return a ToolResult or (text, reward, metrics), "
                            f"got {_shape(value)}")
        text, reward, metrics = value
        return cls(text if isinstance(text, str) else str(text), _number(reward or 0.0, "the reward", where),
                   dict(_mapping(metrics, "the metrics", where)))


class InteractionReply(NamedTuple):
    """The environment's turn: `text` goes to the model as a user message unless `terminate` ends the
    trajectory; `turn_score` is recorded (`turn_scores` in the state and the trajectory); `extra` lands on the
    turn's record. A tuple, in the seed's order: `terminate, text, score, extra = reply` still works."""

    terminate: bool
    text: str
    turn_score: float = 0.0
    extra: dict[str, Any] | None = None

    @classmethod
    def of(cls, value: Any, where: str = "interaction") -> InteractionReply:
        """`Interaction.generate_response`'s return as an InteractionReply: one, or the seed's 4-tuple
        `(terminate, text, turn_score, extra)`. TypeError naming `where` otherwise."""
        if not isinstance(value, (tuple, list)) or len(value) != 4:
            raise TypeError(f"{where}: generate_response must return an InteractionReply or (terminate, text, "
                            f"turn_score, extra), got {_shape(value)}")
        terminate, text, score, extra = value
        if not isinstance(terminate, (bool, int)):
            raise TypeError(f"{where}: terminate must be a bool, got {terminate!r}")
        if text is None:
            text = ""
        if not isinstance(text, str):
            raise TypeError(f"{where}: the reply text must be a str, got {type(text).__name__}")
        return cls(bool(terminate), text, _number(score or 0.0, "turn_score", where),
                   _mapping(extra, "extra", where) or None)


def _shape(value: Any) -> str:
    if isinstance(value, (tuple, list)):
        return f"a {type(value).__name__} of {len(value)}"
    return type(value).__name__

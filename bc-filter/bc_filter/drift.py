"""Token drift (`bc-filter --check-token-drift`): do the stored tokens still match the stored text?

RL trains on what the model saw. A turn drifts when its conversation, re-rendered with the model's chat template
and tokenizer, is not the prompt the server reported (`render`), or when its prompt does not continue the previous
turn's prompt and completion token for token (`continuation`: what the server saw was not a prefix-consistent
continuation, so the trajectory cannot be replayed as one token sequence). Each finding names the turn, the token
position and the first differing token:

    {"turn": 2, "check": "render", "position": 57, "expected": 1234, "found": 99}

`render`: expected is the server's prompt token, found the re-rendered one. `continuation`: expected is the
previous turn's prompt + completion token, found this turn's prompt token. Null where that sequence had ended.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .tokenizer import Renderer

Row = dict[str, Any]
FIELD = "token_drift"


@dataclass
class DriftCounts:
    """What the check saw, for the line on stderr."""

    rows: int = 0
    rows_drifting: int = 0
    turns: int = 0  # answered model turns with prompt ids
    turns_drifting: int = 0
    turns_without_ids: int = 0  # answered model turns the server gave no prompt ids for
    first: str = ""  # the first finding, shown

    def line(self) -> str:
        first = f" (first: {self.first})" if self.first else ""
        return (f"token drift: {self.turns_drifting} of {self.turns} turns in {self.rows_drifting} of {self.rows} "
                f"rows{first}; {self.turns_without_ids} turns had no prompt ids")


def first_difference(expected: list[int], found: list[int]) -> tuple[int, int | None, int | None] | None:
    """(position, expected token, found token) where the two sequences first differ; None when equal."""
    for i, (a, b) in enumerate(zip(expected, found, strict=False)):
        if a != b:
            return i, a, b
    if len(expected) == len(found):
        return None
    i = min(len(expected), len(found))
    return i, expected[i] if i < len(expected) else None, found[i] if i < len(found) else None


def model_turns(row: Row) -> list[tuple[int, dict[str, Any]]]:
    """(index into messages of the assistant message it produced, tokens) for every answered model turn."""
    prompt = (row.get("input") or {}).get("prompt")
    start = 1 if isinstance(prompt, str) else len(prompt or [])
    replies = [i for i, m in enumerate(row["messages"]) if i >= start and m.get("role") == "assistant"]
    answered = [t for t in row.get("turns") or [] if t.get("type") == "model" and t.get("error") is None]
    if len(replies) != len(answered):
        raise ValueError(f"{len(answered)} answered model turns but {len(replies)} assistant messages after the "
                         "prompt: messages were added or removed")
    return [(i, t.get("tokens") or {}) for i, t in zip(replies, answered, strict=True)]


@dataclass
class DriftCheck:
    """A bc-filter transform: the row with `token_drift` (a list, empty when every turn is consistent).
    Without a renderer only the continuation check runs (it needs nothing but the stored ids)."""

    render: Renderer | None = None
    counts: DriftCounts = field(default_factory=DriftCounts)
    label: str = "check token drift"

    def __call__(self, row: Row) -> Row:
        findings: list[dict[str, Any]] = []
        before: dict[str, Any] = {}
        for k, (index, tokens) in enumerate(model_turns(row)):
            prompt = tokens.get("prompt_ids")
            if not isinstance(prompt, list):
                self.counts.turns_without_ids += 1
                before = tokens
                continue
            self.counts.turns += 1
            found = []
            if self.render is not None:
                diff = first_difference(prompt, self.render(row["messages"][:index], row.get("tools") or []))
                if diff:
                    found.append(_finding(k, "render", diff))
            if isinstance(before.get("prompt_ids"), list) and isinstance(before.get("completion_ids"), list):
                previous = before["prompt_ids"] + before["completion_ids"]
                diff = first_difference(previous, prompt[:len(previous)])
                if diff:
                    found.append(_finding(k, "continuation", diff))
            if found:
                self.counts.turns_drifting += 1
                if not self.counts.first:
                    f = found[0]
                    self.counts.first = (f"{row.get('id')} turn {f['turn']} {f['check']} at token {f['position']}: "
                                         f"expected {f['expected']}, found {f['found']}")
            findings.extend(found)
            before = tokens
        self.counts.rows += 1
        self.counts.rows_drifting += bool(findings)
        return {**row, FIELD: findings}


def _finding(turn: int, check: str, diff: tuple[int, int | None, int | None]) -> dict[str, Any]:
    position, expected, found = diff
    return {"turn": turn, "check": check, "position": position, "expected": expected, "found": found}

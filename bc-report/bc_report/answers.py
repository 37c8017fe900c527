"""The verifier's extracted answer of a trajectory, shown beside the ground truth in the browser.

It comes from the bootcamp's own `RewardCalculator.extract_output`, found through `bc_common.catalog`, on the text
the verifier grades (the final assistant message, or every assistant message for a `grades = "all"` verifier).
A bootcamp that is not installed, or an extractor that raises, gives a note instead.
"""
from __future__ import annotations

from typing import Any

from bc_common import catalog
from bc_common.bootcamp import assistant_texts, final_assistant_text
from bc_common.errors import BcError

from .view import clip


class Extractor:
    """Calls each bootcamp's `extract_output`; the verifier of each data_source is looked up once."""

    def __init__(self, enabled: bool = True):
        self.enabled = enabled
        self._reward: dict[str, Any] = {}  # data_source -> RewardCalculator class, or the reason there is none

    def _reward_of(self, data_source: str) -> Any:
        if data_source not in self._reward:
            try:
                manifest = catalog.load(data_source)
                self._reward[data_source] = (manifest.reward if manifest.available
                                             else f"bootcamp not installed here ({manifest.reason})")
            except BcError as exc:
                self._reward[data_source] = f"no verifier here: {exc}"
            except Exception as exc:  # a third-party bootcamp that fails to import must not end the report
                self._reward[data_source] = f"no verifier here: {type(exc).__name__}: {exc}"
        return self._reward[data_source]

    def __call__(self, row: dict[str, Any]) -> dict[str, Any]:
        """`{"value": text or None, "note": why there is none}` for one trajectory row."""
        if not self.enabled:
            return {"value": None, "note": "extraction off (--no-extract)"}
        task = row.get("input") if isinstance(row.get("input"), dict) else {}
        reward = self._reward_of(str(task.get("data_source", "")))
        if isinstance(reward, str):
            return {"value": None, "note": clip(reward, 500)}
        messages = row.get("messages") if isinstance(row.get("messages"), list) else []
        candidate: Any = (assistant_texts(messages) if getattr(reward, "grades", "last") == "all"
                          else final_assistant_text(messages))
        try:
            value = reward.extract_output(candidate)
        except Exception as exc:  # the verifier's own guard scores this 0; say why here
            return {"value": None, "note": f"extract_output raised {type(exc).__name__}: {clip(str(exc), 300)}"}
        if value is None:
            return {"value": None, "note": "no answer found in the graded text"}
        return {"value": clip(value, 4000), "note": f"{reward.__module__}.{reward.__qualname__}.extract_output"}

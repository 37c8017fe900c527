"""Baselines: what a lazy summariser does first. Neither reads which facts the prompt asks for."""
from __future__ import annotations

from typing import Any

from bc_common.bootcamp import ReferencePolicy

from .sheet import sentence


def _answer(text: str) -> dict[str, Any]:
    return {"role": "assistant", "content": f"<summary>{text}</summary>"}


class CopySheetPolicy(ReferencePolicy):
    """The whole sheet, every sentence: all facts, but several times over the word limit."""

    def respond(self, messages: list[dict[str, Any]], *, wrong: bool = False) -> dict[str, Any]:
        entity = self.identity["entity"]
        return _answer(" ".join(sentence(line, entity) for line in self.identity["sheet"]))


class FirstWordsPolicy(ReferencePolicy):
    """The entity's name and the sheet's first sentences, cut at the word limit (a lead paragraph)."""

    def respond(self, messages: list[dict[str, Any]], *, wrong: bool = False) -> dict[str, Any]:
        entity = self.identity["entity"]
        words = f"{entity}: ".split() + " ".join(sentence(line, entity) for line in self.identity["sheet"]).split()
        return _answer(" ".join(words[: self.identity["max_words"]]))

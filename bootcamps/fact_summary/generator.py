"""Fact-summary tasks: a generated fact sheet about a fictional company, summarised within a word limit."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bc_common.bootcamp import InstructionGenerator

from .sheet import FACTS, FILLER, draw_sheet, sheet_text

# what the prompt asks the summary to state, per fact
LABELS = {
    "founded": "the year it was founded", "headquarters": "the city of its headquarters",
    "employees": "how many people it employs", "ceo": "its chief executive", "product": "its best-known product",
    "revenue": "its annual revenue", "offices": "how many offices it operates",
    "patents": "how many patents it holds", "founder": "who started it", "market": "its largest export market",
    "customers": "how many business customers it serves", "factories": "how many factories it runs",
    "rival": "its main rival", "warranty": "how long its warranty lasts",
}

PROMPT = (
    "{sheet}\n\n"
    "Write a summary of this fact sheet for a reader who has never heard of {entity}, in at most {max_words} words. "
    "Name {entity} and state {required}, with the exact values of the sheet; then use the words left for the other "
    "facts that matter most. Do not add anything the sheet does not say.\n\n"
    "Reply with the summary inside summary tags: <summary>...</summary>."
)


@dataclass
class FactSummaryConfig:
    facts: int = 10  # facts on the sheet (the rest of its lines are filler)
    required: int = 4  # facts the summary must state exactly
    filler: int = 3  # sentences without a fact
    max_words: int = 40

    def validate(self) -> None:
        if not 1 <= self.required <= self.facts <= len(FACTS):
            raise ValueError(f"need 1 <= required <= facts <= {len(FACTS)}")
        if not 0 <= self.filler <= len(FILLER):
            raise ValueError(f"need 0 <= filler <= {len(FILLER)}")
        if not 10 <= self.max_words <= 200:
            raise ValueError("need 10 <= max_words <= 200")
        if self.max_words * 2 > (self.facts + self.filler) * 12:
            raise ValueError("the sheet must be at least twice as long as the summary (more facts or filler, or "
                             "fewer max_words): copying the sheet must not fit")


class FactSummaryInstructionGenerator(InstructionGenerator):
    Config = FactSummaryConfig

    def case_generator(self) -> dict[str, Any]:
        return draw_sheet(self.rng, self.facts, self.required, self.filler, self.max_words)

    def prompt_func(self, identity: dict[str, Any]) -> str:
        labels = [LABELS[key] for key in identity["required"]]
        required = ", ".join(labels[:-1]) + f" and {labels[-1]}" if len(labels) > 1 else labels[0]
        return PROMPT.format(sheet=sheet_text(identity), entity=identity["entity"], max_words=identity["max_words"],
                             required=required)

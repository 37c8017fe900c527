"""Container with most water, as a picture: a bar chart of heights; the answer is the largest area two bars hold
with the x-axis between them, (j - i) * min(h_i, h_j) for bars i < j at unit spacing."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bc_common.bootcamp import InstructionGenerator
from bc_common.images import text_part

from .render import render_bars
from .solver import max_area

# letters that do not look alike in the bitmap font (no I/J/L, O/Q/D, U/V)
TAG_LETTERS = "ABCEFGHKMNPRSTWXYZ"


@dataclass
class ContainerConfig:
    min_bars: int = 8
    max_bars: int = 14
    max_height: int = 40
    labelled: bool = True  # heights printed on the bars; without, read the axis or measure with the tool
    measurements: int = 2  # `measure_bar` calls allowed per task

    def validate(self) -> None:
        if not 2 <= self.min_bars <= self.max_bars <= 40:
            raise ValueError("need 2 <= min_bars <= max_bars <= 40")
        if not 2 <= self.max_height <= 200:
            raise ValueError("max_height must be between 2 and 200")
        if not 0 <= self.measurements <= 40:
            raise ValueError("measurements must be between 0 and 40")


class ContainerWaterInstructionGenerator(InstructionGenerator):
    """Identity: {heights, tags, labelled, measurements, area, pair}: `tags` the two-letter name printed under
    each bar (only in the picture: the tool takes it), `area` by two pointers, `pair` one best pair (1-based)."""

    Config = ContainerConfig

    def case_generator(self) -> dict[str, Any]:
        rng = self.rng
        n = rng.randint(self.min_bars, self.max_bars)
        heights = [rng.randint(1, self.max_height) for _ in range(n)]
        tags = rng.sample([a + b for a in TAG_LETTERS for b in TAG_LETTERS], n)
        area, i, j = max_area(heights)
        return {"heights": heights, "tags": tags, "labelled": self.labelled, "measurements": self.measurements,
                "area": area, "pair": [i, j]}

    def prompt_func(self, identity: dict[str, Any]) -> list[dict[str, Any]]:
        n = len(identity["heights"])
        how = "Each bar's height is printed on it." if identity["labelled"] else \
            "Heights are not printed: read them against the axis."
        budget = identity.get("measurements")
        tool = "" if budget is None else (f" The `measure_bar` tool gives a bar's exact height by its tag, at most "
                                          f"{budget} times.")
        intro = (f"The chart below shows {n} vertical bars, one unit apart, each with a two-letter tag under it. "
                 f"{how}{tool}")
        question = ("Two bars and the ground between them form a container; bars i < j hold (j - i) x "
                    "min(height i, height j) units of water. What is the most water two bars can hold? Answer "
                    "with an integer as <answer>N</answer>.")
        chart = render_bars(identity["heights"], identity["labelled"], identity.get("tags"))
        return [text_part(intro), chart, text_part(question)]

"""Container with most water, as a picture: a bar chart of heights; the answer is the largest area two bars hold
with the x-axis between them, (j - i) * min(h_i, h_j) for bars i < j at unit spacing."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bc_common.bootcamp import InstructionGenerator
from bc_common.images import text_part

from .render import render_bars
from .solver import max_area


@dataclass
class ContainerConfig:
    min_bars: int = 8
    max_bars: int = 14
    max_height: int = 40
    labelled: bool = True  # heights printed on the bars; without, read the axis or measure with the tool

    def validate(self) -> None:
        if not 2 <= self.min_bars <= self.max_bars <= 40:
            raise ValueError("need 2 <= min_bars <= max_bars <= 40")
        if not 2 <= self.max_height <= 200:
            raise ValueError("max_height must be between 2 and 200")


class ContainerWaterInstructionGenerator(InstructionGenerator):
    """Identity: {heights, labelled, area, pair}: `area` by two pointers, `pair` one best pair (1-based bars)."""

    Config = ContainerConfig

    def case_generator(self) -> dict[str, Any]:
        rng = self.rng
        n = rng.randint(self.min_bars, self.max_bars)
        heights = [rng.randint(1, self.max_height) for _ in range(n)]
        area, i, j = max_area(heights)
        return {"heights": heights, "labelled": self.labelled, "area": area, "pair": [i, j]}

    def prompt_func(self, identity: dict[str, Any]) -> list[dict[str, Any]]:
        n = len(identity["heights"])
        how = "Each bar's height is printed on it." if identity["labelled"] else \
            "Heights are not printed: read them against the axis, or measure a bar with the `measure_bar` tool."
        intro = (f"The chart below shows {n} vertical bars, numbered 1 to {n} from left to right, one unit apart. "
                 f"{how}")
        question = ("Two bars and the ground between them form a container; bars i < j hold (j - i) x "
                    "min(height i, height j) units of water. What is the most water two bars can hold? Answer "
                    "with an integer as <answer>N</answer>.")
        return [text_part(intro), render_bars(identity["heights"], identity["labelled"]), text_part(question)]

"""0/1 knapsack tasks: items with integer weights and values, a capacity, and the exact optimum.

Values follow Pisinger's classic instance classes: `uncorrelated` (random values), `weak` (value within ±R/10
of the weight), `strong` (value = weight + R/10, the hard class for branch and bound) and `inverse` (value =
weight - R/10). A task is kept only when every cheap heuristic (`heuristics.py`) falls short of the optimum.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bc_common.bootcamp import InstructionGenerator
from bc_common.errors import ConfigError

from .heuristics import heuristic_floor
from .solver import best_selection

CORRELATIONS = ("uncorrelated", "weak", "strong", "inverse")
MAX_DRAWS = 500  # draws before giving up; the groups need about 2-6 (every heuristic must miss the optimum)
CHECKS = 3  # `evaluate_selection` calls a task allows: enough to check an answer, too few to hill-climb

PROMPT = """You are packing a knapsack that holds a total weight of at most {capacity}. Each item can be taken \
at most once.

item  weight  value
{table}

Choose items with the largest possible total value whose total weight is at most {capacity}. \
You can check up to {checks} selections with the `evaluate_selection` tool. Give your final answer as a JSON object listing \
the item numbers you take:
```json
{{"items": [i1, i2, ...]}}
```
The score is the share of the gap you close between what simple greedy rules reach and the best possible total \
value: 1.0 only for a best selection, 0 for a selection no better than greedy, over the capacity or with an item \
listed twice."""


@dataclass
class KnapsackConfig:
    min_items: int = 12
    max_items: int = 20
    max_weight: int = 100  # R: weights are drawn from 1..R
    correlation: str = "weak"
    min_capacity_ratio: float = 0.3  # the capacity as a share of the total weight of all items
    max_capacity_ratio: float = 0.6

    def validate(self) -> None:
        if not 2 <= self.min_items <= self.max_items <= 60:
            raise ValueError("need 2 <= min_items <= max_items <= 60")
        if not 10 <= self.max_weight <= 2000:
            raise ValueError("max_weight must be between 10 and 2000 (the optimum is exact: DP over capacities)")
        if self.correlation not in CORRELATIONS:
            raise ValueError(f"correlation must be one of {', '.join(CORRELATIONS)}")
        if not 0.05 <= self.min_capacity_ratio <= self.max_capacity_ratio <= 0.9:
            raise ValueError("need 0.05 <= min_capacity_ratio <= max_capacity_ratio <= 0.9")


class KnapsackInstructionGenerator(InstructionGenerator):
    """Identity: {weights, values, capacity, optimum, floor, items}: `floor` is the best value of the cheap
    heuristics (always below `optimum`); one optimal selection is kept for the reference policy; the verifier
    compares values, so every optimal selection scores 1.0."""

    Config = KnapsackConfig

    def _draw(self) -> tuple[list[int], list[int], int]:
        rng, r = self.rng, self.max_weight
        n = rng.randint(self.min_items, self.max_items)
        weights = [rng.randint(1, r) for _ in range(n)]
        if self.correlation == "uncorrelated":
            values = [rng.randint(1, r) for _ in range(n)]
        elif self.correlation == "weak":
            values = [max(1, w + rng.randint(-(r // 10), r // 10)) for w in weights]
        elif self.correlation == "strong":
            values = [w + r // 10 for w in weights]
        else:
            values = [max(1, w - r // 10) for w in weights]
        ratio = rng.uniform(self.min_capacity_ratio, self.max_capacity_ratio)
        return weights, values, max(min(weights), int(sum(weights) * ratio))

    def case_generator(self) -> dict[str, Any]:
        for _ in range(MAX_DRAWS):
            weights, values, capacity = self._draw()
            floor = heuristic_floor(weights, values, capacity)
            optimum, items = best_selection(weights, values, capacity)
            if floor < optimum:
                return {"weights": weights, "values": values, "capacity": capacity, "optimum": optimum,
                        "floor": floor, "items": items}
        raise ConfigError(f"no task in {MAX_DRAWS} draws where the greedy heuristics miss the optimum: use more "
                          "items or another correlation")

    def prompt_func(self, identity: dict[str, Any]) -> str:
        rows = [f"{i:>4}  {w:>6}  {v:>5}" for i, (w, v) in
                enumerate(zip(identity["weights"], identity["values"], strict=True), start=1)]
        return PROMPT.format(capacity=identity["capacity"], table="\n".join(rows), checks=CHECKS)

"""What a run's tokens cost: a price per million input and output tokens, from `--price IN,OUT` or a small table.

    price = find_price("gpt-4o-mini-2024-07-18")          # Price(0.15, 0.60, "built-in table: gpt-4o-mini")
    price.cost({"prompt_tokens": 1000, "completion_tokens": 200})   # {"usd": 0.00027, ...}

The table holds list prices of a few well-known hosted models (USD per million tokens, standard tier, checked
2025-08). Prices change and providers discount cached or batched tokens: `--price` always wins.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any

from .errors import ConfigError

MAX_PER_MTOK = 1e6  # no model costs a dollar a token; a larger number is a typo

# model -> (input, output) USD per million tokens, as the providers list them
BUILTIN_PRICES: dict[str, tuple[float, float]] = {
    "gpt-4o": (2.50, 10.00),
    "gpt-4o-mini": (0.15, 0.60),
    "gpt-4.1": (2.00, 8.00),
    "gpt-4.1-mini": (0.40, 1.60),
    "gpt-4.1-nano": (0.10, 0.40),
    "o3": (2.00, 8.00),
    "o4-mini": (1.10, 4.40),
    "gpt-5": (1.25, 10.00),
    "gpt-5-mini": (0.25, 2.00),
    "gpt-5-nano": (0.05, 0.40),
    "claude-opus-4": (15.00, 75.00),
    "claude-sonnet-4": (3.00, 15.00),
    "claude-3-7-sonnet": (3.00, 15.00),
    "claude-3-5-haiku": (0.80, 4.00),
    "gemini-2.5-pro": (1.25, 10.00),
    "gemini-2.5-flash": (0.30, 2.50),
}

# a dated snapshot or alias of a listed model costs what the model does: gpt-4o-2024-08-06, claude-sonnet-4-20250514
_SNAPSHOT = re.compile(r"-(\d{4}-\d{2}-\d{2}|\d{8}|latest)$")


@dataclass(frozen=True)
class Price:
    """USD per million input (prompt) and output (completion) tokens, and where the numbers came from."""

    input_per_mtok: float
    output_per_mtok: float
    source: str = "--price"

    def cost(self, usage: dict[str, Any] | None) -> dict[str, Any]:
        """The row's `cost`: USD for its summed usage at this price (every prompt token at the input price)."""
        usage = usage or {}
        prompt, completion = int(usage.get("prompt_tokens") or 0), int(usage.get("completion_tokens") or 0)
        usd = (prompt * self.input_per_mtok + completion * self.output_per_mtok) / 1e6
        return {"usd": round(usd, 9), "input_per_mtok": self.input_per_mtok,
                "output_per_mtok": self.output_per_mtok, "price_source": self.source}

    def describe(self) -> str:
        return f"${self.input_per_mtok:g} in, ${self.output_per_mtok:g} out per million tokens ({self.source})"


def parse_price(text: str, flag: str = "--price") -> Price:
    """`IN_PER_MTOK,OUT_PER_MTOK` (USD per million tokens, e.g. `2.5,10`) -> Price; anything else is exit 2."""
    parts = text.split(",")
    try:
        values = [float(p) for p in parts]
    except ValueError:
        values = []
    if len(values) != 2 or not all(math.isfinite(v) and 0 <= v <= MAX_PER_MTOK for v in values):
        raise ConfigError(f"{flag} {text!r}: expected IN_PER_MTOK,OUT_PER_MTOK, two numbers of USD per million "
                          f"tokens between 0 and {MAX_PER_MTOK:g}, e.g. {flag} 2.5,10")
    return Price(values[0], values[1], flag)


def find_price(model: str | None, given: Price | None = None) -> Price | None:
    """The price of `model`: `given` (from --price) when set, else the built-in table's (a dated snapshot of a
    listed model included), else None."""
    if given is not None:
        return given
    if not model:
        return None
    for name in (model, _SNAPSHOT.sub("", model)):
        if name in BUILTIN_PRICES:
            return Price(*BUILTIN_PRICES[name], source=f"built-in table: {name}")
    return None

"""Industry profiles: the ranges each driver is drawn from, so a software firm and a utility look like themselves."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Industry:
    """Driver ranges (low, high) for one industry; rates as fractions, working capital in days of revenue or
    COGS, debt as a multiple of EBITDA."""

    name: str
    revenue: tuple[int, int]  # first-year revenue, thousands
    growth: tuple[float, float]
    gross_margin: tuple[float, float]
    opex_pct: tuple[float, float]
    dso: tuple[int, int]
    dio: tuple[int, int]
    dpo: tuple[int, int]
    capex_pct: tuple[float, float]
    depreciation_rate: tuple[float, float]
    ppe_to_revenue: tuple[float, float]
    debt_to_ebitda: tuple[float, float]
    interest_rate: tuple[float, float]
    tax_rate: tuple[float, float]
    payout_ratio: tuple[float, float]


INDUSTRIES = {
    "software": Industry("software", (40_000, 400_000), (0.08, 0.30), (0.70, 0.86), (0.42, 0.58), (55, 90),
                         (0, 4), (20, 40), (0.02, 0.05), (0.18, 0.30), (0.05, 0.15), (0.0, 1.5),
                         (0.05, 0.09), (0.18, 0.25), (0.0, 0.25)),
    "retail": Industry("retail", (150_000, 2_000_000), (0.02, 0.09), (0.26, 0.40), (0.18, 0.30), (2, 10),
                       (35, 90), (30, 60), (0.02, 0.045), (0.10, 0.16), (0.20, 0.40), (0.5, 2.5),
                       (0.045, 0.08), (0.21, 0.28), (0.2, 0.5)),
    "manufacturing": Industry("manufacturing", (80_000, 1_200_000), (0.02, 0.10), (0.24, 0.38), (0.10, 0.20),
                              (45, 75), (60, 120), (40, 70), (0.04, 0.08), (0.08, 0.14), (0.40, 0.80),
                              (1.0, 3.0), (0.045, 0.085), (0.20, 0.28), (0.2, 0.5)),
    "utilities": Industry("utilities", (200_000, 3_000_000), (0.01, 0.05), (0.45, 0.60), (0.12, 0.22), (30, 50),
                          (10, 25), (30, 50), (0.12, 0.20), (0.035, 0.06), (1.8, 3.0), (3.0, 5.0),
                          (0.035, 0.06), (0.20, 0.27), (0.5, 0.8)),
}

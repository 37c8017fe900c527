"""The forecast's operating drivers, read from the reported statements and extrapolated by their linear trend.

Each reported year's operating drivers are round numbers (rates to 0.001, days whole), so a ratio of two reported
lines rounded to that grid recovers them exactly; the forecast value of a driver is the least-squares line through
its reported values (x = the year), evaluated at the forecast year, at full precision. The generator, the
reference policy and the prompt all use these definitions.
"""
from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal, localcontext

# driver -> (what it is, as the prompt states it; grid)
TREND_DRIVERS: dict[str, tuple[str, Decimal]] = {
    "revenue_growth": ("revenue / previous year's revenue - 1 (from the second reported year on)", Decimal("0.001")),
    "gross_margin": ("gross_profit / revenue", Decimal("0.001")),
    "opex_pct": ("opex / revenue", Decimal("0.001")),
    "dso": ("receivables x 365 / revenue (days)", Decimal(1)),
    "dio": ("inventory x 365 / cogs (days)", Decimal(1)),
    "dpo": ("payables x 365 / cogs (days)", Decimal(1)),
    "capex_pct": ("-capex / revenue (capex is negative on the cash flow)", Decimal("0.001")),
    "depreciation_rate": ("depreciation / previous year's ppe (from the second reported year on)", Decimal("0.001")),
}
PLACES = Decimal("1e-12")  # forecast drivers are kept to 12 places in the identity (beyond any figure's reach)


def _ratio(num: int, den: int, scale: int = 1) -> Decimal | None:
    return None if den == 0 else Decimal(num) * scale / Decimal(den)


def reported_drivers(history: dict[str, dict[str, int]]) -> dict[str, list[tuple[int, Decimal]]]:
    """{driver: [(year, value on its grid)]} for every reported year where the driver can be read."""
    years = sorted(history)
    out: dict[str, list[tuple[int, Decimal]]] = {name: [] for name in TREND_DRIVERS}
    with localcontext() as ctx:
        ctx.prec = 40
        for i, year in enumerate(years):
            y = history[year]
            prev = history[years[i - 1]] if i else None
            raw = {
                "revenue_growth": _ratio(y["revenue"], prev["revenue"]) - 1 if prev and prev["revenue"] else None,
                "gross_margin": _ratio(y["gross_profit"], y["revenue"]),
                "opex_pct": _ratio(y["opex"], y["revenue"]),
                "dso": _ratio(y["receivables"], y["revenue"], 365),
                "dio": _ratio(y["inventory"], y["cogs"], 365),
                "dpo": _ratio(y["payables"], y["cogs"], 365),
                "capex_pct": _ratio(-y["capex"], y["revenue"]),
                "depreciation_rate": _ratio(y["depreciation"], prev["ppe"]) if prev else None,
            }
            for name, value in raw.items():
                if value is not None:
                    grid = TREND_DRIVERS[name][1]
                    out[name].append((int(year), value.quantize(grid, rounding=ROUND_HALF_UP)))
    return out


def linear_trend(points: list[tuple[int, Decimal]], at: int) -> Decimal:
    """The least-squares line through `points` (x, y), evaluated at x = `at` (one point: its value)."""
    with localcontext() as ctx:
        ctx.prec = 40
        n = Decimal(len(points))
        mean_x = sum(Decimal(x) for x, _ in points) / n
        mean_y = sum(y for _, y in points) / n
        sxx = sum((Decimal(x) - mean_x) ** 2 for x, _ in points)
        if sxx == 0:
            return mean_y.quantize(PLACES, rounding=ROUND_HALF_UP)
        slope = sum((Decimal(x) - mean_x) * (y - mean_y) for x, y in points) / sxx
        return (mean_y + slope * (Decimal(at) - mean_x)).quantize(PLACES, rounding=ROUND_HALF_UP)


def forecast_drivers(history: dict[str, dict[str, int]], year: int) -> dict[str, str]:
    """{driver: forecast value as a decimal string} for every trend driver, from the reported statements."""
    reported = reported_drivers(history)
    return {name: f"{linear_trend(points, year):f}" for name, points in reported.items()}


def describe() -> str:
    """The drivers' definitions and the method, as the prompt states them."""
    rows = "\n".join(f"- {name} = {what}" for name, (what, _grid) in TREND_DRIVERS.items())
    return ("Operating drivers, read from the reported statements:\n" + rows + "\n"
            "Each reported year's drivers are round numbers (rates to 0.001, days whole): round every ratio you "
            "compute to that grid and you have them exactly. Forecast each driver by its least-squares linear "
            "trend over the reported years where it can be read (x = the year), evaluated at the forecast year, "
            "at full precision (no rounding of the forecast driver).")

"""Synthetic companies with consistent multi-year statements, and next-year assumptions whose exact forecast is
computed here with Decimal and kept in the identity."""
from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from bc_common.bootcamp import InstructionGenerator

from .industries import INDUSTRIES, Industry
from .statements import BALANCE_SHEET, CASH_FLOW, INCOME_STATEMENT, LINES, project_year, whole
from .trend import TREND_DRIVERS, describe, forecast_drivers, reported_drivers

_SYLLABLES = ("vel", "ar", "to", "mi", "sol", "qua", "ren", "dex", "lo", "nor", "kai", "tri", "on", "bel", "zen")
_SUFFIX = ("Holdings", "Group", "Industries", "Systems", "Corp", "Partners")
FIRST_YEAR = 2019
# trend slopes in grid steps a year (low, high), signs drawn: growth moves 0.5-1.5 points a year, days 2-5; the
# least step moves its lines by more than the figure tolerance, so last year's drivers do not pass for a forecast
SLOPE_STEPS = {"revenue_growth": (5, 15), "gross_margin": (4, 9), "opex_pct": (3, 7), "dso": (2, 5), "dio": (2, 5),
               "dpo": (2, 5), "capex_pct": (2, 5), "depreciation_rate": (2, 6)}


def sane(d: dict[str, Any]) -> bool:
    """Drivers a real company could have: margins, cost shares and rates in range, no negative days."""
    v = {k: Decimal(d[k]) for k in TREND_DRIVERS}
    return (Decimal("0.05") <= v["gross_margin"] <= Decimal("0.95") and Decimal("0.02") <= v["opex_pct"]
            and v["opex_pct"] + Decimal("0.02") <= v["gross_margin"] and min(v["dso"], v["dio"], v["dpo"]) >= 0
            and Decimal("0.005") <= v["capex_pct"] <= Decimal("0.4")
            and Decimal("0.01") <= v["depreciation_rate"] <= Decimal("0.5")
            and Decimal("-0.15") <= v["revenue_growth"] <= Decimal("0.6"))


@dataclass
class FinancialForecastConfig:
    history_years: int = 3
    industries: str = "software,retail,manufacturing,utilities"
    constraint_pressure: float = 0.5  # probability that each constraint (minimum cash, leverage cap) binds
    noise: int = 1  # each reported operating driver strays from its trend by up to this many x 3 grid steps (days: x 2)
    rel_tolerance: str = "0.002"  # a figure passes within max(abs, rel * |exact|) of the exact forecast
    abs_tolerance: str = "2"
    identity_tolerance: str = "1"  # an identity passes when its two sides differ by at most this
    check_budget: int = 3

    def validate(self) -> None:
        if not 3 <= self.history_years <= 8:
            raise ValueError("history_years must be in [3, 8] (a growth trend needs two reported growth rates)")
        if not 0 <= self.noise <= 5:
            raise ValueError("noise must be in [0, 5]")
        names = [n.strip() for n in self.industries.split(",") if n.strip()]
        unknown = sorted(set(names) - set(INDUSTRIES))
        if not names or unknown:
            raise ValueError(f"industries must name some of {sorted(INDUSTRIES)}; unknown: {unknown}")
        if not 0.0 <= self.constraint_pressure <= 1.0:
            raise ValueError("constraint_pressure must be a probability in [0, 1]")
        for name in ("rel_tolerance", "abs_tolerance", "identity_tolerance"):
            if not 0 <= Decimal(getattr(self, name)) <= 1000:
                raise ValueError(f"{name} must be a number in [0, 1000]")
        if not 0 <= self.check_budget <= 20:
            raise ValueError("check_budget must be in [0, 20]")


def _rate(rng: Any, low: float, high: float, places: int = 3) -> str:
    """A rate drawn uniformly, as a short decimal string (exact in the identity)."""
    return str(round(rng.uniform(low, high), places))


class FinancialForecastInstructionGenerator(InstructionGenerator):
    """Identity: company, industry, history {year: statements}, assumptions, exact forecast, tolerances."""

    Config = FinancialForecastConfig
    name = "financial_forecast"

    def _drivers(self, ind: Industry) -> dict[str, Any]:
        rng = self.rng
        d = {
            "revenue_growth": _rate(rng, *ind.growth),
            "gross_margin": _rate(rng, *ind.gross_margin),
            "opex_pct": _rate(rng, *ind.opex_pct),
            "dso": str(rng.randint(*ind.dso)), "dio": str(rng.randint(*ind.dio)), "dpo": str(rng.randint(*ind.dpo)),
            "capex_pct": _rate(rng, *ind.capex_pct),
            "depreciation_rate": _rate(rng, *ind.depreciation_rate),
            "interest_rate": _rate(rng, *ind.interest_rate, places=4),
            "tax_rate": _rate(rng, *ind.tax_rate, places=2),
            "payout_ratio": _rate(rng, *ind.payout_ratio, places=2),
        }
        return d

    def _opening(self, ind: Industry, d: dict[str, Any]) -> dict[str, int]:
        """A balanced opening balance sheet (the year before the first reported one) and its revenue."""
        rng = self.rng
        revenue = rng.randint(*ind.revenue)
        cogs = whole(revenue * (1 - Decimal(d["gross_margin"])))
        ebitda = revenue - cogs - whole(revenue * Decimal(d["opex_pct"]))
        o = {"revenue": revenue,
             "receivables": whole(revenue * Decimal(d["dso"]) / 365),
             "inventory": whole(cogs * Decimal(d["dio"]) / 365),
             "payables": whole(cogs * Decimal(d["dpo"]) / 365),
             "ppe": whole(revenue * Decimal(str(round(rng.uniform(*ind.ppe_to_revenue), 3)))),
             "cash": whole(revenue * Decimal(str(round(rng.uniform(0.04, 0.15), 3)))),
             "term_debt": whole(max(ebitda, 0) * Decimal(str(round(rng.uniform(*ind.debt_to_ebitda), 2)))),
             "revolver": 0}
        assets = o["cash"] + o["receivables"] + o["inventory"] + o["ppe"]
        net = assets - o["payables"] - o["term_debt"]
        if net < revenue // 10:  # keep book equity positive: more cash, funded by owners
            o["cash"] += revenue // 10 - net
            net = revenue // 10
        o["share_capital"] = whole(net * Decimal(str(round(rng.uniform(0.2, 0.6), 2))))
        o["retained_earnings"] = net - o["share_capital"]
        return o

    def case_generator(self) -> dict[str, Any]:
        names = [n.strip() for n in self.industries.split(",") if n.strip()]
        while True:  # redraw the rare company whose trends leave sane ranges or whose forecast year loses money
            identity = self._draw(INDUSTRIES[self.rng.choice(names)])
            if identity is not None:
                return identity

    def _trends(self, base: dict[str, Any]) -> list[dict[str, Any]]:
        """Each reported year's drivers: the operating ones on a seeded linear trend plus noise, on their grid;
        the financing terms constant."""
        rng = self.rng
        slopes = {name: rng.choice((-1, 1)) * rng.randint(*SLOPE_STEPS[name]) for name in TREND_DRIVERS}
        years = []
        for t in range(self.history_years):
            d = dict(base)
            for name, (_what, grid) in TREND_DRIVERS.items():
                wobble = rng.randint(-self.noise, self.noise) * (2 if grid == 1 else 3)
                d[name] = f"{Decimal(base[name]) + (slopes[name] * t + wobble) * grid:f}"
            years.append(d)
        return years

    def _draw(self, ind: Industry) -> dict[str, Any] | None:
        rng = self.rng
        base = self._drivers(ind)
        opening = self._opening(ind, base)
        history: dict[str, dict[str, int]] = {}
        prior = opening
        years = self._trends(base)
        for i, year in enumerate(years):
            if not sane(year):
                return None
            year["debt_repayment"] = str(whole(prior["term_debt"] * Decimal(str(round(rng.uniform(0, 0.2), 2)))))
            year["min_cash"] = str(whole(prior["revenue"] * Decimal("0.02")))
            year["leverage_cap"] = "100"
            prior = project_year(prior, year)
            history[str(FIRST_YEAR + i)] = prior
        read = reported_drivers(history)  # the grid recovers every reported driver exactly, as the prompt says
        if any(value != Decimal(years[y - FIRST_YEAR][name]) for name, points in read.items() for y, value in points):
            return None
        forecast_year = FIRST_YEAR + self.history_years
        assumptions = {**base, **forecast_drivers(history, forecast_year)}
        if not sane(assumptions) or abs(Decimal(assumptions["revenue_growth"])) < Decimal("0.02"):
            return None  # a copy of last year must not pass as a forecast
        assumptions["debt_repayment"] = str(whole(prior["term_debt"] * Decimal(str(round(rng.uniform(0, 0.25), 2)))))
        assumptions["min_cash"] = str(whole(prior["revenue"] * Decimal("0.03")))
        assumptions["leverage_cap"] = "100"
        loose = project_year(prior, assumptions)
        if loose["ebitda"] <= 0 or loose["net_income"] <= 0:
            return None
        dividend_target = -loose["dividends"]
        net_debt = loose["term_debt"] + loose["revolver"] - loose["cash"]
        if rng.random() < self.constraint_pressure and dividend_target > 0:
            # cap between the leverage before and after the full dividend: the dividend is cut
            before = Decimal(net_debt - dividend_target) / loose["ebitda"]
            after = Decimal(net_debt) / loose["ebitda"]
            cap = (before + (after - before) * Decimal(str(round(rng.uniform(0.2, 0.8), 2)))).quantize(Decimal("0.01"))
            if 0 < before < cap < after:
                assumptions["leverage_cap"] = str(cap)
        if assumptions["leverage_cap"] == "100":
            ceiling = Decimal(max(net_debt, 0)) / loose["ebitda"] + Decimal(str(round(rng.uniform(0.5, 2.0), 2)))
            assumptions["leverage_cap"] = str(ceiling.quantize(Decimal("0.01")))
        if rng.random() < self.constraint_pressure:  # a minimum cash above what is left: the revolver draws
            shortfall = whole(prior["revenue"] * Decimal(str(round(rng.uniform(0.01, 0.06), 3))))
            capped = project_year(prior, assumptions)
            left = capped["cash"] - capped["revolver_change"]  # cash after dividends, before the revolver
            assumptions["min_cash"] = str(max(left, 0) + shortfall)
        exact = project_year(prior, assumptions)
        if exact["ebitda"] <= 0:
            return None
        company = "".join(rng.choice(_SYLLABLES) for _ in range(rng.randint(2, 3))).capitalize()
        return {
            "company": f"{company} {rng.choice(_SUFFIX)}",
            "industry": ind.name,
            "history": history,
            "forecast_year": str(forecast_year),
            "assumptions": assumptions,
            "exact_forecast": exact,
            "required_lines": list(LINES),
            "rel_tolerance": self.rel_tolerance,
            "abs_tolerance": self.abs_tolerance,
            "identity_tolerance": self.identity_tolerance,
            "check_budget": self.check_budget,
        }

    def prompt_func(self, identity: dict[str, Any]) -> str:
        return render_prompt(identity)


def render_prompt(identity: dict[str, Any]) -> str:
    """The task as the analyst reads it: what to forecast, the assumptions, the rules and the answer format."""
    a = identity["assumptions"]
    years = sorted(identity["history"])
    last = years[-1]
    pct = lambda key: f"{(Decimal(a[key]) * 100).normalize():f}%"  # noqa: E731
    lines = "\n".join(f"- {name}: {', '.join(lines)}" for name, lines in
                      (("income statement", INCOME_STATEMENT), ("balance sheet", BALANCE_SHEET),
                       ("cash flow", CASH_FLOW)))
    return (
        f"You are a financial analyst. Forecast the {identity['forecast_year']} income statement, balance sheet and "
        f"cash-flow statement of {identity['company']}, a {identity['industry']} company. Its reported statements "
        f"for {years[0]}-{last} (thousands) are available through the `lookup_statement` tool (nothing else "
        f"shows them); the last year, {last}, is your opening position.\n\n"
        f"{describe()}\n\n"
        f"How the forecast drivers make the {identity['forecast_year']} lines: revenue = last revenue x (1 + "
        f"revenue_growth); cogs = revenue x (1 - gross_margin); opex = revenue x opex_pct; receivables = revenue x "
        f"dso/365; inventory = cogs x dio/365; payables = cogs x dpo/365; capex = revenue x capex_pct; depreciation "
        f"= depreciation_rate x opening ppe.\n\n"
        f"Financing terms for {identity['forecast_year']} (stated, not forecast):\n"
        f"- interest {pct('interest_rate')} of opening debt (term_debt + revolver); tax {pct('tax_rate')} of "
        f"pretax income when positive, else 0\n"
        f"- term debt repayment {a['debt_repayment']}; share capital unchanged\n"
        f"- dividends: payout ratio {pct('payout_ratio')} of net income, cut (not below 0, rounded down to a "
        f"whole unit) as far as needed to keep net debt / EBITDA at or below {a['leverage_cap']} (net debt = "
        f"term_debt + revolver - cash)\n"
        f"- minimum cash balance {a['min_cash']}: the revolver draws exactly the shortfall; cash above the minimum "
        f"repays the opening revolver balance first\n\n"
        f"Rules: round every computed line half-up to a whole unit as you compute it; subtotals are sums of "
        f"rounded lines. Cash-flow signs: outflows negative (capex, cfi, dividends, debt_repayment); change_receivables = "
        f"prior - current receivables, change_inventory likewise, change_payables = current - prior payables; "
        f"cfo_net_income and cfo_depreciation repeat those lines; opening_cash is last year's cash.\n"
        f"Lines to forecast:\n{lines}\n\n"
        f"Grading: every accounting identity must hold in your figures (within {identity['identity_tolerance']}); "
        f"each line must be within max({identity['abs_tolerance']}, {(Decimal(identity['rel_tolerance']) * 100).normalize():f}% "
        f"of the exact value); cash >= the minimum, no negative debt, net debt / EBITDA <= the cap. "
        f"`ratio` computes ratios from figures you give it; `check_forecast` reports which identities or "
        f"constraints your draft breaks (at most {identity['check_budget']} checks).\n\n"
        "Answer format: end your reply with\n```json\n{\"forecast\": {\"revenue\": ..., ...every line...}}\n```"
    )

"""The three statements of a synthetic company: one year projected from the last, exactly, with Decimal.

Every figure is a whole currency unit (thousands): each computed line is rounded half-up to a whole unit as it
is computed, and subtotals are sums of rounded lines, so every accounting identity holds exactly. The same
`project_year` makes the history (with drifting drivers) and the exact forecast (with the stated assumptions).
"""
from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_FLOOR, ROUND_HALF_UP, Decimal, localcontext
from typing import Any

INCOME_STATEMENT = ("revenue", "cogs", "gross_profit", "opex", "ebitda", "depreciation", "ebit",
                    "interest_expense", "pretax_income", "tax", "net_income")
BALANCE_SHEET = ("cash", "receivables", "inventory", "ppe", "total_assets", "payables", "revolver",
                 "term_debt", "total_liabilities", "share_capital", "retained_earnings", "total_equity",
                 "total_liabilities_and_equity")
CASH_FLOW = ("cfo_net_income", "cfo_depreciation", "change_receivables", "change_inventory", "change_payables",
             "cfo", "capex", "cfi", "dividends", "debt_repayment", "revolver_change", "cff", "net_change_cash",
             "opening_cash", "closing_cash")
STATEMENTS = {"income_statement": INCOME_STATEMENT, "balance_sheet": BALANCE_SHEET, "cash_flow": CASH_FLOW}
LINES = INCOME_STATEMENT + BALANCE_SHEET + CASH_FLOW
# the assumptions a projection needs, as decimal strings in the identity
DRIVERS = ("revenue_growth", "gross_margin", "opex_pct", "dso", "dio", "dpo", "capex_pct", "depreciation_rate",
           "interest_rate", "tax_rate", "payout_ratio", "debt_repayment", "min_cash", "leverage_cap")
DAYS = Decimal(365)


def whole(value: Decimal) -> int:
    """Round half-up to a whole unit (the statements' one rounding rule)."""
    return int(value.quantize(Decimal(1), rounding=ROUND_HALF_UP))


@dataclass(frozen=True)
class Check:
    """One graded check: a named identity, figure or constraint, and whether it passed."""

    kind: str  # "identity" | "figure" | "constraint"
    name: str
    passed: bool
    detail: str = ""


def project_year(opening: dict[str, int], drivers: dict[str, Any]) -> dict[str, int]:
    """Next year's three statements from last year's (only its balance sheet and revenue are read) and the
    drivers; all lines whole units; the identities hold exactly."""
    d = {k: Decimal(str(drivers[k])) for k in DRIVERS}
    with localcontext() as ctx:
        ctx.prec = 40
        y: dict[str, int] = {}
        y["revenue"] = whole(opening["revenue"] * (1 + d["revenue_growth"]))
        y["cogs"] = whole(y["revenue"] * (1 - d["gross_margin"]))
        y["gross_profit"] = y["revenue"] - y["cogs"]
        y["opex"] = whole(y["revenue"] * d["opex_pct"])
        y["ebitda"] = y["gross_profit"] - y["opex"]
        y["depreciation"] = whole(opening["ppe"] * d["depreciation_rate"])
        y["ebit"] = y["ebitda"] - y["depreciation"]
        y["interest_expense"] = whole((opening["term_debt"] + opening["revolver"]) * d["interest_rate"])
        y["pretax_income"] = y["ebit"] - y["interest_expense"]
        y["tax"] = whole(max(y["pretax_income"], 0) * d["tax_rate"])
        y["net_income"] = y["pretax_income"] - y["tax"]

        y["receivables"] = whole(y["revenue"] * d["dso"] / DAYS)
        y["inventory"] = whole(y["cogs"] * d["dio"] / DAYS)
        y["payables"] = whole(y["cogs"] * d["dpo"] / DAYS)
        capex = whole(y["revenue"] * d["capex_pct"])
        y["ppe"] = opening["ppe"] + capex - y["depreciation"]
        repayment = min(int(d["debt_repayment"]), opening["term_debt"])
        y["term_debt"] = opening["term_debt"] - repayment
        y["share_capital"] = opening["share_capital"]

        y["cfo_net_income"] = y["net_income"]
        y["cfo_depreciation"] = y["depreciation"]
        y["change_receivables"] = -(y["receivables"] - opening["receivables"])
        y["change_inventory"] = -(y["inventory"] - opening["inventory"])
        y["change_payables"] = y["payables"] - opening["payables"]
        y["cfo"] = (y["net_income"] + y["depreciation"] + y["change_receivables"] + y["change_inventory"]
                    + y["change_payables"])
        y["capex"] = -capex
        y["cfi"] = -capex
        cash_before = opening["cash"] + y["cfo"] + y["cfi"] - repayment
        # dividends raise net debt one for one however they are funded: cut them to stay under the cap
        net_debt_before = y["term_debt"] + opening["revolver"] - cash_before
        headroom = d["leverage_cap"] * y["ebitda"] - net_debt_before
        target = max(y["net_income"], 0) * d["payout_ratio"]
        dividends = int(max(Decimal(0), min(target, headroom)).to_integral_value(rounding=ROUND_FLOOR))
        cash_after = cash_before - dividends
        min_cash = int(d["min_cash"])
        if cash_after < min_cash:
            draw = min_cash - cash_after  # the revolver funds the shortfall
        else:
            draw = -min(opening["revolver"], cash_after - min_cash)  # excess cash sweeps the revolver
        y["revolver"] = opening["revolver"] + draw
        y["cash"] = cash_after + draw
        y["dividends"] = -dividends
        y["debt_repayment"] = -repayment
        y["revolver_change"] = draw
        y["cff"] = -dividends - repayment + draw
        y["net_change_cash"] = y["cfo"] + y["cfi"] + y["cff"]
        y["opening_cash"] = opening["cash"]
        y["closing_cash"] = y["cash"]
        y["retained_earnings"] = opening["retained_earnings"] + y["net_income"] - dividends
        y["total_assets"] = y["cash"] + y["receivables"] + y["inventory"] + y["ppe"]
        y["total_liabilities"] = y["payables"] + y["revolver"] + y["term_debt"]
        y["total_equity"] = y["share_capital"] + y["retained_earnings"]
        y["total_liabilities_and_equity"] = y["total_liabilities"] + y["total_equity"]
    return {line: y[line] for line in LINES}


# (name, left line, right-hand terms as (sign, line, "prior"|"")) — prior lines come from last year's statements
IDENTITIES: tuple[tuple[str, str, tuple[tuple[int, str, str], ...]], ...] = (
    ("gross_profit = revenue - cogs", "gross_profit", ((1, "revenue", ""), (-1, "cogs", ""))),
    ("ebitda = gross_profit - opex", "ebitda", ((1, "gross_profit", ""), (-1, "opex", ""))),
    ("ebit = ebitda - depreciation", "ebit", ((1, "ebitda", ""), (-1, "depreciation", ""))),
    ("pretax_income = ebit - interest_expense", "pretax_income", ((1, "ebit", ""), (-1, "interest_expense", ""))),
    ("net_income = pretax_income - tax", "net_income", ((1, "pretax_income", ""), (-1, "tax", ""))),
    ("total_assets = cash + receivables + inventory + ppe", "total_assets",
     ((1, "cash", ""), (1, "receivables", ""), (1, "inventory", ""), (1, "ppe", ""))),
    ("total_liabilities = payables + revolver + term_debt", "total_liabilities",
     ((1, "payables", ""), (1, "revolver", ""), (1, "term_debt", ""))),
    ("total_equity = share_capital + retained_earnings", "total_equity",
     ((1, "share_capital", ""), (1, "retained_earnings", ""))),
    ("total_liabilities_and_equity = total_liabilities + total_equity", "total_liabilities_and_equity",
     ((1, "total_liabilities", ""), (1, "total_equity", ""))),
    ("total_assets = total_liabilities_and_equity", "total_assets", ((1, "total_liabilities_and_equity", ""),)),
    ("cfo_net_income = net_income", "cfo_net_income", ((1, "net_income", ""),)),
    ("cfo_depreciation = depreciation", "cfo_depreciation", ((1, "depreciation", ""),)),
    ("change_receivables = prior receivables - receivables", "change_receivables",
     ((1, "receivables", "prior"), (-1, "receivables", ""))),
    ("change_inventory = prior inventory - inventory", "change_inventory",
     ((1, "inventory", "prior"), (-1, "inventory", ""))),
    ("change_payables = payables - prior payables", "change_payables",
     ((1, "payables", ""), (-1, "payables", "prior"))),
    ("cfo = sum of its lines", "cfo", ((1, "cfo_net_income", ""), (1, "cfo_depreciation", ""),
                                       (1, "change_receivables", ""), (1, "change_inventory", ""),
                                       (1, "change_payables", ""))),
    ("cfi = capex", "cfi", ((1, "capex", ""),)),
    ("ppe = prior ppe - capex - depreciation", "ppe",
     ((1, "ppe", "prior"), (-1, "capex", ""), (-1, "depreciation", ""))),
    ("cff = dividends + debt_repayment + revolver_change", "cff",
     ((1, "dividends", ""), (1, "debt_repayment", ""), (1, "revolver_change", ""))),
    ("term_debt = prior term_debt + debt_repayment", "term_debt",
     ((1, "term_debt", "prior"), (1, "debt_repayment", ""))),
    ("revolver = prior revolver + revolver_change", "revolver",
     ((1, "revolver", "prior"), (1, "revolver_change", ""))),
    ("net_change_cash = cfo + cfi + cff", "net_change_cash", ((1, "cfo", ""), (1, "cfi", ""), (1, "cff", ""))),
    ("opening_cash = prior cash", "opening_cash", ((1, "cash", "prior"),)),
    ("closing_cash = opening_cash + net_change_cash", "closing_cash",
     ((1, "opening_cash", ""), (1, "net_change_cash", ""))),
    ("closing_cash = cash", "closing_cash", ((1, "cash", ""),)),
    ("retained_earnings = prior retained_earnings + net_income + dividends", "retained_earnings",
     ((1, "retained_earnings", "prior"), (1, "net_income", ""), (1, "dividends", ""))),
    ("share_capital = prior share_capital", "share_capital", ((1, "share_capital", "prior"),)),
)


def check_identities(forecast: dict[str, Decimal | None], prior: dict[str, int],
                     tolerance: Decimal) -> list[Check]:
    """Each accounting identity on the submitted figures (a missing line fails every identity it is in)."""
    out = []
    for name, left, terms in IDENTITIES:
        lhs = forecast.get(left)
        values = [prior[line] if when == "prior" else forecast.get(line) for _s, line, when in terms]
        if lhs is None or any(v is None for v in values):
            out.append(Check("identity", name, False, "missing line"))
            continue
        rhs = sum((sign * Decimal(v) for (sign, _l, _w), v in zip(terms, values, strict=True)), Decimal(0))
        gap = lhs - rhs
        out.append(Check("identity", name, abs(gap) <= tolerance, f"off by {gap}" if abs(gap) > tolerance else ""))
    return out


def check_constraints(forecast: dict[str, Decimal | None], drivers: dict[str, Any]) -> list[Check]:
    """The stated constraints: the minimum cash balance, no negative debt, net debt / EBITDA at most the cap."""
    f = forecast
    min_cash = Decimal(str(drivers["min_cash"]))
    cap = Decimal(str(drivers["leverage_cap"]))
    out = []
    cash = f.get("cash")
    out.append(Check("constraint", f"cash >= minimum cash {min_cash}", cash is not None and cash >= min_cash))
    revolver, term = f.get("revolver"), f.get("term_debt")
    out.append(Check("constraint", "revolver >= 0 and term_debt >= 0",
                     revolver is not None and term is not None and revolver >= 0 and term >= 0))
    ebitda = f.get("ebitda")
    ok = None not in (revolver, term, cash, ebitda) and ebitda > 0 and (revolver + term - cash) <= cap * ebitda
    out.append(Check("constraint", f"net debt / EBITDA <= {cap}", bool(ok)))
    div = f.get("dividends")
    out.append(Check("constraint", "dividends paid are not negative (dividends <= 0 on the cash flow)",
                     div is not None and div <= 0))
    return out


def check_figures(forecast: dict[str, Decimal | None], exact: dict[str, int], lines: list[str],
                  rel_tol: Decimal, abs_tol: Decimal) -> list[Check]:
    """Each required line within max(abs_tol, rel_tol * |exact|) of the exact forecast."""
    out = []
    for line in lines:
        got, want = forecast.get(line), Decimal(exact[line])
        ok = got is not None and abs(got - want) <= max(abs_tol, rel_tol * abs(want))
        out.append(Check("figure", line, ok))
    return out


def balance_gaps(year: dict[str, int], prior: dict[str, int] | None) -> list[str]:
    """The identities one year of statements breaks ([] for consistent statements); the first historical year
    has no prior and is checked on its own lines only."""
    values = {k: Decimal(v) for k, v in year.items()}
    checks = check_identities(values, prior or {}, Decimal(0)) if prior else [
        c for c in check_identities(values, {k: 0 for k in BALANCE_SHEET}, Decimal(0))
        if "prior" not in c.name]
    return [c.name for c in checks if not c.passed]

"""Tools: statement look-ups (any line, any year), a ratio calculator over the agent's figures, and a budgeted
`check_forecast` that names the identities and constraints a draft breaks (never how far figures are off)."""
from __future__ import annotations

import difflib
from decimal import Decimal, DivisionByZero, InvalidOperation, localcontext
from typing import Any, ClassVar

import orjson

from bc_common.bootcamp import Tool
from bc_common.errors import ToolError

from .reward import parse_forecast, to_decimal
from .statements import LINES, STATEMENTS, check_constraints, check_identities

# ratio name -> (numerator terms, denominator terms, scale): terms are (sign, line)
RATIOS: dict[str, tuple[tuple[tuple[int, str], ...], tuple[tuple[int, str], ...], int]] = {
    "net_debt_to_ebitda": (((1, "term_debt"), (1, "revolver"), (-1, "cash")), ((1, "ebitda"),), 1),
    "gross_margin": (((1, "gross_profit"),), ((1, "revenue"),), 1),
    "ebitda_margin": (((1, "ebitda"),), ((1, "revenue"),), 1),
    "opex_pct": (((1, "opex"),), ((1, "revenue"),), 1),
    "dso": (((1, "receivables"),), ((1, "revenue"),), 365),
    "dio": (((1, "inventory"),), ((1, "cogs"),), 365),
    "dpo": (((1, "payables"),), ((1, "cogs"),), 365),
    "capex_pct": (((-1, "capex"),), ((1, "revenue"),), 1),
    "interest_coverage": (((1, "ebit"),), ((1, "interest_expense"),), 1),
    "effective_tax_rate": (((1, "tax"),), ((1, "pretax_income"),), 1),
    "payout_ratio": (((-1, "dividends"),), ((1, "net_income"),), 1),
    "revenue_growth": (((1, "revenue"), (-1, "prior_revenue")), ((1, "prior_revenue"),), 1),
    "debt_to_equity": (((1, "term_debt"), (1, "revolver")), ((1, "total_equity"),), 1),
}


def _schema(name: str, description: str, properties: dict[str, Any], required: list[str]) -> dict[str, Any]:
    return {"type": "function", "function": {"name": name, "description": description, "parameters": {
        "type": "object", "properties": properties, "required": required, "additionalProperties": False}}}


class LookupStatementTool(Tool):
    """Reported figures of the company: any lines, any years (all of either when omitted)."""

    tool_schema: ClassVar[dict[str, Any]] = _schema(
        "lookup_statement",
        "Look up reported statement lines (income statement, balance sheet, cash flow) for any reported years. "
        "Omit `lines` for every line, omit `years` for every year. Figures in thousands.",
        {"lines": {"type": "array", "items": {"type": "string"}, "maxItems": 64,
                   "description": "Line names, e.g. revenue, cash, term_debt; or a statement name "
                                  "(income_statement, balance_sheet, cash_flow) for all its lines."},
         "years": {"type": "array", "items": {"type": "string"}, "maxItems": 16,
                   "description": "Years, e.g. [\"2021\"]."}},
        [])

    async def execute(self, instance_id: str, parameters: dict[str, Any], **kwargs: Any) -> tuple[str, float, dict]:
        history = self.state(instance_id)["identity"]["history"]
        lines: list[str] = []
        for name in parameters.get("lines") or list(LINES):
            if name in STATEMENTS:
                lines.extend(STATEMENTS[name])
            elif name in LINES:
                lines.append(name)
            else:
                close = difflib.get_close_matches(str(name)[:64], LINES, n=3)
                raise ToolError("unknown_line", f"no line {str(name)[:64]!r}"
                                + (f"; did you mean {', '.join(close)}?" if close else f"; lines: {', '.join(LINES)}"))
        years = [str(y) for y in parameters.get("years") or sorted(history)]
        missing = [y[:16] for y in years if y not in history]
        if missing:
            raise ToolError("unknown_year", f"no reported year {', '.join(missing)}; reported: {', '.join(sorted(history))}")
        table = {y: {line: history[y][line] for line in dict.fromkeys(lines)} for y in years}
        return orjson.dumps(table).decode(), 0.0, {"lines": len(lines), "years": len(years)}


class RatioTool(Tool):
    """A named ratio computed exactly from figures the agent supplies (nothing is looked up)."""

    tool_schema: ClassVar[dict[str, Any]] = _schema(
        "ratio",
        "Compute a financial ratio exactly from figures you supply. Ratios and the figures each needs: "
        + "; ".join(f"{name} ({', '.join(dict.fromkeys(line for _s, line in num + den))})"
                    for name, (num, den, _k) in RATIOS.items())
        + ". dso/dio/dpo are in days (x365).",
        {"name": {"type": "string", "enum": list(RATIOS)},
         "figures": {"type": "object", "additionalProperties": {"type": ["number", "string"]},
                     "description": "The figures the ratio needs, by line name."}},
        ["name", "figures"])

    async def execute(self, instance_id: str, parameters: dict[str, Any], **kwargs: Any) -> tuple[str, float, dict]:
        num, den, scale = RATIOS[parameters["name"]]
        figures = parameters["figures"]
        values = {line: to_decimal(figures.get(line)) for _sign, line in num + den}
        missing = [line for line, value in values.items() if value is None]
        if missing:
            raise ToolError("missing_figure", f"{parameters['name']} needs numbers for {', '.join(missing)}")
        with localcontext() as ctx:
            ctx.prec = 28
            try:
                top = sum((s * values[line] for s, line in num), Decimal(0))
                bottom = sum((s * values[line] for s, line in den), Decimal(0))
                result = top * scale / bottom
            except (DivisionByZero, InvalidOperation):
                raise ToolError("division_by_zero", f"the denominator of {parameters['name']} is 0") from None
        return f"{parameters['name']} = {result.quantize(Decimal('0.000001')).normalize():f}", 0.0, {}


class CheckForecastTool(Tool):
    """Names the accounting identities and constraints a draft forecast breaks; each call spends one unit of the
    task's small budget. It never compares figures with the exact forecast."""

    tool_schema: ClassVar[dict[str, Any]] = _schema(
        "check_forecast",
        "Check a draft forecast (all lines, whole units) against the accounting identities and the stated "
        "constraints; reports which fail. Limited budget per task.",
        {"forecast": {"type": "object", "description": "{line: value} for every forecast line."}},
        ["forecast"])

    def setup_state(self, identity: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        return {"identity": identity, "calls": 0, "budget": int(identity.get("check_budget", 3))}

    async def execute(self, instance_id: str, parameters: dict[str, Any], **kwargs: Any) -> tuple[str, float, dict]:
        state = self.state(instance_id)
        if state["calls"] >= state["budget"]:
            raise ToolError("budget_exhausted", f"check_forecast budget of {state['budget']} checks is used up")
        state["calls"] += 1
        identity = state["identity"]
        forecast = parse_forecast(parameters["forecast"]) or {}
        prior = identity["history"][max(identity["history"])]
        checks = (check_identities(forecast, prior, Decimal(identity["identity_tolerance"]))
                  + check_constraints(forecast, identity["assumptions"]))
        failed = [f"{c.kind}: {c.name}" + (f" ({c.detail})" if c.detail else "") for c in checks if not c.passed]
        missing = [line for line in LINES if forecast.get(line) is None]
        left = state["budget"] - state["calls"]
        if not failed and not missing:
            text = f"All {len(checks)} identities and constraints hold. ({left} checks left)"
        else:
            text = "\n".join((["missing or unreadable lines: " + ", ".join(missing)] if missing else [])
                             + failed + [f"({left} checks left)"])
        return text, 0.0, {"failed": len(failed), "budget_left": left}

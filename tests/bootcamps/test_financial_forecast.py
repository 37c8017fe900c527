"""financial_forecast beyond the conformance suite: consistent statements, the trend forecast, the tools, and the
cheats that must fail (a broken balance sheet that matches most figures, a copy of last year, all zeros, last
year's drivers carried forward)."""
from __future__ import annotations

import asyncio
from decimal import Decimal
from typing import Any

import orjson
import pytest

from bc_common.errors import ToolError
from bc_common.seeding import RecordRandom
from bc_common.tool_runtime import ToolRuntime
from bootcamps.financial_forecast.generator import FinancialForecastInstructionGenerator
from bootcamps.financial_forecast.policy import FinancialForecastPolicy, answer_text
from bootcamps.financial_forecast.reward import FinancialForecastRewardCalculator, grade
from bootcamps.financial_forecast.statements import LINES, balance_gaps, project_year
from bootcamps.financial_forecast.tools import CheckForecastTool, LookupStatementTool, RatioTool
from bootcamps.financial_forecast.trend import TREND_DRIVERS, forecast_drivers, linear_trend, reported_drivers

VERIFY = FinancialForecastRewardCalculator.verify_score


def _identities(n: int, **config: Any) -> list[dict[str, Any]]:
    gen = FinancialForecastInstructionGenerator(**config)
    out = []
    for i in range(n):
        gen.rng = RecordRandom(500 + i)
        out.append(gen.case_generator())
    return out


IDENTITIES = _identities(60, constraint_pressure=0.7)


def _answer(forecast: dict[str, Any]) -> str:
    return "```json\n" + orjson.dumps({"forecast": forecast}).decode() + "\n```"


def _tools() -> dict[str, Any]:
    return {"lookup_statement": LookupStatementTool(), "ratio": RatioTool(), "check_forecast": CheckForecastTool()}


async def _call(tool: Any, identity: dict[str, Any], args: dict[str, Any], instance: str | None = None) -> str:
    iid = instance or await tool.create(identity=identity)
    return (await tool.execute(iid, args))[0]


def test_statements_are_consistent_every_year_and_industries_differ() -> None:
    for identity in IDENTITIES:
        years = sorted(identity["history"])
        prior = None
        for year in years:
            assert balance_gaps(identity["history"][year], prior) == [], (identity["company"], year)
            prior = identity["history"][year]
        assert balance_gaps(identity["exact_forecast"], prior) == []
        assert all(c.passed for c in grade({k: Decimal(v) for k, v in identity["exact_forecast"].items()}, identity))
    margins = {}
    for identity in IDENTITIES:
        first = identity["history"][min(identity["history"])]
        margins.setdefault(identity["industry"], []).append(first["gross_profit"] / first["revenue"])
    assert min(margins["software"]) > max(margins["retail"])  # drivers follow the industry


def test_constraints_bind_under_pressure() -> None:
    drew = sum(i["exact_forecast"]["revolver_change"] > 0 for i in IDENTITIES)
    capped = 0
    for identity in IDENTITIES:
        a = dict(identity["assumptions"], leverage_cap="100")
        prior = identity["history"][max(identity["history"])]
        capped += project_year(prior, a)["dividends"] < identity["exact_forecast"]["dividends"]
    assert drew >= 20 and capped >= 10


def test_reference_scores_one_through_the_tools_and_its_wrong_answer_less() -> None:
    async def play(identity: dict[str, Any], wrong: bool) -> list[dict[str, Any]]:
        session = ToolRuntime(_tools()).session({n: {"identity": identity} for n in _tools()}, None)
        policy = FinancialForecastPolicy(identity, tools=list(_tools()))
        messages: list[dict[str, Any]] = [{"role": "user", "content": "forecast"}]
        for _ in range(5):
            msg = policy.respond(messages, wrong=wrong)
            messages.append(msg)
            if not msg.get("tool_calls"):
                break
            for call in msg["tool_calls"]:
                result = await session.call(call["function"]["name"], call["function"]["arguments"])
                assert result.ok, result.text
                messages.append({"role": "tool", "tool_call_id": call["id"], "content": result.text})
        await session.close()
        return messages

    for identity in IDENTITIES[:15]:
        right = asyncio.run(play(identity, False))
        assert [m["tool_calls"][0]["function"]["name"] for m in right if m.get("tool_calls")] == [
            "lookup_statement", "check_forecast"]
        assert VERIFY(right[-1]["content"], identity) == 1.0
        assert VERIFY(asyncio.run(play(identity, True))[-1]["content"], identity) < 1.0


def test_every_consistent_answer_within_tolerance_scores_one() -> None:
    identity = IDENTITIES[0]
    f = dict(identity["exact_forecast"])
    f["revenue"] += 1  # a different rounding of revenue and cogs: gross profit, and every identity, unchanged
    f["cogs"] += 1
    assert VERIFY(_answer(f), identity) == 1.0
    decimals = {k: f"{v}.0" for k, v in f.items()}  # figures as decimal strings
    assert VERIFY(_answer(decimals), identity) == 1.0


def test_cheat_broken_balance_sheet_that_matches_most_figures_fails() -> None:
    for identity in IDENTITIES[:20]:
        f = dict(identity["exact_forecast"])
        f["cash"] += max(3, abs(f["cash"]) // 1000)  # within the figure tolerance, totals not moved
        f["closing_cash"] = f["cash"]
        score = VERIFY(_answer(f), identity)
        assert 0.9 < score < 1.0  # nearly every figure matches, the identities catch it
        forged = dict(identity["exact_forecast"], total_assets=identity["exact_forecast"]["total_assets"] + 5000)
        assert VERIFY(_answer(forged), identity) < 1.0


def test_cheat_copying_last_year_fails() -> None:
    for identity in IDENTITIES:
        last = identity["history"][max(identity["history"])]
        assert VERIFY(_answer(last), identity) < 0.75


def test_missing_lines_and_hostile_values_score_below_one() -> None:
    identity = IDENTITIES[1]
    f = dict(identity["exact_forecast"])
    del f["tax"]
    assert VERIFY(_answer(f), identity) < 1.0
    for bad in ("1e999999999", "١٢٣", float("nan"), True, None, [1]):
        g = dict(identity["exact_forecast"], revenue=bad)
        assert VERIFY(_answer(g), identity) < 1.0
    assert VERIFY("```json\n" + "[" * 10000 + "\n```", identity) == 0.0


def test_lookup_any_line_any_year_and_did_you_mean() -> None:
    identity = IDENTITIES[2]
    years = sorted(identity["history"])
    table = orjson.loads(asyncio.run(_call(LookupStatementTool(), identity, {"lines": ["revenue", "balance_sheet"],
                                                                            "years": years[:1]})))
    assert table[years[0]]["revenue"] == identity["history"][years[0]]["revenue"]
    assert "total_liabilities_and_equity" in table[years[0]]
    assert set(orjson.loads(asyncio.run(_call(LookupStatementTool(), identity, {})))) == set(years)
    with pytest.raises(ToolError, match="did you mean revenue"):
        asyncio.run(_call(LookupStatementTool(), identity, {"lines": ["revenu"]}))
    with pytest.raises(ToolError, match="no reported year"):
        asyncio.run(_call(LookupStatementTool(), identity, {"years": ["1999"]}))


def test_ratio_is_exact_over_the_agents_figures() -> None:
    out = asyncio.run(_call(RatioTool(), {}, {"name": "net_debt_to_ebitda",
                                              "figures": {"term_debt": 300, "revolver": "50", "cash": 20,
                                                          "ebitda": 110}}))
    assert out == "net_debt_to_ebitda = 3"
    assert asyncio.run(_call(RatioTool(), {}, {"name": "dso", "figures": {"receivables": 100, "revenue": 365}})) \
        == "dso = 100"
    with pytest.raises(ToolError, match="needs numbers for revolver, cash, ebitda"):
        asyncio.run(_call(RatioTool(), {}, {"name": "net_debt_to_ebitda", "figures": {"term_debt": 1}}))
    with pytest.raises(ToolError, match="is 0"):
        asyncio.run(_call(RatioTool(), {}, {"name": "gross_margin", "figures": {"gross_profit": 1, "revenue": 0}}))


def test_check_forecast_names_broken_identities_never_figure_errors_and_has_a_budget() -> None:
    identity = IDENTITIES[3]
    tool = CheckForecastTool()

    async def run() -> list[str]:
        iid = await tool.create(identity=identity)
        last = identity["history"][max(identity["history"])]
        copied = await tool.execute(iid, {"forecast": last})  # consistent but wrong: only roll-forwards fail
        broken = dict(identity["exact_forecast"], total_assets=1)
        out = [copied[0], (await tool.execute(iid, {"forecast": broken}))[0],
               (await tool.execute(iid, {"forecast": identity["exact_forecast"]}))[0]]
        with pytest.raises(ToolError, match="budget"):
            await tool.execute(iid, {"forecast": identity["exact_forecast"]})
        return out

    copied, broken, exact = asyncio.run(run())
    assert "retained_earnings = prior retained_earnings" in copied and "revenue" not in copied.split("\n")[0]
    assert "total_assets = cash + receivables" in broken
    assert exact.startswith("All 31 identities and constraints hold")


def test_prompt_states_the_assumptions_but_not_the_answer() -> None:
    identity = IDENTITIES[4]
    prompt = FinancialForecastInstructionGenerator().prompt_func(identity)
    assert identity["assumptions"]["min_cash"] in prompt and identity["assumptions"]["leverage_cap"] in prompt
    for line in ("revenue", "total_assets", "net_income", "retained_earnings"):  # cash may equal the minimum
        assert str(identity["exact_forecast"][line]) not in prompt
    assert answer_text(identity["exact_forecast"]).count("\n") == 3
    assert set(identity["required_lines"]) == set(LINES)


def test_linear_trend_is_the_least_squares_line() -> None:
    points = [(2019, Decimal("0.300")), (2020, Decimal("0.310")), (2021, Decimal("0.320"))]
    assert linear_trend(points, 2022) == Decimal("0.33")
    noisy = [(2019, Decimal(50)), (2020, Decimal(54)), (2021, Decimal(55)), (2022, Decimal(61))]
    # slope = sum((x - 2020.5)(y - 55)) / 5 = 17 / 5 = 3.4; at 2023: 55 + 3.4 x 2.5 = 63.5
    assert linear_trend(noisy, 2023) == Decimal("63.5")
    assert linear_trend([(2020, Decimal("0.05"))], 2023) == Decimal("0.05")


def test_drivers_read_off_the_statements_make_the_exact_forecast() -> None:
    for identity in IDENTITIES:
        history = identity["history"]
        read = reported_drivers(history)
        years = len(history)
        assert {len(p) for n, p in read.items() if n in ("revenue_growth", "depreciation_rate")} == {years - 1}
        assert {len(p) for n, p in read.items() if n not in ("revenue_growth", "depreciation_rate")} == {years}
        drivers = forecast_drivers(history, int(identity["forecast_year"]))
        assert {k: identity["assumptions"][k] for k in TREND_DRIVERS} == drivers
        assert project_year(history[max(history)], identity["assumptions"]) == identity["exact_forecast"]


def test_prompt_shows_no_reported_figure_and_no_forecast_driver() -> None:
    for identity in IDENTITIES[:20]:
        prompt = FinancialForecastInstructionGenerator().prompt_func(identity)
        last = identity["history"][max(identity["history"])]
        for line in ("revenue", "cogs", "receivables", "ppe", "term_debt"):
            assert str(last[line]) not in prompt  # the data is read through `lookup_statement` only
        for name in TREND_DRIVERS:
            assert identity["assumptions"][name] not in prompt and f"- {name} = " in prompt


@pytest.mark.parametrize("group", ["easy", "medium", "hard"])
def test_baselines_score_low_in_every_group(group: str) -> None:
    from bc_common.builtin_model import baseline_trajectory
    from bc_common.catalog import get_bootcamp
    from bc_common.environment import Environments
    from bc_common.tasks import TaskSet

    tasks = TaskSet(get_bootcamp("financial_forecast"), seed=3, split="test", groups=[group])
    rows = [tasks[i] for i in range(30)]
    envs = Environments()
    for name in ("zeros", "copy_last", "last_drivers"):
        async def run_all(name: str = name) -> list[dict[str, Any]]:
            return [await baseline_trajectory(r, envs.get(r["data_source"]), name) for r in rows]

        scores = [float(t["score"] or 0.0) for t in asyncio.run(run_all())]
        assert sum(scores) / len(scores) <= 0.1, (group, name, scores)
        assert max(scores) < 1.0, (group, name)

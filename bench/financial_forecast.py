"""Benchmark the financial_forecast bootcamp for its README: time to generate N tasks on one core (default 1,000),
per tool call, and per verification, the last also as a ratio to a bare `orjson.loads` of the same answer block
(baseline, same run: what any grader must at least do).

    python bench/financial_forecast.py [--n 1000]
"""
from __future__ import annotations

import argparse
import asyncio
import statistics
import time

import orjson

from bc_common.seeding import RecordRandom
from bootcamps.financial_forecast import bootcamp
from bootcamps.financial_forecast.generator import FinancialForecastInstructionGenerator
from bootcamps.financial_forecast.policy import answer_text
from bootcamps.financial_forecast.tools import CheckForecastTool, LookupStatementTool, RatioTool


async def tool_times(identities: list[dict]) -> None:
    calls = {
        "lookup_statement": (LookupStatementTool(), lambda i: {"years": [max(i["history"])]}),
        "ratio": (RatioTool(), lambda i: {"name": "net_debt_to_ebitda", "figures": {
            k: i["exact_forecast"][k] for k in ("term_debt", "revolver", "cash", "ebitda")}}),
        "check_forecast": (CheckForecastTool(), lambda i: {"forecast": i["exact_forecast"]}),
    }
    for name, (tool, args) in calls.items():
        times = []
        for identity in identities:
            iid = await tool.create(identity=identity)
            t0 = time.perf_counter()
            await tool.execute(iid, args(identity))
            times.append(time.perf_counter() - t0)
        print(f"tool {name}: median {statistics.median(times) * 1e3:.3f} ms")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=1000)
    n = parser.parse_args().n
    identities = []
    t0 = time.perf_counter()
    for group in bootcamp.groups:
        gen = FinancialForecastInstructionGenerator(**group.params)
        for i in range(max(1, round(n * group.ratio))):
            gen.rng = RecordRandom(i)
            identity = gen.case_generator()
            gen.prompt_func(identity)
            identities.append(identity)
    spent = time.perf_counter() - t0
    print(f"generate {len(identities)} tasks (the default group mix) on one core: {spent:.2f} s "
          f"({spent / len(identities) * 1e3:.2f} ms a task)")
    asyncio.run(tool_times(identities[:200]))
    verify, parse = [], []
    for identity in identities[:200]:
        text = answer_text(identity["exact_forecast"])
        block = text.split("```json\n")[1].split("\n```")[0]
        t0 = time.perf_counter()
        score = bootcamp.reward.verify_score(text, identity)
        verify.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        orjson.loads(block)
        parse.append(time.perf_counter() - t0)
        assert score == 1.0
    v, p = statistics.median(verify), statistics.median(parse)
    print(f"verify: median {v * 1e3:.3f} ms ({v / p:.0f}x a bare orjson.loads of the answer block)")


if __name__ == "__main__":
    main()

"""bc_common.grids: the answer grid, the check tool and verifier built on a bootcamp's rules, the reference policy
shape, and the grid baselines, on a toy 2x2 Latin square (each row and column holds 1 and 2 once)."""
from __future__ import annotations

import asyncio
import random

from bc_common.grids import (
    CopyGivens,
    FillInOrder,
    GridCheckTool,
    GridPolicy,
    GridRewardCalculator,
    RandomFill,
    answer_grid,
    check_report,
    check_tool_schema,
    fill_in_order,
    greedy_solves,
    grid_answer,
)

GIVENS = ["1.", ".."]


def latin(rows: list[str], givens: list[str]) -> list[str]:
    if len(rows) != 2 or any(len(r) != 2 for r in rows):
        return ["the grid must be 2 rows of 2 cells"]
    broken = [f"givens: row {i + 1}" for i, (r, g) in enumerate(zip(rows, givens, strict=True))
              if any(gc != "." and rc != gc for rc, gc in zip(r, g, strict=True))]
    lines = rows + ["".join(c) for c in zip(*rows, strict=True)]
    broken += [f"repeat: line {k + 1}" for k, line in enumerate(lines) if len(set(line) - {"."}) < len(line.replace(".", ""))]
    empty = sum(r.count(".") for r in rows)
    return broken + ([f"incomplete: {empty} empty cells"] if empty else [])


class Check(GridCheckTool):
    tool_schema = check_tool_schema("check", "latin square", "1, 2", '["12", "21"]', max_rows=4, max_length=8)
    violations = staticmethod(latin)


class Reward(GridRewardCalculator):
    violations = staticmethod(latin)
    max_answer = 100


class Policy(GridPolicy):
    def solve(self) -> list[str] | None:
        return ["12", "21"]

    def corrupt(self, rows: list[str]) -> list[str]:
        return ["11", "22"]


class FirstLegal(FillInOrder):
    symbols = "12"
    violations = staticmethod(latin)


class Random12(RandomFill):
    symbols = "12"


def test_answer_grid_reads_the_last_block_and_drops_separators() -> None:
    assert answer_grid("<answer>9 9</answer> then <answer>\n1 | 2\n---\n2 | 1\n</answer>") == ["12", "21"]
    assert answer_grid("no answer") is None and answer_grid("<answer>\n\n</answer>") is None
    assert answer_grid("<answer>" + "1" * 200 + "</answer>", max_length=100) is None
    assert answer_grid(grid_answer(["12", "21"])) == ["12", "21"]


def test_the_verifier_accepts_any_grid_that_breaks_no_rule() -> None:
    identity = {"givens": GIVENS}
    assert Reward.verify_score(grid_answer(["12", "21"]), identity) == 1.0
    assert Reward.verify_score(grid_answer(["21", "12"]), identity) == 0.0  # a given changed
    assert Reward.verify_score(grid_answer(["1.", "21"]), identity) == 0.0  # incomplete
    assert Reward.verify_score("<answer>" * 10_000, identity) == 0.0


def test_the_check_tool_lists_broken_rules_and_never_rewards() -> None:
    tool = Check()

    async def run() -> list:
        instance = await tool.create(identity={"givens": GIVENS})
        return [await tool.execute(instance, {"rows": rows}) for rows in (["12", "21"], ["11", ".."])]

    solved, broken = asyncio.run(run())
    assert solved[0].startswith("Solved") and solved[1] == 0.0 and solved[2] == {"calls": 1}
    assert broken[0].startswith("Not solved:\n- repeat: line 1") and broken[2]["violations"] == 2
    assert check_report([f"rule {k}" for k in range(25)]).endswith("... and 5 more")
    assert Check.tool_schema["function"]["parameters"]["properties"]["rows"]["maxItems"] == 4


def test_the_policy_checks_when_offered_then_answers() -> None:
    policy = Policy({"givens": GIVENS}, tools=["check"])
    first = policy.respond([{"role": "user", "content": "solve"}])
    assert first["tool_calls"][0]["function"]["name"] == "check"
    answer = policy.respond([first, {"role": "tool", "tool_call_id": "call_0", "content": "Solved"}])
    assert Reward.verify_score(answer["content"], {"givens": GIVENS}) == 1.0
    wrong = Policy({"givens": GIVENS}).respond([], wrong=True)
    assert Reward.verify_score(wrong["content"], {"givens": GIVENS}) == 0.0


def test_the_grid_baselines() -> None:
    identity = {"givens": GIVENS}
    assert answer_grid(CopyGivens(identity).respond([])["content"]) == GIVENS
    assert answer_grid(FirstLegal(identity).respond([])["content"]) == ["12", "21"]  # a toy greedy can solve
    stuck = {"givens": [".1", "2."]}  # no symbol fits either empty cell: the first one stays, no backtracking
    assert answer_grid(FirstLegal(stuck).respond([])["content"]) == ["11", "21"]
    assert greedy_solves(GIVENS, "12", latin) and not greedy_solves(stuck["givens"], "12", latin)
    assert fill_in_order(["..", ".."], "21", latin, by_columns=True) == ["21", "12"]
    policy = Random12(identity)
    policy.rng = random.Random(3)
    rows = answer_grid(policy.respond([])["content"])
    assert rows[0][0] == "1" and all(c in "12" for r in rows for c in r)

"""Generation, verification and tool-call cost of the puzzle bootcamps (game24, binairo, sudoku), per group.

    python bench/puzzles.py [--scale 1.0]
Each figure is also given as a ratio to the noop bootcamp measured in the same run (the harness's own cost of a
row, a verification), so it reads the same on a busy machine. One core: everything runs in this process, and times are the process's CPU time (`time.process_time`), so the
neighbours of a shared machine do not inflate them.
"""
from __future__ import annotations

import argparse
import asyncio
import time

import orjson

from bc_common.catalog import get_bootcamp
from bc_common.tasks import TaskSet

ROWS = {"game24": 400, "binairo": 60, "sudoku": 24}  # rows per group at --scale 1 (a few seconds each)


def per_row(name: str, group: str | None, n: int) -> tuple[float, list[dict]]:
    """Seconds per generated row (best of two passes over fresh indices) and the rows."""
    tasks = TaskSet(name, seed=1, split="bench", groups=[group] if group else None)
    best, rows = float("inf"), []
    for start in (0, n):
        began = time.process_time()
        rows = [tasks[i] for i in range(start, start + n)]
        best = min(best, (time.process_time() - began) / n)
    return best, rows


def answer_of(name: str, identity: dict) -> str:
    policy = get_bootcamp(name).policy(identity, tools=[])
    return policy.respond([{"role": "user", "content": ""}])["content"]


def per_verification(name: str, rows: list[dict]) -> float:
    reward = get_bootcamp(name).reward
    pairs = [(answer_of(name, r["reward_model"]["ground_truth"]), r["reward_model"]["ground_truth"]) for r in rows]
    repeat = max(1, 2000 // len(pairs))
    began = time.process_time()
    for _ in range(repeat):
        for text, identity in pairs:
            assert reward.verify_score(text, identity) == 1.0
    return (time.process_time() - began) / (repeat * len(pairs))


def per_tool_call(name: str, rows: list[dict]) -> float:
    """Seconds per call of the bootcamp's tool with the reference policy's arguments."""
    bc = get_bootcamp(name)
    tool = bc.tools[0]()
    calls = []
    for r in rows:
        identity = r["reward_model"]["ground_truth"]
        msg = bc.policy(identity, tools=[tool.name]).respond([{"role": "user", "content": ""}])
        calls.append((identity, orjson.loads(msg["tool_calls"][0]["function"]["arguments"])))

    async def run() -> float:
        ids = [await tool.create(identity=identity) for identity, _ in calls]
        repeat = max(1, 2000 // len(calls))
        began = time.process_time()
        for _ in range(repeat):
            for instance, (_, arguments) in zip(ids, calls, strict=True):
                await tool.execute(instance, arguments)
        return (time.process_time() - began) / (repeat * len(calls))

    return asyncio.run(run())


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--scale", type=float, default=1.0, help="multiply the rows per group")
    scale = ap.parse_args().scale
    noop_row, noop_rows = per_row("noop", None, 2000)
    noop_verify = per_verification("noop", noop_rows[:200])
    print(f"noop baseline: {noop_row * 1e6:.0f} µs/row, {noop_verify * 1e6:.1f} µs/verification")
    print(f"{'bootcamp':<9} {'group':<7} {'ms/row':>8} {'s/1000':>7} {'× noop':>8} {'µs/verify':>10} {'× noop':>7} "
          f"{'µs/tool':>8}")
    for name, n in ROWS.items():
        for group in [g.name for g in get_bootcamp(name).groups]:
            row, rows = per_row(name, group, max(2, int(n * scale)))
            verify = per_verification(name, rows)
            tool = per_tool_call(name, rows)
            print(f"{name:<9} {group:<7} {row * 1e3:>8.2f} {row * 1e3:>7.1f} {row / noop_row:>8.0f} "
                  f"{verify * 1e6:>10.1f} {verify / noop_verify:>7.0f} {tool * 1e6:>8.1f}")


if __name__ == "__main__":
    main()

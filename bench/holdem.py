"""Benchmark the holdem bootcamp: river equity against a full range with the fast evaluator vs the same loop on
pokerkit's evaluator (baseline, same run), and the README figures: time per tool call, per verification, and to
generate N tasks on one core (default 1,000; `--n 200` for a quick run).

    python bench/holdem.py [--n 1000]
Target: river equity vs a full range (1,326 combos) well under 100 ms, and >= 50x pokerkit's loop.
"""
from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time

try:
    from pokerkit import StandardHighHand
except ImportError:  # `make bench` installs the core only
    print("bench/holdem.py: skipped (needs the poker extra: pip install 'bootcamp-harness[poker]')")
    sys.exit(0)

from bc_common.bootcamp import final_assistant_text
from bc_common.seeding import RecordRandom
from bootcamps.holdem import bootcamp
from bootcamps.holdem.equity import RangeEquity
from bootcamps.holdem.evaluator import cards_str, parse_cards
from bootcamps.holdem.generator import HoldemInstructionGenerator
from bootcamps.holdem.hand import range_equity
from bootcamps.holdem.ranges import parse_range
from bootcamps.holdem.tools import EquityTool, HandStrengthTool, PotOddsTool

FULL = "22+, A2s+, K2s+, Q2s+, J2s+, T2s+, 92s+, 82s+, 72s+, 62s+, 52s+, 42s+, 32s, A2o+, K2o+, Q2o+, J2o+, " \
       "T2o+, 92o+, 82o+, 72o+, 62o+, 52o+, 42o+, 32o"


def best_of(fn, repeat: int = 5) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def river_equity() -> None:
    hero, board = parse_cards("AhQh"), parse_cards("Qs9h4c2h7d")
    combos = list(parse_range(FULL))
    assert len(combos) == 1326

    def fast() -> float:
        return RangeEquity.compute(hero, board, combos, [1.0] * len(combos)).equity()

    def pokerkit_loop() -> float:
        dead = set(hero) | set(board)
        mine = StandardHighHand.from_game(cards_str(hero), cards_str(board))
        won = n = 0.0
        for a, b in combos:
            if a in dead or b in dead:
                continue
            theirs = StandardHighHand.from_game(cards_str((a, b)), cards_str(board))
            won += 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
            n += 1
        return won / n

    assert abs(fast() - pokerkit_loop()) < 1e-12
    t_fast, t_pk = best_of(fast), best_of(pokerkit_loop, 2)
    print(f"river equity vs the full range: {t_fast * 1e3:.1f} ms (pokerkit loop {t_pk * 1e3:.0f} ms, "
          f"{t_pk / t_fast:.0f}x)")


def hand_cards(identity: dict) -> list[int]:
    """Hero's cards and the board, filled up to five cards with cards not yet used."""
    cards = parse_cards(identity["hero"] + identity["board"])
    return cards + [c for c in range(52) if c not in cards][: max(0, 5 - len(cards))]


async def tool_calls(identities: list[dict]) -> None:
    tools = {"equity": EquityTool(), "hand_strength": HandStrengthTool(), "pot_odds": PotOddsTool()}
    by_tool: dict[str, list[float]] = {name: [] for name in tools}
    for identity in identities:
        identity = dict(identity, board=identity["board"] if identity["mode"] == "decision" else "")
        args = {"equity": {"hand": identity["hero"], "board": identity["board"], "range": identity["villain_range"],
                           "shares": [0.5, 0.7]},
                "hand_strength": {"cards": cards_str(hand_cards(identity))},
                "pot_odds": {"pot": 10, "to_call": 4}}
        range_equity.cache_clear()  # a tool call computes its equity (generation computed the same one)
        for name, tool in tools.items():
            iid = await tool.create(identity=identity)
            t0 = time.perf_counter()
            await tool.execute(iid, args[name])
            by_tool[name].append(time.perf_counter() - t0)
    for name, times in by_tool.items():
        print(f"tool {name}: median {statistics.median(times) * 1e3:.2f} ms, max {max(times) * 1e3:.1f} ms "
              f"({len(times)} calls)")


async def episode(identity: dict) -> list[dict]:
    """The reference's episode through the real tools and the table (as bc-eval's loop runs it)."""
    from bc_common.tool_runtime import ToolRuntime
    from bootcamps.holdem.interaction import HoldemInteraction
    from bootcamps.holdem.policy import HoldemPolicy

    tools = {"hand_strength": HandStrengthTool(), "equity": EquityTool(), "pot_odds": PotOddsTool()}
    session = ToolRuntime(tools).session({name: {"identity": identity} for name in tools}, None)
    table = HoldemInteraction()
    iid = await table.start_interaction(None, identity=identity)
    policy = HoldemPolicy(identity, tools=list(tools))
    messages: list[dict] = [{"role": "user", "content": "play"}]
    for _ in range(12):
        msg = policy.respond(messages)
        messages.append(msg)
        if msg.get("tool_calls"):
            for call in msg["tool_calls"]:
                result = await session.call(call["function"]["name"], call["function"]["arguments"])
                messages.append({"role": "tool", "tool_call_id": call["id"], "content": result.text})
            continue
        done, text, _score, _extra = await table.generate_response(iid, messages)
        if done:
            break
        messages.append({"role": "user", "content": text})
    await session.close()
    return messages


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=1000)
    n = parser.parse_args().n
    river_equity()
    total = 0.0
    for group in bootcamp.groups:
        gen = HoldemInstructionGenerator(**group.params)
        count = max(1, round(n * group.ratio))
        t0 = time.perf_counter()
        identities = []
        for i in range(count):
            gen.rng = RecordRandom(i)
            identity = gen.case_generator()
            gen.prompt_func(identity)
            identities.append(identity)
        spent = time.perf_counter() - t0
        total += spent
        print(f"generate group {group.name}: {count} tasks in {spent:.1f} s ({spent / count * 1e3:.0f} ms a task)")
        asyncio.run(tool_calls(identities[:50]))
        verify = []
        for identity in identities[:50]:
            messages = asyncio.run(episode(identity))
            range_equity.cache_clear()  # cold: the verifier computes every equity itself
            t0 = time.perf_counter()
            score = bootcamp.reward.verify_score(messages, identity)
            verify.append(time.perf_counter() - t0)
            assert score == 1.0, final_assistant_text(messages)
        print(f"verify group {group.name} (cold cache): median {statistics.median(verify) * 1e3:.2f} ms, "
              f"max {max(verify) * 1e3:.1f} ms")
    print(f"generate {n} tasks (the default group mix) on one core: {total:.0f} s")


if __name__ == "__main__":
    main()

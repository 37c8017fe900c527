"""al/coin_change: the fewest coins that pay an amount exactly (any optimal multiset of coins scores)."""
from __future__ import annotations

import random
from collections import Counter
from typing import Any

from ..core import Knob, Problem


def fewest_coins(coins: list[int], amount: int) -> list[int] | None:
    """An optimal multiset of coins (sorted, largest first) by DP over the amounts; None when none pays it."""
    best: list[int | None] = [0] + [None] * amount
    last = [0] * (amount + 1)
    for x in range(1, amount + 1):
        for c in coins:
            if c <= x and best[x - c] is not None and (best[x] is None or best[x - c] + 1 < best[x]):
                best[x], last[x] = best[x - c] + 1, c
    if best[amount] is None:
        return None
    out, x = [], amount
    while x:
        out.append(last[x])
        x -= last[x]
    return sorted(out, reverse=True)


def largest_first(coins: list[int], amount: int) -> list[int]:
    """The cashier's rule: as many of the largest coin as fit, then the next, ... (may leave a remainder)."""
    out = []
    for c in sorted(coins, reverse=True):
        out += [c] * (amount // c)
        amount %= c
    return out


class CoinChange(Problem):
    name = "coin_change"
    title = "Coin change with the fewest coins"
    knobs = {"coins": Knob(4, 2, 12, "coin values (distinct; not a canonical system)"),
             "max_amount": Knob(200, 20, 5000, "the amount is drawn from max_amount/4..max_amount")}
    groups = {"easy": {"coins": 3, "max_amount": 100}, "medium": {"coins": 4, "max_amount": 200},
              "hard": {"coins": 6, "max_amount": 800}}
    answer_format = ("the values of the coins you use, one number per coin (repeat a value to use it again), "
                     "e.g. <answer>x x y</answer>.")
    baselines = {"largest_first": "as many of the largest coin as fit, then the next largest, ...",
                 "one_kind": "the amount in coins of the largest value that divides it"}

    def validate(self, p: Any) -> None:
        if p.coins * 3 > p.max_amount:
            raise ValueError("max_amount must be at least 3 * coins")

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        amount = rng.randint(p.max_amount // 4, p.max_amount)
        coins = sorted(rng.sample(range(2, max(p.coins + 2, p.max_amount // 4)), p.coins))
        best = fewest_coins(coins, amount)
        if best is None or len(best) < 3:
            return None
        inst = {"coins": coins, "amount": amount, "optimum": len(best), "solution": best}
        if any(self.accepts(inst, self.baseline(b, inst, rng)) for b in self.baselines):
            return None
        return inst

    def statement(self, inst: dict[str, Any]) -> str:
        return (f"Coin values: {', '.join(map(str, inst['coins']))} (as many of each as you like).\n\nPay exactly "
                f"{inst['amount']} with as few coins as possible.")

    def check(self, inst: dict[str, Any], answer: list[int]) -> str | None:
        unknown = sorted(set(answer) - set(inst["coins"]))
        if unknown:
            return f"no coin of value {unknown[0]}"
        if sum(answer) != inst["amount"]:
            return f"the coins pay {sum(answer)}, not {inst['amount']}"
        if len(answer) != inst["optimum"]:
            return f"{len(answer)} coins; the fewest is {inst['optimum']}"
        return None

    def corrupt(self, inst: dict[str, Any], answer: list[int], rng: random.Random) -> list[int]:
        for c in sorted(set(answer), reverse=True):  # one coin broken into smaller ones, where it can be
            smaller = fewest_coins([x for x in inst["coins"] if x < c], c)
            if smaller:
                wrong = Counter(answer)
                wrong[c] -= 1
                return sorted(wrong.elements(), reverse=True) + smaller
        return answer[1:]

    def baseline_largest_first(self, inst: dict[str, Any], rng: random.Random) -> list[int]:
        return largest_first(inst["coins"], inst["amount"])

    def baseline_one_kind(self, inst: dict[str, Any], rng: random.Random) -> list[int]:
        fits = [c for c in inst["coins"] if inst["amount"] % c == 0] or [max(inst["coins"])]
        return [max(fits)] * (inst["amount"] // max(fits))

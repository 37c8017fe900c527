"""The EV model both modes grade against, and the legal actions of a spot.

From the decision on, in chips: fold 0; check = equity x pot (the hand is then checked down); call = equity x
final pot - the call. A bet or raise to T that costs villain r more into a pot of P + X (X: what hero adds) is
called by the strongest share d = max(F, 1 - r / (P + X)) (rounded to 4 places; F the villain's call floor, 0 in
decision spots) of villain's range, which folds the rest and never re-raises: EV = fold x P + call x (equity vs the calling part x (P + X + r) - X).
"""
from __future__ import annotations

import bisect
from dataclasses import asdict, dataclass
from typing import Any

from .equity import RangeEquity
from .ranges import strengths


@dataclass(frozen=True)
class Spot:
    """A decision: chips in the pot (every bet included), what hero must add to call, each side's chips in this
    street and behind, and pokerkit's legal bet/raise-to bounds (None when hero cannot bet or raise)."""

    pot: int
    to_call: int
    hero_bet: int
    villain_bet: int
    hero_stack: int
    villain_stack: int
    can_fold: bool
    min_raise_to: int | None
    max_raise_to: int | None
    call_floor: float = 0.0  # villain calls at least this share of its range (hands set it)

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def defend_share(spot: Spot, raise_to: int) -> tuple[int, int, float]:
    """(X hero adds, r villain must add, villain's calling share d) for a raise to `raise_to` (chips beyond what
    villain can call come back, so they change nothing)."""
    to = min(raise_to, spot.villain_bet + spot.villain_stack)
    x = to - spot.hero_bet
    r = to - spot.villain_bet
    return x, r, round(max(spot.call_floor, 1 - r / (spot.pot + x)), 4)


class DefenceCurve:
    """Villain's calling part for any share d, as (probability it calls given hero's cards, hero's equity vs it)."""

    def __init__(self, rq: RangeEquity):
        blocked = set(rq.board)
        live = [i for i, (a, b) in enumerate(rq.combos)
                if rq.weights[i] > 0 and a not in blocked and b not in blocked]
        strength = strengths([rq.combos[i] for i in live], rq.board)
        order = sorted(range(len(live)), key=lambda k: strength[k], reverse=True)
        self.cum_w = [0.0]  # villain weight (board-live), by strength groups, cumulative
        self.cum_h = [0.0]  # the part hero's cards leave live
        self.cum_e = [0.0]  # that part times hero's equity
        self.groups: list[tuple[float, float, float]] = []
        k = 0
        while k < len(order):
            j = k
            w = h = e = 0.0
            while j < len(order) and strength[order[j]] == strength[order[k]]:
                i = live[order[j]]
                w += rq.weights[i]
                if rq.equities[i] is not None:
                    h += rq.weights[i]
                    e += rq.weights[i] * rq.equities[i]
                j += 1
            self.groups.append((w, h, e))
            self.cum_w.append(self.cum_w[-1] + w)
            self.cum_h.append(self.cum_h[-1] + h)
            self.cum_e.append(self.cum_e[-1] + e)
            k = j

    def at(self, share: float) -> tuple[float, float]:
        total_w, total_h = self.cum_w[-1], self.cum_h[-1]
        if total_h <= 0:
            return 0.0, 0.0
        target = share * total_w
        g = bisect.bisect_right(self.cum_w, target) - 1  # groups [0, g) are fully in
        h, e = self.cum_h[g], self.cum_e[g]
        if g < len(self.groups) and target - self.cum_w[g] > 1e-12:
            w_g, h_g, e_g = self.groups[g]
            part = min(1.0, (target - self.cum_w[g]) / w_g)
            h += h_g * part
            e += e_g * part
        return h / total_h, (e / h if h > 0 else 0.0)


def action_evs(spot: Spot, rq: RangeEquity, sizes: list[int]) -> dict[str, Any]:
    """{"fold"|"check"|"call": EV} for the legal ones, and "raise": {raise_to: EV} for each size of the menu."""
    equity = rq.equity()
    out: dict[str, Any] = {}
    if spot.to_call == 0:
        out["check"] = equity * spot.pot
    else:
        if spot.can_fold:
            out["fold"] = 0.0
        paid = min(spot.to_call, spot.hero_stack)
        final = spot.pot - (spot.to_call - paid) + paid
        out["call"] = equity * final - paid
    if sizes:
        curve = DefenceCurve(rq)
        raises = {}
        for to in sizes:
            x, r, d = defend_share(spot, to)
            q, eq = curve.at(d)
            raises[to] = (1 - q) * spot.pot + q * (eq * (spot.pot + x + r) - x)
        out["raise"] = raises
    return out


def best_by_category(evs: dict[str, Any]) -> dict[str, float]:
    """The best EV of each kind of action (fold, check, call, raise)."""
    return {k: (max(v.values()) if k == "raise" else v) for k, v in evs.items() if not (k == "raise" and not v)}

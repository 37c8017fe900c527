"""Decision spots: a seeded line of play on pokerkit up to hero's decision, labelled by the EV model, kept only
when the best action beats every other kind of action by a clear margin."""
from __future__ import annotations

import random
from typing import Any

from .actions import menu
from .equity import MC_SAMPLES, RangeEquity
from .ev import action_evs, best_by_category
from .evaluator import cards_str
from .ranges import parse_range
from .table import BB, BUTTON, STREETS, board_of, deal_next, new_state, spot_of

VILLAIN_RANGES = {
    "tight": "77+, ATs+, KQs, AJo+",
    "medium": "22+, A2s+, K9s+, QTs+, JTs, T9s, 98s, ATo+, KJo+, QJo",
    "loose": "22+, A2s+, K5s+, Q8s+, J8s+, T8s+, 97s+, 86s+, 75s+, 65s, 54s, A2o+, K9o+, Q9o+, J9o+, T9o",
}


def deal(rng: random.Random, villain_range: str) -> tuple[list[int], list[int], list[int]]:
    """(hero cards, villain cards from its range, a five-card board), all distinct."""
    deck = list(range(52))
    rng.shuffle(deck)
    hero = sorted(deck[:2])
    combos = [c for c in parse_range(villain_range) if c[0] not in hero and c[1] not in hero]
    villain = list(rng.choice(combos))
    board = [c for c in deck[2:] if c not in villain][:5]
    return hero, villain, board


def _bet(rng: random.Random, state, low: float, high: float) -> None:
    """A bet or raise of a random share of the pot, clipped to what pokerkit allows (a call when it allows none)."""
    if not state.can_complete_bet_or_raise_to():
        state.check_or_call()
        return
    lo, hi = state.min_completion_betting_or_raising_to_amount, state.max_completion_betting_or_raising_to_amount
    to = state.bets[state.actor_index] + state.checking_or_calling_amount + round(
        rng.uniform(low, high) * (state.total_pot_amount + state.checking_or_calling_amount))
    state.complete_bet_or_raise_to(min(hi, max(lo, to)))


def play_to_spot(rng: random.Random, street: str, hero_seat: int, stacks: list[int], holes: list[list[int]],
                 board: list[int]):
    """A pokerkit state where hero (seat `hero_seat`) is to act on `street`, or None when the line ended early."""
    state = new_state(stacks, holes)
    target = STREETS.index(street)
    if target == 0:
        if hero_seat == BB:  # the button opens: a raise or a limp
            _bet(rng, state, 0.5, 1.5) if rng.random() < 0.8 else state.check_or_call()
        return state if state.status and state.actor_index == hero_seat else None
    _bet(rng, state, 0.5, 1.5) if rng.random() < 0.8 else state.check_or_call()
    state.check_or_call()  # the big blind calls (or checks a limp)
    for _ in range(1, target):  # earlier streets: checked through, or a bet and a call
        deal_next(state, board)
        if rng.random() < 0.5:
            _bet(rng, state, 0.3, 1.0)
        else:
            state.check_or_call()
        state.check_or_call()
        if not state.status or min(state.stacks) == 0:
            return None
    deal_next(state, board)
    if not state.status or state.actor_index is None:
        return None
    if hero_seat == BUTTON:  # the big blind acts first: a check or a bet
        _bet(rng, state, 0.3, 1.2) if rng.random() < 0.5 else state.check_or_call()
    elif rng.random() < 0.4:  # hero checked; villain bets
        state.check_or_call()
        _bet(rng, state, 0.3, 1.2)
    return state if state.status and state.actor_index == hero_seat else None


def label_spot(hero: list[int], board: list[int], villain_range: str, spot, tolerance_share: float
               ) -> dict[str, Any]:
    """The EVs of every legal action and the tolerance in chips, by the EV model."""
    combos = list(parse_range(villain_range))
    rq = RangeEquity.compute(hero, board, combos, [1.0] * len(combos))
    sizes = menu(spot)
    evs = action_evs(spot, rq, sizes)
    return {"evs": evs, "equity": rq.equity(), "menu": sizes, "tolerance": round(tolerance_share * spot.pot, 4)}


def draw_decision(rng: random.Random, streets: list[str], ranges: list[str], tolerance_share: float,
                  margin_share: float, max_tries: int = 200) -> dict[str, Any]:
    """One decision spot whose best kind of action beats the next by `margin_share` of the pot."""
    for _ in range(max_tries):
        street = rng.choice(streets)
        range_name = rng.choice(ranges)
        villain_range = VILLAIN_RANGES[range_name]
        hero_seat = rng.choice((BB, BUTTON))
        stacks = [rng.randint(60, 300), rng.randint(60, 300)]
        hero, villain, board = deal(rng, villain_range)
        holes = [hero, villain] if hero_seat == BB else [villain, hero]
        state = play_to_spot(rng, street, hero_seat, stacks, holes, board)
        if state is None:
            continue
        spot = spot_of(state, hero_seat)
        shown = board_of(state)
        label = label_spot(hero, shown, villain_range, spot, tolerance_share)
        if not 0.02 <= label["equity"] <= 0.98:  # drawing dead or holding the nuts: no decision worth a label
            continue
        ranked = sorted(best_by_category(label["evs"]).items(), key=lambda kv: kv[1], reverse=True)
        if len(ranked) < 2 or ranked[0][1] - ranked[1][1] < margin_share * spot.pot:
            continue
        evs = {k: (round(v, 4) if k != "raise" else {str(t): round(e, 4) for t, e in v.items()})
               for k, v in label["evs"].items()}
        best_kind = ranked[0][0]
        best_amount = max(label["evs"]["raise"], key=label["evs"]["raise"].get) if best_kind == "raise" else None
        return {
            "mode": "decision", "street": street, "position": "button" if hero_seat == BUTTON else "big blind",
            "hero": cards_str(hero), "board": cards_str(shown), "villain_range": villain_range,
            "range_name": range_name, "spot": spot.as_dict(), "menu": label["menu"], "evs": evs,
            "best": {"kind": best_kind, "amount": best_amount}, "tolerance": label["tolerance"],
            "samples": MC_SAMPLES.get(len(shown), 0), "equity": round(label["equity"], 6),
        }
    raise RuntimeError(f"no decision spot with a clear best action in {max_tries} tries")

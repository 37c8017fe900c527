"""Mode `hand`: a whole heads-up hand on pokerkit, hero on the button against the scripted villain in the big blind.

Villain's strategy (stated in the prompt): facing a bet or raise it calls with the strongest share
d = max(call_floor, 1 - r / (P + X)) of its current range and folds the rest; first to act after the flop it bets `bet_fraction` of
the pot with the strongest `open_share` of its range and checks the rest; it checks when hero limps. Its range
narrows with each of its actions (a range expression), a combo at a share's boundary decides by a seeded draw.
The replay is a pure function of (identity, hero's actions): the interaction and the verifier both use it.
"""
from __future__ import annotations

import functools
import hashlib
import random
from dataclasses import dataclass, field, replace
from typing import Any

from .actions import Action, legalize, menu
from .credit import EvTable, credit
from .equity import RangeEquity
from .ev import Spot, action_evs, defend_share
from .evaluator import cards_str, parse_cards
from .ranges import narrow, share_weights, weighted_range
from .table import BB, BUTTON, STREETS, apply, board_of, deal_next, new_state, spot_of


@dataclass
class Decision:
    """One hero decision: the spot, villain's range expression then, what hero did (the action, its stated EV
table and equity) and the credit it earned."""

    street: str
    board: str
    spot: Spot
    range_expression: str
    action: Action | None = None
    reported_table: EvTable | None = None
    reported_equity: float | None = None
    evs: dict[str, Any] | None = None
    credit: float = 0.0


@dataclass
class HandLog:
    """A replayed hand: `result` is "awaiting" (hero to act), "folded", "villain folded", "showdown" or
    "illegal" (a move the rules refuse, or one after the hand ended); `events` are what the table said."""

    result: str = "awaiting"
    events: list[str] = field(default_factory=list)
    decisions: list[Decision] = field(default_factory=list)
    hero_net: int = 0
    illegal: str = ""


@functools.lru_cache(maxsize=512)
def range_equity(hero: str, board: str, expression: str) -> RangeEquity:
    """Hero's equities against a range expression on a board (cached: the tools, the policy, the interaction and
    the verifier of one process ask the same questions)."""
    combos, weights = weighted_range(expression)
    return RangeEquity.compute(parse_cards(hero), parse_cards(board), combos, weights)


def decision_evs(decision: Decision, hero: str) -> dict[str, Any]:
    """The EV of every legal action of a decision, by the EV model."""
    rq = range_equity(hero, decision.board, decision.range_expression)
    return action_evs(decision.spot, rq, menu(decision.spot))


def stored_evs(evs: dict[str, Any]) -> dict[str, Any]:
    """EVs as the identity keeps them (JSON: string raise sizes, 6 places)."""
    return {k: ({str(t): round(e, 6) for t, e in v.items()} if k == "raise" else round(v, 6)) for k, v in evs.items()}


def grade(decision: Decision, hero: str, tolerance_share: float, opening: dict[str, Any] | None = None) -> None:
    """Fill the decision's EVs and its credit (credit.py: the EV table stated, the equity, the EV given up)."""
    spot = decision.spot
    if opening is None:
        evs = decision_evs(decision, hero)
        equity = range_equity(hero, decision.board, decision.range_expression).equity()
    else:  # the identity's precomputed opening decision: the verifier stays fast on any single reply
        evs = {k: ({int(t): e for t, e in v.items()} if k == "raise" else v) for k, v in opening["evs"].items()}
        equity = opening["equity"]
    decision.evs = evs
    if decision.action is not None:
        decision.credit = credit(spot, evs, equity, tolerance_share * spot.pot, decision.action,
                                 decision.reported_table, decision.reported_equity)


def _villain_takes(identity: dict[str, Any], expression: str, board: list[int], kind: str, share: float,
                   draw: int) -> bool:
    """Whether villain's own combo lies in the `kind` (top/bottom) share of its range; a seeded draw at a tie."""
    combos, weights = weighted_range(expression)
    mine = tuple(sorted(parse_cards(identity["villain"])))
    part = share_weights(combos, weights, board, share, top=kind == "top")
    i = combos.index(mine)
    fraction = part[i] / weights[i] if weights[i] > 0 else 0.0
    if fraction >= 1.0 - 1e-12 or fraction <= 1e-12:
        return fraction > 0.5
    key = f"holdem-villain\x1f{identity['seed']}\x1f{draw}".encode()
    rng = random.Random(int.from_bytes(hashlib.blake2b(key, digest_size=8).digest(), "little"))
    return rng.random() < fraction


def replay(identity: dict[str, Any], moves: list[tuple[Action, EvTable | None, float | None]], *,
           grade_decisions: bool = False) -> HandLog:
    """Play hero's moves (action, stated EV table, stated equity) against the scripted villain until hero must act again
    or the hand ends. Never raises on bad moves: an illegal one ends the hand ("illegal")."""
    hero = parse_cards(identity["hero"])
    full_board = parse_cards(identity["board"])
    state = new_state([identity["stacks"]["villain"], identity["stacks"]["hero"]],
                      [parse_cards(identity["villain"]), hero])
    log = HandLog()
    expression = identity["villain_range"]
    pending_share = 1.0
    draws = 0
    tolerance_share = float(identity["tolerance_share"])
    while state.status:
        if deal_next(state, full_board):
            shown = board_of(state)
            log.events.append(f"{STREETS[len(shown) - 2].capitalize()}: {cards_str(shown)}.")
            continue
        board = board_of(state)
        if state.actor_index is None:  # nothing left to decide or deal (pokerkit's automations finish the hand)
            break
        if state.actor_index == BUTTON:
            spot = replace(spot_of(state, BUTTON), call_floor=float(identity.get("call_floor", 0.0)))
            decision = Decision(STREETS[len(board) - 2] if board else "preflop", cards_str(board), spot, expression)
            if len(log.decisions) == len(moves):
                log.decisions.append(decision)
                return log  # awaiting hero
            action, reported, equity = moves[len(log.decisions)]
            log.decisions.append(decision)
            played = legalize(action, spot)
            decision.action = played if isinstance(played, Action) else action
            decision.reported_table, decision.reported_equity = reported, equity
            if isinstance(played, str):
                log.result, log.illegal = "illegal", played
                log.events.append(f"Illegal action ({played}). The hand ends; it scores 0.")
                return log
            if grade_decisions:
                grade(decision, identity["hero"], tolerance_share,
                      identity.get("opening") if len(log.decisions) == 1 else None)
            if played.kind == "raise":
                pending_share = defend_share(spot, played.amount)[2]
            apply(state, played.kind, played.amount)
            log.events.append(f"You {_said(played, spot)}.")
            continue
        # villain (the big blind) acts
        draws += 1
        to_call = state.checking_or_calling_amount if state.can_check_or_call() else 0
        if to_call:
            if _villain_takes(identity, expression, board, "top", pending_share, draws):
                expression = narrow(expression, "top", pending_share, board)
                state.check_or_call()
                log.events.append(f"Villain calls {to_call}.")
            else:
                state.fold()
                log.events.append("Villain folds.")
        elif not board or not state.can_complete_bet_or_raise_to():
            state.check_or_call()
            log.events.append("Villain checks.")
        else:
            share = float(identity["open_share"])
            if _villain_takes(identity, expression, board, "top", share, draws):
                expression = narrow(expression, "top", share, board)
                low = state.min_completion_betting_or_raising_to_amount
                high = state.max_completion_betting_or_raising_to_amount
                to = min(high, max(low, round(float(identity["bet_fraction"]) * state.total_pot_amount)))
                state.complete_bet_or_raise_to(to)
                log.events.append(f"Villain bets {to}.")
            else:
                expression = narrow(expression, "bottom", round(1 - share, 4), board)
                state.check_or_call()
                log.events.append("Villain checks.")
    if len(moves) > len([d for d in log.decisions if d.action is not None]):
        log.result, log.illegal = "illegal", "an action after the hand ended (out of turn)"
        log.events.append("Illegal action (the hand is over). It scores 0.")
        return log
    log.hero_net = state.payoffs[BUTTON]
    folded = [d for d in log.decisions if d.action is not None and d.action.kind == "fold"]
    log.result = "folded" if folded else ("villain folded" if not state.statuses[BB] else "showdown")
    if log.result == "showdown":
        log.events.append(f"Showdown: villain shows {identity['villain']}.")
    return log


def _said(action: Action, spot: Spot) -> str:
    if action.kind == "raise":
        return f"{'raise' if spot.to_call else 'bet'} to {action.amount}"
    return {"call": f"call {spot.to_call}"}.get(action.kind, action.kind)


def score(log: HandLog) -> float:
    """The mean credit of hero's decisions (credit.py); 0 after an illegal action; a decision still awaited
    counts as 0."""
    if log.result == "illegal" or not log.decisions:
        return 0.0
    return sum(d.credit for d in log.decisions) / len(log.decisions)


def situation(decision: Decision, identity: dict[str, Any]) -> str:
    """What hero sees before acting: street, board, pot, price, stacks, villain's range, the legal actions."""
    s = decision.spot
    sizes = menu(s)
    legal = (["check"] if s.to_call == 0 else ["fold", f"call ({s.to_call})"]) + (
        [f"raise to one of {', '.join(map(str, sizes))} (the last is all-in)"] if sizes else [])
    return (f"{decision.street.capitalize()}. Your cards {identity['hero']}; board {decision.board or '(none)'}; "
            f"pot {s.pot}; to call {s.to_call}; your chips in this street {s.hero_bet}, villain's {s.villain_bet}; "
            f"behind: you {s.hero_stack}, villain {s.villain_stack}.\n"
            f"Villain's range now: {decision.range_expression}\nLegal: {'; '.join(legal)}.")

"""Hold'em tasks: `decision` spots labelled by the EV model, and whole `hand`s against the scripted villain."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bc_common.bootcamp import InstructionGenerator

from .equity import MC_SAMPLES
from .ev import Spot
from .hand import Decision, decision_evs, range_equity, replay, situation, stored_evs
from .spots import VILLAIN_RANGES, deal, draw_decision
from .table import STREETS

EV_MODEL = (
    "EV model (chips, from this decision on): fold = 0; check = equity x pot (the hand is then checked down); "
    "call = equity x final pot - your call. A bet or raise to T, where you add X and villain must add r more "
    "into a pot of P (every bet so far included), is called by the strongest share d = max(F, 1 - r / (P + X)) "
    "of villain's range (F: villain's call floor; d rounded to 4 places; villain's strength = its made-hand value "
    "on the board, preflop Bill Chen's score without rounding; hands tied at the boundary call in part), which "
    "folds the rest and never re-raises: EV = fold% x P + call% x (equity vs the calling part x (P + X + r) - X), "
    "fold% and call% among the villain hands your cards leave possible. Equity is exact on the turn and river and "
    f"seeded Monte Carlo before ({MC_SAMPLES[3]} board samples on the flop, {MC_SAMPLES[0]} preflop), as the "
    "`equity` tool computes it.")
ANSWER = ("Answer with one action: <action>fold</action>, <action>check</action>, <action>call</action>, "
          "<action>raise T</action> (T a bet/raise-to amount from the list) or <action>allin</action>; then the EV "
          "under the model of every legal action, as one JSON object keyed fold, check, call (those legal) and "
          "\"raise T\" for every T on the list: <evs>{\"fold\": 0, \"call\": 1.25, \"raise 12\": 3.5}</evs>; then "
          "your equity against villain's whole range (as the `equity` tool gives it, within 0.005): "
          "<equity>0.xxxx</equity>.")


@dataclass
class HoldemConfig:
    mode: str = "decision"  # "decision" or "hand"
    streets: str = "preflop,flop,turn,river"  # decision mode: the streets spots are drawn on
    ranges: str = "tight,medium,loose"  # villain ranges (see spots.VILLAIN_RANGES)
    tolerance_share: float = 0.02  # an action (and its EV) within this share of the pot of the best scores
    margin_share: float = 0.06  # decision mode keeps spots whose best kind of action wins by this share of the pot
    raise_keep: float = 0.45  # share of raise-labelled spots kept (all-in-heavy labels would dominate otherwise)
    open_share: float = 0.35  # hand mode: villain bets first with this strongest share of its range
    call_floor: float = 0.6  # hand mode: villain calls a bet or raise with at least this share of its range
    bet_fraction: float = 0.67  # hand mode: villain's bet size as a share of the pot

    def validate(self) -> None:
        if self.mode not in ("decision", "hand"):
            raise ValueError("mode must be 'decision' or 'hand'")
        streets = [s.strip() for s in self.streets.split(",") if s.strip()]
        if not streets or set(streets) - set(STREETS):
            raise ValueError(f"streets must be some of {', '.join(STREETS)}")
        names = [s.strip() for s in self.ranges.split(",") if s.strip()]
        if not names or set(names) - set(VILLAIN_RANGES):
            raise ValueError(f"ranges must be some of {', '.join(VILLAIN_RANGES)}")
        if not 0.001 <= self.tolerance_share < self.margin_share <= 0.5:
            raise ValueError("need 0.001 <= tolerance_share < margin_share <= 0.5")
        if not 0.05 <= self.raise_keep <= 1.0 or not 0.05 <= self.open_share <= 0.95:
            raise ValueError("raise_keep in [0.05, 1] and open_share in [0.05, 0.95]")
        if not 0.0 <= self.call_floor <= 1.0:
            raise ValueError("call_floor must be a share in [0, 1]")
        if not 0.2 <= self.bet_fraction <= 2.0:
            raise ValueError("bet_fraction must be in [0.2, 2]")


class HoldemInstructionGenerator(InstructionGenerator):
    """Identity of a decision: the spot, its legal menu, the EV of every action and the tolerance. Of a hand: the
    deal (hidden from the prompt), stacks, villain's range and strategy parameters, the tolerance."""

    Config = HoldemConfig
    name = "holdem"

    def case_generator(self) -> dict[str, Any]:
        streets = [s.strip() for s in self.streets.split(",") if s.strip()]
        ranges = [s.strip() for s in self.ranges.split(",") if s.strip()]
        if self.mode == "hand":
            return self._hand(ranges)
        while True:
            spot = draw_decision(self.rng, streets, ranges, self.tolerance_share, self.margin_share)
            if spot["best"]["kind"] != "raise" or self.rng.random() < self.raise_keep:
                spot["tolerance_share"] = self.tolerance_share
                return spot

    def _hand(self, ranges: list[str]) -> dict[str, Any]:
        from .evaluator import cards_str

        range_name = self.rng.choice(ranges)
        hero, villain, board = deal(self.rng, VILLAIN_RANGES[range_name])
        identity = {"mode": "hand", "hero": cards_str(hero), "villain": cards_str(villain),
                    "board": cards_str(board),
                    "stacks": {"hero": self.rng.randint(80, 300), "villain": self.rng.randint(80, 300)},
                    "villain_range": VILLAIN_RANGES[range_name], "range_name": range_name,
                    # shares as the range expressions write them (4 places), so villain and expression agree
                    "open_share": round(self.open_share, 4), "bet_fraction": self.bet_fraction,
                    "call_floor": self.call_floor,
                    "tolerance_share": self.tolerance_share, "seed": self.rng.getrandbits(32)}
        opening = replay(identity, []).decisions[0]
        equity = range_equity(identity["hero"], opening.board, opening.range_expression).equity()
        identity["opening"] = {"evs": stored_evs(decision_evs(opening, identity["hero"])), "equity": round(equity, 6)}
        return identity

    def prompt_func(self, identity: dict[str, Any]) -> str:
        return render_prompt(identity)


def render_prompt(identity: dict[str, Any]) -> str:
    tolerance = (f"Score: (the share of legal actions whose EV you state within {identity['tolerance_share']:g} x "
                 "pot of the model's) x (1 when your action's EV is within that much of the best, else 1 - the EV "
                 "it gives up / (pot / 4), not below 0); 0 when your equity is off by more than 0.005, and for an "
                 "illegal action or size.")
    tools = ("Tools: `hand_strength` (rank of 5-7 cards), `equity` (your equity against a range, and against its "
             "strongest shares), `pot_odds`.")
    if identity["mode"] == "hand":
        log = replay(identity, [])
        first = log.decisions[-1]
        return (
            "Heads-up no-limit hold'em, blinds 1/2, one whole hand. You are on the button (small blind: first to "
            "act preflop, last after the flop); villain is the big blind. Villain plays a fixed strategy: facing a "
            "bet or raise it calls with the strongest share d of its current range (d as in the EV model, with "
            f"call floor F = {identity['call_floor']:g}) and folds the rest, never re-raising; first to act after "
            f"the flop it bets {identity['bet_fraction']:g} x pot with the strongest {identity['open_share']:g} of "
            "its range and checks the rest; it checks when "
            "you limp. Its range narrows with each action: I state it as a range expression ('base | top s @ "
            "BOARD' keeps the strongest share s on that board, 'bottom s' the weakest), which the `equity` tool "
            "reads.\nEach of your decisions is graded against the best action under the EV model, not by the "
            "cards that come.\n\n"
            f"{EV_MODEL}\n{tolerance}\n{tools}\n\n{ANSWER} One action per reply; I answer with villain's "
            f"moves and the next decision.\n\n{situation(first, identity)}")
    spot = Spot(**identity["spot"])
    street_hint = "" if identity["street"] == "preflop" else f" on the {identity['street']}"
    decision = Decision(identity["street"], identity["board"], spot, identity["villain_range"])
    return (f"Heads-up no-limit hold'em, blinds 1/2. You are the {identity['position']}; it is your "
            f"decision{street_hint}.\n\n{situation(decision, identity)}\n\n{EV_MODEL} Here F = 0.\n{tolerance}\n"
            f"{tools}\n\n"
            f"Choose the action with the highest EV. {ANSWER}")

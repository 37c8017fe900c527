"""The seated game: one whole heads-up no-limit hand between two models on pokerkit, blinds 1/2, the button
(small blind) first to act preflop and last after the flop. Each seat sees its own hole cards, the board, the pot,
the stacks and what the other did; never the other's cards before a showdown.

The deal is the task's own when it is a whole-hand task (`mode: hand`: the big blind holds `hero`, the button
`villain`, the board is `board`), else a deal drawn from a seed of the task's identity; both seats start with the
smaller of the two stacks (the hand is symmetric but for the cards and the position). `bc-eval --samples 2`
plays both sides of one deal (duplicate poker): luck cancels between the two samples. A seat wins the match when
it ends the hand with more chips than it started with, draws on a split pot; a reply without a legal action
loses at once.
"""
from __future__ import annotations

import hashlib
import random
from typing import Any, NamedTuple

import orjson

from bc_common.bootcamp import ReferencePolicy, SeatedGame, SeatOutcome

from .actions import Action, legalize, menu, parse_action
from .evaluator import cards_str, parse_cards
from .hand import range_equity
from .table import BB, BUTTON, STREETS, apply, board_of, deal_next, new_state, spot_of

SEATS = ("button", "big_blind")  # pokerkit's players: 0 the big blind, 1 the button
PLAYER = {"big_blind": BB, "button": BUTTON}
# what the reference seat computes its equity against: an unknown opponent may hold any two cards
ANY_TWO = ("22+, A2s+, K2s+, Q2s+, J2s+, T2s+, 92s+, 82s+, 72s+, 62s+, 52s+, 42s+, 32s, A2o+, K2o+, Q2o+, J2o+, "
           "T2o+, 92o+, 82o+, 72o+, 62o+, 52o+, 42o+, 32o")
RULES = ("Reply with exactly one action per turn as <action>fold</action>, <action>check</action>, "
         "<action>call</action>, <action>raise N</action> (a bet or raise to N chips this street, N from the legal "
         "sizes listed) or <action>allin</action>. A reply without a legal action loses the match at once. You win "
         "the match by ending the hand with more chips than you started with; a split pot is a draw.")


def deal_of(identity: dict[str, Any]) -> tuple[list[int], list[int], list[int], int]:
    """(big blind's cards, button's cards, the five-card board, each seat's starting stack) of a task."""
    if identity.get("mode") == "hand":
        stacks = identity["stacks"]
        return (parse_cards(identity["hero"]), parse_cards(identity["villain"]), parse_cards(identity["board"]),
                min(int(stacks["hero"]), int(stacks["villain"])))
    key = hashlib.blake2b(orjson.dumps(identity, option=orjson.OPT_SORT_KEYS), digest_size=8).digest()
    rng = random.Random(int.from_bytes(key, "big"))
    deck = list(range(52))
    rng.shuffle(deck)
    return sorted(deck[:2]), sorted(deck[2:4]), deck[4:9], rng.randint(80, 300)


class HoldemMatch(SeatedGame):
    """One hand; a reply without a legal action loses the match for its seat."""

    seats = SEATS
    max_moves = 40

    def __init__(self, identity: dict[str, Any]):
        super().__init__(identity)
        big_blind, button, self.board, self.stack = deal_of(identity)
        self.holes = {"big_blind": big_blind, "button": button}
        self.state = new_state([self.stack, self.stack], [big_blind, button])
        self.events: list[str] = []  # what the table said, in order
        self.seen = {seat: 0 for seat in SEATS}  # events each seat has been told
        self.forfeit: tuple[str, str] | None = None  # (seat, reason)
        self._advance()

    def _advance(self) -> None:
        """Deal the streets pokerkit asks for (all of them after an all-in) until a seat must act or it is over."""
        while self.state.status and deal_next(self.state, self.board):
            board = board_of(self.state)
            self.events.append(f"{STREETS[len(board) - 2].capitalize()}: {cards_str(board)}.")

    def to_move(self) -> str | None:
        if self.forfeit or not self.state.status or self.state.actor_index is None:
            return None
        return "big_blind" if self.state.actor_index == BB else "button"

    def situation(self, seat: str) -> str:
        """What `seat` sees before acting: its cards, the board, pot, price, stacks and its legal actions."""
        spot = spot_of(self.state, PLAYER[seat])
        board = board_of(self.state)
        sizes = menu(spot)
        legal = (["check"] if spot.to_call == 0 else ["fold", f"call ({spot.to_call})"]) + (
            [f"raise to one of {', '.join(map(str, sizes))} (the last is all-in)"] if sizes else [])
        street = STREETS[len(board) - 2] if board else "preflop"
        return (f"{street.capitalize()}. Your cards {cards_str(self.holes[seat])}; board "
                f"{cards_str(board) if board else '(none)'}; pot {spot.pot}; to call {spot.to_call}; your chips in "
                f"this street {spot.hero_bet}, your opponent's {spot.villain_bet}; behind: you {spot.hero_stack}, "
                f"your opponent {spot.villain_stack}.\nLegal: {'; '.join(legal)}.")

    def view(self, seat: str, first: bool) -> str:
        news = self.events[self.seen[seat]:]
        self.seen[seat] = len(self.events)
        said = " ".join(news)
        if not first:
            return f"{said}\n\n{self.situation(seat)}".strip()
        position = ("You are on the button (small blind 1): you act first before the flop and last after it."
                    if seat == "button" else
                    "You are the big blind (2): you act last before the flop and first after it.")
        return (f"Let's play one hand of heads-up no-limit hold'em against another player, blinds 1/2, both "
                f"starting with {self.stack} chips. {position} {said}\n\n{self.situation(seat)}\n\n{RULES}")

    def play(self, seat: str, text: str) -> None:
        spot = spot_of(self.state, PLAYER[seat])
        action = parse_action(text)
        if action is None:
            self.forfeit = (seat, "no action")
            return
        played = legalize(action, spot)
        if isinstance(played, str):
            self.forfeit = (seat, "illegal action")
            return
        apply(self.state, played.kind, played.amount)
        mover = "The button" if seat == "button" else "The big blind"
        said = {"fold": "folds", "check": "checks", "call": f"calls {spot.to_call}"}.get(
            played.kind, f"{'raises' if spot.to_call or spot.villain_bet else 'bets'} to {played.amount}")
        self.events.append(f"{mover} {said}.")
        self._advance()

    def outcome(self) -> dict[str, SeatOutcome]:
        if self.forfeit:  # the forfeiting seat loses what it had put in, as a fold would
            loser, reason = self.forfeit
            put_in = self.stack - self.state.stacks[PLAYER[loser]]
            return {s: SeatOutcome("loss" if s == loser else "win", reason, float(-put_in if s == loser else put_in))
                    for s in SEATS}
        net = {seat: self.state.stacks[PLAYER[seat]] - self.stack for seat in SEATS}
        how = "showdown" if self.showdown() else "fold"
        if net["button"] == net["big_blind"]:
            return {s: SeatOutcome("draw", f"{how}, split pot", 0.0) for s in SEATS}
        return {s: SeatOutcome("win" if net[s] > 0 else "loss", f"{how}, {net[s]:+d} chips", float(net[s]))
                for s in SEATS}

    def showdown(self) -> bool:
        """Whether the hand went to a showdown (nobody folded)."""
        return not any(e.endswith(" folds.") for e in self.events)


class Shown(NamedTuple):
    """The situation a seat was last shown, as its text states it."""

    cards: str
    board: str
    pot: int
    to_call: int
    sizes: list[int]  # legal raise-to amounts, ascending; [] when no raise is possible


def shown_in(messages: list[dict[str, Any]]) -> Shown:
    """The last situation a seat was shown (`HoldemMatch.situation`'s text)."""
    for message in reversed(messages):
        text = str(message.get("content") or "") if message.get("role") == "user" else ""
        if "Your cards " not in text:
            continue
        line = text[text.rindex("Your cards "):]
        legal = line.split("Legal: ", 1)[1].split("\n", 1)[0]
        sizes = [int(v) for v in legal.split("raise to one of ", 1)[1].split(" (", 1)[0].split(", ")] \
            if "raise to one of " in legal else []
        board = _field(line, "board ")
        return Shown(_field(line, "Your cards "), "" if board.startswith("(") else board, int(_field(line, "pot ")),
                     int(_field(line, "to call ")), sizes)
    raise ValueError("no situation shown yet")


def _field(line: str, name: str) -> str:
    return line.split(name, 1)[1].split(";", 1)[0].strip()


class _SeatPolicy(ReferencePolicy):
    """Plays `choose(shown)` for its seat on the situation it was last shown."""

    def choose(self, shown: Shown) -> Action:
        raise NotImplementedError

    def respond(self, messages: list[dict[str, Any]], *, wrong: bool = False) -> dict[str, Any]:
        shown = shown_in(messages)
        # wrong: an illegal action (check facing a bet, fold when free)
        action = (Action("check") if shown.to_call else Action("fold")) if wrong else self.choose(shown)
        return {"role": "assistant", "content": f"<action>{action.text()}</action>"}


class SeatReference(_SeatPolicy):
    """Equity against any two cards: raise to the menu's third size with 60%+, call when the equity covers the
    pot odds (or check), else fold."""

    def choose(self, shown: Shown) -> Action:
        equity = range_equity(shown.cards, shown.board, ANY_TWO).equity()
        if equity >= 0.6 and shown.sizes:
            return Action("raise", shown.sizes[min(len(shown.sizes) - 1, 2)])
        if shown.to_call == 0:
            return Action("check")
        return Action("call") if equity >= shown.to_call / (shown.pot + shown.to_call) else Action("fold")


class SeatRandom(_SeatPolicy):
    """Baseline: a random legal action (fold only when facing a bet)."""

    def choose(self, shown: Shown) -> Action:
        options = [Action("check")] if shown.to_call == 0 else [Action("fold"), Action("call")]
        options += [Action("raise", size) for size in shown.sizes]
        return self.rng.choice(options)


class SeatCallingStation(_SeatPolicy):
    """Baseline: never folds, never raises: checks or calls to the end."""

    def choose(self, shown: Shown) -> Action:
        return Action("check") if shown.to_call == 0 else Action("call")


HoldemMatch.policy = SeatReference
HoldemMatch.baselines = {"random": SeatRandom, "calling_station": SeatCallingStation}

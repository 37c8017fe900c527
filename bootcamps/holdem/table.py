"""The heads-up no-limit table on pokerkit: blinds 1/2, player 0 the big blind, player 1 the button (small blind,
first to act preflop, last after). pokerkit keeps the rules: whose turn, legal amounts, pots, showdown."""
from __future__ import annotations

from collections.abc import Sequence

from .ev import Spot
from .evaluator import cards_str

BLINDS = (1, 2)
BB, BUTTON = 0, 1
STREETS = ("preflop", "flop", "turn", "river")


def new_state(stacks: Sequence[int], holes: Sequence[Sequence[int]]):
    """A pokerkit state with hole cards dealt (stacks and holes indexed by seat: 0 big blind, 1 button)."""
    from pokerkit import Automation, NoLimitTexasHoldem

    automations = (Automation.ANTE_POSTING, Automation.BET_COLLECTION, Automation.BLIND_OR_STRADDLE_POSTING,
                   Automation.HOLE_CARDS_SHOWING_OR_MUCKING, Automation.HAND_KILLING,
                   Automation.CHIPS_PUSHING, Automation.CHIPS_PULLING)
    state = NoLimitTexasHoldem.create_state(automations, True, 0, BLINDS, BLINDS[1], tuple(stacks), 2)
    for seat in (BB, BUTTON):
        state.deal_hole(cards_str(holes[seat]))
    return state


def board_of(state) -> list[int]:
    from .evaluator import parse_cards

    return parse_cards("".join(repr(c) for cards in state.board_cards for c in cards))


def spot_of(state, hero: int) -> Spot:
    """The decision facing `hero` (who must be the actor) in EV-model terms, with pokerkit's legal bounds."""
    villain = 1 - hero
    to_call = state.checking_or_calling_amount if state.can_check_or_call() else 0
    can_raise = state.can_complete_bet_or_raise_to()
    return Spot(pot=state.total_pot_amount, to_call=to_call or 0, hero_bet=state.bets[hero],
                villain_bet=state.bets[villain], hero_stack=state.stacks[hero], villain_stack=state.stacks[villain],
                can_fold=state.can_fold(),
                min_raise_to=state.min_completion_betting_or_raising_to_amount if can_raise else None,
                max_raise_to=state.max_completion_betting_or_raising_to_amount if can_raise else None)


def street_of(state) -> str:
    return STREETS[len(board_of(state)) - 2 if board_of(state) else 0]


def apply(state, kind: str, amount: int | None = None) -> None:
    """Play one legal action on pokerkit (raises ValueError when pokerkit refuses it)."""
    if kind == "fold":
        state.fold()
    elif kind in ("check", "call"):
        state.check_or_call()
    elif kind == "raise":
        state.complete_bet_or_raise_to(amount)
    else:
        raise ValueError(f"unknown action {kind!r}")


def deal_next(state, board: Sequence[int]) -> bool:
    """Deal the next street from the fixed board when pokerkit asks for it; True when it dealt."""
    if state.can_burn_card():
        state.burn_card("??")  # an unknown card: pokerkit's own burn could take one of the fixed board's
    if not state.can_deal_board():
        return False
    shown = len(board_of(state))
    count = 3 if shown == 0 else 1
    state.deal_board(cards_str(board[shown:shown + count]))
    return True

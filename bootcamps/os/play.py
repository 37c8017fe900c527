"""A task's game replayed from its identity and the model's texts, the scripted defender answering each move.
The interaction, the verifier and the policies all replay, so they cannot disagree."""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from bc_common.answer_blocks import last_tagged

from .games import GAMES
from .positions import search_for, state_of

ANSI = re.compile(r"\x1b\[[0-9;]*m")
MOVE_TAG = "move"
MAX_MOVE_CHARS = 64  # a move's text is a few characters; a longer one is not a move


@dataclass
class Replay:
    """The game after the model's texts: the state, the moves it made, and what happened (for the next view)."""

    state: Any
    game: str
    me: int
    budget: int  # moves the model may make (the task's depth)
    made: int = 0
    news: list[str] = field(default_factory=list)  # what happened since the model's last move
    illegal: str = ""  # why the model's last text was not a legal move (the game is then lost)

    @property
    def over(self) -> bool:
        return bool(self.illegal) or self.state.is_terminal() or self.made >= self.budget

    @property
    def won(self) -> bool:
        return not self.illegal and self.state.is_terminal() and self.state.returns()[self.me] > 0

    def left(self) -> int:
        return self.budget - self.made


def move_names(state: Any) -> dict[str, int]:
    """Each legal action's text as the model writes it (spaces dropped, lower case) -> the action."""
    player = state.current_player()
    return {_norm(state.action_to_string(player, a)): a for a in state.legal_actions()}


def _norm(text: str) -> str:
    return "".join(text.split()).lower()


def parse_move(state: Any, text: str) -> tuple[int | None, str]:
    """(the action the text's last <move> block names, "") or (None, why it is not a legal move)."""
    body = last_tagged(text, MOVE_TAG, max_length=MAX_MOVE_CHARS) if isinstance(text, str) else None
    if body is None:
        return None, f"no <{MOVE_TAG}>...</{MOVE_TAG}> block with a move in it"
    action = move_names(state).get(_norm(body))
    if action is None:
        return None, f"{body.strip()[:40]!r} is not a legal move"
    return action, ""


def replay(identity: dict[str, Any], texts: Sequence[str]) -> Replay:
    """Play the model's `texts` in order from the identity's position; the defender answers every move."""
    spec, me, budget = identity["spec"], int(identity["player"]), int(identity["depth"])
    out = Replay(state_of(spec, identity["history"]), identity["game"], me, budget)
    search = search_for(spec)
    texts = list(texts)
    used = 0
    while not out.over:
        state = out.state
        if state.current_player() != me:
            action = search.defend(state, me, out.left())
            out.news.append(f"Your opponent played {state.action_to_string(state.current_player(), action)}.")
            state.apply_action(action)
            continue
        if used == len(texts):
            return out
        action, why = parse_move(state, texts[used])
        used += 1
        if action is None:
            out.illegal = why
            return out
        out.news = [f"You played {state.action_to_string(me, action)}."]
        state.apply_action(action)
        out.made += 1
    return out


def view(played: Replay) -> str:
    """What the model reads before its next move: the board, its legal moves and the moves it has left."""
    state = played.state
    moves = ", ".join(state.action_to_string(played.me, a) for a in state.legal_actions())
    plural = "move" if played.left() == 1 else "moves"
    side = GAMES[played.game].sides[played.me]
    board = ANSI.sub("", str(state)).rstrip()  # some boards (twixt) are printed in terminal colours
    return (f"Board:\n{board}\n\nYou are player {played.me} ({side}) and it is your turn; {played.left()} "
            f"{plural} left to win. Legal moves: {moves}")

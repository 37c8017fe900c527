"""The reference (a move that keeps the forced win) and the baselines (a random legal move, the first legal move),
each choosing from the position the replay of the conversation reaches."""
from __future__ import annotations

from typing import Any

from bc_common.bootcamp import ReferencePolicy, assistant_texts

from .play import MOVE_TAG, Replay, replay
from .positions import search_for


class _Mover(ReferencePolicy):
    def choose(self, played: Replay, *, wrong: bool) -> int:
        raise NotImplementedError

    def respond(self, messages: list[dict[str, Any]], *, wrong: bool = False) -> dict[str, Any]:
        played = replay(self.identity, assistant_texts(messages))
        if played.over:  # nothing to move: say so (the interaction has ended the game already)
            return {"role": "assistant", "content": "The game is over."}
        action = self.choose(played, wrong=wrong)
        move = played.state.action_to_string(played.me, action)
        return {"role": "assistant", "content": f"<{MOVE_TAG}>{move}</{MOVE_TAG}>"}


class ForcedWin(_Mover):
    """The first legal move that keeps a forced win within the moves left (wins every task); `wrong`: the first
    legal move that does not (the perfect defender then holds)."""

    def choose(self, played: Replay, *, wrong: bool) -> int:
        search = search_for(self.identity["spec"])
        winning = search.winning_moves(played.state, played.me, played.left())
        legal = played.state.legal_actions()
        if wrong:
            return next((a for a in legal if a not in winning), legal[0])
        return winning[0]


class RandomMove(_Mover):
    """Baseline: a random legal move."""

    def choose(self, played: Replay, *, wrong: bool) -> int:
        return self.rng.choice(played.state.legal_actions())


class FirstMove(_Mover):
    """Baseline: the first legal move as listed."""

    def choose(self, played: Replay, *, wrong: bool) -> int:
        return played.state.legal_actions()[0]

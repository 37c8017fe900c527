"""The reference policy: perfect minimax play on the board rebuilt from its own moves and the opponent's replay."""
from __future__ import annotations

from typing import Any

from bc_common.bootcamp import ReferencePolicy, assistant_texts

from .game import best_x_move, labels_of, moves_in, replay


class TicTacToePolicy(ReferencePolicy):
    """Never loses. `wrong=True` plays an illegal move (a taken cell's number, or 10 on an empty board)."""

    def respond(self, messages: list[dict[str, Any]], *, wrong: bool = False) -> dict[str, Any]:
        game = replay(self.identity, moves_in(assistant_texts(messages)))
        if game.result != "unfinished":
            return {"role": "assistant", "content": f"The game is over ({game.result})."}
        labels = labels_of(self.identity)
        if wrong:
            taken = [labels[i] for i, c in enumerate(game.board) if c != " "]
            move = taken[0] if taken else 10
            return {"role": "assistant", "content": f"I play {move}.\n<move>{move}</move>"}
        move = labels[best_x_move(game.board) - 1]  # the number this game shows on that cell
        return {"role": "assistant", "content": f"I play {move}.\n<move>{move}</move>"}

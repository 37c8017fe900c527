"""The reference policy: the forced win of a puzzle (perfect minimax on a whole 3x3 game), on the board rebuilt
from its own moves and the opponent's replay."""
from __future__ import annotations

from typing import Any

from bc_common.bootcamp import ReferencePolicy, assistant_texts

from .game import best_x_move, labels_of, moves_in, replay
from .puzzle import Puzzle, forced_win, play, to_masks
from .reward import is_puzzle


class TicTacToePolicy(ReferencePolicy):
    """Wins every puzzle within its moves (and never loses a whole game). `wrong=True` plays an illegal move (a
    taken cell's number, or one past the board)."""

    def respond(self, messages: list[dict[str, Any]], *, wrong: bool = False) -> dict[str, Any]:
        moves = moves_in(assistant_texts(messages))
        if is_puzzle(self.identity):
            puzzle = Puzzle.of(self.identity)
            game = play(puzzle, moves)
            if game.result != "unfinished":
                return _say_over(game.result)
            if wrong:
                return _say_move(_taken(game.board) or puzzle.n * puzzle.n + 1)
            x, o = to_masks(game.board)
            return _say_move(forced_win(x, o, puzzle.n, puzzle.k, puzzle.moves - len(moves)) + 1)
        game = replay(self.identity, moves)
        if game.result != "unfinished":
            return _say_over(game.result)
        labels = labels_of(self.identity)
        if wrong:
            taken = [labels[i] for i, c in enumerate(game.board) if c != " "]
            return _say_move(taken[0] if taken else 10)
        return _say_move(labels[best_x_move(game.board) - 1])  # the number this game shows on that cell


def _taken(board: str) -> int | None:
    """The number of the first occupied cell, if any."""
    return next((i + 1 for i, c in enumerate(board) if c in "XO"), None)


def _say_move(move: int) -> dict[str, Any]:
    return {"role": "assistant", "content": f"I play {move}.\n<move>{move}</move>"}


def _say_over(result: str) -> dict[str, Any]:
    return {"role": "assistant", "content": f"The game is over ({result})."}

"""The opponent's voice: replays X's moves so far, answers with O's move and the new board, ends the game."""
from __future__ import annotations

from typing import Any

from bc_common.bootcamp import Interaction, assistant_texts

from .game import labels_of, move_in, moves_in, render, replay, winning_line
from .puzzle import Puzzle, play
from .puzzle import render as render_puzzle
from .reward import is_puzzle


class TicTacToeInteraction(Interaction):
    """Stateless over the game: every turn replays all assistant moves (the verifier's rule), so the reply and
    the grade cannot disagree. Terminates on a win, a draw, a loss, the last allowed move, or an illegal or
    missing move."""

    name = "tictactoe_opponent"

    async def generate_response(self, instance_id: str, messages: list[dict[str, Any]],
                                **kwargs: Any) -> tuple[bool, str, float, dict[str, Any]]:
        state = self.state(instance_id)
        texts = assistant_texts(messages)
        if not texts or move_in(texts[-1]) == "":
            return self._end(state, "missing", "I could not find your move: reply with <move>N</move>, N the "
                                               "number of an empty cell. You lose this game.", None)
        if is_puzzle(state["identity"]):
            return self._puzzle_turn(state, moves_in(texts))
        game = replay(state["identity"], moves_in(texts))
        labels = labels_of(state["identity"])
        x = game.x_moves[-1]
        board = render(game.board, labels)
        if game.result == "illegal":
            why = "that cell is taken" if x in labels else "no cell shows that number"
            return self._end(state, "illegal", f"Illegal move ({why}). You lose this game.\n\n{board}", game)
        if game.result == "win":
            return self._end(state, "win", f"You played {x}: three in a row {_line(game.board, labels)}. You win!"
                                           f"\n\n{board}", game)
        opened = 1 if state["identity"].get("first") == "O" else 0
        o_reply = game.o_moves[-1] if len(game.o_moves) == len(game.x_moves) + opened else None
        said = f"You played {x}." + (f" I play {o_reply}." if o_reply else "")
        if game.result == "loss":
            return self._end(state, "loss", f"{said} Three in a row {_line(game.board, labels)}: I win.\n\n{board}",
                             game)
        if game.result == "draw":
            missed = "" if game.solved else " You had a forced win earlier and let it slip."
            return self._end(state, "draw", f"{said} The board is full: a draw.{missed}\n\n{board}", game)
        state["turn_scores"].append(0.0)
        return False, f"{said}\n\n{board}\n\nYour move: <move>N</move>.", 0.0, {"board": game.board}

    def _puzzle_turn(self, state: dict[str, Any], moves: list[int | None]) -> tuple[bool, str, float, dict]:
        puzzle = Puzzle.of(state["identity"])
        game = play(puzzle, moves)
        x = game.x_moves[-1]
        board = render_puzzle(game.board, puzzle.n)
        if game.result == "illegal":
            return self._end(state, "illegal", f"Illegal move {x} (not the number of an empty cell). You lose this "
                                               f"game.\n\n{board}", game)
        if game.result == "win":
            return self._end(state, "win", f"You played {x}: {puzzle.k} in a row. You win!\n\n{board}", game)
        if game.result == "out_of_moves":
            return self._end(state, "out_of_moves", f"You played {x}: that was your last move and no line of "
                                                    f"{puzzle.k} is complete. You lose this puzzle.\n\n{board}", game)
        said = f"You played {x}. I play {game.o_moves[-1]}."
        if game.result in ("lost", "draw"):
            end = f"{puzzle.k} in a row: I win." if game.result == "lost" else "The board is full: a draw."
            return self._end(state, game.result, f"{said} {end}\n\n{board}", game)
        left = puzzle.moves - len(game.x_moves)
        state["turn_scores"].append(0.0)
        return False, (f"{said}\n\n{board}\n\nYour move ({left} left to complete {puzzle.k} in a row): "
                       "<move>N</move>."), 0.0, {"board": game.board}

    def _end(self, state: dict[str, Any], result: str, text: str, game: Any) -> tuple[bool, str, float, dict]:
        score = 1.0 if game is not None and game.solved else 0.0  # the verifier's grade of the finished game
        state["turn_scores"].append(score)
        return True, text, score, {"result": result, "board": game.board if game else None}


def _line(board: str, labels: tuple[int, ...]) -> str:
    return "-".join(str(labels[cell - 1]) for cell in winning_line(board) or ())

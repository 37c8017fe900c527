"""Tic-tac-toe games against a seeded opponent of a given skill; the model plays X, either side may open."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bc_common.bootcamp import InstructionGenerator

from .game import ROW_BY_ROW, labels_of, opening_board, render

RULES = ("Reply with exactly one move per turn, written as <move>N</move> where N is the number of an empty "
         "cell. After each of your moves I answer with mine and the new board. Three in a row wins; you succeed "
         "if you win or draw. An occupied cell, a number outside 1-9 or a reply without a move loses at once.")

PROMPT_TEMPLATES = (
    "Let's play tic-tac-toe. You are X, I am O. {opening}\n\n{board}\n\n{rules}",
    "Tic-tac-toe: you play X against me (O). Every empty cell shows its number. {opening}\n\n{board}\n\n{rules}",
    "You are X in a game of tic-tac-toe against an opponent playing O. {opening}\n\nBoard:\n{board}\n\n{rules}",
)


@dataclass
class TicTacToeConfig:
    min_skill: float = 0.0  # probability that the opponent plays a minimax-optimal move
    max_skill: float = 1.0
    o_starts: float = 0.5  # probability that O opens (its first move is then in the prompt)
    # number the cells differently in every game (1-9 row by row when false): a move sequence played without
    # looking at the board then lands on different cells in every game
    shuffle_labels: bool = True

    def validate(self) -> None:
        if not 0.0 <= self.min_skill <= self.max_skill <= 1.0:
            raise ValueError("need 0 <= min_skill <= max_skill <= 1")
        if not 0.0 <= self.o_starts <= 1.0:
            raise ValueError("o_starts must be a probability in [0, 1]")


class TicTacToeInstructionGenerator(InstructionGenerator):
    """Identity: {seed, skill, first, labels}; the opponent's every move follows from it, and `labels` is the
    number each cell shows (absent: 1-9 row by row)."""

    Config = TicTacToeConfig

    def case_generator(self) -> dict[str, Any]:
        skill = round(self.rng.uniform(self.min_skill, self.max_skill), 2)
        first = "O" if self.rng.random() < self.o_starts else "X"
        identity: dict[str, Any] = {"seed": self.rng.getrandbits(32), "skill": skill, "first": first}
        if self.shuffle_labels:
            labels = list(ROW_BY_ROW)
            self.rng.shuffle(labels)
            identity["labels"] = labels
        return identity

    def prompt_func(self, identity: dict[str, Any]) -> str:
        board = opening_board(identity)
        labels = labels_of(identity)
        if "O" in board:
            opening = f"I opened by taking cell {labels[board.index('O')]}; your move."
        else:
            opening = "You move first."
        template = PROMPT_TEMPLATES[self.rng.randrange(len(PROMPT_TEMPLATES))]
        return template.format(opening=opening, board=render(board, labels), rules=RULES)

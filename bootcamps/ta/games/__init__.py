"""The adapted TextArena games, one module each; `GAMES` maps a ta/<name> to its declaration."""
from __future__ import annotations

from ..game import Game
from . import (
    countdown,
    fifteen_puzzle,
    frozen_lake,
    guess_the_number,
    lights_out,
    mastermind,
    nim,
    rush_hour,
    sokoban,
    sudoku,
    three_card_monte,
)

GAMES: dict[str, Game] = {g.name: g for g in (
    countdown.GAME, fifteen_puzzle.GAME, frozen_lake.GAME, guess_the_number.GAME, lights_out.GAME, mastermind.GAME, nim.GAME,
    rush_hour.GAME, sokoban.GAME, sudoku.GAME, three_card_monte.GAME)}


def class_name(name: str) -> str:
    """`guess_the_number` -> `GuessTheNumber`."""
    return "".join(part[:1].upper() + part[1:] for part in name.split("_"))

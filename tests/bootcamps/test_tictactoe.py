"""tictactoe's whole 3x3 games (the rows made before the puzzles, still graded; the game the seats play): the
seeded opponent, the replay rules, and the interaction and the verifier agreeing on every game, including
illegal, missing and post-game moves. The puzzles are in test_tictactoe_puzzles.py."""
from __future__ import annotations

import asyncio
import random
import time
from typing import Any

import pytest

from bc_common.bootcamp import assistant_texts
from bc_common.registry import get_bootcamp
from bootcamps.tictactoe.game import (
    EMPTY,
    best_x_move,
    legal_moves,
    move_in,
    moves_in,
    opponent_move,
    outcome_value,
    place,
    replay,
)

from .driver import play, rows_for

BC = get_bootcamp("tictactoe")
VERIFY = BC.reward.verify_score


def _ident(seed: int, skill: float = 0.5, first: str = "X") -> dict[str, Any]:
    return {"seed": seed, "skill": skill, "first": first}


def test_opponent_is_a_function_of_seed_ply_and_board_never_the_global_rng() -> None:
    board = place(EMPTY, 5, "X")
    random.seed(1)
    a = [opponent_move(board, s, 0.3) for s in range(200)]
    random.seed(2)
    b = [opponent_move(board, s, 0.3) for s in range(200)]
    assert a == b
    assert len(set(a)) == 8  # every free cell is chosen by some seed


def test_skill_one_plays_only_optimal_moves_and_skill_zero_varies() -> None:
    board = place(place(EMPTY, 1, "X"), 5, "O")
    board = place(board, 9, "X")  # O must not take a corner (X then forks)
    optimal = {m for m in legal_moves(board) if outcome_value(place(board, m, "O"), "X") == 0}
    assert {opponent_move(board, s, 1.0) for s in range(100)} <= optimal
    # every O move here makes a threat, so a weak opponent picks any of them, corners included
    assert {opponent_move(board, s, 0.0) for s in range(300)} == set(legal_moves(board))


def test_perfect_x_never_loses_and_draws_a_perfect_opponent() -> None:
    for seed in range(150):
        for first in ("X", "O"):
            for skill in (0.0, 0.6, 1.0):
                identity = _ident(seed, skill, first)
                moves: list[int] = []
                game = replay(identity, moves)
                while game.result == "unfinished":
                    moves.append(best_x_move(game.board))
                    game = replay(identity, moves)
                assert game.result in ("win", "draw"), identity
                if skill == 1.0:
                    assert game.result == "draw"


def test_replay_rules() -> None:
    identity = _ident(7, 0.0)
    game = replay(identity, [5])
    taken = game.o_moves[0]
    assert replay(identity, [5, 5]).result == "illegal"  # own cell
    assert replay(identity, [5, taken]).result == "illegal"  # O's cell
    for bad in (0, 10, None):
        assert replay(identity, [bad]).result == "illegal"
    assert replay(identity, []).result == "unfinished"
    moves: list[int] = []
    while replay(identity, moves).result == "unfinished":
        moves.append(best_x_move(replay(identity, moves).board))
    free = [i + 1 for i, c in enumerate(replay(identity, moves).board) if c == " "]
    if free:  # a move after the game ended spoils it
        assert replay(identity, [*moves, free[0]]).result == "illegal"


def test_move_parsing() -> None:
    assert move_in("I think <move>3</move>, no: <move> 7 </move>") == 7  # the last tag counts
    assert move_in("no tag here") == ""
    assert move_in("<move>five</move>") is None and move_in("<move>٣</move>") is None
    assert move_in("<move>123</move>") is None
    assert moves_in(["<move>1</move>", "thinking...", "", "<move>x</move>"]) == [1, None]


def test_verifier_grades_the_whole_game_from_assistant_texts_only() -> None:
    for row in rows_for("tictactoe", 12):
        identity = row["reward_model"]["ground_truth"]
        messages = play(BC, row)
        assert VERIFY(messages, identity) == 1.0
        assert VERIFY(assistant_texts(messages), identity) == 1.0
        assert VERIFY(assistant_texts(messages)[:-1], identity) == 0.0  # unfinished
        # environment text is never read: a user message full of moves changes nothing
        noisy = [m if m["role"] != "user" else {**m, "content": m["content"] + "<move>1</move><move>2</move>"}
                 for m in messages]
        assert VERIFY(noisy, identity) == 1.0
        assert VERIFY(play(BC, row, wrong=True), identity) == 0.0


def test_old_whole_game_rows_still_play_and_grade() -> None:
    """A row of a whole game (written before the puzzles) plays through the rollout loop: the reference never
    loses and scores 1.0."""
    for seed in range(6):
        identity = {"seed": seed, "skill": 0.5, "first": "XO"[seed % 2], "labels": [3, 1, 2, 9, 8, 7, 4, 5, 6]}
        row = rows_for("tictactoe", 1)[0]
        interaction = {**row["extra_info"]["interaction_kwargs"], "identity": identity}
        row = {**row, "reward_model": {"style": "rule", "ground_truth": identity},
               "extra_info": {**row["extra_info"], "interaction_kwargs": interaction}}
        messages = play(BC, row)
        assert VERIFY(messages, identity) == 1.0
        users = [m["content"] for m in messages[1:] if m["role"] == "user"]
        assert all("You played" in u and "---+---+---" in u for u in users)


def _episode(identity: dict[str, Any], chooser: Any) -> tuple[list[dict], list[tuple[bool, float, dict]]]:
    """Plays `chooser(turn, messages)` through the real interaction; returns messages and its answers."""
    interaction = BC.interaction_spec().instantiate()

    async def go() -> tuple[list[dict], list]:
        inst = await interaction.start_interaction(None, identity=identity)
        messages: list[dict] = [{"role": "user", "content": "prompt"}]
        answers = []
        try:
            for turn in range(8):
                messages.append({"role": "assistant", "content": chooser(turn, messages)})
                terminate, text, score, extra = await interaction.generate_response(inst, messages)
                answers.append((terminate, score, extra))
                if terminate:
                    break
                messages.append({"role": "user", "content": text})
        finally:
            await interaction.finalize_interaction(inst)
        return messages, answers

    return asyncio.run(go())


@pytest.mark.parametrize("seed", range(60))
def test_interaction_and_verifier_agree_on_random_play(seed: int) -> None:
    """Random X play with occasional junk: the interaction's final result and the verifier's score match."""
    rng = random.Random(seed)
    identity = _ident(seed, rng.choice([0.0, 0.5, 1.0]), rng.choice("XO"))

    def chooser(turn: int, messages: list[dict]) -> str:
        roll = rng.random()
        if roll < 0.05:
            return "I resign."
        if roll < 0.1:
            return f"<move>{rng.choice(['0', '10', 'x', ''])}</move>"
        if roll < 0.15:
            return f"<move>{rng.randint(1, 9)}</move>"  # maybe taken
        game = replay(identity, moves_in(assistant_texts(messages)))
        return f"<move>{rng.choice(legal_moves(game.board) or [1])}</move>"

    messages, answers = _episode(identity, chooser)
    terminate, turn_score, extra = answers[-1]
    assert terminate
    assert all(not t and s == 0.0 for t, s, _ in answers[:-1])
    game = replay(identity, moves_in(assistant_texts(messages)))
    expected = 1.0 if extra["result"] == "win" or (extra["result"] == "draw" and game.best_value <= 0) else 0.0
    assert VERIFY(messages, identity) == expected
    assert turn_score == expected


def test_trajectory_shows_the_environment_replies() -> None:
    row = rows_for("tictactoe", 1)[0]
    messages = play(BC, row)
    users = [m["content"] for m in messages[1:] if m["role"] == "user"]
    assert users and all("You played" in u and "I play" in u and "left to complete" in u for u in users)


def test_hostile_text_is_fast() -> None:
    identity = _ident(1)
    texts = ["<move>" * 200_000, "<move>" + " " * 500_000, "</move><move>1" * 100_000]
    start = time.perf_counter()
    for text in texts:
        assert VERIFY(text, identity) == 0.0
        assert VERIFY([text] * 3, identity) == 0.0
    assert time.perf_counter() - start < 2.0


def test_a_draw_that_lets_a_forced_win_slip_scores_zero() -> None:
    """A random opponent hands X forced wins; drawing such a game is not the best result and scores 0, and the
    environment says so. Drawing a game in which X never had a forced win still scores 1.0."""
    slipped = kept = 0
    for seed in range(400):
        identity = _ident(seed, 0.0, "O")
        rng = random.Random(seed)
        moves: list[int] = []
        game = replay(identity, moves)
        while game.result == "unfinished":
            moves.append(rng.choice(legal_moves(game.board)))
            game = replay(identity, moves)
        if game.result != "draw":
            continue
        texts = [f"<move>{m}</move>" for m in moves]
        if game.best_value > 0:
            slipped += 1
            assert VERIFY(texts, identity) == 0.0
            _, answers = _episode(identity, lambda turn, messages, texts=texts: texts[turn])
            assert answers[-1][1] == 0.0
        else:
            kept += 1
            assert VERIFY(texts, identity) == 1.0
    assert slipped >= 3 and kept >= 3

"""tictactoe cannot be won blind: a fixed move sequence that never looks at the board scores 1.0 on at most 5% of
the tasks of every difficulty group (issue 9: `1,3,2` scored 1.0 on 152 of 500 whole games). The puzzles start
from a different position every time; the whole games of older rows number their cells anew and their opponent
never misses a one-move win or block."""
from __future__ import annotations

import pytest

from bc_common.registry import get_bootcamp
from bc_common.tasks import TaskSet
from bootcamps.tictactoe.game import (
    EMPTY,
    legal_moves,
    opponent_move,
    place,
    render,
    replay,
    winner,
)

VERIFY = get_bootcamp("tictactoe").reward.verify_score
TASKS_PER_GROUP = 40  # puzzles take 0.1-0.7 s each to find
BLIND = [
    (1, 3, 2),  # the sequence
    (1, 3, 2, 4, 5, 6, 7, 8, 9),
    (1, 2, 3, 4, 5, 6, 7, 8, 9),
    (9, 8, 7, 6, 5, 4, 3, 2, 1),
    (5, 1, 9, 3, 7, 2, 4, 6, 8),
    (5, 2, 8, 4, 6, 1, 3, 7, 9),
    # the best blind sequences against the old whole games (found by a search script since removed)
    (9, 3, 6, 1, 2, 4, 5, 7, 8), (3, 1, 2, 4, 5, 6, 7, 8, 9), (5, 6, 7, 2, 9, 1, 3, 4, 8), (5, 2, 6, 7, 9),
]


def blind_texts(identity: dict, sequence: tuple[int, ...]) -> list[str]:
    """What a blind policy says: one move a turn, in its fixed order, until the game is over."""
    moves: list[int] = []
    for number in sequence:
        moves.append(number)
        if VERIFY([f"<move>{m}</move>" for m in moves], identity) == 1.0 or len(moves) >= identity["moves"]:
            break
    return [f"I play {number}.\n<move>{number}</move>" for number in moves]


@pytest.mark.parametrize("group", ["easy", "medium", "hard"])
def test_no_blind_sequence_scores_on_more_than_5_percent_of_a_group(group: str) -> None:
    tasks = TaskSet("tictactoe", seed=3, split="blind", groups=[group])
    identities = [tasks.identity(i) for i in range(TASKS_PER_GROUP)]
    shares = {}
    for sequence in BLIND:
        solved = sum(VERIFY(blind_texts(identity, sequence), identity) == 1.0 for identity in identities)
        shares[sequence] = solved / TASKS_PER_GROUP
    worst = max(shares, key=shares.get)
    assert shares[worst] <= 0.05, f"{group}: blind {worst} scores 1.0 on {shares[worst]:.1%} of the tasks"


def test_games_without_labels_keep_the_row_by_row_numbering() -> None:
    old_row = {"seed": 7, "skill": 1.0, "first": "X"}  # a task written before labels existed
    game = replay(old_row, [5])
    assert game.board[4] == "X" and game.x_moves == [5]
    assert " 1 | 2 | 3" in render(EMPTY) and " 7 | 8 | 9" in render(EMPTY)


def test_bad_labels_score_zero_instead_of_crashing() -> None:
    for labels in ([1, 1, 2, 3, 4, 5, 6, 7, 8], [0, 1, 2, 3, 4, 5, 6, 7, 8], "123456789", [1, 2, 3]):
        identity = {"seed": 1, "skill": 0.5, "first": "X", "labels": labels}
        assert VERIFY(["<move>5</move>"], identity) == 0.0


@pytest.mark.parametrize("skill", [0.0, 0.5, 1.0])
def test_the_opponent_never_misses_a_win_or_a_block(skill: float) -> None:
    boards = [EMPTY]
    seen = 0
    while boards:  # every position reachable with X to have just moved (O to play)
        board = boards.pop()
        for x in legal_moves(board):
            after = place(board, x, "X")
            if winner(after) or " " not in after:
                continue
            wins = [m for m in legal_moves(after) if winner(place(after, m, "O"))]
            blocks = [m for m in legal_moves(after) if winner(place(after, m, "X"))]
            for seed in range(3):
                move = opponent_move(after, seed, skill)
                if wins:
                    assert move in wins, (after, move)
                elif blocks:
                    assert move in blocks, (after, move)
                seen += 1
            reply = place(after, opponent_move(after, 0, skill), "O")
            if not winner(reply) and " " in reply and reply.count("X") < 3:
                boards.append(reply)
    assert seen > 500


def test_bad_labels_are_named_when_the_task_is_read() -> None:
    from bc_common.errors import InputError
    from bc_common.identity import validate_identity

    with pytest.raises(InputError, match="labels"):
        validate_identity(get_bootcamp("tictactoe").reward, {"seed": 1, "skill": 0.5, "first": "X",
                                                             "labels": [1, 1, 2, 3, 4, 5, 6, 7, 8]}, "t.jsonl", 3)

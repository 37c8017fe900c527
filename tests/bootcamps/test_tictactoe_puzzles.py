"""tictactoe's k-in-a-row puzzles: the forced win the reference plays, the defender, the grading, and the lazy
rules (issue 23: "take a win, else block, else the centre" scored 0.92-0.95 on the old whole games) scoring 0."""
from __future__ import annotations

import asyncio
import random
import time
from typing import Any

import orjson
import pytest

from bc_common.bootcamp import assistant_texts
from bc_common.builtin_model import baseline_trajectory, reference_trajectory
from bc_common.environment import Environments
from bc_common.errors import InputError
from bc_common.identity import validate_identity
from bc_common.registry import get_bootcamp
from bc_common.tasks import TaskSet
from bootcamps.tictactoe.heuristics import FILTERED, RULES, success_chance
from bootcamps.tictactoe.puzzle import (
    Puzzle,
    defender_move,
    forced_win,
    play,
    shortest_win,
    to_masks,
    wins_mask,
)

BC = get_bootcamp("tictactoe")
VERIFY = BC.reward.verify_score
ENV = Environments().get("bootcamp/tictactoe")
GROUPS = ("easy", "medium", "hard")

# an easy puzzle (TaskSet seed 5): X to move on 5x5, four in a row, wins in 3 starting at 7
#  X  2  3  O  5
#  6  7  8  9 10
# 11 12 13  O 15
# 16 17 18  X  X
# 21  X  O  O 25
HAND = {"n": 5, "k": 4, "moves": 3, "seed": 1935799730, "board": "X..O.........O....XX.XOO."}


def _identities(group: str, n: int, seed: int = 5) -> list[dict[str, Any]]:
    tasks = TaskSet("tictactoe", seed=seed, split="puzzles", groups=[group])
    return [tasks.identity(i) for i in range(n)]


@pytest.fixture(scope="module")
def puzzles() -> dict[str, list[dict[str, Any]]]:
    return {group: _identities(group, 12) for group in GROUPS}


def _texts(moves: list[int]) -> list[str]:
    return [f"I play {m}.\n<move>{m}</move>" for m in moves]


def test_every_puzzle_has_its_win_in_exactly_the_stated_moves_and_no_lazy_rule_wins_it(puzzles: dict) -> None:
    for group, identities in puzzles.items():
        for identity in identities:
            p = Puzzle.of(identity)
            x, o = to_masks(p.board)
            assert x.bit_count() == o.bit_count(), "X to move: both sides have played as often"
            assert shortest_win(x, o, p.n, p.k, p.moves)[0] == p.moves, (group, identity)
            for rule in FILTERED:
                assert success_chance(rule, p.n, p.k, p.moves, p.seed, x, o) == 0.0, (group, rule, identity)


def test_groups_grow_in_board_line_and_moves(puzzles: dict) -> None:
    sizes = [(puzzles[g][0]["n"], puzzles[g][0]["k"], puzzles[g][0]["moves"]) for g in GROUPS]
    assert sizes == [(5, 4, 3), (6, 4, 3), (7, 5, 4)]


def test_same_seed_same_puzzle_bytes() -> None:
    a = TaskSet("tictactoe", seed=9, split="train", groups=["easy"])
    b = TaskSet("tictactoe", seed=9, split="train", groups=["easy"])
    assert [orjson.dumps(a[i]) for i in range(3)] == [orjson.dumps(b[i]) for i in range(3)]
    assert a.identity(0) != a.identity(1)


def test_reference_wins_every_puzzle_through_the_rollout_loop_and_wrong_play_scores_zero(puzzles: dict) -> None:
    tasks = {g: TaskSet("tictactoe", seed=5, split="puzzles", groups=[g]) for g in GROUPS}

    async def run() -> None:
        for group, taskset in tasks.items():
            for i in range(6):
                row = taskset[i]
                good = await reference_trajectory(row, ENV)
                assert good["score"] == 1.0 and good["status"] == "completed", group
                assert good["num_turns"]["assistant"] == row["reward_model"]["ground_truth"]["moves"] or \
                    good["num_turns"]["assistant"] < row["reward_model"]["ground_truth"]["moves"]
                bad = await reference_trajectory(row, ENV, wrong=True)
                assert bad["score"] == 0.0

    asyncio.run(run())


@pytest.mark.parametrize("name", ["win_block_centre", "win_block_fork", "greedy_threat", "random", "first_free"])
def test_every_lazy_rule_scores_at_most_5_percent_in_every_group(name: str) -> None:
    """The closed cheats: win/block/centre (0.92-0.95 on the old whole games), Newell and Simon's
    win/block/fork/centre, the most-threats greedy, random and lowest-number play, through bc-eval's loop."""
    n = 15
    for group in GROUPS:
        tasks = TaskSet("tictactoe", seed=21, split="baseline", groups=[group])

        async def scores(tasks: TaskSet = tasks) -> list[float]:
            return [(await baseline_trajectory(tasks[i], ENV, name, sample=s))["score"]
                    for i in range(n) for s in range(2)]

        solved = sum(s >= 1.0 for s in asyncio.run(scores()))
        assert solved / (2 * n) <= 0.05, f"{name} solves {solved} of {2 * n} {group} puzzles"


def test_forced_win_and_the_defender_on_a_hand_made_position() -> None:
    p = Puzzle.of(HAND)
    x, o = to_masks(p.board)
    assert forced_win(x, o, 5, 4, 2) is None  # no double threat yet
    first = forced_win(x, o, 5, 4, 3)
    assert first == 6
    # the defender takes a win, else blocks X's
    after = x | 1 << first
    threat = wins_mask(after, o, 5, 4)
    assert threat and defender_move(after, o, 5, 4, 1) in [c for c in range(25) if threat >> c & 1]
    win_for_o = (1 << 5) | (1 << 11) | (1 << 17)  # three of O's on the diagonal 6, 12, 18 -> 24 wins
    assert defender_move(0b1, win_for_o, 5, 4, 1) == 23


def test_grading_rules() -> None:
    p = Puzzle.of(HAND)
    x, o = to_masks(p.board)
    moves: list[int] = []
    while play(p, moves).result == "unfinished":
        bx, bo = to_masks(play(p, moves).board)
        moves.append(forced_win(bx, bo, 5, 4, p.moves - len(moves)) + 1)
    assert play(p, moves).result == "win" and VERIFY(_texts(moves), HAND) == 1.0
    assert VERIFY(_texts(moves[:-1]), HAND) == 0.0  # unfinished
    free = [i + 1 for i, c in enumerate(play(p, moves).board) if c == "."]
    assert VERIFY(_texts([*moves, free[0]]), HAND) == 0.0  # a move after the game ended
    assert VERIFY(_texts([6]), HAND) == 0.0  # O's cell
    for bad in ("0", "26", "x"):
        assert VERIFY([f"<move>{bad}</move>"], HAND) == 0.0
    slow = [c + 1 for c in range(25) if p.board[c] == "." and c + 1 not in moves][:3]
    assert play(p, slow).result in ("out_of_moves", "lost")
    assert VERIFY(_texts(slow), HAND) == 0.0


@pytest.mark.parametrize("seed", range(30))
def test_interaction_and_verifier_agree_on_random_play(seed: int, puzzles: dict) -> None:
    rng = random.Random(seed)
    identity = puzzles[GROUPS[seed % 3]][seed % 12]
    interaction = BC.interaction_spec().instantiate()
    size = identity["n"] ** 2

    async def go() -> tuple[list[dict], tuple]:
        inst = await interaction.start_interaction(None, identity=identity)
        messages: list[dict] = [{"role": "user", "content": "prompt"}]
        last: tuple = ()
        try:
            for _ in range(8):
                roll = rng.random()
                if roll < 0.05:
                    text = "I resign."
                elif roll < 0.1:
                    text = f"<move>{rng.choice(['0', str(size + 1), 'x'])}</move>"
                else:
                    game = play(Puzzle.of(identity), [m for m in (_move(t) for t in assistant_texts(messages)) if m])
                    text = f"<move>{rng.choice([i + 1 for i, c in enumerate(game.board) if c == '.'])}</move>"
                messages.append({"role": "assistant", "content": text})
                last = await interaction.generate_response(inst, messages)
                if last[0]:
                    break
                messages.append({"role": "user", "content": last[1]})
        finally:
            await interaction.finalize_interaction(inst)
        return messages, last

    messages, (terminate, text, turn_score, extra) = asyncio.run(go())
    if terminate:
        assert turn_score == VERIFY(messages, identity)
        assert (extra["result"] == "win") == (turn_score == 1.0)


def _move(text: str) -> int | None:
    from bootcamps.tictactoe.game import move_in

    move = move_in(text)
    return move if isinstance(move, int) else None


def test_hostile_text_is_fast() -> None:
    texts = ["<move>" * 200_000, "<move>" + " " * 500_000, "</move><move>1" * 100_000]
    start = time.perf_counter()
    for text in texts:
        assert VERIFY(text, HAND) == 0.0
        assert VERIFY([text] * 3, HAND) == 0.0
    assert time.perf_counter() - start < 2.0


@pytest.mark.parametrize("identity, key", [
    ({**HAND, "board": "X" * 24}, "board"),
    ({**HAND, "n": 12}, "n, k"),
    ({**HAND, "moves": 0}, "moves"),
    ({key: value for key, value in HAND.items() if key != "k"}, "k"),
])
def test_bad_puzzle_identities_are_named_when_the_task_is_read(identity: dict, key: str) -> None:
    with pytest.raises(InputError, match=key):
        validate_identity(BC.reward, identity, "t.jsonl", 3)
    assert VERIFY(["<move>5</move>"], identity) == 0.0


def test_rules_choose_among_empty_cells_only(puzzles: dict) -> None:
    for identity in puzzles["easy"]:
        x, o = to_masks(identity["board"])
        for rule in RULES.values():
            cells = rule(x, o, 5, 4)
            assert cells and all(not (x | o) >> c & 1 for c in cells)

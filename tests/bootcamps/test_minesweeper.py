"""minesweeper beyond the conformance suite: the solver never claims what it cannot prove, boards need no guess,
the tool and the verifier's replay agree move for move, and the cheats (a claimed win, moves written as text,
revealing everything, forged tool output, another board's moves) earn nothing."""
from __future__ import annotations

import asyncio
import random
from typing import Any

import orjson
import pytest
from jsonschema import Draft202012Validator

from bc_common.bootcamp import tool_call
from bc_common.seeding import RecordRandom
from bc_common.tool_runtime import ToolRuntime
from bootcamps.minesweeper.board import Board, neighbours, parse_board, replay
from bootcamps.minesweeper.generator import MinesweeperInstructionGenerator
from bootcamps.minesweeper.policy import MinesweeperPolicy
from bootcamps.minesweeper.reward import MinesweeperRewardCalculator, reveal_moves
from bootcamps.minesweeper.solver import deduce, solve
from bootcamps.minesweeper.tools import FlagTool, RevealTool

from .puzzle_helpers import policy_scores

VERIFY = MinesweeperRewardCalculator.verify_score
SMALL = {"rows": 7, "cols": 7, "mines": 7}  # the easy group


def _task(seed: int, **config: Any) -> dict:
    gen = MinesweeperInstructionGenerator(**(config or SMALL))
    gen.rng = RecordRandom(seed)
    return gen.case_generator()


def _runtime() -> ToolRuntime:
    return ToolRuntime({c.tool_schema["function"]["name"]: c(tool_schema=c.tool_schema) for c in (RevealTool, FlagTool)})


async def _episode(identity: dict, respond, max_turns: int = 60) -> list[dict]:
    """Plays `respond(messages)` through the real tool runtime, as the rollout loop does."""
    session = _runtime().session({"reveal": {"identity": identity}, "flag": {"identity": identity}})
    messages = [{"role": "user", "content": "play"}]
    try:
        for _ in range(max_turns):
            msg = respond(messages)
            messages.append(msg)
            if not msg.get("tool_calls"):
                break
            for call in msg["tool_calls"]:
                result = await session.call(call["function"]["name"], call["function"]["arguments"])
                messages.append({"role": "tool", "tool_call_id": call["id"], "content": result.text})
    finally:
        await session.close()
    return messages


def _reference(identity: dict, wrong: bool = False) -> list[dict]:
    policy = MinesweeperPolicy(identity, tools=["reveal", "flag"])
    return asyncio.run(_episode(identity, lambda m: policy.respond(m, wrong=wrong)))


def _moves(cells: list[tuple[int, int]], name: str = "reveal") -> dict:
    return {"role": "assistant", "content": "",
            "tool_calls": [tool_call(f"c{i}", name, {"row": r, "col": c}) for i, (r, c) in enumerate(cells)]}


def test_solver_never_calls_a_mine_safe_or_a_safe_cell_a_mine() -> None:
    rng = random.Random(4)
    for _ in range(300):
        rows, cols = rng.randint(4, 9), rng.randint(4, 9)
        cells = [(r, c) for r in range(1, rows + 1) for c in range(1, cols + 1)]
        mines = set(rng.sample(cells, rng.randint(1, len(cells) // 4)))
        board = Board(rows, cols, set(mines))
        for cell in rng.sample([c for c in cells if c not in mines], rng.randint(1, 6)):
            board.reveal(*cell)  # a random partial view, cascades included
            if board.result != "playing":
                break
        proof = deduce(rows, cols, board.visible(), len(mines))
        assert not proof.safe & mines
        assert proof.mines <= mines


def test_generated_boards_open_at_the_start_and_clear_by_logic_alone() -> None:
    for seed in range(40):
        identity = _task(seed, rows=9, cols=9, mines=10)
        start = tuple(identity["start"])
        mines = {tuple(m) for m in identity["mines"]}
        assert len(mines) == 10 and not ({start, *neighbours(9, 9, start)} & mines)
        plan = solve(identity)
        assert plan.cleared and plan.rounds[0] == [start]
    assert _task(3) == _task(3)
    with pytest.raises(Exception, match="mines"):
        MinesweeperInstructionGenerator(rows=5, cols=5, mines=12)


def test_the_first_reveal_is_always_safe_and_tool_and_replay_agree_on_it() -> None:
    identity = _task(1)
    mine = tuple(identity["mines"][0])
    board = Board.of(identity)
    assert board.reveal(*mine) == "opened" and board.result != "lost"
    assert mine not in board.mines and len(board.mines) == len(identity["mines"])
    messages = asyncio.run(_episode(identity, lambda m: _moves([mine]) if len(m) == 1 else {"role": "assistant",
                                                                                          "content": "done"}))
    assert "was a mine" not in messages[2]["content"]
    assert replay(identity, [mine]).board.revealed == board.revealed


def test_tool_and_verifier_agree_on_random_play() -> None:
    rng = random.Random(9)
    for seed in range(40):
        identity = _task(seed)
        moves = [(rng.randint(0, 7), rng.randint(0, 7)) for _ in range(rng.randint(1, 40))]  # some off the board
        messages = asyncio.run(_episode(identity, lambda m, moves=moves: _moves(moves) if len(m) == 1 else
                                        {"role": "assistant", "content": "done"}))
        tool_texts = [m["content"] for m in messages if m["role"] == "tool"]
        won = any("you win!" in t for t in tool_texts)
        lost = any("Game over: you lose." in t for t in tool_texts)
        assert VERIFY(messages, identity) == (1.0 if won else 0.0)
        assert replay(identity, moves).board.result == ("won" if won else "lost" if lost else "playing")


def test_reference_clears_every_board_through_the_tools_and_shows_the_board() -> None:
    for seed in range(20):
        identity = _task(seed, rows=9, cols=9, mines=10)
        messages = _reference(identity)
        assert VERIFY(messages, identity) == 1.0
        boards = [parse_board(m["content"]) for m in messages if m["role"] == "tool"]
        assert boards and all(b is not None and b[:2] == (9, 9) for b in boards)
        assert "tool_calls" not in messages[-1]  # it closes the game with a message
        assert VERIFY(_reference(identity, wrong=True), identity) == 0.0


def test_a_claimed_win_or_moves_written_as_text_earn_nothing() -> None:
    identity = _task(2)
    right = _reference(identity)
    assert VERIFY("I cleared the board! you win!", identity) == 0.0
    as_text = [{"role": "assistant", "content": m["content"]} for m in right if m["role"] == "assistant"]
    assert as_text[0]["content"].startswith("Revealing")  # the moves are in the text, but not as calls
    assert VERIFY(as_text, identity) == 0.0
    assert VERIFY([m["content"] for m in as_text], identity) == 0.0


def test_forged_tool_output_does_not_matter_only_the_moves_do() -> None:
    identity = _task(3)
    forged = [{"role": "user", "content": "play"}, _moves([tuple(identity["start"])]),
              {"role": "tool", "tool_call_id": "c0", "content": "Every safe cell is revealed: you win!"},
              {"role": "assistant", "content": "Won."}]
    assert VERIFY(forged, identity) == 0.0
    right = _reference(identity)
    stripped = [m for m in right if m["role"] != "tool"]
    assert VERIFY(stripped, identity) == 1.0  # the same moves, without the tool's text


def test_revealing_everything_hits_a_mine() -> None:
    for seed in range(10):
        identity = _task(seed)
        everything = [(r, c) for r in range(1, 8) for c in range(1, 8)]
        assert VERIFY([_moves(everything)], identity) == 0.0


def test_moves_after_a_loss_do_not_count() -> None:
    identity = _task(4)
    right = _reference(identity)
    moves = reveal_moves(right)
    mine = tuple(identity["mines"][0])
    assert VERIFY([_moves([moves[0], mine] + moves[1:])], identity) == 0.0
    assert VERIFY([_moves(moves)], identity) == 1.0


def test_malformed_calls_are_skipped_as_the_tool_refuses_them() -> None:
    identity = _task(5)
    moves = reveal_moves(_reference(identity))
    calls = [tool_call("a", "reveal", {"row": "1", "col": 1}),
             tool_call("b", "reveal", {"row": 1, "col": 1, "force": True}),
             tool_call("c", "reveal", {"row": True, "col": 1}),
             {"id": "d", "type": "function", "function": {"name": "reveal", "arguments": "{not json"}},
             tool_call("e", "flag", {"row": 1, "col": 1}),
             tool_call("f", "reveal", {"row": 99, "col": 1})]
    calls += [tool_call(f"m{i}", "reveal", {"row": float(r), "col": c}) for i, (r, c) in enumerate(moves)]
    message = {"role": "assistant", "content": "", "tool_calls": calls}
    assert reveal_moves([message])[0] == (99, 1)
    assert VERIFY([message], identity) == 1.0

    async def refused() -> list:
        session = _runtime().session({"reveal": {"identity": identity}})
        try:
            return [await session.call("reveal", c["function"]["arguments"]) for c in calls[:4]]
        finally:
            await session.close()

    assert all(r.error and r.error["type"] == "invalid_arguments" for r in asyncio.run(refused()))


def test_one_boards_moves_rarely_clear_another() -> None:
    tasks = [_task(s) for s in range(40)]
    answers = [[m for m in _reference(t) if m["role"] == "assistant"] for t in tasks]
    hits = sum(VERIFY(answers[i], tasks[j]) == 1.0 for i in range(40) for j in range(40) if i != j)
    assert hits <= 0.02 * 40 * 39


def test_identity_survives_json() -> None:
    identity = _task(6)
    messages = _reference(identity)
    assert VERIFY(orjson.loads(orjson.dumps(messages)), orjson.loads(orjson.dumps(identity))) == 1.0


def test_flags_are_notes_that_change_nothing() -> None:
    identity = _task(7)
    mine = tuple(identity["mines"][0])

    async def go() -> list:
        session = _runtime().session({"reveal": {"identity": identity}, "flag": {"identity": identity}})
        try:
            return [await session.call("flag", {"row": mine[0], "col": mine[1]}),
                    await session.call("flag", {"row": 1, "col": 1}),
                    await session.call("flag", {"row": 1, "col": 1}),
                    await session.call("flag", {"row": 0, "col": 1})]
        finally:
            await session.close()

    placed, other, removed, off = asyncio.run(go())
    assert placed.text.startswith(f"Flag placed on {mine}") and placed.reward == 0.0
    assert "(2 of 7 mines)" in other.text and "Flag removed" in removed.text and "(1 of 7 mines)" in removed.text
    assert off.error["type"] == "out_of_bounds"
    flagged = [_moves([tuple(identity["start"])]), _moves([mine], name="flag")]
    assert VERIFY(flagged, identity) == 0.0  # flagging the mines is not clearing the board


def test_tool_results_after_the_game_are_not_errors() -> None:
    identity = _task(8)
    moves = reveal_moves(_reference(identity))
    messages = asyncio.run(_episode(identity, lambda m: _moves(moves + moves[:1]) if len(m) == 1 else
                                    {"role": "assistant", "content": "done"}))
    assert "already over (you won)" in messages[-2]["content"]
    assert not messages[-2]["content"].startswith("Error")


def test_generated_identities_match_the_identity_schema() -> None:
    validator = Draft202012Validator(MinesweeperRewardCalculator.identity_schema)
    for seed in range(20):
        assert not list(validator.iter_errors(_task(seed)))
    assert list(validator.iter_errors({"rows": 9, "cols": 9, "mines": [[1]], "start": [1, 1]}))


@pytest.mark.parametrize("group", ["easy", "medium"])
@pytest.mark.parametrize("baseline", ["random", "reading_order", "corners", "start_only"])
def test_the_cheap_ways_to_play_earn_almost_nothing(baseline, group):
    scores = policy_scores("minesweeper", f"builtin:baseline/{baseline}", group=group, n=30)
    assert sum(scores) <= 1, scores


def test_noisy_play_loses_more_on_bigger_boards():
    easy = policy_scores("minesweeper", "builtin:noisy", group="easy", n=30)
    hard = policy_scores("minesweeper", "builtin:noisy", group="hard", n=30)
    assert sum(hard) < sum(easy) < 0.6 * len(easy)

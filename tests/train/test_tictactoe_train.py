"""A tic-tac-toe game through our verl agent loop on CPU: the environment answers every move, and the reward
grades every assistant turn (`grades = "all"`). Only the LLM server is scripted (see test_agent_loop.py)."""
from __future__ import annotations

from typing import Any

import orjson
import pytest

pytest.importorskip("verl")

from omegaconf import OmegaConf  # noqa: E402
from verl.utils.dataset.rl_dataset import RLHFDataset  # noqa: E402

from bc_common.registry import get_bootcamp  # noqa: E402
from bc_common.tasks import RowSpec, TaskFactory  # noqa: E402
from bc_train.check import compose as _compose  # noqa: E402
from bc_train.emit import emit_run  # noqa: E402
from bc_train.reward import REWARD_KEYS, compute_score  # noqa: E402
from bc_train.tokenizer import build_offline_tokenizer  # noqa: E402
from bc_train.verl_config import TrainOptions  # noqa: E402
from bootcamps.tictactoe.puzzle import Puzzle, forced_win, play, to_masks  # noqa: E402

from .conftest import task_row, write_jsonl  # noqa: E402
from .test_agent_loop import ScriptedServer, _run  # noqa: E402

DS = "bootcamp/tictactoe"


def tictactoe_rows(n: int = 12) -> list[dict[str, Any]]:
    bc = get_bootcamp("tictactoe")
    cls = bc.generator
    spec = RowSpec(bootcamp=bc.name, generator_class=f"{cls.__module__}.{cls.__qualname__}", params={},
                   split="train", base_seed=3, interaction=bc.interaction_spec())
    factory = TaskFactory(spec)
    return [orjson.loads(factory.row(i)[1]) for i in range(n)]


def perfect_moves(identity: dict[str, Any]) -> tuple[list[int], str]:
    """X's moves of the reference game (the puzzle's forced win against the identity's defender) and its result."""
    puzzle = Puzzle.of(identity)
    moves: list[int] = []
    game = play(puzzle, moves)
    while game.result == "unfinished":
        x, o = to_masks(game.board)
        moves.append(forced_win(x, o, puzzle.n, puzzle.k, puzzle.moves - len(moves)) + 1)  # numbered from 1
        game = play(puzzle, moves)
    return moves, game.result


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A mixed run (arithmetic has a tool, tictactoe has none) and its dataset items by data source."""
    tmp = tmp_path_factory.mktemp("ttt")
    rows = [task_row(0), *tictactoe_rows()]
    tasks = str(write_jsonl(tmp / "tasks.jsonl", rows))
    emit_run([tasks], tmp / "run", TrainOptions(max_assistant_turns=6), val_file=tasks)
    cfg = _compose(tmp / "run", [])
    OmegaConf.resolve(cfg)
    tokenizer = build_offline_tokenizer(tmp / "tok")
    dataset = RLHFDataset(data_files=[str(tmp / "run" / "train.parquet")], tokenizer=tokenizer,
                          config=cfg.data, processor=None)
    items = [dataset[i] for i in range(len(dataset))]
    return {"cfg": cfg, "tokenizer": tokenizer, "dir": tmp / "run", "items": items}


def _item(run: dict[str, Any], index: int = 0) -> dict[str, Any]:
    return [item for item in run["items"] if item["data_source"] == DS][index]


def _score(run: dict[str, Any], item: dict[str, Any], out: Any, **drop: bool) -> dict[str, float]:
    extra = {**item["extra_info"], **out.extra_fields, "num_turns": out.num_turns}
    for key in drop:
        extra.pop(key, None)
    solution = run["tokenizer"].decode(out.response_ids, skip_special_tokens=True)
    return compute_score(item["data_source"], solution, item["reward_model"]["ground_truth"], extra)


@pytest.mark.parametrize("index", [0, 1])
def test_reference_game_through_the_loop_scores_one(run: dict[str, Any], index: int) -> None:
    item = _item(run, index)
    identity = orjson.loads(item["reward_model"]["ground_truth"])
    moves, result = perfect_moves(identity)
    assert result == "win"
    assert list(item["extra_info"]["tool_selection"]) == []  # the arithmetic row's tool is not offered here
    turns = [f"I play {m}.\n<move>{m}</move>" for m in moves]
    server = ScriptedServer(run["tokenizer"], turns)
    out, _ = _run(run, server, {}, item)

    assert server.turns == []  # the environment asked for every move and ended the game itself
    assert out.extra_fields["bc_assistant_texts"] == turns
    assert out.extra_fields["bc_final_text"] == turns[-1]
    assert out.extra_fields["bc_stop_reason"] == "completed"
    assert out.extra_fields["turn_scores"] == [0.0] * (len(moves) - 1) + [1.0]
    # each prompt after the first carries the opponent's reply and the new board; none of it is trained on
    for k in range(1, len(moves)):
        assert f"You played {moves[k - 1]}." in run["tokenizer"].decode(server.prompts[k])
    trained = run["tokenizer"].decode([t for t, m in zip(out.response_ids, out.response_mask, strict=True) if m])
    assert "You played" not in trained and all(t in trained for t in turns)

    score = _score(run, item, out)
    assert set(score) == set(REWARD_KEYS)
    assert score["acc"] == 1.0 and score["graded_final_turn"] == 1.0
    # the last move alone is not the answer: the verifier needs the whole game
    verifier = get_bootcamp(DS).reward
    assert verifier.verify_score(turns[-1], identity) == 0.0
    # another loop's rollout (no recorded texts): the decoded response is cut into its assistant turns
    fallback = _score(run, item, out, bc_assistant_texts=True, bc_assistant_messages=True, bc_final_text=True)
    assert fallback["acc"] == 1.0 and fallback["graded_final_turn"] == 0.0


def test_illegal_move_ends_the_game_and_scores_zero(run: dict[str, Any]) -> None:
    item = _item(run)
    identity = orjson.loads(item["reward_model"]["ground_truth"])
    moves, _ = perfect_moves(identity)
    turns = [f"<move>{moves[0]}</move>", f"<move>{moves[0]}</move>", f"<move>{moves[1]}</move>"]
    server = ScriptedServer(run["tokenizer"], turns)
    out, _ = _run(run, server, {}, item)
    assert server.turns == turns[2:]  # the taken cell ended the game: no third model turn
    assert out.extra_fields["turn_scores"] == [0.0, 0.0]
    assert out.extra_fields["bc_assistant_texts"] == turns[:2]
    assert _score(run, item, out)["acc"] == 0.0


def test_unfinished_game_scores_zero_and_keys_match_other_bootcamps(run: dict[str, Any]) -> None:
    item = _item(run)
    identity = orjson.loads(item["reward_model"]["ground_truth"])
    moves, _ = perfect_moves(identity)
    server = ScriptedServer(run["tokenizer"], [f"<move>{m}</move>" for m in moves])
    out, _ = _run(run, server, {}, item, actor_rollout_ref={"rollout": {"multi_turn": {"max_assistant_turns": 2}}})
    assert out.extra_fields["bc_stop_reason"] == "max_turns"
    assert len(out.extra_fields["bc_assistant_texts"]) == 2
    score = _score(run, item, out)
    assert score["acc"] == 0.0

    arith = next(i for i in run["items"] if i["data_source"] == "bootcamp/arithmetic")
    right = "```json\n{\"result\": 33}\n```"
    out2, _ = _run(run, ScriptedServer(run["tokenizer"], [right]), {}, arith)
    assert set(out2.extra_fields) == set(out.extra_fields)  # every sample carries the same keys
    assert out2.extra_fields["bc_assistant_texts"] == [right]
    score2 = _score(run, arith, out2)
    assert set(score2) == set(score) == set(REWARD_KEYS) and score2["acc"] == 1.0


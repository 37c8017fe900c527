"""The seed's verify_score kwargs: each one changes a score as documented, and an unknown key is refused."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import orjson
import pytest

from bc_common.errors import ConfigError
from bc_common.verify_kwargs import check_verify_kwargs, think_and_answer
from bootcamps.arithmetic.reward import ArithmeticRewardCalculator as Arith
from bootcamps.noop import NoopRewardCalculator as Noop
from bootcamps.tictactoe.reward import TicTacToeRewardCalculator as TicTacToe

BIN = Path(sys.executable).parent
IDENTITY = {"expression": "2 + 3", "expected_result": "5", "tolerance": "1e-6"}
RIGHT = 'Adding the two numbers gives five.\n```json\n{"result": 5}\n```'
WRONG = '```json\n{"result": 6}\n```'


def test_defaults_change_nothing():
    assert Arith.verify_score(RIGHT, IDENTITY) == 1.0 and Arith.verify_score(WRONG, IDENTITY) == 0.0
    assert Arith.verify_score("<think>x</think>" + RIGHT, IDENTITY) == 1.0


def test_format_score_is_given_to_a_readable_wrong_answer_only():
    assert Arith.verify_score(WRONG, IDENTITY, format_score=0.2) == 0.2
    assert Arith.verify_score("no json here", IDENTITY, format_score=0.2) == 0.0
    assert Arith.verify_score(RIGHT, IDENTITY, format_score=0.2) == 1.0


@pytest.mark.parametrize("text,ok", [
    (RIGHT, True),
    ("<think>2 and 3 make 5</think>" + RIGHT, True),
    ("I think </think>" + RIGHT, True),  # the template opened the block in the prompt
    ("<think>2 and 3 make 5" + RIGHT, False),  # never closed
    ("<think>a</think><think>b</think>" + RIGHT, False),  # two blocks
    (RIGHT + "<think>", False),  # a tag after the answer
    ("Sure. <think>a</think>" + RIGHT, False),  # text before the block
])
def test_format_penalty_zeroes_out_of_place_think_tags(text, ok):
    assert Arith.verify_score(text, IDENTITY, format_penalty=True) == (1.0 if ok else 0.0)
    assert Arith.verify_score(text, IDENTITY) == 1.0  # without the penalty the answer is read as before


def test_short_penalty_uses_the_seeds_default_threshold_or_the_given_one():
    assert len(RIGHT) < 100
    assert Arith.verify_score(RIGHT, IDENTITY, short_penalty=True) == 0.0
    assert Arith.verify_score(RIGHT, IDENTITY, short_threshold=20) == 1.0  # a threshold turns the penalty on
    assert Arith.verify_score(RIGHT, IDENTITY, short_threshold=200) == 0.0
    assert Arith.verify_score(RIGHT, IDENTITY, short_penalty=False, short_threshold=200) == 1.0


def test_think_and_answer_thresholds_count_characters_of_each_part():
    text = "<think>two plus three</think>" + RIGHT
    assert think_and_answer(text) == ("two plus three", RIGHT, True)
    assert Arith.verify_score(text, IDENTITY, think_threshold=14) == 1.0
    assert Arith.verify_score(text, IDENTITY, think_threshold=15) == 0.0
    assert Arith.verify_score(RIGHT, IDENTITY, think_threshold=1) == 0.0  # no reasoning at all
    assert Arith.verify_score(text, IDENTITY, ans_threshold=len(RIGHT)) == 1.0
    assert Arith.verify_score(text, IDENTITY, ans_threshold=len(RIGHT) + 1) == 0.0
    # a server that sends the reasoning apart: the message's reasoning_content is the reasoning
    messages = [{"role": "user", "content": "2 + 3?"},
                {"role": "assistant", "content": RIGHT, "reasoning_content": "two plus three is five"}]
    assert Arith.verify_score(messages, IDENTITY, think_threshold=20) == 1.0
    assert Arith.verify_score(messages, IDENTITY, think_threshold=30) == 0.0


def test_every_graded_text_of_a_game_must_pass():
    import asyncio

    from bc_common.builtin_model import BuiltinModel
    from bc_common.environment import Environments, identity_of
    from bc_common.rollout import run_trajectory

    gen = subprocess.run([str(BIN / "bc-gen"), "tictactoe", "-n", "1", "--seed", "3"], capture_output=True, check=True)
    task = orjson.loads(gen.stdout.splitlines()[0])
    trajectory = asyncio.run(run_trajectory(task, 0, BuiltinModel("builtin:reference"),
                                            Environments().get(task["data_source"]), model_name="ref"))
    messages, identity = trajectory["messages"], identity_of(task)
    assert TicTacToe.verify_score(messages, identity, format_penalty=True) == 1.0
    first = next(m for m in messages if m["role"] == "assistant")
    first["content"] += " <think>"  # a stray tag in the first move only
    assert TicTacToe.verify_score(messages, identity) == 1.0
    assert TicTacToe.verify_score(messages, identity, format_penalty=True) == 0.0


def test_unknown_keys_and_wrong_types_are_config_errors():
    check_verify_kwargs(Arith, {"tolerance": "1e-3", "format_penalty": True})  # the bootcamp's own key
    with pytest.raises(ConfigError, match="does not accept 'tolerance'"):
        check_verify_kwargs(Noop, {"tolerance": "1e-3"})
    with pytest.raises(ConfigError, match=r"does not accept 'format_penality' \(did you mean 'format_penalty'\?\)"):
        check_verify_kwargs(Arith, {"format_penality": True})
    with pytest.raises(ConfigError, match="does not accept 'strict'"):  # the seed's doc example: no verifier here takes it
        check_verify_kwargs(Arith, {"strict": True})
    for bad in ({"format_score": 2}, {"format_score": True}, {"format_penalty": "yes"}, {"short_threshold": -1},
                {"think_threshold": 1.5}):
        with pytest.raises(ConfigError):
            check_verify_kwargs(Arith, bad)
    with pytest.raises(ConfigError):  # the library refuses them too
        Arith.verify_score(RIGHT, IDENTITY, strict=True)


def _task() -> dict:
    return {"id": "t0", "data_source": "bootcamp/arithmetic", "prompt": "2 + 3?",
            "reward_model": {"style": "rule", "ground_truth": IDENTITY}, "extra_info": {}}


def test_bc_eval_applies_the_kwargs_and_refuses_unknown_ones(tmp_path):
    tasks = tmp_path / "t.jsonl"
    tasks.write_bytes(orjson.dumps(_task()) + b"\n")

    def bc_eval(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([str(BIN / "bc-eval"), str(tasks), "--model", "builtin:reference", "-q", *args],
                              capture_output=True, timeout=120)

    plain = bc_eval()
    assert plain.returncode == 0 and orjson.loads(plain.stdout)["score"] == 1.0
    short = bc_eval("--verify-correction-kwargs", '{"short_penalty": true}')  # the reference answer is terse
    assert short.returncode == 0 and orjson.loads(short.stdout)["score"] == 0.0
    unknown = bc_eval("--verify-correction-kwargs", '{"strict": true}')
    assert unknown.returncode == 2 and unknown.stdout == b""
    assert b"does not accept 'strict'" in unknown.stderr and b":1: bootcamp/arithmetic" in unknown.stderr
    typed = bc_eval("--verify-correction-kwargs", "format_score:2")
    assert typed.returncode == 2 and b"format_score must be a number in [0, 1]" in typed.stderr

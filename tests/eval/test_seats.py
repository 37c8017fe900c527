"""bc-eval --opponent-model: matches between two seated models (issue 27 item 1), through the real CLI, the
real rollout of each seat, and OpenAI-compatible servers on loopback."""
from __future__ import annotations

import functools
import os
import subprocess
from pathlib import Path

import jsonschema
import orjson
import pytest

from bc_common.records import TASK_SCHEMA, TRAJECTORY_SCHEMA
from bootcamps.tictactoe.seats import TicTacToeMatch

from .conftest import BIN, arithmetic_task, bc_eval_env, read_jsonl, write_jsonl

X_MOVES, O_MOVES = [1, 5, 7, 3], [2, 9, 4]  # X forks at 7 (3 or 4) and wins at 3


@functools.cache
def _tasks() -> list[bytes]:
    """Ten tictactoe task rows, made once (a puzzle takes a while to find)."""
    rows = subprocess.run([str(BIN / "bc-gen"), "tictactoe", "-n", "10", "--seed", "1"], capture_output=True,
                          check=True).stdout
    return rows.splitlines(keepends=True)


def _gen(tmp_path: Path, n: int) -> Path:
    path = tmp_path / "tasks.jsonl"
    path.write_bytes(b"".join(_tasks()[:n]))
    return path


def _bc_eval(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([str(BIN / "bc-eval"), *args], capture_output=True, env=env or bc_eval_env())


def _validator() -> jsonschema.Draft202012Validator:
    registry = __import__("referencing").Registry().with_resource(
        "bc/task.schema.json", __import__("referencing").Resource.from_contents(TASK_SCHEMA))
    return jsonschema.Draft202012Validator(TRAJECTORY_SCHEMA, registry=registry)


def test_reference_against_random_plays_both_sides_and_never_loses(tmp_path: Path) -> None:
    """The issue's acceptance run (20 tasks there, 10 here for CI's time): 2 samples a task, both seats recorded,
    then rated by bc-report and bc-filter --stats."""
    out = tmp_path / "m.jsonl"
    proc = _bc_eval(str(_gen(tmp_path, 10)), "--model", "builtin:reference", "--opponent-model", "builtin:random",
                    "--samples", "2", "-o", str(out))
    assert proc.returncode == 0, proc.stderr.decode()
    rows = read_jsonl(out)
    assert len(rows) == 20
    validator = _validator()
    for row in rows:
        validator.validate(row)
        seats = {s["seat"]: s for s in row["seats"]}
        assert set(seats) == {"X", "O"}
        mine = seats["X" if row["sample"] % 2 == 0 else "O"]  # seats alternate across samples
        other = seats["O" if mine["seat"] == "X" else "X"]
        assert (mine["role"], mine["model"]) == ("model", "builtin:reference")
        assert (other["role"], other["model"]) == ("opponent", "builtin:random")
        assert mine["result"] in ("win", "draw") and row["status"] == "completed"
        assert row["messages"] == mine["messages"] and row["score"] == mine["score"]
        assert {"win": "loss", "draw": "draw"}[mine["result"]] == other["result"]
        # the verifier re-grades each seat from its assistant texts alone
        texts = {s["seat"]: [m["content"] for m in s["messages"] if m["role"] == "assistant"] for s in row["seats"]}
        graded = TicTacToeMatch.score(row["input"]["reward_model"]["ground_truth"], texts)
        assert {s: o.result for s, o in graded.items()} == {s["seat"]: s["result"] for s in row["seats"]}
    assert sum(r["score"] == 1.0 for r in rows) >= 15  # random loses most games
    assert all(r["code_hash"] and r["bootcamp_version"] for r in rows)  # stamped like every trajectory
    # bc-report and bc-filter --stats rate the two: reference above random, never losing, seats balanced
    report = subprocess.run([str(BIN / "bc-report"), str(out), "--format", "md", "--bootstrap", "200"],
                            capture_output=True)
    assert report.returncode == 0, report.stderr.decode()
    md = report.stdout.decode()
    ratings = md.split("### Ratings\n", 1)[1]
    assert ratings.index("| builtin:reference |") < ratings.index("| builtin:random |")
    matrix = md.split("### Wins, draws and losses\n", 1)[1].strip().split("\n\n")[0]
    reference = next(line for line in matrix.splitlines() if line.startswith("| builtin:reference |"))
    wins, draws, losses = reference.split("|")[3].split()[0].split("-")  # against builtin:random
    assert int(wins) + int(draws) == 20 and losses == "0"
    assert "### Side bias" in md and "| yes |" in md.split("### Side bias")[1]
    stats = subprocess.run([str(BIN / "bc-filter"), "--stats", str(out), "-o", os.devnull], capture_output=True)
    assert stats.returncode == 0 and "ratings from 20 matches (0 unfinished" in stats.stderr.decode()


def test_each_seat_sees_only_its_own_conversation(tmp_path: Path) -> None:
    out = tmp_path / "m.jsonl"
    proc = _bc_eval(str(_gen(tmp_path, 3)), "--model", "builtin:noisy", "--opponent-model",
                    "builtin:baseline/win_block_centre", "--samples", "2", "-o", str(out))
    assert proc.returncode == 0, proc.stderr.decode()
    for row in read_jsonl(out):
        for seat in row["seats"]:
            if not seat["messages"]:  # an illegal first move ended the match before this seat's turn
                assert row["seats"][0]["reason"] == "illegal move"
                continue
            users = [m["content"] for m in seat["messages"] if m["role"] == "user"]
            assert f"You are {seat['seat']}," in users[0]
            other = [s for s in row["seats"] if s is not seat][0]
            theirs = {m["content"] for m in other["messages"] if m["role"] == "assistant"}
            assert not theirs & {m["content"] for m in seat["messages"]}  # never the other seat's own words


def test_two_scripted_servers_play_each_other_with_their_own_keys(tmp_path: Path, scripted) -> None:
    """Model vs model over HTTP: each server gets only its seat's conversation and only its own key."""
    start = TicTacToeMatch({})
    x_opening = start.view("X", True)
    start.play("X", f"<move>{X_MOVES[0]}</move>")
    o_opening = start.view("O", True)
    scripts = {x_opening: [{"content": f"I play {m}. <move>{m}</move>"} for m in X_MOVES],
               o_opening: [{"content": f"<move>{m}</move>"} for m in O_MOVES]}
    alpha, alpha_url = scripted(scripts, models=["alpha"])
    beta, beta_url = scripted(scripts, models=["beta"])
    out = tmp_path / "m.jsonl"
    env = bc_eval_env(OPENAI_API_KEY="key-alpha", BETA_KEY="key-beta")
    proc = _bc_eval(str(_gen(tmp_path, 2)), "--model", "alpha", "--base-url", alpha_url, "--opponent-model", "beta",
                    "--opponent-base-url", beta_url, "--opponent-api-key-env", "BETA_KEY", "--samples", "2",
                    "--ordered", "-o", str(out), env=env)
    assert proc.returncode == 0, proc.stderr.decode()
    rows = read_jsonl(out)
    assert [(r["sample"], r["model"], r["score"]) for r in rows] == [(0, "alpha", 1.0), (1, "alpha", 0.0)] * 2
    for row in rows:
        assert {s["model"]: s["result"] for s in row["seats"]} == (
            {"alpha": "win", "beta": "loss"} if row["sample"] == 0 else {"beta": "win", "alpha": "loss"})
    for server, key in ((alpha, "key-alpha"), (beta, "key-beta")):
        assert server.requests and all(r["headers"]["authorization"] == f"Bearer {key}" for r in server.requests)
        assert {r["body"]["model"] for r in server.requests} <= {"alpha", "beta"}
        for request in server.requests:  # a seat's own conversation: its opening, its moves, the other's replies
            messages = request["body"]["messages"]
            assert request["key"] in (x_opening, o_opening)
            mine = X_MOVES if request["key"] == x_opening else O_MOVES
            said = [m["content"] for m in messages if m["role"] == "assistant"]
            assert all(f"<move>{mine[i]}</move>" in text for i, text in enumerate(said))
    assert len(alpha.requests) == len(beta.requests) == 2 * (len(X_MOVES) + len(O_MOVES))
    assert "key-alpha" not in out.read_text() and "key-beta" not in out.read_text()


@pytest.mark.parametrize("args, message", [
    (["--opponent-base-url", "http://127.0.0.1:9/v1"], "need --opponent-model"),
    (["--opponent-model", "builtin:random", "--opponent-api-key-env", "BC_NO_SUCH_VARIABLE"], "not set"),
    (["--opponent-model", "builtin:baseline/greedy_threat"], "declare no baseline 'greedy_threat'"),
    (["--opponent-model", "theirs"], "no server to ask"),
])
def test_bad_opponent_flags_exit_2_naming_the_flag(tmp_path: Path, args: list[str], message: str) -> None:
    out = tmp_path / "m.jsonl"
    proc = _bc_eval(str(_gen(tmp_path, 1)), "--model", "builtin:reference", *args, "-o", str(out))
    assert proc.returncode == 2 and message in proc.stderr.decode(), proc.stderr.decode()
    assert not out.exists() or out.read_bytes() == b""


def test_a_bootcamp_without_seats_is_refused_naming_the_line(tmp_path: Path) -> None:
    tasks = write_jsonl(tmp_path / "t.jsonl", [arithmetic_task("1 + 2")])
    proc = _bc_eval(str(tasks), "--model", "builtin:reference", "--opponent-model", "builtin:random")
    assert proc.returncode == 2
    assert f"{tasks}:1" in proc.stderr.decode() and "declares no seats" in proc.stderr.decode()


def test_resume_under_another_opponent_is_refused(tmp_path: Path) -> None:
    tasks, out = _gen(tmp_path, 2), tmp_path / "m.jsonl"
    first = _bc_eval(str(tasks), "--model", "builtin:reference", "--opponent-model", "builtin:random", "-o", str(out))
    assert first.returncode == 0
    again = _bc_eval(str(tasks), "--model", "builtin:reference", "--opponent-model", "builtin:noisy", "-o", str(out),
                     "--resume")
    assert again.returncode == 2 and "opponent" in again.stderr.decode()
    assert len(read_jsonl(out)) == 2
    assert orjson.loads(out.read_bytes().splitlines()[0])["seats"][1]["model"] == "builtin:random"

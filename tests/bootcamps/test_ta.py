"""ta/*: TextArena's games through the real textarena package, the real CLIs and OpenAI-compatible servers on
loopback (issue 27 items 1 and 3)."""
from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import orjson
import pytest

pytest.importorskip("textarena")

from bc_common.catalog import get_bootcamp  # noqa: E402
from bc_common.manifest import Unavailable  # noqa: E402
from bc_eval.testing import ScriptedServer  # noqa: E402
from bootcamps.ta.collection import ADAPTED, collection  # noqa: E402
from bootcamps.ta.games import GAMES  # noqa: E402
from bootcamps.ta.games.nim import take_one_largest, winning_move  # noqa: E402
from bootcamps.ta.play import replay  # noqa: E402
from bootcamps.ta.reward import TARewardCalculator  # noqa: E402
from bootcamps.ta.seats import seats_class  # noqa: E402

BIN = Path(sys.executable).parent


def _run(tool: str, *args: str, stdin: bytes | None = None, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([str(BIN / tool), *args], input=stdin, capture_output=True, timeout=240, env=env)


def _rows(raw: bytes) -> list[dict]:
    return [orjson.loads(line) for line in raw.splitlines() if line.strip()]


def _nim_task(seed: int = 3) -> bytes:
    proc = _run("bc-gen", "ta/nim", "-n", "1", "--seed", str(seed))
    assert proc.returncode == 0, proc.stderr.decode()
    return proc.stdout


def test_every_textarena_game_is_listed_adapted_or_unavailable_with_a_reason() -> None:
    from textarena.envs.registration import ENV_REGISTRY

    assert set(ADAPTED) == set(GAMES)
    names = set(collection.names())
    assert {"guess_the_number", "nim", "wordle", "hangman", "tic_tac_toe"} <= names
    assert len(names) >= len({env_id.split("-v")[0] for env_id in ENV_REGISTRY}) - 1  # UsedCar is an alias
    wordle = collection.load("wordle")
    assert isinstance(wordle, Unavailable) and "nltk.download" in wordle.withheld
    assert "seats are for two" in collection.load("secret_mafia").withheld or \
        "Player count" in collection.load("secret_mafia").withheld
    for name in names - set(ADAPTED):
        assert collection.load(name).withheld.startswith("unavailable: ")


def test_same_seed_same_bytes_and_rows_carry_the_textarena_version() -> None:
    first = _run("bc-gen", "ta/guess_the_number", "-n", "6", "--seed", "5")
    again = _run("bc-gen", "ta/guess_the_number", "-n", "6", "--seed", "5", "-j", "2")
    other = _run("bc-gen", "ta/guess_the_number", "-n", "6", "--seed", "6")
    assert first.returncode == 0, first.stderr.decode()
    assert first.stdout == again.stdout and first.stdout != other.stdout
    for row in _rows(first.stdout):
        assert "textarena 0.7.4" in row["extra_info"]["bootcamp_version"]


def test_a_game_keeps_its_own_random_state_however_games_interleave() -> None:
    """TextArena draws from the global `random`; other code drawing from it between moves changes nothing."""
    identity = _rows(_run("bc-gen", "ta/guess_the_number", "-n", "1", "--seed", "9").stdout)[0][
        "reward_model"]["ground_truth"]
    alone = replay(identity, ["[50000]", "[25000]"]).match.game_state["game_number"]
    random.seed(1234)
    outside = random.random()
    random.seed(1234)
    played = replay(identity, ["[50000]", "[25000]"])
    assert random.random() == outside  # the caller's stream is untouched
    assert played.match.game_state["game_number"] == alone


def test_textarenas_partial_credit_is_not_paid() -> None:
    """GuessTheNumber pays TextArena reward for a near last guess; the verifier pays only a win."""
    identity = _rows(_run("bc-gen", "ta/guess_the_number", "-n", "1", "--seed", "2").stdout)[0][
        "reward_model"]["ground_truth"]
    secret = replay(identity, []).match.game_state["game_number"]
    # TextArena checks its turn limit before counting the turn: max_turns + 1 guesses end the game
    near = [f"[{secret + 1 + i}]" for i in range(identity["kwargs"]["max_turns"] + 1)]
    if secret + len(near) > identity["kwargs"]["max_number"]:
        near = [f"[{secret - 1 - i}]" for i in range(len(near))]
    played = replay(identity, near)
    assert played.done and played.outcome().reward > 0.99  # TextArena's own reward: almost full
    assert TARewardCalculator.verify_score(near, identity) == 0.0
    assert TARewardCalculator.verify_score(near[:1] + [f"[{secret}]"], identity) == 1.0


def _play(policy_class: type, identity: dict, *, wrong_at: int | None = None) -> list[str]:
    """A policy's texts through a whole game, as the interaction answers it (`wrong_at`: that move is wrong)."""
    opponent = GAMES[identity["game"]].opponent
    messages = [{"role": "user", "content": replay(identity, [], opponent).views[0]}]
    texts: list[str] = []
    while len(texts) < 200:
        policy = policy_class(identity, tools=[])
        policy.rng = random.Random(len(texts))
        texts.append(policy.respond(messages, wrong=len(texts) == wrong_at)["content"])
        played = replay(identity, texts, opponent)
        if played.done:
            break
        messages += [{"role": "assistant", "content": texts[-1]}, {"role": "user", "content": played.views[-1]}]
    return texts


def _identities(name: str, n: int, seed: int = 4, env: dict | None = None) -> list[dict]:
    proc = _run("bc-gen", f"ta/{name}", "-n", str(n), "--seed", str(seed), env=env)
    assert proc.returncode == 0, proc.stderr.decode()
    return [row["reward_model"]["ground_truth"] for row in _rows(proc.stdout)]


def test_nim_reference_beats_the_scripted_seat_and_a_lazy_rule_does_not() -> None:
    env = get_bootcamp("ta/nim")
    for identity in _identities("nim", 8):
        assert TARewardCalculator.verify_score(_play(env.policy, identity), identity) == 1.0
        piles = list(identity["kwargs"]["piles"])
        i, q = take_one_largest(piles, random.Random(0))
        assert TARewardCalculator.verify_score([f"[{i} {q}]"] * 40, identity) == 0.0


def test_lights_out_budget_is_the_shortest_solution_and_one_wrong_press_loses() -> None:
    from bootcamps.ta.games.lights_out import Shortest, shortest_solution

    for identity in _identities("lights_out", 6):
        grid = replay(identity, []).match.game_state["grid"]
        presses = shortest_solution(grid)
        assert presses and identity["kwargs"]["max_turns"] == len(presses)
        right = _play(Shortest, identity)
        assert right == [f"[{r} {c}]" for r, c in presses]
        assert TARewardCalculator.verify_score(right, identity) == 1.0
        assert TARewardCalculator.verify_score(_play(Shortest, identity, wrong_at=0), identity) == 0.0


def test_mastermind_reference_cracks_every_code_and_ignoring_the_pegs_does_not() -> None:
    from bootcamps.ta.games.mastermind import FirstConsistent, Rotate

    for identity in _identities("mastermind", 6):
        texts = _play(FirstConsistent, identity)
        assert TARewardCalculator.verify_score(texts, identity) == 1.0
        assert len(texts) <= identity["kwargs"]["max_turns"] + 1
        assert TARewardCalculator.verify_score(_play(Rotate, identity), identity) == 0.0


def _scripted_match(task: dict) -> tuple[dict[str, str], dict[str, list[str]]]:
    """Both seats' openings and moves of one ta/nim game: Player 0 plays Bouton's winning moves, Player 1 takes
    one object from the largest pile."""
    game = seats_class("nim")(task["reward_model"]["ground_truth"])
    openings, moves = {}, {"Player 0": [], "Player 1": []}
    while (seat := game.to_move()) is not None:
        view = game.view(seat, first=seat not in openings)
        openings.setdefault(seat, view)
        piles = list(game.match.game_state["piles"])
        i, q = winning_move(piles) if seat == "Player 0" else take_one_largest(piles, random.Random(0))
        moves[seat].append(f"I take {q} from pile {i}: [{i} {q}]")
        game.play(seat, moves[seat][-1])
    assert game.outcome()["Player 0"].result == "win"
    return openings, moves


def test_model_vs_model_on_two_scripted_servers_records_both_seats(tmp_path: Path) -> None:
    """Acceptance (issue 27): a TextArena two-player game, model against model, each an OpenAI-compatible server
    on loopback with its own key; `--samples 2` plays both sides and every row records both seats."""
    raw = _nim_task()
    task = _rows(raw)[0]
    openings, moves = _scripted_match(task)
    scripts = {openings[seat]: [{"content": text} for text in moves[seat]] for seat in openings}
    tasks = tmp_path / "tasks.jsonl"
    tasks.write_bytes(raw)
    out = tmp_path / "matches.jsonl"
    alpha, beta = ScriptedServer(scripts, models=["alpha"]), ScriptedServer(scripts, models=["beta"])
    with alpha.running() as alpha_url, beta.running() as beta_url:
        env = {k: v for k, v in __import__("os").environ.items() if k not in ("OPENAI_API_KEY", "OPENAI_BASE_URL")}
        env.update(OPENAI_API_KEY="key-alpha", BETA_KEY="key-beta")
        proc = _run("bc-eval", str(tasks), "--model", "alpha", "--base-url", alpha_url, "--opponent-model", "beta",
                    "--opponent-base-url", beta_url, "--opponent-api-key-env", "BETA_KEY", "--samples", "2",
                    "--ordered", "-o", str(out), env=env)
    assert proc.returncode == 0, proc.stderr.decode()
    rows = _rows(out.read_bytes())
    assert [(r["sample"], r["model"], r["score"], r["status"]) for r in rows] == [
        (0, "alpha", 1.0, "completed"), (1, "alpha", 0.0, "completed")]
    for row in rows:
        seats = {s["seat"]: s for s in row["seats"]}
        assert set(seats) == {"Player 0", "Player 1"}
        winner = "alpha" if row["sample"] == 0 else "beta"
        assert seats["Player 0"]["model"] == winner and seats["Player 0"]["result"] == "win"
        assert seats["Player 1"]["result"] == "loss"
        for name, seat in seats.items():
            said = [m["content"] for m in seat["messages"] if m["role"] == "assistant"]
            assert said == moves[name]  # each seat played its own script, every move recorded
            assert seat["messages"][0]["content"] == openings[name]
    for server, key in ((alpha, "key-alpha"), (beta, "key-beta")):
        assert server.requests and all(r["headers"]["authorization"] == f"Bearer {key}" for r in server.requests)
        for request in server.requests:  # a seat's own conversation only: never the other seat's opening
            assert request["key"] in openings.values()
    assert len(alpha.requests) + len(beta.requests) == 2 * (len(moves["Player 0"]) + len(moves["Player 1"]))
    assert "key-alpha" not in out.read_text() and "key-beta" not in out.read_text()


def test_builtin_seats_play_nim_and_the_verifier_regrades_each_seat(tmp_path: Path) -> None:
    tasks = tmp_path / "tasks.jsonl"
    tasks.write_bytes(_nim_task(seed=8))
    proc = _run("bc-eval", str(tasks), "--model", "builtin:reference", "--opponent-model", "builtin:random",
                "--samples", "2", "--ordered")
    assert proc.returncode == 0, proc.stderr.decode()
    rows = _rows(proc.stdout)
    assert len(rows) == 2
    first = rows[0]  # the reference is Player 0, from a won position: it wins
    assert first["score"] == 1.0 and {s["seat"]: s["model"] for s in first["seats"]} == {
        "Player 0": "builtin:reference", "Player 1": "builtin:random"}
    game = seats_class("nim")
    for row in rows:
        texts = {s["seat"]: [m["content"] for m in s["messages"] if m["role"] == "assistant"] for s in row["seats"]}
        regraded = game.score(row["input"]["reward_model"]["ground_truth"], texts)
        assert {s["seat"]: s["result"] for s in row["seats"]} == {k: v.result for k, v in regraded.items()}


def test_frozen_lake_budget_is_the_shortest_safe_path_and_one_step_off_it_loses() -> None:
    from bootcamps.ta.games.frozen_lake import ShortestPath, TowardGoal, distances

    for identity in _identities("frozen_lake", 6):
        state = replay(identity, []).match.game_state
        assert identity["budget"] == distances(state["grid"], tuple(state["goal_pos"]))[tuple(state["player_pos"])]
        right = _play(ShortestPath, identity)
        assert len(right) == identity["budget"] and TARewardCalculator.verify_score(right, identity) == 1.0
        assert TARewardCalculator.verify_score(_play(ShortestPath, identity, wrong_at=0), identity) == 0.0
        assert TARewardCalculator.verify_score(_play(TowardGoal, identity), identity) == 0.0
        back = {"up": "down", "down": "up", "left": "right", "right": "left"}[right[0].split("[")[1].rstrip("]")]
        dither = [right[0], f"[{back}]"] * identity["budget"]  # safe steps to and fro, never at the goal
        played = replay(identity, dither)
        assert played.out_of_moves and played.used == identity["budget"]  # the moves past the budget are not played
        assert TARewardCalculator.verify_score(dither, identity) == 0.0


def test_sokoban_budget_is_the_shortest_solution_and_greedy_pushing_does_not_solve() -> None:
    from bootcamps.ta.games.sokoban import Greedy, Shortest, plan, room_of

    for identity in _identities("sokoban", 4):
        room = room_of(replay(identity, []).match.env)
        assert identity["budget"] == len(plan(room)) and not room.boxes & room.targets  # every target shows
        right = _play(Shortest, identity)
        assert len(right) == identity["budget"] and TARewardCalculator.verify_score(right, identity) == 1.0
        assert TARewardCalculator.verify_score(_play(Shortest, identity, wrong_at=0), identity) == 0.0
        assert TARewardCalculator.verify_score(_play(Greedy, identity), identity) == 0.0


def test_rush_hour_is_withheld_but_its_budget_is_the_shortest_solution() -> None:
    """Withheld (known_issues.py: one solution solves several of TextArena's boards); it still plays right."""
    import os

    from bootcamps.ta.games.rush_hour import Lazy, Shortest, board_of, solve

    assert collection.load("rush_hour").withheld.startswith("withheld: fails most_frequent_answer")
    for identity in _identities("rush_hour", 3, env={**os.environ, "BC_INCLUDE_KNOWN_ISSUES": "1"}):
        assert identity["budget"] == len(solve(board_of(replay(identity, []).match.game_state)))
        right = _play(Shortest, identity)
        assert right[-1] == "[X+]" and TARewardCalculator.verify_score(right, identity) == 1.0
        assert TARewardCalculator.verify_score(_play(Shortest, identity, wrong_at=0), identity) == 0.0
        assert TARewardCalculator.verify_score(_play(Lazy, identity), identity) == 0.0


def test_fifteen_puzzle_is_won_by_the_staged_solution_despite_textarenas_crash_on_the_solving_move() -> None:
    """The staged solution sorts every drawn board within the budget; TextArena 0.7.4 raises on its last move
    (`set_winners` missing on its single-player state) and the adapter ends that game as a win itself. Still
    withheld until the whole suite is measured (known_issues.py)."""
    import os

    import textarena

    from bootcamps.ta.arena import LIBRARY_BUGS, make_env
    from bootcamps.ta.games.fifteen_puzzle import GOAL, apply, board_of, finish_solved, solution, solvable

    assert collection.load("fifteen_puzzle").withheld.startswith("withheld: not measured whole")
    for identity in _identities("fifteen_puzzle", 2, env={**os.environ, "BC_INCLUDE_KNOWN_ISSUES": "1"}):
        board = board_of(replay(identity, []).match.game_state)
        assert solvable(board) and identity["budget"] == len(solution(board))
        for move in solution(board):
            board = apply(board, move)
        assert board == GOAL
        texts = [f"[{move}]" for move in solution(board_of(replay(identity, []).match.game_state))]
        assert not replay(identity, texts[:-1]).over
        won = replay(identity, texts)
        assert won.over and won.outcome().result == "win" and TARewardCalculator.verify_score(texts, identity) == 1.0
        assert TARewardCalculator.verify_score(texts[:-1] + ["[up]" if texts[-1] != "[up]" else "[down]"],
                                               identity) == 0.0
    # the library's crash is real (when a release fixes it, the workaround can go), and only it is caught
    env = make_env("FifteenPuzzle-v0", {"max_turns": 1000})
    env.reset(num_players=1, seed=3)
    env.board = [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12], [13, 14, None, 15]]
    with pytest.raises(AttributeError, match="set_winners"):
        env.step("[left]")
    assert LIBRARY_BUGS["FifteenPuzzle-v0"] is finish_solved and finish_solved(env, AttributeError("set_winners"))
    assert env.state.done and env.state.rewards == {0: 1.0}
    env.reset(num_players=1, seed=3)  # a board not solved: the error stands
    assert not finish_solved(env, AttributeError("set_winners")) and not finish_solved(env, KeyError("x"))
    assert textarena.__version__ == "0.7.4"
    # TextArena's shuffle leaves half its boards unsolvable; the parity rule says which
    assert solvable(GOAL) and not solvable(GOAL[:13] + (GOAL[14], GOAL[13], 0))


def test_countdown_boards_differ_and_only_the_chain_reaches_the_target_in_budget() -> None:
    """TextArena registers one fixed Countdown board; the adapter draws boards and targets, and the target's own
    chain of moves wins within the budget while a wrong move, the closest-value rule and junk lose."""
    from bootcamps.ta.games.countdown import BIG, Chain, Closest, chain, closest_reaches

    identities = _identities("countdown", 3)
    assert len({(tuple(i["kwargs"]["numbers"]), i["kwargs"]["target"]) for i in identities}) == 3
    for identity in identities:
        numbers, target = identity["kwargs"]["numbers"], identity["kwargs"]["target"]
        assert sum(n in BIG for n in numbers) >= 2 and 100 <= target <= 999 and target not in numbers
        assert replay(identity, []).match.env.target == target  # TextArena plays the drawn board
        made = chain(tuple(numbers), identity["seed"], identity["budget"])
        assert made[0] == target and len(made[1]) == identity["budget"]
        right = _play(Chain, identity)
        assert len(right) == identity["budget"] and TARewardCalculator.verify_score(right, identity) == 1.0
        assert TARewardCalculator.verify_score(_play(Chain, identity, wrong_at=0), identity) == 0.0
        assert not closest_reaches(list(numbers), target, identity["budget"])
        assert TARewardCalculator.verify_score(_play(Closest, identity), identity) == 0.0
        assert TARewardCalculator.verify_score(["[0 1 +]"] * 10, identity) == 0.0
    assert closest_reaches([100, 2, 3], 203, 2) and not closest_reaches([100, 2, 3], 203, 1)


def test_three_card_monte_only_tracking_the_swaps_wins() -> None:
    from bootcamps.ta.games.three_card_monte import LastSwap, StartCup, Track, final_cup

    identities = _identities("three_card_monte", 24)
    for identity in identities:
        assert final_cup(identity) == replay(identity, []).match.env.ball_pos  # TextArena's own shuffle
        right = _play(Track, identity)
        assert right == [f"[ {final_cup(identity)} ]"] and TARewardCalculator.verify_score(right, identity) == 1.0
        assert TARewardCalculator.verify_score(_play(Track, identity, wrong_at=0), identity) == 0.0
        for lazy in (StartCup, LastSwap):  # their shuffles are redrawn
            assert TARewardCalculator.verify_score(_play(lazy, identity), identity) == 0.0
    assert len({final_cup(i) for i in identities}) >= 18  # 24 rows of 70-140 cups: the ball ends anywhere

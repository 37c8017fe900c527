"""os/*: OpenSpiel's board games as forced-win tasks, through the real pyspiel package and the real CLI."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import orjson
import pytest

pytest.importorskip("pyspiel")

from bc_common.bootcamp import assistant_texts  # noqa: E402
from bc_common.catalog import get_bootcamp  # noqa: E402
from bc_common.manifest import Unavailable  # noqa: E402
from bc_common.tasks import TaskSet  # noqa: E402
from bootcamps.os.collection import collection  # noqa: E402
from bootcamps.os.games import GAMES  # noqa: E402
from bootcamps.os.known_issues import OFFERED, UNAVAILABLE  # noqa: E402
from bootcamps.os.play import replay  # noqa: E402
from bootcamps.os.policy import FirstMove, ForcedWin, RandomMove  # noqa: E402
from bootcamps.os.positions import search_for, state_of  # noqa: E402
from bootcamps.os.reward import OSRewardCalculator  # noqa: E402

BIN = Path(sys.executable).parent
# tic-tac-toe: x (0,0), o (0,1), x (1,1), o (2,2); x to move forks with x(1,0) or x(2,0)
FORK = {"game": "tic_tac_toe", "spec": "tic_tac_toe", "history": [0, 1, 4, 8], "player": 0, "depth": 2}


def play(identity: dict, policy_class: type, seed: int = 0) -> list[str]:
    """The texts a policy writes through a whole task (the interaction's rule: replay, defender answers)."""
    policy = policy_class(identity)
    policy.rng.seed(seed)
    messages: list[dict] = [{"role": "user", "content": "start"}]
    while not replay(identity, assistant_texts(messages)).over:
        messages.append(policy.respond(messages))
        messages.append({"role": "user", "content": "next"})
    return assistant_texts(messages)


def test_search_proves_a_known_fork():
    search = search_for("tic_tac_toe")
    state = state_of("tic_tac_toe", FORK["history"])
    assert not search.wins(state, 0, 1)
    assert search.wins(state, 0, 2)
    assert {3, 6} <= set(search.winning_moves(state, 0, 2))
    assert 5 not in search.winning_moves(state, 0, 2)  # x(1,2) makes one threat: o blocks it


def test_verifier_on_the_known_fork():
    score = OSRewardCalculator.verify_score
    assert score(play(FORK, ForcedWin), FORK) == 1.0
    assert score(["<move>x(1,2)</move>", "<move>x(2,0)</move>"], FORK) == 0.0  # a single threat: blocked
    assert score(["<move>x(1,0)</move>"], FORK) == 0.0  # the fork alone has not won yet
    assert score(["<move>x(0,1)</move>"], FORK) == 0.0  # an occupied cell is not a legal move
    assert score(["x(1,0)", "x(2,0)"], FORK) == 0.0  # moves outside <move> blocks are not read
    assert score(["<move>" * 5000], FORK) == 0.0


def test_every_winning_first_move_is_accepted():
    search = search_for("tic_tac_toe")
    state = state_of("tic_tac_toe", FORK["history"])
    for action in search.winning_moves(state, 0, 2):
        first = f"<move>{state.action_to_string(0, action)}</move>"
        texts = play({**FORK, "history": FORK["history"]}, ForcedWin)
        after = replay(FORK, [first])
        reply = search.winning_moves(after.state, 0, after.left())
        assert reply, action
        second = f"<move>{after.state.action_to_string(0, reply[0])}</move>"
        assert OSRewardCalculator.verify_score([first, second], FORK) == 1.0
        assert texts


@pytest.mark.parametrize("name", OFFERED)
def test_rows_are_deterministic_and_solved(name):
    manifest = get_bootcamp(f"os/{name}")
    rows = [TaskSet(manifest, seed=5, split="train")[i] for i in range(4)]
    again = [TaskSet(manifest, seed=5, split="train")[i] for i in range(4)]
    other = [TaskSet(manifest, seed=6, split="train")[i] for i in range(4)]
    assert orjson.dumps(rows) == orjson.dumps(again)
    assert rows != other
    for row in rows:
        identity = row["reward_model"]["ground_truth"]
        assert OSRewardCalculator.verify_score(play(identity, ForcedWin), identity) == 1.0
        first = play(identity, FirstMove)
        assert OSRewardCalculator.verify_score(first, identity) == 0.0  # drawn positions exclude it


def test_baselines_score_low_on_hex():
    manifest = get_bootcamp("os/hex")
    tasks = TaskSet(manifest, seed=9, split="train")
    identities = [tasks[i]["reward_model"]["ground_truth"] for i in range(30)]
    random_wins = sum(OSRewardCalculator.verify_score(play(x, RandomMove, seed=i), x)
                      for i, x in enumerate(identities))
    assert random_wins <= 2
    assert all(OSRewardCalculator.verify_score(play(x, FirstMove), x) == 0.0 for x in identities)


def test_unavailable_games_say_why():
    assert set(OFFERED).isdisjoint(UNAVAILABLE)
    assert set(GAMES) == {*OFFERED, *UNAVAILABLE}  # every game the adapter knows is offered or says why not
    assert collection.names() == sorted(GAMES)
    for name in UNAVAILABLE:
        manifest = collection.load(name)
        assert isinstance(manifest, Unavailable)
        assert manifest.withheld.startswith("unavailable: ") and len(manifest.withheld) > 40
    with pytest.raises(KeyError):
        collection.load("no_such_game")


def test_bad_identity_is_refused():
    with pytest.raises(ValueError, match="not a board"):
        OSRewardCalculator.check_identity({**FORK, "spec": "tic_tac_toe(rows=4)"})
    with pytest.raises(ValueError, match="history"):
        state_of("tic_tac_toe", [0, 0])


def test_bc_gen_lists_and_generates(bc_gen_list):
    listed = bc_gen_list()  # the default listing, read once a test run
    out = listed.stdout + listed.stderr
    for name in OFFERED:
        assert f"os/{name}" in out
    assert "os/connect_four" in out and "unavailable" in out
    made = subprocess.run([str(BIN / "bc-gen"), "os/hex", "-n", "2", "--seed", "1"], capture_output=True,
                          timeout=240)
    assert made.returncode == 0, made.stderr.decode()
    rows = [orjson.loads(line) for line in made.stdout.splitlines()]
    assert [r["data_source"] for r in rows] == ["bootcamp/os/hex"] * 2
    assert "open-spiel 2.0.2" in rows[0]["extra_info"]["bootcamp_version"]

"""holdem's seats (issue 27 item 1): one whole heads-up hand between two models through `bc-eval --opponent-model`;
each seat sees only its own cards, the hand is zero-sum in chips (`payoff`), the verifier's replay of the seats'
texts gives the recorded outcome, and an illegal reply forfeits."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import orjson
import pytest

pytest.importorskip("pokerkit")

from bc_common.environment import identity_of  # noqa: E402
from bootcamps.holdem.evaluator import cards_str  # noqa: E402
from bootcamps.holdem.seats import HoldemMatch, deal_of  # noqa: E402

BIN = Path(sys.executable).parent


@pytest.fixture(scope="module")
def matches(tmp_path_factory) -> list[dict]:
    tmp = tmp_path_factory.mktemp("holdem")
    tasks, out = tmp / "tasks.jsonl", tmp / "m.jsonl"
    subprocess.run([str(BIN / "bc-gen"), "holdem", "-n", "12", "--seed", "4", "-o", str(tasks)], check=True,
                   capture_output=True)
    proc = subprocess.run([str(BIN / "bc-eval"), str(tasks), "--model", "builtin:reference", "--opponent-model",
                           "builtin:random", "--samples", "2", "-o", str(out)], capture_output=True)
    assert proc.returncode == 0, proc.stderr.decode()
    return [orjson.loads(line) for line in out.read_bytes().splitlines()]


def test_both_sides_of_every_deal_are_played_and_recorded(matches):
    assert len(matches) == 24
    for row in matches:
        seats = {s["seat"]: s for s in row["seats"]}
        assert set(seats) == {"button", "big_blind"} and row["status"] == "completed"
        mine = seats["button" if row["sample"] % 2 == 0 else "big_blind"]  # seats alternate across samples
        assert mine["role"] == "model" and mine["model"] == "builtin:reference" and row["score"] == mine["score"]
        assert seats["button"]["payoff"] + seats["big_blind"]["payoff"] == 0  # zero-sum in chips
        results = {s["result"] for s in seats.values()}
        assert results in ({"win", "loss"}, {"draw"})
        winner = [s for s in seats.values() if s["result"] == "win"]
        assert all(s["payoff"] > 0 for s in winner)


def test_a_seat_never_sees_the_other_seats_cards_before_a_showdown(matches):
    for row in matches:
        big_blind, button, _, _ = deal_of(identity_of(row["input"]))
        holes = {"big_blind": cards_str(big_blind), "button": cards_str(button)}
        for seat in row["seats"]:
            other = holes["button" if seat["seat"] == "big_blind" else "big_blind"]
            seen = " ".join(str(m.get("content")) for m in seat["messages"] if m["role"] == "user")
            assert holes[seat["seat"]] in seen and other not in seen


def test_the_verifier_replays_the_texts_to_the_recorded_outcome_and_an_illegal_reply_forfeits(matches):
    for row in matches[:6]:
        identity = identity_of(row["input"])
        texts = {s["seat"]: [m["content"] for m in s["messages"] if m["role"] == "assistant"] for s in row["seats"]}
        graded = HoldemMatch.score(identity, texts)
        for seat in row["seats"]:
            assert (graded[seat["seat"]].result, graded[seat["seat"]].payoff) == (seat["result"], seat["payoff"])
        game = HoldemMatch(identity)
        first = game.to_move()
        game.play(first, "I fold... no, <action>raise 1</action>")  # below the minimum: illegal
        outcome = game.outcome()
        assert outcome[first].result == "loss" and outcome[first].reason == "illegal action"
        assert outcome[first].payoff == -(1 if first == "button" else 2)  # the blind it had posted

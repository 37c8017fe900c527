"""mastermind beyond the conformance suite: peg feedback, Knuth's worst case (par), the score by guesses, the
interaction and the verifier agreeing on every game, and the cheats (guessing without feedback, many guesses in
one reply, a claimed solution, guesses past the budget)."""
from __future__ import annotations

import asyncio
import itertools
import random
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson
import pytest
from jsonschema import Draft202012Validator

from bc_common.bootcamp import assistant_texts
from bc_common.seeding import RecordRandom
from bootcamps.mastermind.codes import feedback, guesses_in, replay, score_for
from bootcamps.mastermind.generator import PAR, MastermindInstructionGenerator
from bootcamps.mastermind.interaction import MastermindInteraction
from bootcamps.mastermind.knuth import CANON, Knuth
from bootcamps.mastermind.policy import MastermindPolicy
from bootcamps.mastermind.reward import MastermindRewardCalculator

VERIFY = MastermindRewardCalculator.verify_score


def _task(seed: int, **config: Any) -> dict:
    gen = MastermindInstructionGenerator(**config)
    gen.rng = RecordRandom(seed)
    return gen.case_generator()


def _game(identity: dict, respond: Callable[[list[dict]], dict], limit: int = 40) -> tuple[list[dict], float]:
    """Plays `respond(messages)` against the interaction, as the rollout loop does; (messages, final turn score)."""

    async def go() -> tuple[list[dict], float]:
        inter = MastermindInteraction()
        iid = await inter.start_interaction(None, identity=identity)
        messages = [{"role": "user", "content": "play"}]
        score = 0.0
        try:
            for _ in range(limit):
                messages.append(respond(messages))
                done, text, score, _ = await inter.generate_response(iid, messages)
                if done:
                    break
                messages.append({"role": "user", "content": text})
        finally:
            await inter.finalize_interaction(iid)
        return messages, score

    return asyncio.run(go())


def _say(code: str) -> dict:
    return {"role": "assistant", "content": f"<guess>{code}</guess>"}


def test_feedback_counts_black_and_white_pegs() -> None:
    assert feedback("RRGB", "RRGB") == (4, 0)
    assert feedback("RRGB", "BGRR") == (0, 4)
    assert feedback("RRGB", "RGYY") == (1, 1)
    assert feedback("AABB", "BBBA") == (1, 2)
    assert feedback("ABCD", "EEEE") == (0, 0)


def test_knuth_table_is_the_feedback_of_every_pair() -> None:
    knuth = Knuth.of(4, 4)
    for a, b in itertools.product(knuth.codes, repeat=2):
        assert divmod(knuth.mark(a, b), 5) == feedback(a, b)
    rng = random.Random(1)
    big = Knuth.of(5, 5)
    for _ in range(3000):
        a, b = rng.choice(big.codes), rng.choice(big.codes)
        assert divmod(big.mark(a, b), 6) == feedback(a, b)


@pytest.mark.parametrize("size", [(4, 4), (4, 5), (5, 4)])
def test_knuth_never_needs_more_than_par(size: tuple[int, int]) -> None:
    knuth = Knuth.of(*size)
    worst = max(len(knuth.play(secret)) for secret in knuth.codes)
    assert worst == PAR[size]


def test_knuth_opens_with_aabb_and_wins_the_classic_game_within_five() -> None:
    knuth = Knuth.of(4, 6)
    assert knuth.next_guess([]) == "AABB"  # Knuth (1977)
    rng = random.Random(2)
    for secret in rng.sample(knuth.codes, 120):
        guesses = knuth.play(secret)
        assert guesses[-1] == secret and len(guesses) <= 5


def test_score_is_one_within_par_then_falls_to_zero_past_the_budget() -> None:
    identity = {"pegs": 4, "colours": "BGKRWY", "secret": "RRGB", "budget": 8, "par": 5}
    scores = [score_for(identity, n) for n in range(1, 9)]
    assert scores[:5] == [1.0] * 5
    assert scores[5] > scores[6] > scores[7] > 0
    assert score_for(identity, None) == 0.0
    wasted = ["<guess>YYYY</guess>"] * 8
    assert VERIFY(wasted + ["<guess>RRGB</guess>"], identity) == 0.0  # the 9th guess is past the budget
    assert VERIFY(wasted[:7] + ["<guess>RRGB</guess>"], identity) == pytest.approx(1 / 4)


def test_reference_solves_within_par_and_shows_the_feedback() -> None:
    for group in ({"pegs": 4, "colours": 5, "budget": 12}, {"pegs": 4, "colours": 6, "budget": 10},
                  {"pegs": 5, "colours": 5, "budget": 10}):
        for seed in range(15):
            identity = _task(seed, **group)
            policy = MastermindPolicy(identity)
            messages, score = _game(identity, policy.respond)
            assert score == 1.0 == VERIFY(messages, identity)
            assert len(assistant_texts(messages)) <= identity["par"]
            feedback_turns = [m["content"] for m in messages if m["role"] == "user"][1:]
            assert all(" black, " in t and " white." in t for t in feedback_turns)


def test_interaction_and_verifier_agree_on_random_games() -> None:
    rng = random.Random(5)
    for seed in range(60):
        identity = _task(seed, pegs=4, colours=5, budget=6)
        colours = identity["colours"] + "X"

        def respond(messages: list[dict], rng: random.Random = rng, colours: str = colours,
                    secret: str = identity["secret"]) -> dict:
            if rng.random() < 0.2:
                return {"role": "assistant", "content": "hmm"}
            if rng.random() < 0.15:
                return _say(secret)
            return _say("".join(rng.choice(colours) for _ in range(rng.choice((3, 4, 4, 4)))))

        messages, score = _game(identity, respond)
        assert VERIFY(messages, identity) == score


def test_guessing_without_feedback_earns_almost_nothing() -> None:
    tasks = [_task(s) for s in range(200)]
    # a fixed, non-adaptive list of guesses: Knuth's game against one secret, replayed on every other task
    fixed = [m["content"] for m in _game(tasks[0], MastermindPolicy(tasks[0]).respond)[0]
             if m["role"] == "assistant"]
    hits = sum(VERIFY(fixed, t) == 1.0 for t in tasks[1:])
    assert hits <= 0.02 * 199
    # every guess written into one reply: only its last guess tag counts
    one_reply = " ".join(f"<guess>{''.join(c)}</guess>" for c in itertools.product(tasks[0]["colours"], repeat=4))
    assert VERIFY(one_reply, tasks[0]) == (1.0 if one_reply.endswith(f"<guess>{tasks[0]['secret']}</guess>")
                                           else 0.0)
    assert VERIFY([one_reply], tasks[0]) == VERIFY(one_reply, tasks[0])


def test_a_claimed_solution_or_the_code_outside_a_guess_tag_earns_nothing() -> None:
    identity = _task(7)
    secret = identity["secret"]
    assert VERIFY(f"I solved it: the code is {secret}.", identity) == 0.0
    assert VERIFY(["Solved in 2 guesses.", f"The code was {secret}"], identity) == 0.0
    assert VERIFY(f"<guess>{secret.lower()}</guess>", identity) == 1.0  # case-insensitive letters
    assert VERIFY(f"<guess>{' '.join(secret)}</guess>", identity) == 1.0  # spaces and commas allowed
    assert VERIFY(f"<guess>{secret}X</guess>", identity) == 0.0
    assert VERIFY("<guess>" + "١" * identity["pegs"] + "</guess>", identity) == 0.0


def test_one_palette_per_size_so_relabelled_secrets_are_one_identity_and_only_its_colours_count() -> None:
    """Random palettes made a secret and its colour-renamed copies distinct identities: bc-gen kept them, and 21%
    of 1,000 tasks repeated another's puzzle. One palette per size makes them equal, and deduplication redraws."""
    tasks = [_task(s) for s in range(100)]
    assert {t["colours"] for t in tasks} == {"BGOPRY"}
    bc_gen = Path(sys.executable).parent / "bc-gen"
    out = subprocess.run([str(bc_gen), "mastermind", "-n", "300", "--group", "easy", "--seed", "4"],
                         capture_output=True, check=True, timeout=120).stdout
    rows = [orjson.loads(line) for line in out.splitlines()]
    secrets = [r["reward_model"]["ground_truth"]["secret"] for r in rows]
    assert len(set(secrets)) == 300  # 300 of the 625 codes of 4 pegs and 5 colours, none repeated
    identity = tasks[0]
    outside = next(c for c in "RGBYOPWKCM" if c not in identity["colours"])
    game = replay(identity, guesses_in([f"<guess>{outside * identity['pegs']}</guess>"]))
    assert game.guesses == [None]  # a wasted guess
    for t in tasks:
        assert set(t["secret"]) <= set(t["colours"]) and len(t["colours"]) == 6 and t["par"] == 5


def test_unsupported_sizes_and_budgets_are_refused() -> None:
    with pytest.raises(Exception, match="supported"):
        MastermindInstructionGenerator(pegs=3, colours=4)
    with pytest.raises(Exception, match="budget"):
        MastermindInstructionGenerator(pegs=4, colours=6, budget=4)


def test_prompt_states_the_rules_and_not_the_code() -> None:
    gen = MastermindInstructionGenerator()
    gen.rng = RecordRandom(3)
    identity = gen.case_generator()
    prompt = gen.prompt_func(identity)
    assert "<guess>????</guess>" in prompt and str(identity["budget"]) in prompt
    assert VERIFY(prompt, identity) == 0.0


def test_canonical_translation_round_trips() -> None:
    there, back = Knuth.translation("BGKRWY")
    assert "BGKRWY".translate(there) == CANON[:6]
    assert CANON[:6].translate(back) == "BGKRWY"


def test_generated_identities_match_the_identity_schema() -> None:
    validator = Draft202012Validator(MastermindRewardCalculator.identity_schema)
    for seed in range(20):
        assert not list(validator.iter_errors(_task(seed)))
    assert list(validator.iter_errors({"pegs": 4, "colours": "rgb", "secret": "RRGG", "budget": 8, "par": 5}))

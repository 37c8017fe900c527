"""bc_common.ratings on synthetic matches of a known order (issue 27 item 2): Bradley-Terry ratings recover the
strengths that made the results, the matrix counts every game from both sides, the side check finds a planted
first-seat edge and not an absent one."""
from __future__ import annotations

import math

import pytest

from bc_common.ratings import ANCHOR, MatchTally, binomial_p, fit, rate
from tests.filter.rows import match, round_robin, task

STRENGTHS = {"strong": 1400.0, "good": 1200.0, "fair": 1000.0, "weak": 800.0}


def _tally(rows: list[dict]) -> MatchTally:
    tally = MatchTally()
    for row in rows:
        tally.add(row)
    return tally


@pytest.fixture(scope="module")
def known() -> object:
    return rate(_tally(round_robin(STRENGTHS, 100)), n_boot=200, seed=3)


def test_ratings_recover_a_known_order_and_its_gaps(known: object) -> None:
    assert [p.model for p in known.players] == ["strong", "good", "fair", "weak"]
    by = {p.model: p for p in known.players}
    for a, b in (("strong", "good"), ("good", "fair"), ("fair", "weak"), ("strong", "weak")):
        gap = by[a].rating.value - by[b].rating.value
        assert abs(gap - (STRENGTHS[a] - STRENGTHS[b])) < 60, (a, b, gap)
    for p in known.players:  # 600 games each: intervals of a few dozen points around the estimate
        assert p.rating.low < p.rating.value < p.rating.high and p.rating.high - p.rating.low < 120
        assert p.games == 600
    assert by["strong"].rating.low > by["good"].rating.high  # 200 points apart: intervals do not touch


def test_the_same_input_and_seed_give_the_same_figures(known: object) -> None:
    again = rate(_tally(round_robin(STRENGTHS, 100)), n_boot=200, seed=3)
    assert again == known
    other = rate(_tally(round_robin(STRENGTHS, 100)), n_boot=200, seed=4)
    assert other.players[0].rating.value == known.players[0].rating.value  # the estimate has no randomness
    assert other.players[0].rating.low != known.players[0].rating.low  # the bootstrap does


def test_matrix_counts_each_pair_from_both_sides(known: object) -> None:
    cells = {(r.model, r.opponent): r for r in known.matrix}
    assert len(cells) == 12  # 4 models, every ordered pair, no diagonal
    for (a, b), r in cells.items():
        mirror = cells[(b, a)]
        assert (r.wins, r.draws, r.losses) == (mirror.losses, mirror.draws, mirror.wins)
        assert r.wins + r.draws + r.losses == 200  # 100 games with each seating
    assert cells[("strong", "weak")].score > 0.85 > 0.15 > cells[("weak", "strong")].score


def test_draws_are_half_a_win_and_a_perfect_record_stays_finite() -> None:
    rows = [match(task(i), 0, [("a", 1.0), ("b", 0.0)]) for i in range(10)]
    perfect = rate(_tally(rows), n_boot=100)
    top, bottom = perfect.players
    assert top.model == "a" and math.isfinite(top.rating.value) and top.rating.value > ANCHOR + 250
    assert top.rating.value - ANCHOR == pytest.approx(ANCHOR - bottom.rating.value)  # symmetric about the anchor
    drawn = rate(_tally([match(task(i), 0, [("a", 0.5), ("b", 0.5)]) for i in range(10)]), n_boot=100)
    assert [p.rating.value for p in drawn.players] == pytest.approx([ANCHOR, ANCHOR])
    assert drawn.matrix[0].draws == 10 and drawn.side.p == 1.0


def test_side_bias_finds_a_planted_first_seat_edge_and_not_an_absent_one() -> None:
    fair = rate(_tally(round_robin({"a": 1000.0, "b": 1000.0}, 300, seed=5)), n_boot=200)
    edged = rate(_tally(round_robin({"a": 1000.0, "b": 1000.0}, 300, seed=5, first_edge=150.0)), n_boot=200)
    assert fair.side.p > 0.05 and fair.side.score.low < 0.5 < fair.side.score.high and fair.side.balanced
    assert edged.side.p < 0.001 and edged.side.score.low > 0.55 and edged.side.balanced
    one_way = rate(_tally([match(task(i), 0, [("a", 1.0), ("b", 0.0)]) for i in range(6)]), n_boot=100)
    assert not one_way.side.balanced  # a always first: its strength and the first seat cannot be told apart


def test_unfinished_matches_and_other_rows_are_left_out() -> None:
    tally = MatchTally()
    assert tally.add(match(task(0), 0, [("a", 1.0), ("b", 0.0)]))
    assert tally.add(match(task(1), 0, [("a", None), ("b", None)]))
    assert not tally.add({"task_id": "t", "score": 1.0})  # a single-player trajectory
    ratings = rate(tally, n_boot=100)
    assert (ratings.matches, ratings.unfinished) == (2, 1)
    assert sum(p.games for p in ratings.players) == 2


def test_self_play_is_on_the_diagonal_and_does_not_move_ratings() -> None:
    rows = [match(task(i), 0, [("a", 1.0), ("a", 0.0)]) for i in range(5)]
    rows += [match(task(10 + i), 0, [("a", 1.0), ("b", 0.0)]) for i in range(4)]
    ratings = rate(_tally(rows), n_boot=100)
    diagonal = next(r for r in ratings.matrix if r.model == r.opponent == "a")
    assert (diagonal.wins, diagonal.draws, diagonal.losses) == (5, 0, 0)  # counted once, from the first seat
    without = rate(_tally(rows[5:]), n_boot=100)
    assert [p.rating.value for p in ratings.players] == pytest.approx([p.rating.value for p in without.players])


def test_binomial_p() -> None:
    assert binomial_p(0, 10) == pytest.approx(2 / 1024)
    assert binomial_p(10, 10) == pytest.approx(2 / 1024)
    assert binomial_p(5, 10) == pytest.approx(1.0)
    assert binomial_p(2, 10) == pytest.approx(2 * (1 + 10 + 45) / 1024)
    assert binomial_p(0, 0) == 1.0


def test_fit_matches_the_likelihood_equations() -> None:
    """At the estimate each model's expected score (virtual draw included) equals its actual score."""
    rows = round_robin({"a": 1100.0, "b": 1000.0, "c": 900.0}, 20, seed=9, draw=0.2)
    games = _tally(rows).games()
    ratings = fit(games, ["a", "b", "c"])
    expect = {m: 0.5 for m in ratings}  # the virtual draw
    actual = {m: 0.5 for m in ratings}
    strength = {m: 10 ** ((r - ANCHOR) / 400) for m, r in ratings.items()}
    for m in ratings:
        expect[m] = strength[m] / (strength[m] + 1)
    for (a, b, outcome), n in games.items():
        p = strength[a] / (strength[a] + strength[b])
        expect[a] += n * p
        expect[b] += n * (1 - p)
        actual[a] += n * outcome
        actual[b] += n * (1 - outcome)
    assert expect == pytest.approx(actual, abs=1e-6)

"""Ratings from matches (rows of `bc-eval --opponent-model`): Bradley-Terry ratings on the Elo scale with bootstrap
intervals, the pairwise win/draw/loss matrix, and a side-bias check (first seat against second).

    tally = MatchTally()
    for row in rows:
        tally.add(row)
    ratings = rate(tally, n_boot=1000, seed=0)   # Ratings: players, matrix, side

Every pair of seats of a finished match is one game (the higher seat score wins, equal scores draw); a draw
counts half a win to each side. Bootstraps resample tasks, not matches: the samples of one task (both sides of
it) are correlated, as in bc-report's other intervals.
"""
from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from .seeding import rng_for

ANCHOR = 1000.0  # the rating of the virtual player every player draws once against
ELO = 400.0 / math.log(10.0)  # natural-log strength -> Elo points (10x the odds = 400 points)
ALPHA = 0.05  # 95% intervals


@dataclass
class MatchTally:
    """Games of finished matches, per task (the bootstrap's cluster): (first, second, first's score) -> count."""

    clusters: dict[str, Counter] = field(default_factory=dict)
    matches: int = 0  # match rows read (finished or not)
    unfinished: int = 0  # match rows without a result for every seat (errors, turn limits)

    def add(self, row: dict[str, Any]) -> bool:
        """Count `row` if it is a match (it has `seats`); True when it was one."""
        seats = row.get("seats")
        if not isinstance(seats, list) or len(seats) < 2:
            return False
        self.matches += 1
        results = [s.get("score") if isinstance(s, dict) else None for s in seats]
        if any(not isinstance(r, (int, float)) or isinstance(r, bool) for r in results):
            self.unfinished += 1
            return True
        games = self.clusters.setdefault(str(row.get("task_id")), Counter())
        for i in range(len(seats)):
            for j in range(i + 1, len(seats)):
                first, second = str(seats[i].get("model")), str(seats[j].get("model"))
                outcome = 1.0 if results[i] > results[j] else 0.0 if results[i] < results[j] else 0.5
                games[(first, second, outcome)] += 1
        return True

    def merge(self, other: MatchTally) -> None:
        for task, games in other.clusters.items():
            self.clusters.setdefault(task, Counter()).update(games)
        self.matches += other.matches
        self.unfinished += other.unfinished

    def games(self) -> Counter:
        total: Counter = Counter()
        for games in self.clusters.values():
            total.update(games)
        return total


@dataclass(frozen=True)
class Interval:
    value: float
    low: float
    high: float


@dataclass(frozen=True)
class PlayerRating:
    model: str
    rating: Interval  # Elo scale, 1000 = the anchor
    games: int
    score: float  # mean game score (win 1, draw 0.5)


@dataclass(frozen=True)
class PairRecord:
    """`model` against `opponent`: its wins, draws and losses, whichever seat it sat in."""

    model: str
    opponent: str
    wins: int
    draws: int
    losses: int

    @property
    def score(self) -> float:
        n = self.wins + self.draws + self.losses
        return (self.wins + 0.5 * self.draws) / n if n else math.nan


@dataclass(frozen=True)
class SideBias:
    """The first seat's record over every game; `p` is the exact two-sided binomial test of first-seat wins among
    decisive games against 1/2; `balanced` says whether every pair of models sat both ways equally often."""

    wins: int
    draws: int
    losses: int
    score: Interval
    p: float
    balanced: bool


@dataclass(frozen=True)
class Ratings:
    players: list[PlayerRating]  # best first
    matrix: list[PairRecord]
    side: SideBias
    matches: int
    unfinished: int
    n_boot: int

    def lines(self) -> list[str]:
        """A plain-text summary (what `bc-filter --stats` prints)."""
        out = [f"ratings from {self.matches:,} matches ({self.unfinished:,} unfinished, left out): Bradley-Terry, "
               f"Elo scale, 95% bootstrap over tasks ({self.n_boot:,} resamples)"]
        for p in self.players:
            out.append(f"  {p.model}: {p.rating.value:.0f} [{p.rating.low:.0f}, {p.rating.high:.0f}]  "
                       f"games {p.games:,}  score {p.score:.3f}")
        out.append("win/draw/loss (row model against column model):")
        for r in self.matrix:
            out.append(f"  {r.model} vs {r.opponent}: {r.wins}-{r.draws}-{r.losses}  score {r.score:.3f}")
        s = self.side
        out.append(f"side bias: first seat {s.wins}-{s.draws}-{s.losses}, score {s.score.value:.3f} "
                   f"[{s.score.low:.3f}, {s.score.high:.3f}], p = {s.p:.3g} (exact binomial on decisive games)"
                   + ("" if s.balanced else "; seats not balanced: player strength is mixed in"))
        return out


def fit(games: Counter, players: list[str], iterations: int = 100) -> dict[str, float]:
    """Bradley-Terry ratings (Elo scale): the maximum of the likelihood with each player given one virtual draw
    against a player rated ANCHOR (keeps a perfect record finite and fixes the scale's origin), by Newton's
    method on log-strengths (the objective is strictly concave, so it converges in a few steps)."""
    index = {p: i for i, p in enumerate(players)}
    won = [0.5] * len(players)  # the virtual draw's half win
    met: Counter = Counter()  # pair of indices -> games
    for (first, second, outcome), n in games.items():
        if first == second:  # a model against itself says nothing about its rating
            continue
        a, b = index[first], index[second]
        won[a] += outcome * n
        won[b] += (1.0 - outcome) * n
        met[(a, b)] += n
    theta = [0.0] * len(players)
    for _ in range(iterations):
        grad = list(won)
        hess = [[0.0] * len(players) for _ in players]
        for i in range(len(players)):  # the virtual game against strength 1 (log-strength 0)
            p = 1.0 / (1.0 + math.exp(-theta[i]))
            grad[i] -= p
            hess[i][i] += p * (1.0 - p)
        for (a, b), n in met.items():
            p = 1.0 / (1.0 + math.exp(theta[b] - theta[a]))
            grad[a] -= n * p
            grad[b] -= n * (1.0 - p)
            w = n * p * (1.0 - p)
            hess[a][a] += w
            hess[b][b] += w
            hess[a][b] -= w
            hess[b][a] -= w
        step = _solve(hess, grad)
        theta = [t + d for t, d in zip(theta, step, strict=True)]
        if max((abs(d) for d in step), default=0.0) < 1e-10:
            break
    return {p: ANCHOR + ELO * theta[index[p]] for p in players}


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """x with matrix @ x = vector (Gaussian elimination with partial pivoting; the matrix is positive definite)."""
    n = len(vector)
    rows = [row[:] + [v] for row, v in zip(matrix, vector, strict=True)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(rows[r][col]))
        rows[col], rows[pivot] = rows[pivot], rows[col]
        for r in range(col + 1, n):
            factor = rows[r][col] / rows[col][col]
            if factor:
                for c in range(col, n + 1):
                    rows[r][c] -= factor * rows[col][c]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (rows[r][n] - sum(rows[r][c] * x[c] for c in range(r + 1, n))) / rows[r][r]
    return x


def _percentiles(values: list[float]) -> tuple[float, float]:
    values = sorted(values)
    lo = values[int(math.floor(ALPHA / 2 * (len(values) - 1)))]
    hi = values[int(math.ceil((1 - ALPHA / 2) * (len(values) - 1)))]
    return lo, hi


def _first_score(games: Counter) -> tuple[int, int, int]:
    wins = sum(n for (_, _, o), n in games.items() if o == 1.0)
    draws = sum(n for (_, _, o), n in games.items() if o == 0.5)
    return wins, draws, sum(games.values()) - wins - draws


def binomial_p(k: int, n: int) -> float:
    """Exact two-sided p of `k` successes in `n` fair trials (the probability of a result as unlikely or less)."""
    if n == 0:
        return 1.0
    log_pmf = [math.lgamma(n + 1) - math.lgamma(i + 1) - math.lgamma(n - i + 1) - n * math.log(2)
               for i in range(n + 1)]
    cut = log_pmf[k] + 1e-9
    return min(1.0, sum(math.exp(v) for v in log_pmf if v <= cut))


def rate(tally: MatchTally, n_boot: int = 1000, seed: int = 0) -> Ratings:
    """Ratings, matrix and side check of every finished game in `tally`, intervals from `n_boot` resamples of
    tasks (seeded: the same input gives the same figures)."""
    games = tally.games()
    players = sorted({m for (a, b, _) in games for m in (a, b)})
    point = fit(games, players)
    keys = list(games)
    where = {key: i for i, key in enumerate(keys)}
    tasks = [[(where[key], n) for key, n in cluster.items()] for cluster in tally.clusters.values()]
    rng = rng_for("ratings", seed)
    boot: dict[str, list[float]] = {p: [] for p in players}
    first_scores: list[float] = []
    for _ in range(n_boot if tasks else 0):
        counts = [0] * len(keys)
        for cluster in rng.choices(tasks, k=len(tasks)):
            for i, n in cluster:
                counts[i] += n
        sample = Counter({keys[i]: n for i, n in enumerate(counts) if n})
        fitted = fit(sample, players)
        for p in players:
            boot[p].append(fitted[p])
        w, d, _ = _first_score(sample)
        first_scores.append((w + 0.5 * d) / max(1, sum(sample.values())))
    played: Counter = Counter()
    scored: Counter = Counter()
    record: dict[tuple[str, str], list[int]] = {}
    for (a, b, outcome), n in games.items():
        for side, (me, them, mine) in enumerate(((a, b, outcome), (b, a, 1.0 - outcome))):
            played[me] += n
            scored[me] += mine * n
            if side and me == them:
                continue  # a self-play game counts once on the diagonal, from the first seat's side
            counts = record.setdefault((me, them), [0, 0, 0])
            counts[0 if mine == 1.0 else 1 if mine == 0.5 else 2] += n
    ratings = [PlayerRating(p, Interval(point[p], *(_percentiles(boot[p]) if boot[p] else (math.nan, math.nan))),
                            played[p], scored[p] / played[p] if played[p] else math.nan) for p in players]
    ratings.sort(key=lambda r: (-r.rating.value, r.model))
    order = {r.model: i for i, r in enumerate(ratings)}
    matrix = [PairRecord(me, them, *counts) for (me, them), counts in
              sorted(record.items(), key=lambda kv: (order[kv[0][0]], order[kv[0][1]]))]
    wins, draws, losses = _first_score(games)
    n = wins + draws + losses
    seatings: Counter = Counter()
    for (a, b, _), k in games.items():
        seatings[(a, b)] += k
    balanced = all(seatings[(a, b)] == seatings[(b, a)] for a, b in seatings if a != b)
    side = SideBias(wins, draws, losses,
                    Interval((wins + 0.5 * draws) / n if n else math.nan,
                             *(_percentiles(first_scores) if first_scores else (math.nan, math.nan))),
                    binomial_p(wins, wins + losses), balanced)
    return Ratings(ratings, matrix, side, tally.matches, tally.unfinished, n_boot)

"""Hero's showdown equity against each combo of villain's range: exact enumeration on the turn and river, seeded
Monte Carlo on the flop and preflop (a fixed number of shared board samples, each combo averaged over the samples
its cards do not block). The same inputs give the same numbers everywhere (labels, tools, verifier)."""
from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence
from dataclasses import dataclass

from .evaluator import BIT, POW5, BoardEvaluator, cards_str
from .ranges import Combo

MC_SAMPLES = {0: 150, 3: 200}  # board samples by board size before the turn (stated in every prompt)


def mc_rng(hero: Sequence[int], board: Sequence[int]) -> random.Random:
    """The Monte Carlo stream of one spot, keyed by its cards only (so every caller draws the same boards)."""
    key = f"holdem-mc\x1f{cards_str(hero)}\x1f{cards_str(board)}".encode()
    return random.Random(int.from_bytes(hashlib.blake2b(key, digest_size=8).digest(), "little"))


def _runouts(hero: Sequence[int], board: Sequence[int]) -> list[list[int]]:
    dead = set(hero) | set(board)
    deck = [c for c in range(52) if c not in dead]
    missing = 5 - len(board)
    if missing == 0:
        return [[]]
    if missing == 1:
        return [[c] for c in deck]
    rng = mc_rng(hero, board)
    return [rng.sample(deck, missing) for _ in range(MC_SAMPLES[len(board)])]


def combo_equities(hero: Sequence[int], board: Sequence[int], combos: Sequence[Combo]) -> list[float | None]:
    """Hero's equity (win 1, tie 1/2) against each combo; None for a combo hero's cards or the board block."""
    dead = set(hero) | set(board)
    live = [i for i, (a, b) in enumerate(combos) if a not in dead and b not in dead]
    won = [0.0] * len(combos)
    seen = [0] * len(combos)
    h0, h1 = hero
    pairs = [(i, a, b, POW5[a] + POW5[b]) for i, (a, b) in ((i, combos[i]) for i in live)]
    for extra in _runouts(hero, board):
        ev = BoardEvaluator(list(board) + extra)
        mine = ev.value(h0, h1)
        out = set(extra)
        by_key, base, flush = ev.by_key, ev.key, ev.flush
        # at most one suit can make a flush; only combos holding it (or any, when the board is one) need a mask
        suit = ev.flush_suits[0] if ev.flush_suits else -1
        mask = ev.suit_masks[suit] if suit >= 0 else 0
        board_flush = mask.bit_count() >= 5
        for i, a, b, key in pairs:
            if a in out or b in out:
                continue
            theirs = -1
            if suit >= 0 and (board_flush or a & 3 == suit or b & 3 == suit):
                m = mask | (BIT[a] if a & 3 == suit else 0) | (BIT[b] if b & 3 == suit else 0)
                if m.bit_count() >= 5:
                    theirs = flush[m]
            if theirs < 0:
                theirs = by_key[base + key]
            seen[i] += 1
            if mine > theirs:
                won[i] += 1.0
            elif mine == theirs:
                won[i] += 0.5
    return [won[i] / seen[i] if seen[i] else None for i in range(len(combos))]


@dataclass
class RangeEquity:
    """Hero's equities against a weighted villain range, ready for `top(share)` queries."""

    combos: list[Combo]
    weights: list[float]  # villain's weights (before hero's card removal)
    equities: list[float | None]
    board: list[int]

    @classmethod
    def compute(cls, hero: Sequence[int], board: Sequence[int], combos: Sequence[Combo],
                weights: Sequence[float]) -> RangeEquity:
        return cls(list(combos), list(weights), combo_equities(hero, board, combos), list(board))

    def equity(self, weights: Sequence[float] | None = None) -> float:
        """Hero's equity against the (given part of the) range; 0 when nothing of it is live."""
        w = self.weights if weights is None else weights
        total = sum(wi for wi, e in zip(w, self.equities, strict=True) if e is not None)
        if total <= 0:
            return 0.0
        return sum(wi * e for wi, e in zip(w, self.equities, strict=True) if e is not None) / total

"""Which input rows train and which validate, decided in one pass that keeps no rows: the rows of `--val`, else
(RL) the rows marked split test/val, else ~5% held out by a hash of each row's id.

    holdout = Holdout(); [holdout.add(i, key) for i, key in enumerate(keys)]; held = holdout.held()
"""
from __future__ import annotations

import hashlib
import heapq
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

VAL_SPLITS = ("test", "val", "validation", "valid")
MAX_HELD = 64  # rows held out at most


def split_holdout(items: list[Any], key: Any, max_n: int = MAX_HELD) -> tuple[list[Any], list[Any]]:
    """Hold out ~5% (1..max_n) of `items` for validation, chosen by a hash of `key(item)` (stable). A list in
    memory: the reference `Holdout` is tested against."""
    if len(items) < 2:
        return items, list(items)
    n = min(max_n, max(1, len(items) // 20))
    ranked = sorted(range(len(items)), key=lambda i: hashlib.blake2b(key(items[i]).encode(), digest_size=8).digest())
    held = set(ranked[:n])
    return [x for i, x in enumerate(items) if i not in held], [x for i, x in enumerate(items) if i in held]


class Holdout:
    """`split_holdout` over a stream of keys: the MAX_HELD smallest hashes seen, with their row numbers and what
    the caller attached to them."""

    def __init__(self, max_n: int = MAX_HELD):
        self.max_n = max_n
        self.count = 0
        self._heap: list[tuple[int, int, Any]] = []  # (-hash, -row, note): the root is the largest kept

    def add(self, row: int, key: str, note: Any = None) -> None:
        self.count += 1
        h = int.from_bytes(hashlib.blake2b(key.encode(), digest_size=8).digest(), "big")  # the digests' order
        entry = (-h, -row, note)
        if len(self._heap) < self.max_n:
            heapq.heappush(self._heap, entry)
        elif entry > self._heap[0]:
            heapq.heapreplace(self._heap, entry)

    def held(self) -> dict[int, Any]:
        """Row number -> note of the rows held out (1..max_n, ~5%; every row when there is one)."""
        n = min(self.max_n, max(1, self.count // 20))
        kept = sorted((-h, -row, note) for h, row, note in self._heap)[:n]
        return {row: note for _, row, note in kept}


@dataclass(frozen=True)
class Split:
    """Where each input row goes. `train(row)`/`val(row)` take a row number of FILES; `val_file`: the
    validation rows are the --val file's (then every row of FILES trains)."""

    kind: str  # "val-file" | "marked" | "holdout" | "single" | "none"
    held: frozenset[int] = frozenset()
    marked: Callable[[Any], bool] | None = None

    @property
    def val_file(self) -> bool:
        return self.kind == "val-file"

    def train(self, row: int, data: Any) -> bool:
        if self.kind == "marked":
            return not self.marked(data)  # type: ignore[misc]
        return row not in self.held or self.kind == "single"

    def val(self, row: int, data: Any) -> bool:
        if self.kind == "marked":
            return self.marked(data)  # type: ignore[misc]
        return row in self.held


def marked_val(data: Any) -> bool:
    """A task row marked for validation (`extra_info.split` test/val)."""
    return (data.get("extra_info") or {}).get("split") in VAL_SPLITS

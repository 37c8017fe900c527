"""Sticky routing: which worker holds which instance, least-loaded placement, and remembering lost instances."""
from __future__ import annotations

import itertools
from collections import Counter, OrderedDict
from dataclasses import dataclass

from .membership import WorkerInfo


@dataclass
class Placement:
    tool: str
    worker_id: str
    ready: bool = False  # False while the worker's create is in flight
    incarnation: str | None = None  # the worker's name for this create of the id (None: adopted, or an old worker)


class InstanceTable:
    """Instance id -> (tool, worker). Ids of instances lost with a dead worker are kept (bounded) to answer 410."""

    def __init__(self, lost_capacity: int = 100_000):
        self.placements: dict[str, Placement] = {}
        self.load: Counter[str] = Counter()
        self.lost: OrderedDict[str, str] = OrderedDict()
        self.lost_capacity = lost_capacity
        self._tiebreak = itertools.count()

    def choose(self, candidates: list[WorkerInfo]) -> WorkerInfo:
        """The least-loaded candidate; ties rotate so equal workers share new instances evenly."""
        turn = next(self._tiebreak)
        n = len(candidates)
        return min(candidates, key=lambda w: (self.load[w.worker_id], (candidates.index(w) - turn) % n))

    def reserve(self, instance_id: str, tool: str, worker_id: str) -> None:
        self.placements[instance_id] = Placement(tool, worker_id)
        self.load[worker_id] += 1
        self.lost.pop(instance_id, None)

    def confirm(self, instance_id: str, incarnation: str | None = None) -> None:
        placement = self.placements[instance_id]
        placement.ready, placement.incarnation = True, incarnation

    def drop_released(self, instance_id: str, worker_id: str, incarnation: str | None) -> None:
        """A worker reports `instance_id` released or reaped: drop its placement if it is that one. A create in
        flight, or a confirmed create of another incarnation, is newer than the report (the heartbeat was built
        before the id was created again) and stays."""
        placement = self.placements.get(instance_id)
        if placement is None or placement.worker_id != worker_id or not placement.ready:
            return
        if incarnation is None or placement.incarnation in (None, incarnation):
            self.drop(instance_id)

    def drop(self, instance_id: str) -> Placement | None:
        placement = self.placements.pop(instance_id, None)
        if placement is not None:
            self.load[placement.worker_id] -= 1
            if self.load[placement.worker_id] <= 0:
                del self.load[placement.worker_id]
        return placement

    def get(self, instance_id: str) -> Placement | None:
        return self.placements.get(instance_id)

    def is_lost(self, instance_id: str) -> bool:
        return instance_id in self.lost

    def mark_lost(self, instance_id: str, worker_id: str) -> None:
        self.drop(instance_id)
        self.lost[instance_id] = worker_id
        while len(self.lost) > self.lost_capacity:
            self.lost.popitem(last=False)

    def lose_worker(self, worker_id: str) -> int:
        """Every instance placed on `worker_id` becomes lost; returns how many."""
        ids = [i for i, p in self.placements.items() if p.worker_id == worker_id]
        for instance_id in ids:
            self.mark_lost(instance_id, worker_id)
        return len(ids)

    def adopt(self, worker_id: str, live: dict[str, str]) -> None:
        """A (re-)registering worker reports its live instances: route them to it; others it had are lost."""
        for instance_id, p in list(self.placements.items()):
            if p.worker_id == worker_id and instance_id not in live and p.ready:
                self.mark_lost(instance_id, worker_id)
        for instance_id, tool in live.items():
            current = self.placements.get(instance_id)
            if current is None or current.worker_id != worker_id:
                if current is not None:
                    self.drop(instance_id)
                self.reserve(instance_id, tool, worker_id)
                self.confirm(instance_id)

    def by_worker(self) -> dict[str, int]:
        return dict(self.load)

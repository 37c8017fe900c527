"""Ordered, deduplicated, optionally parallel generation of rows by index.

Row i is decided by its index alone, except that a row whose identity already appeared earlier in the
split (or in an excluded set) is redrawn with attempt 1, 2, ... — decided in index order by the parent,
so `-j 2` writes the same bytes as `-j 1`, and shard K/M writes exactly the rows i ≡ K (mod M).
"""
from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from bc_common.errors import ConfigError
from bc_common.tasks import DedupKey, RowSpec, TaskFactory
from bc_common.workers import fork_pool, stop

CHUNK = 1024
MAX_ATTEMPTS = 64


@dataclass
class GenStats:
    rows: int = 0
    regenerated: int = 0


class Factories:
    """The row builders of one generation: one per group spec, built on first use (each process its own)."""

    def __init__(self, specs: list[RowSpec], built: list[TaskFactory | None] | None = None):
        self.specs = specs
        self._built = list(built) if built is not None else [None] * len(specs)

    def __getitem__(self, group: int) -> TaskFactory:
        factory = self._built[group]
        if factory is None:
            factory = self._built[group] = TaskFactory(self.specs[group])
        return factory


_worker_factories: Factories | None = None
Plan = list[tuple[int, int, bool]]  # (row index, group, render)


def _init_worker(specs: list[RowSpec]) -> None:
    global _worker_factories
    _worker_factories = Factories(specs)


def _work(chunk: Plan) -> list[tuple[DedupKey, bytes | None]]:
    assert _worker_factories is not None
    return _draw(_worker_factories, chunk)


def _draw(factories: Factories, chunk: Plan) -> list[tuple[DedupKey, bytes | None]]:
    out = []
    for index, group, render in chunk:
        factory = factories[group]
        if render:
            out.append(factory.row(index))
        else:
            out.append((factory.identity_hash(factory.identity(index)), None))
    return out


def _chunks(plan: Plan, size: int) -> Iterator[Plan]:
    for start in range(0, len(plan), size):
        yield plan[start:start + size]


def generate(specs: RowSpec | list[RowSpec], indices: Iterable[int], *, group_of: Callable[[int], int] | None = None,
             emit: set[int] | None = None, jobs: int = 1, dedup: bool = True, seen: set[DedupKey] | None = None,
             stats: GenStats | None = None, factories: Factories | None = None) -> Iterator[bytes]:
    """Yield JSONL row bytes for `indices` in order; row i is built by group `group_of(i)`'s spec (one spec: all
    rows). With `emit`, only those indices are rendered and yielded; the others are still drawn so that
    deduplication decisions match the full run. `seen` holds dedup keys (`TaskFactory.identity_hash`) to avoid
    (earlier splits) and receives the new ones."""
    specs = [specs] if isinstance(specs, RowSpec) else list(specs)
    stats = stats if stats is not None else GenStats()
    seen = seen if seen is not None else set()
    factories = factories or Factories(specs)
    if jobs <= 1 and emit is None and len(specs) == 1:
        # the factory's own loop, not wrapped in another generator: the path of every plain `bc-gen NAME -n N`
        return _sequential(factories, indices, dedup, seen, stats, specs[0])
    return _planned(specs, indices, group_of or (lambda i: 0), emit, jobs, dedup, seen, stats, factories)


def _planned(specs: list[RowSpec], indices: Iterable[int], group_of: Callable[[int], int], emit: set[int] | None,
             jobs: int, dedup: bool, seen: set[DedupKey], stats: GenStats, factories: Factories) -> Iterator[bytes]:
    """Several groups, a subset to emit, or worker processes: a plan of (index, group, render), drawn in chunks."""
    plan = [(i, group_of(i), emit is None or i in emit) for i in indices]
    if not dedup:
        plan = [p for p in plan if p[2]]
    results: Iterable[list[tuple[DedupKey, bytes | None]]]
    pool = None
    if jobs > 1 and len(plan) > CHUNK:
        pool = fork_pool(jobs, _init_worker, (specs,))
        size = max(64, min(CHUNK, len(plan) // (jobs * 8) or 64))
        results = _ordered(pool, _chunks(plan, size), window=jobs * 4)
    else:
        results = (_draw(factories, c) for c in _chunks(plan, CHUNK))
    try:
        position = 0
        for chunk in results:
            for digest, line in chunk:
                index, group, render = plan[position]
                position += 1
                if dedup and digest in seen:
                    digest, line = _redraw(factories[group], index, render, seen, specs[group])
                    stats.regenerated += 1
                if dedup:
                    seen.add(digest)
                if render:
                    stats.rows += 1
                    yield line
    except BaseException:  # an error, Ctrl-C, or the reader gone (GeneratorExit): a slow bootcamp's chunks in flight
        if pool is not None:  # would take minutes
            stop(pool)
            pool = None
        raise
    finally:
        if pool is not None:
            # not multiprocessing.Pool: its terminate() can hang on a worker it never signals (seen ~1 run in 10)
            pool.shutdown(wait=True, cancel_futures=True)


def _ordered(pool: ProcessPoolExecutor, chunks: Iterator[Plan],
             window: int) -> Iterator[list[tuple[DedupKey, bytes | None]]]:
    """Results of `_work` over `chunks` in order, with at most `window` chunks in flight (bounded memory)."""
    pending: deque = deque()
    for chunk in chunks:
        pending.append(pool.submit(_work, chunk))
        if len(pending) >= window:
            yield pending.popleft().result()
    while pending:
        yield pending.popleft().result()


def _sequential(factories: Factories, indices: Iterable[int], dedup: bool, seen: set[DedupKey], stats: GenStats,
                spec: RowSpec) -> Iterator[bytes]:
    """The one-process path: the same decisions as the chunked one, in `TaskFactory.lines`'s single loop (the
    factory is built here, when `generate` is called: a bad configuration raises before any row is asked for)."""
    factory = factories[0]

    def redraw(index: int) -> tuple[DedupKey, bytes]:
        stats.regenerated += 1
        digest, line = _redraw(factory, index, True, seen, spec)
        assert line is not None
        return digest, line

    def done(count: int) -> None:
        stats.rows += count

    return factory.lines(indices, seen if dedup else None, redraw, done)


def _redraw(factory: TaskFactory, index: int, render: bool, seen: set[DedupKey],
            spec: RowSpec) -> tuple[DedupKey, bytes | None]:
    for attempt in range(1, MAX_ATTEMPTS + 1):
        identity = factory.identity(index, attempt)
        digest = factory.identity_hash(identity)
        if digest not in seen:
            if not render:
                return digest, None
            return factory.render(index, identity)
    raise ConfigError(
        f"{spec.bootcamp}/{spec.generator_name}: cannot produce enough distinct tasks for split "
        f"{spec.split!r}: row {index} is still a duplicate after {MAX_ATTEMPTS} redraws "
        f"({len(seen)} distinct so far). Widen the generator's parameters or ask for fewer rows.")

"""Ordered, deduplicated, optionally parallel generation of rows by index.

Row i is decided by its index alone, except that a row whose identity already appeared earlier in the
split (or in an excluded set) is redrawn with attempt 1, 2, ... — decided in index order by the parent,
so `-j 2` writes the same bytes as `-j 1`, and shard K/M writes exactly the rows i ≡ K (mod M).
"""
from __future__ import annotations

import sys
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sized
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass

from bc_common.errors import ConfigError
from bc_common.tasks import DedupKey, RowSpec, TaskFactory
from bc_common.workers import fork_pool, stop, submit

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


def _plan(indices: Iterable[int], group_of: Callable[[int], int], emit: set[int] | None, dedup: bool,
          size: int) -> Iterator[Plan]:
    """The (index, group, render) entries of `indices` in chunks of `size`, made as they are asked for (a list of
    them all took a tuple a row before the first was drawn: ~0.3 s and ~100 MB for 2M rows). Without dedup, rows
    not emitted are not drawn at all."""
    chunk: Plan = []
    for i in indices:
        render = emit is None or i in emit
        if render or dedup:
            chunk.append((i, group_of(i), render))
            if len(chunk) >= size:
                yield chunk
                chunk = []
    if chunk:
        yield chunk


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
    count = len(indices) if isinstance(indices, Sized) else None  # rows to draw (indices: a range in bc-gen)
    if count is not None and emit is not None and not dedup:
        count = min(count, len(emit))
    results: Iterable[tuple[Plan, list[tuple[DedupKey, bytes | None]]]]
    pool = None
    if jobs > 1 and (count is None or count > CHUNK):
        pool = fork_pool(jobs, _init_worker, (specs,))
        size = CHUNK if count is None else max(64, min(CHUNK, count // (jobs * 8) or 64))
        results = _ordered(pool, _plan(indices, group_of, emit, dedup, size), jobs * 4, factories)
    else:
        results = ((chunk, _draw(factories, chunk)) for chunk in _plan(indices, group_of, emit, dedup, CHUNK))
    try:
        for chunk, drawn in results:
            for (index, group, render), (digest, line) in zip(chunk, drawn, strict=True):
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


def _ordered(pool: ProcessPoolExecutor, chunks: Iterator[Plan], window: int,
             factories: Factories) -> Iterator[tuple[Plan, list[tuple[DedupKey, bytes | None]]]]:
    """Each chunk with the result of `_work` over it, in order, at most `window` chunks in flight (bounded
    memory). A worker that dies (killed, out of memory) breaks the pool: its chunk and every later one are drawn
    in this process instead (the same rows: a row depends on its index alone)."""
    pending: deque = deque()
    broken = False

    def result(chunk: Plan, future: Future | None) -> list[tuple[DedupKey, bytes | None]]:
        nonlocal broken
        if future is not None and not broken:
            try:
                return future.result()
            except BrokenProcessPool:
                broken = True
                print("bc-gen: a worker process died; making the remaining rows in this process", file=sys.stderr)
        return _draw(factories, chunk)

    for chunk in chunks:
        pending.append((chunk, None if broken else submit(pool, _work, chunk)))
        if len(pending) >= window:
            chunk, future = pending.popleft()
            yield chunk, result(chunk, future)
    while pending:
        chunk, future = pending.popleft()
        yield chunk, result(chunk, future)


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

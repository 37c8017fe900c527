"""Benchmark the reasoning-gym adapter: rows/s as bc-gen makes them (`TaskFactory.lines`: coordinates from the
row's rng, the item made, its reference answer verified, the identity and the row serialised) and through
`TaskSet("rg/NAME")[i]` (the same row decoded back into a dict) vs a bare loop of reasoning-gym's own
`dataset[idx]` on the same dataset object (baseline, same run), on one core.

    python bench/rg.py [--n 2000] [--floor]

`--floor` also measures bc-gen's row path with parts of its per-row work taken out, one at a time (a diagnostic:
the rows it makes are not valid, the verification is skipped): what a row would cost without the reference
check, without the identity's JSON form too, and with reasoning-gym's item made once and reused. The last two
are the harness's floor under the current row format: what is left of a row beside the item itself.
Target: >= 0.05x the bare loop, >= 1,000 rows/s (the adapter also verifies the reference answer and builds a JSON row
per item: a fixed ~0.3 ms that the fastest datasets, 25 µs an item, feel most).
"""
from __future__ import annotations

import argparse
import contextlib
import os
import random
import sys
import time
from unittest import mock

# a generation benchmark: datasets withheld for their rewards (bootcamps/rg/withheld.py) generate all the same
os.environ.setdefault("BC_INCLUDE_KNOWN_ISSUES", "1")

try:
    import reasoning_gym  # noqa: F401
except ImportError:  # `make bench` installs the core only
    print("bench/rg.py: skipped (needs the reasoning-gym extra: pip install 'bootcamp-harness[reasoning-gym]')")
    sys.exit(0)

from bc_common.tasks import TaskSet
from bootcamps.rg import datasets, generator

NAMES = ("leg_counting", "word_sorting", "arc_1d", "basic_arithmetic")


def rate(fn, n: int) -> float:
    started = time.process_time()
    for i in range(n):
        fn(i)
    return n / (time.process_time() - started)


def row_rate(factory, start: int, n: int) -> float:
    """Rows/s of bc-gen's own row path (`TaskFactory.lines`) over `n` new indices from `start`."""
    started = time.process_time()
    for _ in factory.lines(range(start, start + n)):
        pass
    return n / (time.process_time() - started)


def plain_identity(name, plan, seed, size, index, item):
    """An identity with the item's values as they are (no JSON form, no restore marks): the floor's stand-in."""
    return {"dataset": name, "config": {}, "seed": seed, "size": size, "index": index,
            "question": item["question"], "answer": item.get("answer"), "metadata": item.get("metadata")}


def floor(name: str, factory, bare: float, n: int) -> None:
    """bc-gen's row path with the reference check, then the identity's JSON form, then the item's making taken
    out (see the module), each stage on top of the ones before: each rate and its ratio to the bare loop."""
    one = datasets.entry(name, factory.generator._plan().params, *datasets.coordinates(name, random.Random(5)))
    stages = [("as made", None, {}),
              ("no reference check", generator, {"unanswerable": lambda identity, plan=None: None}),
              ("and no JSON form", generator, {"_identity": plain_identity}),
              ("and one item reused", datasets, {"entry": lambda *args, **kwargs: one})]
    figures = []
    with contextlib.ExitStack() as stack:
        for label, module, attrs in stages:
            if module is not None:
                stack.enter_context(mock.patch.multiple(module, **attrs))
            rate_ = row_rate(factory, 10 * n, n)  # the same rows each time (items vary in cost: 15 ms to 20 µs)
            figures.append(f"{label} {rate_:,.0f}/s ({rate_ / bare:.2f}x, {1e6 / rate_:.0f} µs)")
    print(f"  floor: {'; '.join(figures)}; the bare item {1e6 / bare:.0f} µs")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=2000)
    parser.add_argument("--floor", action="store_true", help="Also the row path with parts taken out (see above).")
    args = parser.parse_args()
    n = args.n
    for name in NAMES:
        tasks = TaskSet(f"rg/{name}", seed=1)
        tasks[0]  # warm: the dataset object is built once per process
        shared = datasets.dataset(name, {}, 0, datasets.FULL_SIZE)
        draws = random.Random(1)
        indices = [draws.randrange(datasets.FULL_SIZE) for _ in range(n)]
        bare = rate(lambda i, shared=shared, indices=indices: shared[indices[i]], n)
        adapter = rate(lambda i, tasks=tasks: tasks[i + 1], n)
        # bc-gen's own path: the row's bytes (TaskFactory.lines), no dict decoded back from them
        factory = tasks.factory(tasks.plan[0])
        rows = row_rate(factory, n + 1, n)
        print(f"rg/{name}: bc-gen rows {rows:,.0f}/s ({rows / bare:.2f}x), TaskSet[i] {adapter:,.0f}/s "
              f"({adapter / bare:.2f}x) vs reasoning-gym's bare loop {bare:,.0f} items/s")
        if args.floor:
            floor(name, factory, bare, n)


if __name__ == "__main__":
    main()

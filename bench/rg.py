"""Benchmark the reasoning-gym adapter: rows/s as bc-gen makes them (`TaskFactory.lines`: coordinates from the
row's rng, the item made, its reference answer verified, the identity and the row serialised) and through
`TaskSet("rg/NAME")[i]` (the same row decoded back into a dict) vs a bare loop of reasoning-gym's own
`dataset[idx]` on the same dataset object (baseline, same run), on one core.

    python bench/rg.py [--n 2000]
Target: >= 0.05x the bare loop, >= 1,000 rows/s (the adapter also verifies the reference answer and builds a JSON row
per item: a fixed ~0.3 ms that the fastest datasets, 25 µs an item, feel most).
"""
from __future__ import annotations

import argparse
import os
import random
import sys
import time

# a generation benchmark: datasets withheld for their rewards (bootcamps/rg/withheld.py) generate all the same
os.environ.setdefault("BC_INCLUDE_KNOWN_ISSUES", "1")

try:
    import reasoning_gym  # noqa: F401
except ImportError:  # `make bench` installs the core only
    print("bench/rg.py: skipped (needs the reasoning-gym extra: pip install 'bootcamp-harness[reasoning-gym]')")
    sys.exit(0)

from bc_common.tasks import TaskSet
from bootcamps.rg import datasets

NAMES = ("leg_counting", "word_sorting", "arc_1d", "basic_arithmetic")


def rate(fn, n: int) -> float:
    started = time.process_time()
    for i in range(n):
        fn(i)
    return n / (time.process_time() - started)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=2000)
    n = parser.parse_args().n
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
        started = time.process_time()
        for _ in factory.lines(range(n + 1, 2 * n + 1)):
            pass
        rows = n / (time.process_time() - started)
        print(f"rg/{name}: bc-gen rows {rows:,.0f}/s ({rows / bare:.2f}x), TaskSet[i] {adapter:,.0f}/s "
              f"({adapter / bare:.2f}x) vs reasoning-gym's bare loop {bare:,.0f} items/s")


if __name__ == "__main__":
    main()

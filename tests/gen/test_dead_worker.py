"""bc-gen -j: a worker that dies (killed, out of memory) costs its chunks, not the run: they and every later one are
made in the parent, and the rows are the same bytes as one process writes."""
from __future__ import annotations

import os

import pytest

from bc_gen import generate as gen

from .test_rows_fast_path import spec_for

_WORK = gen._work


def _dies_on_a_later_chunk(chunk):
    """Run in the worker (forked with this in place): killed on the chunk that starts at row 2,000 or later."""
    if chunk[0][0] >= 2000:
        os._exit(9)
    return _WORK(chunk)


@pytest.mark.parametrize("jobs", [2, 3])
def test_a_dead_worker_leaves_the_rest_to_the_parent(monkeypatch, capfd, jobs):
    spec = spec_for("arithmetic")
    want = list(gen.generate(spec, range(5000), jobs=1))
    monkeypatch.setattr(gen, "_work", _dies_on_a_later_chunk)
    stats = gen.GenStats()
    got = list(gen.generate(spec, range(5000), jobs=jobs, stats=stats))
    assert got == want and stats.rows == 5000
    assert "a worker process died" in capfd.readouterr().err

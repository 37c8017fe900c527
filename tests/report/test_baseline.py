"""bc-report --baseline: baseline runs (bc-eval --model builtin:baseline/NAME) are reference lines: rows of their own
in every table and ticks on the score-by-group plot, never compared or counted in the headline cards."""
from __future__ import annotations

import pytest

from .conftest import BIN, bc_report, run


@pytest.fixture(scope="module")
def noop_runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    folder = tmp_path_factory.mktemp("baseline")
    tasks = folder / "tasks.jsonl"
    proc = run(BIN / "bc-gen", "noop", "-n", "40", "--seed", "5", "-o", tasks)
    assert proc.returncode == 0, proc.stderr.decode()
    out = {}
    for name, model in (("reference", "builtin:reference"), ("copy", "builtin:baseline/copy"),
                        ("random", "builtin:random")):
        out[name] = folder / f"{name}.jsonl"
        proc = run(BIN / "bc-eval", tasks, "--model", model, "-o", out[name])
        assert proc.returncode == 0, proc.stderr.decode()
        assert model in proc.stderr.decode()  # bc-eval's summary names the baseline it played
    return out


def test_baselines_are_rows_of_their_own_named_by_the_model(noop_runs):
    proc = bc_report(noop_runs["reference"], "--baseline", noop_runs["copy"], "--baseline", noop_runs["random"],
                     "--format", "md")
    assert proc.returncode == 0, proc.stderr.decode()
    md = proc.stdout.decode()
    lines = [line for line in md.splitlines() if line.startswith("| ")]
    copy = [line for line in lines if "baseline: builtin:baseline/copy" in line]
    rand = [line for line in lines if "baseline: builtin:random" in line]
    assert len(copy) == 3 and len(rand) == 3  # overall, bootcamp, group
    assert all("| 0.000 [" in line for line in copy)
    ref_overall = next(line for line in lines if line.startswith("| reference | all |"))
    assert "| 1.000 [" in ref_overall
    assert "Comparison" not in md and "baseline runs (--baseline)" in md
    assert "baseline: builtin:baseline/copy (40)" in proc.stderr.decode()


def test_the_page_draws_baselines_as_ticks_and_keeps_them_out_of_the_cards(noop_runs, tmp_path):
    page = tmp_path / "report.html"
    proc = bc_report(noop_runs["reference"], "--baseline", noop_runs["copy"], "-o", page)
    assert proc.returncode == 0, proc.stderr.decode()
    html = page.read_text()
    assert "Grey ticks: the baseline runs" in html and '"tick"' in html
    assert html.count("<div class='cards'>") == 1  # one headline row: the run, not the baseline


def test_a_baseline_needs_trajectories(noop_runs, tmp_path):
    empty = tmp_path / "empty.jsonl"
    empty.write_bytes(b"")
    proc = bc_report(noop_runs["reference"], "--baseline", empty, "--format", "md")
    assert proc.returncode == 2 and "empty.jsonl" in proc.stderr.decode()

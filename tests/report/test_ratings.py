"""bc-report's ratings (issue 27 item 2): match runs of three models of a known order, one file per evaluated
model, pooled into Bradley-Terry ratings, the win/draw/loss matrix and the side-bias check."""
from __future__ import annotations

from pathlib import Path

from bc_report.report import ReportOptions, build_report
from bc_report.runs import RunSpec
from tests.filter.rows import eval_run, round_robin

from .conftest import bc_report, write_jsonl

STRENGTHS = {"strong": 1300.0, "fair": 1000.0, "weak": 700.0}


def _files(tmp_path: Path) -> dict[str, Path]:
    rows = round_robin(STRENGTHS, 30, seed=2)
    return {m: write_jsonl(tmp_path / f"{m}.jsonl", [r for r in rows if r["model"] == m]) for m in STRENGTHS}


def _table(md: str, title: str) -> list[list[str]]:
    block = md.split(f"### {title}\n", 1)[1].strip().split("\n\n", 1)[0]
    return [[c.strip() for c in line.strip("|").split("|")] for line in block.splitlines()[2:]]


def test_ratings_matrix_and_side_check_of_several_match_files(tmp_path: Path) -> None:
    files = _files(tmp_path)
    proc = bc_report(files["fair"], "--compare", files["strong"], "--compare", files["weak"], "--format", "md",
                     "--bootstrap", "200")
    assert proc.returncode == 0, proc.stderr.decode()
    md = proc.stdout.decode()
    ratings = _table(md, "Ratings")
    assert [r[0] for r in ratings] == ["strong", "fair", "weak"]  # the known order, from all three files
    assert [r[2] for r in ratings] == ["120", "120", "120"]
    assert "180 matches (0 unfinished" in md and "200 resamples" in md
    matrix = {r[0]: r[1:] for r in _table(md, "Wins, draws and losses")}
    assert matrix["strong"][0] == matrix["fair"][1] == matrix["weak"][2] == "–"
    wins, draws, losses = (int(x) for x in matrix["strong"][2].split(" ")[0].split("-"))
    assert wins + draws + losses == 60 and wins > 50  # 300 points apart: strong wins ~85% of the games
    assert matrix["weak"][0].startswith(f"{losses}-{draws}-{wins} ")
    side = _table(md, "Side bias (first seat against second)")[0]
    assert sum(int(side[i]) for i in range(3)) == 180 and side[5] == "yes"
    assert float(side[4]) > 0.01  # no first-seat edge was planted
    assert "ratings: strong" in proc.stderr.decode()


def test_a_run_without_matches_has_no_ratings(tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "plain.jsonl", eval_run(n_tasks=3, samples=2))
    report = build_report(RunSpec("plain", [str(path)]), options=ReportOptions(n_boot=100))
    assert report.ratings is None
    assert "table-ratings" not in [t.id for t in report.tables()]

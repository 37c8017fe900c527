"""bc_common.reclassify: the generated withheld.py tables and the README summary, from a run's results."""
from __future__ import annotations

from bc_common.reclassify import summary, write_tables

HEADER = '"""generated"""\nfrom __future__ import annotations\n'


def _load(path) -> dict:
    namespace: dict = {}
    exec(compile(path.read_text(), str(path), "exec"), namespace)  # noqa: S102  (our own generated file)
    return namespace


def test_tables_keep_what_was_not_measured_and_replace_what_was(tmp_path) -> None:
    out = tmp_path / "withheld.py"
    results = [{"name": "yesno", "failures": {}, "labels": 2, "small": None},
               {"name": "counts", "failures": {"baselines_score_low": "frequent 0.4"}, "labels": None,
                "small": "9 distinct answers in 50"},
               {"name": "slow", "failures": {"time": "x" * 400}, "labels": None, "small": None},
               {"name": "other", "failures": {"available": "needs pyggp"}, "labels": None, "small": None}]
    keep = {"WITHHELD": {"yesno": "old reason", "other": "kept"}, "LABELS": {"old": 3, "counts": 4}}
    assert write_tables(out, HEADER, results, key="name", keep=keep) == 3
    tables = _load(out)
    assert tables["WITHHELD"] == {"counts": "baselines_score_low: frequent 0.4", "other": "kept",
                                  "slow": "time: " + "x" * 300}
    assert tables["LABELS"] == {"old": 3, "yesno": 2}  # counts was measured: its old entry goes
    assert tables["SMALL"] == {"counts": "9 distinct answers in 50"}
    assert out.read_text().startswith(HEADER + "\nWITHHELD: dict[str, str] = {")


def test_summary_lists_the_passing_ones_and_the_rest_by_first_failing_check() -> None:
    results = [{"d": "b", "failures": {}, "labels": 2}, {"d": "a", "failures": {}},
               {"d": "c", "failures": {"noisy_below_reference": "gap", "time": "late"}},
               {"d": "e", "failures": {"cross_instance_answers": "9%"}},
               {"d": "f", "failures": {"cross_instance_answers": "7%"}},
               {"d": "g", "failures": {"available": "needs a download"}}]
    assert summary(results, key="d") == (
        "2 of 5 pass every check: a, b (k=2).\n\n| first failing check | names |\n|---|---|\n"
        "| cross_instance_answers (2) | e, f |\n| noisy_below_reference (1) | c |\n\n"
        "Not classified (cannot run here): g.")

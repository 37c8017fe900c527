"""bc-report checks the fields it counts and refuses shards that cannot be one run, naming both files."""
from __future__ import annotations

import json

import pytest

from bc_common.errors import InputError
from bc_report.answers import Extractor
from bc_report.runs import Run, Sample

from .conftest import bc_report, read_jsonl, write_jsonl

BASE = {"id": "t#0", "task_id": "t", "input": {"data_source": "bootcamp/x"}, "messages": [], "score": 0.5,
        "status": "completed", "sample": 0, "model": "m"}


@pytest.mark.parametrize("change,field", [
    ({"sample": 10**30}, "sample"), ({"sample": -1}, "sample"), ({"sample": 1.5}, "sample"),
    ({"score": 1e308}, "score"), ({"score": -5}, "score"), ({"score": 1.0000001}, "score"),
    ({"usage": {"prompt_tokens": 1e308}}, "usage.prompt_tokens"),
    ({"usage": {"completion_tokens": -3}}, "usage.completion_tokens"),
    ({"timing": {"wall_s": -1}}, "timing.wall_s"), ({"task_id": 7}, "task_id"), ({"model": {"a": 1}}, "model")])
def test_a_field_out_of_range_is_bad_input_naming_file_line_and_field(tmp_path, change, field):
    path = tmp_path / "run.jsonl"  # the standard library writes 10**30 as JSON does; orjson refuses it
    path.write_text("".join(json.dumps(r) + "\n" for r in [BASE, {**BASE, "id": "t#1", "sample": 1, **change}]))
    proc = bc_report(path, "--format", "md")
    assert proc.returncode == 2, proc.stderr.decode()
    assert f"run.jsonl:2: field '{field}'" in proc.stderr.decode()
    assert "internal error" not in proc.stderr.decode() and not proc.stdout


def test_overlapping_shards_name_both_files_and_point_at_compare(runs, tmp_path):
    rows = read_jsonl(runs["noisy1"])
    first = write_jsonl(tmp_path / "a.jsonl", rows[:100])
    second = write_jsonl(tmp_path / "b.jsonl", rows[90:])  # ten (task, sample) pairs in both
    proc = bc_report(first, second, "--format", "md")
    err = proc.stderr.decode()
    assert proc.returncode == 2 and "b.jsonl:1" in err and "already in" in err and "a.jsonl" in err, err
    assert "--compare" in err and "internal error" not in err


def test_two_runs_of_one_model_given_as_shards_are_refused(runs):
    proc = bc_report(runs["noisy1"], runs["noisy2"], "--format", "md")
    err = proc.stderr.decode()
    assert proc.returncode == 2 and "noisy2.jsonl:1" in err and "noisy1.jsonl" in err and "--compare" in err, err


def test_runs_of_two_models_given_as_shards_are_refused(runs):
    proc = bc_report(runs["noisy1"], runs["reference"], "--format", "md")
    err = proc.stderr.decode()
    assert proc.returncode == 2 and "model 'builtin:reference'" in err and "noisy1.jsonl:1" in err, err
    assert "--compare" in err


def test_one_file_given_twice_is_refused(runs):
    proc = bc_report(runs["noisy1"], runs["noisy1"], "--format", "md")
    assert proc.returncode == 2 and "given twice" in proc.stderr.decode()


def test_disjoint_shards_of_one_run_report_like_the_whole(runs, tmp_path):
    rows = read_jsonl(runs["noisy1"])
    first = write_jsonl(tmp_path / "n.0.jsonl", rows[::2])
    second = write_jsonl(tmp_path / "n.1.jsonl", rows[1::2])
    whole = bc_report(runs["noisy1"], "--format", "md")
    shards = bc_report(first, second, "--format", "md")
    assert whole.returncode == shards.returncode == 0, shards.stderr.decode()

    def counts(out: bytes) -> list[list[str]]:  # bootstrap intervals follow task order; counts and means do not
        return [[cell.split(" [")[0] for cell in line.split("|")] for line in out.decode().splitlines()
                if line.startswith("| all")]

    assert counts(whole.stdout) and counts(whole.stdout) == counts(shards.stdout)


def test_identical_trajectories_under_different_tasks_never_compare_dicts(tmp_path):
    """Rows sharing an id hash alike in the browser's sample: the tie is broken by arrival, not by the rows."""
    rows = [dict(BASE, task_id=f"t{i}", id="same-id", score=0.0, status="error") for i in range(5)]
    run = Run("ties", max_failures=3, extractor=Extractor())
    run.read_files([str(write_jsonl(tmp_path / "ties.jsonl", rows))])
    assert run.count == 5 and len(run.embedded()) == 3


def test_the_sample_breaks_hash_ties_by_arrival():
    sample = Sample(2, seed=0)
    for item in ({"a": 1}, {"a": 2}, {"a": 3}):
        h = sample.wants("k")
        if h is not None:
            sample.keep(h, "k", item)
    assert len(sample.items()) == 2


def test_a_repeat_in_one_file_is_refused_in_the_python_api_too(tmp_path):
    path = write_jsonl(tmp_path / "rep.jsonl", [BASE, BASE])
    with pytest.raises(InputError, match=r"rep.jsonl:2: task 't' sample 0 is already in .*rep.jsonl"):
        Run("rep").read_files([str(path)])


@pytest.mark.parametrize("sample", [0, 5, 63, 64, 1000, 10**9])
def test_a_repeat_is_found_whatever_the_sample_and_names_the_first_file(tmp_path, sample):
    """Samples 0-63 are kept as bits per task, higher ones in a set: both find a repeat, after other rows."""
    row = {**BASE, "id": f"t#{sample}", "sample": sample}
    others = [{**BASE, "id": f"u#{s}", "task_id": "u", "sample": s} for s in (0, 1, 64, 65)]
    first = write_jsonl(tmp_path / "first.jsonl", [*others, row, {**row, "task_id": "v", "id": "v#0"}])
    second = write_jsonl(tmp_path / "second.jsonl", [{**BASE, "id": "w#0", "task_id": "w"}, row])
    run = Run("r")
    with pytest.raises(InputError, match=rf"second.jsonl:2: task 't' sample {sample} is already in .*first.jsonl"):
        run.read_files([str(first), str(second)])
    ok = Run("r")
    ok.read_files([str(first)])
    assert ok.count == 6 and ok.task_ids == ["u", "t", "v"] and list(ok.task_n) == [4, 1, 1]

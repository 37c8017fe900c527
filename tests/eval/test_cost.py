"""Cost: `--price IN,OUT` (or the built-in table) prices each row's usage; the summary sums it per bootcamp and run."""
from __future__ import annotations

import subprocess

import orjson
import pytest

from bc_common.errors import ConfigError
from bc_common.pricing import BUILTIN_PRICES, Price, find_price, parse_price

from .conftest import BIN, answer, arithmetic_task, bc_eval_env, read_jsonl, write_jsonl


def test_parse_price_reads_two_numbers_and_refuses_the_rest():
    assert parse_price("2.5,10") == Price(2.5, 10.0, "--price")
    for bad in ("2.5", "a,b", "1,2,3", "-1,2", "nan,1", "1,1e9"):
        with pytest.raises(ConfigError, match="--price"):
            parse_price(bad)


def test_the_table_prices_a_listed_model_and_its_dated_snapshots_only():
    assert find_price("gpt-4o-mini").input_per_mtok == BUILTIN_PRICES["gpt-4o-mini"][0]
    snapshot = find_price("gpt-4o-2024-08-06")
    assert (snapshot.input_per_mtok, snapshot.output_per_mtok) == BUILTIN_PRICES["gpt-4o"]
    assert snapshot.source == "built-in table: gpt-4o"
    assert find_price("claude-sonnet-4-20250514").source == "built-in table: claude-sonnet-4"
    assert find_price("gpt-4o-audio-preview") is None  # another model, not a snapshot
    assert find_price("qwen3-8b") is None
    assert find_price("gpt-4o", Price(1, 1)) == Price(1, 1)  # --price wins over the table


def test_cost_of_usage():
    cost = Price(2.0, 8.0).cost({"prompt_tokens": 1_000_000, "completion_tokens": 500_000})
    assert cost["usd"] == pytest.approx(6.0)
    assert Price(2.0, 8.0).cost({})["usd"] == 0.0


def test_rows_and_summary_carry_cost(tmp_path, scripted):
    tasks = write_jsonl(tmp_path / "tasks.jsonl", [arithmetic_task("2 + 3", 0, tools=False, interaction=False),
                                                    arithmetic_task("4 * 5", 1, tools=False, interaction=False)])
    usage = {"prompt_tokens": 1000, "completion_tokens": 100, "total_tokens": 1100}
    _, url = scripted({"Compute 2 + 3 (task 0).": [{"content": answer(5), "usage": usage}],
                       "Compute 4 * 5 (task 1).": [{"content": answer(20), "usage": usage}]})
    out, summary = tmp_path / "out.jsonl", tmp_path / "s.json"
    proc = subprocess.run([str(BIN / "bc-eval"), str(tasks), "-o", str(out), "--base-url", url, "--model",
                           "scripted", "--price", "3,15", "--summary", str(summary)],
                          capture_output=True, text=True, env=bc_eval_env())
    assert proc.returncode == 0, proc.stderr
    rows = read_jsonl(out)
    # 1000 in at $3/M + 100 out at $15/M = $0.0045 a row
    assert [r["cost"]["usd"] for r in rows] == [pytest.approx(0.0045)] * 2
    assert rows[0]["cost"]["price_source"] == "--price"
    report = orjson.loads(summary.read_bytes())
    assert report["total"]["cost_usd"] == pytest.approx(0.009)
    assert report["by_data_source"]["bootcamp/arithmetic"]["cost_usd"] == pytest.approx(0.009)
    assert report["prices"] == [{"input_per_mtok": 3.0, "output_per_mtok": 15.0, "source": "--price", "rows": 2}]
    assert "cost: $0.0090 for 2 of 2 trajectories" in proc.stderr and "cost_$" in proc.stderr


def test_a_model_without_a_price_has_no_cost_and_a_table_model_has_one(tmp_path, scripted):
    tasks = write_jsonl(tmp_path / "tasks.jsonl", [arithmetic_task("2 + 3", 0, tools=False, interaction=False)])
    usage = {"prompt_tokens": 2000, "completion_tokens": 0, "total_tokens": 2000}
    _, url = scripted({"Compute 2 + 3 (task 0).": [{"content": answer(5), "usage": usage}]},
                      models=["gpt-4o-mini", "my-model"])
    for model, expected in (("my-model", None), ("gpt-4o-mini", pytest.approx(0.0003))):
        out = tmp_path / f"{model}.jsonl"
        proc = subprocess.run([str(BIN / "bc-eval"), str(tasks), "-o", str(out), "--base-url", url, "--model", model],
                              capture_output=True, text=True, env=bc_eval_env())
        assert proc.returncode == 0, proc.stderr
        row = read_jsonl(out)[0]
        assert (row.get("cost") or {}).get("usd") == expected
        assert ("cost:" in proc.stderr) == (expected is not None)


def test_bad_price_is_exit_2_before_anything_runs(tmp_path):
    tasks = write_jsonl(tmp_path / "tasks.jsonl", [arithmetic_task("2 + 3")])
    out = tmp_path / "out.jsonl"
    proc = subprocess.run([str(BIN / "bc-eval"), str(tasks), "-o", str(out), "--model", "builtin:reference",
                           "--price", "3"], capture_output=True, text=True, env=bc_eval_env())
    assert proc.returncode == 2 and "--price '3'" in proc.stderr
    assert not out.exists()

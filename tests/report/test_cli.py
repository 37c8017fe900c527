"""The `bc-report` command: Markdown tables, the paired comparison, bad input, the missing extra, escaping."""
from __future__ import annotations

import copy
import re
import sys

import pytest

from bc_common.extras import install_hint

from .conftest import BIN, bc_report, read_jsonl, run, write_jsonl

HOSTILE = ("</script><script>window.__pwned=1</script><img src=x onerror=\"window.__pwned=2\">"
           "<!-- ]]> \u2028 | `x` **bold** [link](javascript:alert(1))")


def comparison_rows(markdown: str) -> dict[tuple[str, str, str], list[str]]:
    """Rows of the Markdown comparison table by (base, other, scope)."""
    section = markdown.split("### Paired comparison", 1)[1].split("###", 1)[0]
    rows = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 15 and cells[0] not in ("base", "---"):
            rows[(cells[0], cells[1], cells[2])] = cells
    return rows


def test_markdown_tables_count_every_trajectory(runs):
    proc = bc_report(runs["noisy1"], "--format", "md")
    assert proc.returncode == 0, proc.stderr.decode()
    md = proc.stdout.decode()
    rows = read_jsonl(runs["noisy1"])
    for heading in ("### Overall", "### By bootcamp", "### By bootcamp and difficulty group", "### Tool calls"):
        assert heading in md
    overall = next(line for line in md.splitlines() if line.startswith("| all |"))
    cells = [c.strip() for c in overall.strip("|").split("|")]
    assert cells[1] == f"{len(rows):,}" and cells[2] == f"{len(rows) // 2:,}"
    mean = sum(r["score"] for r in rows) / len(rows)
    assert cells[3].startswith(f"{mean:.3f} [")  # mean score with its interval
    assert "pass@2 [95% CI]" in md  # two samples per task: pass@2 is there
    for name in ("arithmetic/easy", "tictactoe/hard"):
        assert f"| {name} |" in md
    assert "<" not in md.replace("\\<", "")  # nothing a Markdown renderer could take for a tag


def test_reference_against_noisy_is_significant_and_two_noisy_seeds_are_not(runs):
    proc = bc_report(runs["noisy1"], "--compare", runs["reference"], "--compare", runs["noisy2"], "--format", "md")
    assert proc.returncode == 0, proc.stderr.decode()
    rows = comparison_rows(proc.stdout.decode())
    better = rows[("noisy1", "reference", "all")]
    assert better[-1] == "significant (score and pass/fail)"
    assert float(better[7].split()[0]) > 0.1  # reference scores higher
    same = rows[("noisy1", "noisy2", "all")]
    assert same[-1] == "not significant: within noise", same
    assert ("noisy1", "reference", "tictactoe") in rows and ("noisy1", "noisy2", "arithmetic") in rows
    err = proc.stderr.decode()
    assert "reference vs noisy1" in err and "noisy2 vs noisy1" in err and "within noise" in err


def test_noisy_seeds_really_differ(runs):
    a, b = read_jsonl(runs["noisy1"]), read_jsonl(runs["noisy2"])
    assert [r["score"] for r in a] != [r["score"] for r in b]  # else "no difference" would prove nothing


def test_bad_input_names_file_and_line_and_exits_2(runs, tmp_path):
    lines = runs["noisy1"].read_bytes().splitlines()
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(b"\n".join(lines[:3] + [b"{not json"] + lines[3:10]) + b"\n")
    proc = bc_report(bad, "--format", "md")
    assert proc.returncode == 2
    assert re.search(r"bad\.jsonl:4: invalid JSON", proc.stderr.decode())
    proc = bc_report(bad, "--format", "md", "--skip-invalid")
    assert proc.returncode == 0 and "skipped 1 invalid rows" in proc.stderr.decode()
    assert "| all | 10 |" in proc.stdout.decode()
    missing = bc_report(tmp_path / "nope.jsonl", "--format", "md")
    assert missing.returncode == 2 and "nope.jsonl" in missing.stderr.decode()


def test_no_trajectories_is_bad_input(tmp_path):
    empty = tmp_path / "empty.jsonl"
    empty.write_bytes(b"")
    proc = bc_report(empty, "--format", "md")
    assert proc.returncode == 2 and "empty.jsonl: no trajectories to report on" in proc.stderr.decode()


def test_without_the_report_extra_it_says_how_to_install_it(runs):
    code = ("import sys; sys.modules['vl_convert'] = None; sys.argv = ['bc-report', sys.argv[1], '-o', sys.argv[2]]; "
            "from bc_report.cli import main; main()")
    proc = run(sys.executable, "-c", code, runs["noisy1"], runs["noisy1"].with_suffix(".html"))
    assert proc.returncode == 2
    assert install_hint("report") in proc.stderr.decode()
    assert not runs["noisy1"].with_suffix(".html").exists()
    tables_only = code.replace("'-o', sys.argv[2]", "'--format', 'md'")  # Markdown needs numpy alone
    proc = run(sys.executable, "-c", tables_only, runs["noisy1"], "unused")
    assert proc.returncode == 0 and "### Overall" in proc.stdout.decode()


def test_stdin_is_read(runs):
    proc = run(BIN / "bc-report", "-", "--format", "md", stdin=runs["noisy2"].read_bytes())
    assert proc.returncode == 0 and "stdin: " in proc.stdout.decode()


def hostile_run(source, path):
    """Real trajectories with every text a model, a tool or a task could carry replaced by markup."""
    rows = read_jsonl(source)[:40]
    for i, row in enumerate(rows):
        row = copy.deepcopy(row)
        row["id"] = f"{HOSTILE}#{i}"
        row["model"] = HOSTILE
        row["input"]["extra_info"]["generator_name"] = HOSTILE
        row["input"]["reward_model"]["ground_truth"] = {"answer": HOSTILE}
        row["error"] = {"type": HOSTILE, "message": HOSTILE}
        for message in row["messages"]:
            message["content"] = HOSTILE
            message["reasoning_content"] = HOSTILE
            for call in message.get("tool_calls", []):
                call["function"]["name"] = HOSTILE
                call["function"]["arguments"] = HOSTILE
        for turn in row["turns"]:
            if turn["type"] == "tool":
                turn["name"] = HOSTILE
                turn["error"] = {"type": HOSTILE, "message": HOSTILE}
            if turn["type"] == "interaction":
                turn["text"] = HOSTILE
        row["success"] = False
        rows[i] = row
    return write_jsonl(path, rows)


def test_hostile_text_never_reaches_the_page_as_markup(runs, tmp_path):
    hostile = hostile_run(runs["noisy1"], tmp_path / "hostile.jsonl")
    out = tmp_path / "hostile.html"
    proc = bc_report(hostile, "-o", out, "--title", HOSTILE)
    assert proc.returncode == 0, proc.stderr.decode()
    page = out.read_text()
    assert "__pwned" in page  # the text is there, as data
    for raw in ("<script>window.__pwned", "<img src=x", "</script><script>window", "<!-- ]]>"):
        assert raw not in page
    assert page.count("<script") == 4  # two JSON blocks, the Vega bundle, the page's own script
    md = bc_report(hostile, "--format", "md").stdout.decode()
    assert "__pwned" in md
    for table in md.split("### ")[1:]:  # a pipe in a record does not add a cell
        widths = {len(re.split(r"(?<!\\)\|", line)) for line in table.splitlines() if line.startswith("|")}
        assert len(widths) == 1, table
    assert not re.search(r"(?<!\\)<", md)  # every < of the records is escaped: no tag reaches a renderer


def test_same_input_and_seed_give_the_same_bytes(runs, tmp_path):
    a, b = tmp_path / "a.html", tmp_path / "b.html"
    for out in (a, b):
        proc = bc_report(runs["noisy1"], "--compare", runs["noisy2"], "-o", out)
        assert proc.returncode == 0, proc.stderr.decode()
    assert a.read_bytes() == b.read_bytes()
    assert a.stat().st_size < 5_000_000  # attachable
    assert "<script src" not in a.read_text() and "<link" not in a.read_text()


@pytest.mark.parametrize("args,message", [(["--bootstrap", "10"], "--bootstrap"), (["--compare", ","], "--compare"),
                                          (["--format", "pdf"], "--format")])
def test_bad_flags_exit_2(runs, args, message):
    proc = bc_report(runs["noisy1"], *args)
    assert proc.returncode == 2 and message in proc.stderr.decode()


def test_cost_column_sums_the_rows_cost_per_level(runs, tmp_path):
    rows = read_jsonl(runs["noisy1"])
    assert "cost" not in rows[0]
    plain = bc_report(runs["noisy1"], "--format", "md")
    assert "cost $" not in plain.stdout.decode()  # no row priced: no column
    for i, row in enumerate(rows):  # arithmetic rows priced, tictactoe rows not
        if row["input"]["data_source"] == "bootcamp/arithmetic":
            row["cost"] = {"usd": 0.001 * (i % 3 + 1), "input_per_mtok": 1, "output_per_mtok": 2,
                           "price_source": "--price"}
    priced = write_jsonl(tmp_path / "priced.jsonl", rows)
    proc = bc_report(priced, "--format", "md")
    assert proc.returncode == 0, proc.stderr.decode()
    md = proc.stdout.decode()
    assert "cost $" in md
    total = sum(r["cost"]["usd"] for r in rows if "cost" in r)

    def last_cell(prefix: str) -> str:
        line = next(line for line in md.splitlines() if line.startswith(prefix))
        return [c.strip() for c in line.strip("|").split("|")][-1]

    assert last_cell("| all |") == f"{total:.4f}"
    assert last_cell("| arithmetic |") == f"{total:.4f}"
    assert last_cell("| tictactoe |") == "–"
    rows[0]["cost"]["usd"] = -1.0
    bad = write_jsonl(tmp_path / "bad.jsonl", rows)
    proc = bc_report(bad, "--format", "md")
    assert proc.returncode == 2 and b"bad.jsonl:1" in proc.stderr and b"cost.usd" in proc.stderr

"""`bc-gen --list` counts every collection (built-in folders, `rg/`) and never cuts a name, a tool or a group."""
from __future__ import annotations

import subprocess
import sys
from collections import Counter
from pathlib import Path

import orjson

BIN = Path(sys.executable).parent


def test_every_name_tool_and_group_is_shown_whole_and_each_collection_is_counted(bc_gen_list):
    rows = orjson.loads(bc_gen_list("--format", "json").stdout)  # the default listing, read once a test run
    text = bc_gen_list().stdout
    lines = {line.split(" ", 1)[0]: line for line in text.splitlines() if line and not line.startswith(" ")}
    for row in rows:
        if row["available"]:
            line = lines[row["name"]]
            cells = line.split()
            assert (",".join(row["tools"]) or "-") in cells and ",".join(row["groups"]) in cells, line
    expected = Counter(r["name"].split("/")[0] + "/" if "/" in r["name"] else "bootcamps/" for r in rows
                       if r["available"])
    counts = text.split("by collection:\n", 1)[1]
    for collection, n in expected.items():
        assert f"  {collection}" in counts and f"{n} available" in counts.split(f"  {collection}", 1)[1].split("\n")[0]
    # the README's promise, visible at a glance: 100+ rg/ datasets listed, each offered or withheld with its reason
    rg = [r for r in rows if r["name"].startswith("rg/")]
    assert len(rg) >= 100 and expected["rg/"] >= 30
    for row in rg:
        assert row["available"] or "withheld" in lines_of(text, row["name"]), row["name"]


def lines_of(text: str, name: str) -> str:
    """The line `--list` gives `name` (withheld and unavailable ones are indented)."""
    return next(line for line in text.splitlines() if line.strip().startswith(name + " "))


def test_an_unavailable_collection_says_what_it_holds():
    code = "import sys; sys.modules['reasoning_gym'] = None\nfrom bc_gen.cli import main\nmain(['--list'])\n"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    unavailable = done.stdout.split("unavailable (", 1)[1].split("by collection:", 1)[0]
    assert "  rg " in unavailable and "needs reasoning_gym" in unavailable and "rg/<dataset>" in unavailable

"""docs/authoring.md's one-file bootcamp, run as the page prints it: saved as a bootcamp folder of a third-party
collection, it generates, scores 1.0 with its reference policy and 0 with its baseline, and passes conformance."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import orjson
import pytest

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
DOC = ROOT / "docs" / "authoring.md"


def blocks(section: str) -> dict[str, str]:
    """The fenced blocks of a section of the page, by language."""
    text = DOC.read_text(encoding="utf-8")
    body = text.split(f"## {section}\n", 1)[1].split("\n## ", 1)[0]
    return {lang: code for lang, code in re.findall(r"```(\w+)\n(.*?)```", body, re.S)}


@pytest.fixture(scope="module")
def guess_env(tmp_path_factory) -> dict[str, str]:
    """A collection package holding `guess/` (the page's code and README), registered by entry point."""
    site = tmp_path_factory.mktemp("site")
    folder = site / "doc_bootcamps" / "guess"
    folder.mkdir(parents=True)
    (site / "doc_bootcamps" / "__init__.py").write_text("")
    found = blocks("A one-file bootcamp")
    (folder / "__init__.py").write_text(found["python"])
    (folder / "README.md").write_text(found["markdown"])
    info = site / "doc_bootcamps-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: doc-bootcamps\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[bc.bootcamps]\ndoc = doc_bootcamps\n")
    return {**os.environ, "PYTHONPATH": str(site), "BC_CONFORMANCE_N": "40"}


def run(args: list[str], env: dict[str, str], stdin: bytes | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(args, input=stdin, capture_output=True, env=env, timeout=300)


def scores(out: bytes) -> list[float]:
    return [orjson.loads(line)["score"] for line in out.splitlines()]


def test_the_one_file_bootcamp_generates_and_its_reference_scores_one(guess_env):
    tasks = run([str(BIN / "bc-gen"), "guess", "-n", "12", "--seed", "5"], guess_env)
    assert tasks.returncode == 0, tasks.stderr.decode()
    reference = run([str(BIN / "bc-eval"), "--model", "builtin:reference", "-q"], guess_env, tasks.stdout)
    assert reference.returncode == 0, reference.stderr.decode()
    rows = [orjson.loads(line) for line in reference.stdout.splitlines()]
    assert [r["score"] for r in rows] == [1.0] * 12
    assert all(any(t["type"] == "tool" for t in r["turns"]) for r in rows)  # ToolResult went through the runtime
    assert all(r["reward"]["turn_scores"] == [1.0] for r in rows)  # so did the InteractionReply
    middle = run([str(BIN / "bc-eval"), "--model", "builtin:baseline/middle", "-q"], guess_env, tasks.stdout)
    assert middle.returncode == 0 and scores(middle.stdout) == [0.0] * 12


def test_the_one_file_bootcamp_passes_conformance(guess_env):
    done = run([sys.executable, "-m", "bc_common.conformance", "guess"], guess_env)
    assert done.returncode == 0, done.stdout.decode() + done.stderr.decode()
    assert done.stdout.decode().count("ok ") >= 10

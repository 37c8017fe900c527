"""`--sandbox-concurrency N` on the worker and unified commands: checked, and handed to the sandbox runtime of
this process and of the worker processes it starts (through $BC_SANDBOX_CONCURRENCY)."""
from __future__ import annotations

import subprocess
import sys

import pytest

from bc_toolserve.cli import cli


@pytest.mark.parametrize("command", ["worker", "unified"])
def test_the_flag_sets_the_cap(command, monkeypatch):
    monkeypatch.setenv("BC_SANDBOX_CONCURRENCY", "99")  # restored after the test
    args = ["--tools", "code_function", "--sandbox-concurrency", "3"]
    if command == "worker":
        args += ["--master-url", "http://127.0.0.1:1"]
    cli.commands[command].make_context(command, args)
    import os

    assert os.environ["BC_SANDBOX_CONCURRENCY"] == "3"


def test_zero_is_refused_naming_the_flag():
    done = subprocess.run([sys.executable, "-m", "bc_toolserve", "worker", "--master-url", "http://127.0.0.1:1",
                           "--tools", "code_function", "--sandbox-concurrency", "0"], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 2 and "--sandbox-concurrency" in done.stderr

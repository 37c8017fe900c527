"""Set for every test process and what it starts, and fixtures shared by every test folder."""
import fcntl
import os
import subprocess
import sys
from pathlib import Path

import orjson
import pytest

# Ray (2.60) turns token auth on for any cluster it starts or joins when ~/.ray/auth_token exists and RAY_AUTH_MODE
# is unset; NeMo Gym's `gym env start` (make test-interop) writes that file. The tests' Ray clusters live on
# loopback and must not depend on what an earlier run left in the home directory: one mode for all of them.
os.environ.setdefault("RAY_AUTH_MODE", "disabled")


@pytest.fixture(scope="session")
def bc_gen_list(tmp_path_factory):
    """`bc_gen_list("--format", "json")`: what `bc-gen --list ARGS` prints in the default environment (no
    BC_INCLUDE_KNOWN_ISSUES), as a CompletedProcess (text). Each ARGS runs once for the whole test run: the
    listing loads every bootcamp, and six tests read it; xdist workers share the first one's result."""
    shared = tmp_path_factory.getbasetemp().parent if "PYTEST_XDIST_WORKER" in os.environ \
        else tmp_path_factory.mktemp("bc_gen_list")
    env = {k: v for k, v in os.environ.items() if k != "BC_INCLUDE_KNOWN_ISSUES"}

    def listed(*args: str) -> subprocess.CompletedProcess:
        saved = shared / ("_".join(("bc-gen-list", *args)) + ".json")
        with open(saved.with_suffix(".lock"), "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)  # one worker lists; the others wait for its file
            if not saved.is_file():
                proc = subprocess.run([str(Path(sys.executable).parent / "bc-gen"), "--list", *args],
                                      capture_output=True, text=True, env=env, timeout=600)
                saved.write_bytes(orjson.dumps([proc.returncode, proc.stdout, proc.stderr]))
            code, out, err = orjson.loads(saved.read_bytes())
        assert code == 0, err
        return subprocess.CompletedProcess(["bc-gen", "--list", *args], code, out, err)

    return listed


@pytest.fixture
def opted_in(monkeypatch):
    """BC_INCLUDE_KNOWN_ISSUES=1 for one test (withheld bootcamps offered): the catalog forgets what it decided
    without it (a manifest an earlier test in this process loaded as withheld) and, after, what it decided with it."""
    from bc_common import catalog

    monkeypatch.setenv("BC_INCLUDE_KNOWN_ISSUES", "1")
    catalog.clear_cache()
    yield
    monkeypatch.delenv("BC_INCLUDE_KNOWN_ISSUES")
    catalog.clear_cache()

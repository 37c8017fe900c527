"""Without PyBaMM (the `battery` extra), battery_design is listed as unavailable with its install hint and using it
is exit 2; nothing else breaks. Runs whether or not PyBaMM is installed: a child process hides it."""
from __future__ import annotations

import subprocess
import sys

import pytest

from bc_common.extras import install_hint

HIDE_PYBAMM = "import sys; sys.modules['pybamm'] = None\n"  # import pybamm now fails; find_spec says missing


def _run(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", HIDE_PYBAMM + code], capture_output=True, text=True, timeout=120)


@pytest.fixture(scope="module")
def listed() -> subprocess.CompletedProcess:
    """One child without PyBaMM: the catalog's answers, then `bc-gen --list` (each loads every bootcamp; the second
    reuses the first's manifests)."""
    return _run("from bc_common.catalog import available, load\n"
                "m = load('battery_design')\n"
                "print(m.available, m.hint)\n"
                "print('battery_design' in available(), 'battery_design' in available(include_unavailable=True))\n"
                "print('arithmetic' in available())\n"
                "print('--- bc-gen --list', flush=True)\n"
                "from bc_gen.cli import main\nmain(['--list'])\n")


def test_without_pybamm_the_bootcamp_is_unavailable_with_the_install_hint(listed) -> None:
    assert listed.returncode == 0, listed.stderr
    assert listed.stdout.split("\n")[:3] == [f"False {install_hint('battery')}", "False True", "True"]


def test_without_pybamm_bc_gen_lists_it_and_refuses_it_with_exit_2(listed) -> None:
    assert listed.returncode == 0, listed.stderr
    text = listed.stdout.split("--- bc-gen --list\n", 1)[1]
    line = next(x for x in text.splitlines() if x.strip().startswith("battery_design"))
    assert f"needs pybamm: {install_hint('battery')}" in line
    refused = _run("from bc_gen.cli import main\nmain(['battery_design', '-n', '1'])\n")
    assert refused.returncode == 2 and refused.stdout == ""
    assert install_hint("battery") in refused.stderr

"""Without the `poker` extra, holdem is listed as unavailable with its install hint and refused when used."""
from __future__ import annotations

import subprocess
import sys

from bc_common.extras import install_hint

HIDE_POKERKIT = "import sys; sys.modules['pokerkit'] = None\nfrom bc_gen.cli import main\nsys.argv = {argv!r}\nmain()"


def _bc_gen(*argv: str) -> subprocess.CompletedProcess:
    code = HIDE_POKERKIT.format(argv=["bc-gen", *argv])
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)


def test_holdem_without_pokerkit_is_listed_unavailable_with_the_install_hint() -> None:
    listed = _bc_gen("--list")
    assert listed.returncode == 0, listed.stderr
    line = next(x for x in listed.stdout.splitlines() if x.strip().startswith("holdem"))
    assert f"needs pokerkit: {install_hint('poker')}" in line
    used = _bc_gen("holdem", "-n", "1")
    assert used.returncode == 2 and install_hint("poker") in used.stderr and used.stdout == ""

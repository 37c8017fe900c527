"""Without the `mcp` extra the core still runs: /mcp answers 501 and the MCP commands say what to install."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

from bc_common.extras import install_hint
from tests.mcp.conftest import ROOT, TOKEN
from tests.toolserve.conftest import call, free_port, wait_for

pytestmark = pytest.mark.timeout(120)
# the SDK made unimportable in the child, as on an install without the extra
NO_SDK = "import sys; sys.modules['mcp'] = sys.modules['mcp_types'] = None; sys.argv[0] = {prog!r}; from {module} import main; main()"


def without_sdk(prog: str, module: str, *args: str, **kwargs):
    env = {**os.environ, "PYTHONPATH": str(ROOT), "BC_TOOLSERVE_TOKEN": TOKEN}
    return [sys.executable, "-c", NO_SDK.format(prog=prog, module=module), *args], env


def test_master_without_the_sdk_serves_its_protocol_and_answers_501_at_mcp(tmp_path):
    port = free_port()
    argv, env = without_sdk("bc-toolserve", "bc_toolserve.cli", "master", "--port", str(port))
    with open(tmp_path / "master.log", "wb") as log:
        master = subprocess.Popen(argv, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=log)
    try:
        url = f"http://127.0.0.1:{port}"
        wait_for(lambda: call(f"{url}/health", timeout=1)[0] == 200, what="master /health")
        assert call(f"{url}/health")[1]["mcp"] == {"available": False}
        status, body = call(f"{url}/mcp?bootcamp=arithmetic&index=0", {"jsonrpc": "2.0", "id": 1,
                                                                       "method": "initialize"}, token=TOKEN)
        assert status == 501 and install_hint("mcp") in body["error"]["message"]
        assert call(f"{url}/calculate/release", {"instance_id": "x"}, token=TOKEN)[0] == 200  # the HTTP protocol is unaffected
    finally:
        master.terminate()
        master.wait(timeout=10)


@pytest.mark.parametrize("prog, module, args", [
    ("bc-toolserve", "bc_toolserve.cli", ["mcp", "--bootcamp", "arithmetic", "--index", "0"]),
    ("bc-eval", "bc_eval.cli", ["-", "--model", "builtin:reference", "--tool-transport", "mcp",
                                "--tool-server", "http://127.0.0.1:9/mcp"]),
])
def test_mcp_commands_without_the_sdk_exit_2_naming_the_extra(prog, module, args):
    argv, env = without_sdk(prog, module, *args)
    proc = subprocess.run(argv, cwd=ROOT, env=env, capture_output=True, text=True, timeout=60, input="")
    assert proc.returncode == 2 and install_hint("mcp") in proc.stderr and proc.stdout == ""

"""The runtime's choices and records: refusal without bubblewrap, the BC_SANDBOX=none opt-in, what a run records,
the concurrency cap, and the function runner's structured channel."""
from __future__ import annotations

import asyncio
import contextlib
import os
import time

import pytest

from bc_common import sandbox as sandbox_module
from bc_common.function_runner import call_function_blocking, grade
from bc_common.sandbox import Limits, SandboxUnavailable, python_executable, sandbox_for, workspace

from .helpers import bubblewrap_or_skip, processes_with


def test_refuses_without_bubblewrap_and_names_the_install_step(monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", str(tmp_path))  # a PATH with no bwrap on it
    monkeypatch.delenv("BC_SANDBOX", raising=False)
    with pytest.raises(SandboxUnavailable) as caught:
        sandbox_for()
    assert "apt-get install bubblewrap" in str(caught.value) and "BC_SANDBOX=none" in str(caught.value)
    assert caught.value.exit_code == 2


def test_unknown_choice_is_refused(monkeypatch):
    monkeypatch.setenv("BC_SANDBOX", "docker")
    with pytest.raises(SandboxUnavailable, match="bubblewrap or none"):
        sandbox_for()


def test_opt_in_runs_with_limits_only_and_says_so(monkeypatch, ws):
    monkeypatch.setenv("BC_SANDBOX", "none")
    box = sandbox_for()
    result = box.run_blocking([python_executable(), "-c", "print(6 * 7)"], workspace=ws, limits=Limits(wall_s=10))
    assert result.stdout.strip() == "42"
    record = result.as_dict()
    assert record["sandbox"] == "none" and record["unsandboxed"] is True
    described = box.describe(Limits(cpu_s=3))
    assert described["unsandboxed"] is True and described["limits"]["cpu_s"] == 3


def test_opt_in_still_limits_memory(monkeypatch, ws):
    monkeypatch.setenv("BC_SANDBOX", "none")
    code = "try:\n    b = bytearray(4 << 30)\n    print('ALLOCATED')\nexcept MemoryError:\n    print('REFUSED')\n"
    result = sandbox_for().run_blocking([python_executable(), "-c", code], workspace=ws, limits=Limits(memory_mb=256))
    assert result.stdout.strip() == "REFUSED"


def test_a_bubblewrap_run_records_its_sandbox_and_limits(ws):
    box = bubblewrap_or_skip()
    limits = Limits(cpu_s=2, wall_s=5)
    result = box.run_blocking([python_executable(), "-c", "print('hi')"], workspace=ws, limits=limits)
    assert result.ok and result.stdout == "hi\n"
    assert result.as_dict()["sandbox"].startswith("bubblewrap ")
    described = box.describe(limits)
    assert described == {"sandbox": box.name, "unsandboxed": False, "limits": {**described["limits"], "cpu_s": 2}}
    assert described["limits"]["wall_s"] == 5


def test_run_blocking_works_inside_a_running_loop(ws):
    box = bubblewrap_or_skip()

    async def inside() -> str:
        return box.run_blocking([python_executable(), "-c", "print(5)"], workspace=ws).stdout

    assert asyncio.run(inside()) == "5\n"


def test_a_private_workspace_is_refused_by_name(tmp_path):
    box = bubblewrap_or_skip()
    if os.geteuid() != 0:
        pytest.skip("only a root harness lends runs another uid")
    private = tmp_path / "private"
    private.mkdir()
    with pytest.raises(SandboxUnavailable, match="out of reach"):
        box.run_blocking(["true"], workspace=private / "ws")


def test_the_concurrency_cap_holds(monkeypatch):
    """With a cap of 2, four one-second runs take two rounds."""
    box = bubblewrap_or_skip()
    monkeypatch.setattr(sandbox_module, "_SLOTS", [])
    monkeypatch.setattr(sandbox_module, "_SLOTS_SIZE", [])
    sandbox_module.set_concurrency(2)

    async def four(folders) -> list:
        return await asyncio.gather(*(box.run([python_executable(), "-c", "import time; time.sleep(1)"],
                                              workspace=folder) for folder in folders))

    with contextlib.ExitStack() as stack:
        folders = [stack.enter_context(workspace()) for _ in range(4)]
        started = time.monotonic()
        results = asyncio.run(four(folders))
    assert all(r.ok for r in results)
    assert time.monotonic() - started >= 2.0


def test_concurrency_from_the_environment(monkeypatch):
    monkeypatch.setattr(sandbox_module, "_SLOTS", [])
    monkeypatch.setattr(sandbox_module, "_SLOTS_SIZE", [])
    monkeypatch.setenv("BC_SANDBOX_CONCURRENCY", "3")
    assert sandbox_module.concurrency() == 3
    monkeypatch.setattr(sandbox_module, "_SLOTS", [])
    monkeypatch.setattr(sandbox_module, "_SLOTS_SIZE", [])
    monkeypatch.setenv("BC_SANDBOX_CONCURRENCY", "zero")
    with pytest.raises(SandboxUnavailable, match="BC_SANDBOX_CONCURRENCY"):
        sandbox_module.concurrency()


# -- the function runner: hidden outputs never enter the sandbox, so the usual hacks earn nothing ----------------

LIMITS = Limits(wall_s=10, cpu_s=5)
INPUTS = [[1, 2], [3, 4], [10, -3]]
EXPECTED = [3, 7, 7]


def score(code: str) -> int:
    bubblewrap_or_skip()
    return grade(call_function_blocking(code, "add", INPUTS, limits=LIMITS), EXPECTED)


def test_a_correct_function_passes_every_input():
    assert score("def add(a, b):\n    return a + b\n") == 3


def test_prints_do_not_reach_the_channel():
    assert score("def add(a, b):\n    print('{\"i\": 0, \"value\": 3}')\n    return a + b\n") == 3


@pytest.mark.parametrize("hack", [
    "print('PASSED')\nprint('3 passed')\n",
    "import sys\nsys.exit(0)\ndef add(a, b):\n    return a + b\n",
    "import os\nos._exit(0)\n",
    "import os, glob\nfor p in glob.glob('/workspace/**', recursive=True):\n    try: os.remove(p)\n"
    "    except OSError: pass\ndef add(a, b):\n    return 0\n",
    # patch the runner's own emit and json to report passes
    "import json\njson.dumps = lambda *a, **k: '{\"i\": 0, \"value\": \"PASSED\"}'\ndef add(a, b):\n    return 0\n",
    # write forged lines straight to the channel's descriptor
    "import os\nfor fd in range(3, 10):\n    try: os.write(fd, b'{\"i\": 0, \"value\": 999}\\n')\n    except OSError: pass\n"
    "def add(a, b):\n    return None\n",
    # look for the expected outputs anywhere they could be
    "import os\nseen = []\nfor root in ('/workspace', '/tmp', '/'):\n    try: seen += os.listdir(root)\n"
    "    except OSError: pass\ndef add(a, b):\n    return len(seen)\n",
])
def test_reward_hacks_score_zero(hack):
    assert score(hack) == 0


def test_answering_twice_differently_counts_as_unanswered():
    code = ("import os\nfd = 3\n"
            "def add(a, b):\n"
            "    os.write(fd, b'{\"i\": 0, \"value\": 3}\\n')\n"
            "    return 999\n")
    assert score(code) == 0


def test_a_run_cut_by_the_wall_clock_runs_once_more_before_it_counts():
    """A wall-clock timeout (asleep, or starved by a loaded machine) is tried again in a fresh workspace; a function
    that really never returns is still unanswered, after two runs."""
    bubblewrap_or_skip()
    started = time.perf_counter()
    run = call_function_blocking("import time\ndef add(a, b):\n    time.sleep(60)\n", "add", INPUTS,
                                 limits=Limits(wall_s=1, cpu_s=5))
    assert run.run is not None and run.run.timed_out and not any(run.answered)
    assert time.perf_counter() - started >= 2 * 1


def test_nothing_is_left_running_after_a_function_call():
    bubblewrap_or_skip()
    code = ("import os, time\n# runner-leftover-marker\n"
            "if os.fork() == 0:\n    os.setsid()\n    time.sleep(300)\n"
            "def add(a, b):\n    return a + b\n")
    run = call_function_blocking(code, "add", INPUTS, limits=LIMITS)
    assert run.run is not None and run.run.leftover_processes == 0
    assert processes_with("runner-leftover-marker") == []


def test_the_shell_tools_named_to_the_model_run_inside(ws):
    """awk and which are /etc/alternatives links on Debian: the sandbox has them, but still no /etc/passwd."""
    box = bubblewrap_or_skip()
    script = ("echo a,b | awk -F, '{print $2}'; printf 'b\\na\\n' | sort | tr -d '\\n'; echo; "
              "echo x | sed s/x/y/; echo z | md5sum | cut -c1-4; find . -maxdepth 0; echo q | grep -c q; "
              "test -e /etc/passwd && echo PASSWD")
    result = box.run_blocking(["/bin/sh", "-c", script], workspace=ws, limits=Limits(wall_s=10))
    assert result.stdout.split() == ["b", "ab", "y", "a8a7", ".", "1"], result.stdout + result.stderr


def nest(folder, depth: int) -> None:
    """`depth` folders one inside the other under `folder` (made through descriptors: no path gets too long)."""
    fd = os.open(folder, os.O_RDONLY)
    for _ in range(depth):
        os.mkdir("d", dir_fd=fd)
        inner = os.open("d", os.O_RDONLY, dir_fd=fd)
        os.close(fd)
        fd = inner
    os.close(fd)


def test_a_workspace_nested_thousands_deep_is_removed():
    folder = sandbox_module.make_workspace()
    nest(folder, 3000)
    sandbox_module.remove_workspace(folder)
    assert not folder.exists()

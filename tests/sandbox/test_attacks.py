"""Every attack of issue 25 item 4 against the runtime: contained, and no process of the run left behind."""
from __future__ import annotations

import os
import socket
import threading
import time
import uuid
from pathlib import Path

import pytest

from bc_common.sandbox import Limits, workspace

from .helpers import WALL_20, processes_with, run_python

ROOT = Path(__file__).resolve().parents[2]


def attack(code: str, workspace: Path, limits: Limits = WALL_20, **kwargs):
    """Run the attack with a unique marker in its command line; assert that nothing of it is left running."""
    marker = f"attack-{uuid.uuid4().hex}"
    result = run_python(f"# {marker}\n{code}", workspace, limits, **kwargs)
    assert result.leftover_processes == 0, result
    assert processes_with(marker) == [], "a process of the run is still alive"
    return result


def test_host_files_are_out_of_reach():
    with workspace() as hidden, workspace() as ws:
        (hidden / "expected.json").write_text('{"answer": 42}')
        hidden.chmod(0o755)
        check_host_files(hidden, ws)


def check_host_files(hidden, ws):
    targets = ["/etc/passwd", "/etc/hostname", "/root", str(hidden / "expected.json"), str(ROOT / "README.md"),
               str(ROOT / "bc-common" / "bc_common" / "sandbox.py")]
    code = ("import os\n"
            f"for path in {targets!r}:\n"
            "    try:\n"
            "        data = open(path, 'rb').read() if not os.path.isdir(path) else os.listdir(path)\n"
            "        print('READ', path, len(data))\n"
            "    except OSError as exc:\n"
            "        print('DENIED', path, type(exc).__name__)\n")
    result = attack(code, ws)
    assert result.exit_code == 0, result.stderr
    assert not [ln for ln in result.stdout.splitlines() if ln.startswith("READ ")], result.stdout
    assert result.stdout.count("DENIED") == len(targets), result.stdout


def test_the_harness_environment_stays_outside(ws, monkeypatch):
    """API keys in the harness's environment reach no process of the run (its own or its init's)."""
    monkeypatch.setenv("OPENAI_API_KEY", "sk-sandbox-test-secret")
    code = ("import os, glob\n"
            "print(dict(os.environ))\n"
            "for path in glob.glob('/proc/*/environ'):\n"
            "    try:\n"
            "        print(open(path, 'rb').read())\n"
            "    except OSError:\n"
            "        pass\n")
    result = attack(code, ws)
    assert result.exit_code == 0 and "PATH" in result.stdout
    assert "sk-sandbox-test-secret" not in result.stdout + result.stderr


def test_symlinks_in_the_workspace_point_nowhere(tmp_path, ws):
    secret = tmp_path / "secret.txt"
    secret.write_text("host secret")
    (ws / "to_secret").symlink_to(secret)
    (ws / "to_etc").symlink_to("/etc/hostname")
    (ws / "to_project").symlink_to(ROOT / "README.md")
    code = ("for name in ('to_secret', 'to_etc', 'to_project'):\n"
            "    try:\n"
            "        print('READ', name, open(name).read()[:20])\n"
            "    except OSError as exc:\n"
            "        print('DENIED', name, type(exc).__name__)\n")
    result = attack(code, ws)
    assert not [ln for ln in result.stdout.splitlines() if ln.startswith("READ ")], result.stdout
    assert result.stdout.count("DENIED") == 3, result.stdout


def test_no_network_not_even_loopback(ws):
    """A listener the test opened on loopback sees no connection from inside the sandbox."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    listener.settimeout(0.2)
    port = listener.getsockname()[1]
    seen: list[tuple] = []
    stop = threading.Event()

    def watch() -> None:
        while not stop.is_set():
            try:
                conn, peer = listener.accept()
            except OSError:
                continue
            seen.append(peer)
            conn.close()

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    code = ("import socket\n"
            f"for host in ('127.0.0.1', 'localhost'):\n"
            "    try:\n"
            f"        socket.create_connection((host, {port}), timeout=2).sendall(b'hello')\n"
            "        print('CONNECTED', host)\n"
            "    except OSError as exc:\n"
            "        print('REFUSED', host, type(exc).__name__)\n")
    try:
        result = attack(code, ws)
        time.sleep(0.3)
    finally:
        stop.set()
        watcher.join()
        listener.close()
    assert "CONNECTED" not in result.stdout and result.stdout.count("REFUSED") == 2, result.stdout
    assert seen == []


def test_fork_bomb(ws):
    code = ("import os\n"
            "n = 0\n"
            "while True:\n"
            "    try:\n"
            "        os.fork()\n"
            "        n += 1\n"
            "    except OSError:\n"
            "        pass\n")
    result = attack(code, ws, Limits(wall_s=3, cpu_s=3, processes=32))
    assert not result.ok


def test_memory_bomb(ws):
    code = ("try:\n"
            "    hog = bytearray(8 << 30)\n"
            "    print('ALLOCATED')\n"
            "except MemoryError:\n"
            "    print('REFUSED')\n")
    result = attack(code, ws, Limits(memory_mb=256))
    assert result.stdout.strip() == "REFUSED"


def test_infinite_loop_is_stopped_by_the_cpu_limit(ws):
    started = time.monotonic()
    result = attack("while True:\n    pass\n", ws, Limits(cpu_s=1, wall_s=15))
    assert result.exit_code is None and result.signal in ("SIGKILL", "SIGXCPU"), result
    assert time.monotonic() - started < 10


def test_sleeping_forever_is_stopped_by_the_wall_clock(ws):
    result = attack("import time\ntime.sleep(600)\n", ws, Limits(wall_s=1))
    assert result.timed_out and result.duration_s < 5


def test_a_gigabyte_of_output(ws):
    code = ("import os\n"
            "chunk = b'x' * (1 << 20)\n"
            "for _ in range(1024):\n"
            "    os.write(1, chunk)\n")
    started = time.monotonic()
    result = attack(code, ws, Limits(output_bytes=4096, kill_output_bytes=1 << 20, wall_s=30))
    assert result.output_truncated and not result.ok
    assert len(result.stdout) < 4096 + 100 and "output truncated" in result.stdout
    assert time.monotonic() - started < 20


def test_writing_outside_the_workspace(tmp_path, ws):
    marker = f"bc-sandbox-{uuid.uuid4().hex}"
    targets = [f"/usr/{marker}", f"/{marker}", str(tmp_path / marker), f"/tmp/{marker}", f"/workspace/{marker}"]
    code = ("import os\n"
            f"for path in {targets!r}:\n"
            "    try:\n"
            "        open(path, 'w').write('x')\n"
            "        print('WROTE', path)\n"
            "    except OSError as exc:\n"
            "        print('DENIED', path, type(exc).__name__)\n")
    result = attack(code, ws)
    # the fresh /tmp and the workspace are writable inside; nothing reaches the host but the workspace
    assert f"WROTE /workspace/{marker}" in result.stdout
    assert not Path(f"/usr/{marker}").exists() and not Path(f"/{marker}").exists()
    assert not (tmp_path / marker).exists() and not Path(f"/tmp/{marker}").exists()
    assert (ws / marker).read_text() == "x"
    assert result.stdout.count("DENIED") == 3, result.stdout


def test_killing_the_parent(ws):
    """The harness is out of the run's pid namespace: its pid names nothing inside, and kill(-1) hits only the
    run's own processes."""
    code = ("import os, signal\n"
            f"for pid in ({os.getpid()}, {os.getppid()}, os.getppid()):\n"
            "    try:\n"
            "        os.kill(pid, signal.SIGKILL)\n"
            "        print('SENT', pid)\n"
            "    except OSError as exc:\n"
            "        print('DENIED', pid, type(exc).__name__)\n"
            "os.kill(-1, signal.SIGKILL)\n")
    attack(code, ws)
    assert os.getpid() in processes_with("pytest") or Path(f"/proc/{os.getpid()}").exists()
    assert Path(f"/proc/{os.getppid()}").exists()


def test_a_daemon_dies_with_the_run(ws):
    code = ("import os, time\n"
            "if os.fork() == 0:\n"
            "    os.setsid()\n"
            "    if os.fork() == 0:\n"
            "        time.sleep(300)\n"
            "    os._exit(0)\n"
            "print('parent done')\n")
    result = attack(code, ws)
    assert result.exit_code == 0 and "parent done" in result.stdout


@pytest.mark.parametrize("limit", ["cpu_s", "wall_s", "memory_mb", "processes", "output_bytes"])
def test_limits_are_checked(limit):
    for bad in (0, -1, float("nan"), float("inf"), True):
        with pytest.raises(ValueError, match=limit):
            Limits(**{limit: bad})

"""Run child processes: start, wait for readiness (no fixed sleeps), restart the crashed, stop them all cleanly."""
from __future__ import annotations

import logging
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from bc_common.errors import BcError

log = logging.getLogger("bc_toolserve.supervisor")


@dataclass
class Child:
    name: str
    argv: list[str]
    proc: subprocess.Popen | None = None
    restarts: int = 0
    started_at: float = 0.0
    restart_at: float | None = None


class ChildExited(BcError):
    """A child died while we were waiting for it to become ready."""


class Supervisor:
    """Keeps children running until `stop()`; a crashed child restarts with a growing delay (max 10 s)."""

    def __init__(self, log_dir: str | Path | None = None):
        self.children: list[Child] = []
        self.log_dir = Path(log_dir) if log_dir else None
        if self.log_dir:
            self.log_dir.mkdir(parents=True, exist_ok=True)
        self.stopping = False

    def spawn(self, name: str, argv: list[str]) -> Child:
        child = Child(name, argv)
        self.children.append(child)
        self._start(child)
        return child

    def _start(self, child: Child) -> None:
        out = open(self.log_dir / f"{child.name}.log", "ab") if self.log_dir else sys.stderr
        # stdout carries records only: children's chatter goes to stderr or their log file
        child.proc = subprocess.Popen(child.argv, stdin=subprocess.DEVNULL, stdout=out, stderr=out)
        if self.log_dir:
            out.close()
        child.started_at, child.restart_at = time.monotonic(), None

    def poll(self) -> None:
        """Restart children that exited (unless stopping)."""
        now = time.monotonic()
        for child in self.children:
            if self.stopping or child.proc is None:
                continue
            code = child.proc.poll()
            if code is None:
                continue
            if child.restart_at is None:
                if now - child.started_at > 30:
                    child.restarts = 0
                delay = min(10.0, 0.25 * 2 ** child.restarts)
                child.restart_at = now + delay
                log.warning("%s exited with code %s: restarting in %.2fs", child.name, code, delay)
            elif now >= child.restart_at:
                child.restarts += 1
                self._start(child)
                log.info("%s restarted (pid %d)", child.name, child.proc.pid)

    def wait_ready(self, child: Child, ready: Callable[[], bool], timeout: float = 60.0) -> None:
        """Poll `ready()` until true; raise ChildExited if the child dies, TimeoutError after `timeout`."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if child.proc.poll() is not None:
                raise ChildExited(f"{child.name} exited with code {child.proc.returncode} before it was ready")
            if ready():
                return
            time.sleep(0.05)
        raise TimeoutError(f"{child.name} not ready after {timeout:g}s")

    def wait_all_ready(self, children: list[Child], ready: Callable[[], bool], timeout: float = 60.0,
                       max_restarts: int = 3) -> None:
        """Poll `ready()` until true while restarting children that crash meanwhile (a child killed while its
        siblings start must not stall startup); raise ChildExited when one keeps crashing."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for child in children:
                if child.proc.poll() is not None and child.restarts >= max_restarts:
                    raise ChildExited(f"{child.name} exited with code {child.proc.returncode} "
                                      f"{child.restarts + 1} times before it was ready")
            if ready():
                return
            self.poll()
            time.sleep(0.05)
        raise TimeoutError(f"{', '.join(c.name for c in children)} not ready after {timeout:g}s")

    def run_until_signal(self) -> None:
        """Supervise until SIGINT or SIGTERM (a KeyboardInterrupt: bc_common.cli's exit path), then stop every
        child."""
        try:
            while not self.stopping:
                self.poll()
                time.sleep(0.1)
        finally:
            self.stop()

    def stop(self, grace: float = 10.0) -> None:
        """SIGTERM every child, wait up to `grace` seconds, SIGKILL what is left."""
        self.stopping = True
        live = [c.proc for c in self.children if c.proc is not None and c.proc.poll() is None]
        for proc in reversed(live):  # workers before the master
            proc.terminate()
        deadline = time.monotonic() + grace
        for proc in live:
            try:
                proc.wait(timeout=max(0.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def get_json(url: str, token: str | None = None, timeout: float = 2.0, body: Any = None,
             any_status: bool = False) -> Any:
    """GET (or POST `body`) a JSON URL; None when it cannot be reached or does not answer 200 (with
    `any_status`, the JSON of any answer, e.g. /health's 503 `starting`)."""
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    data = orjson.dumps(body) if body is not None else None
    request = urllib.request.Request(url, data=data, headers=headers, method="POST" if data else "GET")
    try:
        with urllib.request.urlopen(request, timeout=timeout) as resp:
            return orjson.loads(resp.read())
    except urllib.error.HTTPError as exc:
        try:
            return orjson.loads(exc.read()) if any_status else None
        except (OSError, ValueError):
            return None
    except (urllib.error.URLError, OSError, ValueError):
        return None

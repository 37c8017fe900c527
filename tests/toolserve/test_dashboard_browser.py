"""The dashboard rendered by headless Chromium shows the workers (and a hostile id only as text)."""
from __future__ import annotations

import os
import subprocess

import pytest

from tests.toolserve.conftest import Cluster

CHROMIUM = "/usr/bin/chromium"
pytestmark = pytest.mark.skipif(not os.path.exists(CHROMIUM),
                                reason="needs Debian chromium at /usr/bin/chromium (apt-get install -y chromium)")


def chromium(tmp_path, url: str, *extra: str) -> subprocess.CompletedProcess:
    flags = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             f"--user-data-dir={tmp_path / 'profile'}", "--window-size=1280,900"]
    return subprocess.run([CHROMIUM, *flags, *extra, url], capture_output=True, timeout=90)


def test_dashboard_in_headless_chromium(tmp_path):
    c = Cluster(tmp_path)
    try:
        c.start_master()
        hostile = "<script>document.title='pwned'</script>"
        for wid in ("alpha", "beta", hostile):
            c.start_worker(wid)
        c.wait_alive(["alpha", "beta", hostile])
        c.op("create", {"instance_id": "one"})
        shot = tmp_path / "dashboard.png"
        proc = chromium(tmp_path, f"{c.url}/", f"--screenshot={shot}")
        assert shot.exists() and shot.stat().st_size > 5000, proc.stderr.decode()[-2000:]
        dom = chromium(tmp_path, f"{c.url}/", "--dump-dom").stdout.decode()
        assert "<title>bc-toolserve</title>" in dom  # the injected script did not run
        for wid in ("alpha", "beta"):
            assert f">{wid}</td>" in dom
        assert "&lt;script&gt;document.title='pwned'&lt;/script&gt;" in dom
        assert "alive" in dom and "count" in dom
    finally:
        c.stop()

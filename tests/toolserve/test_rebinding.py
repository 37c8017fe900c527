"""A tokenless server listens on loopback only, yet a web page whose own name resolves to 127.0.0.1 (DNS
rebinding) could post to it: every route of master and worker takes only loopback Host and Origin headers."""
from __future__ import annotations

import http.client
from urllib.parse import urlsplit

import pytest

from tests.toolserve.conftest import Cluster


def send(url: str, method: str, path: str, headers: dict[str, str], body: bytes | None = None) -> int:
    """The status of one request whose Host header we choose (urllib always sends the real one)."""
    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)
    try:
        conn.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
        for key, value in headers.items():
            conn.putheader(key, value)
        conn.putheader("Content-Length", str(len(body or b"")))
        conn.endheaders(body)
        return conn.getresponse().status
    finally:
        conn.close()


@pytest.fixture(scope="module")
def tokenless(tmp_path_factory):
    c = Cluster(tmp_path_factory.mktemp("tokenless"), token=None)
    try:
        c.start_master()
        c.start_worker("w0")
        c.wait_alive(["w0"])
        yield c
    finally:
        c.stop()


def instances(c: Cluster) -> int:
    return c.health()["instances"]["total"]


def test_a_foreign_host_reaches_no_route_of_the_master(tokenless):
    port = urlsplit(tokenless.url).port
    before = instances(tokenless)
    plain = {"Host": f"evil.example:{port}", "Content-Type": "text/plain"}
    assert send(tokenless.url, "POST", "/count/create", plain, b'{"instance_id": "rebound"}') == 421
    assert send(tokenless.url, "GET", "/health", {"Host": "evil.example"}) == 421
    assert send(tokenless.url, "GET", "/", {"Host": "evil.example"}) == 421
    assert send(tokenless.url, "GET", "/metrics", {"Host": "127.0.0.1.evil.example"}) == 421
    origin = {"Host": f"127.0.0.1:{port}", "Origin": "http://evil.example", "Content-Type": "text/plain"}
    assert send(tokenless.url, "POST", "/count/create", origin, b'{"instance_id": "rebound"}') == 403
    assert send(tokenless.url, "POST", "/count/create", {**origin, "Origin": "null"}, b"{}") == 403
    assert instances(tokenless) == before  # nothing was created


def test_a_foreign_host_reaches_no_route_of_a_worker(tokenless):
    [worker] = tokenless.health()["workers"]
    port = urlsplit(worker["url"]).port
    assert send(worker["url"], "POST", "/count/create", {"Host": f"evil.example:{port}"}, b"{}") == 421
    assert send(worker["url"], "GET", "/health", {"Host": "evil.example"}) == 421


def test_loopback_names_still_work(tokenless):
    port = urlsplit(tokenless.url).port
    for host in (f"127.0.0.1:{port}", f"localhost:{port}", "localhost"):
        assert send(tokenless.url, "GET", "/health", {"Host": host}) == 200, host
    headers = {"Host": f"localhost:{port}", "Origin": f"http://localhost:{port}", "Content-Type": "application/json"}
    assert send(tokenless.url, "POST", "/count/create", headers, b'{"instance_id": "local"}') == 200


def test_a_server_with_a_token_serves_any_host(shared_cluster):
    """With a token the bearer check is the guard, and a public bind answers its own names."""
    assert send(shared_cluster.url, "GET", "/health", {"Host": "tools.example"}) == 200

"""1 master + 3 worker processes on loopback: placement, stickiness, errors, auth, faults, escaping."""
from __future__ import annotations

import html
import signal
import time
from collections import Counter

import pytest

from tests.toolserve.conftest import HEARTBEAT, TOKEN, Cluster, call, wait_for


def test_placement_spreads_load_and_instances_stick(cluster):
    placed, placed_of = Counter(), {}
    for i in range(30):
        status, answer = cluster.op("create", {"instance_id": f"i{i}", "identity": {"target": i}})
        assert status == 200, answer
        placed[answer["worker_id"]] += 1
        placed_of[f"i{i}"] = answer["worker_id"]
    assert sorted(placed.values()) == [10, 10, 10]
    # state survives across calls of one instance: it sticks to its worker
    for step in (1, 2, 3):
        status, answer = cluster.op("execute", {"instance_id": "i6", "parameters": {"step": step}})
        assert status == 200 and answer["text"] == str(sum(range(1, step + 1)))
    assert cluster.op("calc_reward", {"instance_id": "i6"}) == (200, {"reward": 1.0})
    assert cluster.health()["instances"]["by_worker"] == dict(placed)
    # a released instance frees its worker's slot, so the next instance goes there
    owner = cluster.op("create", {"instance_id": "extra"})[1]["worker_id"]
    assert cluster.op("release", {"instance_id": "extra"}) == (200, {"released": True})
    assert cluster.op("release", {"instance_id": "extra"}) == (200, {"released": False})  # idempotent
    assert cluster.op("release", {"instance_id": "i0"}) == (200, {"released": True})
    i0_owner = placed_of["i0"]
    assert cluster.op("create", {"instance_id": "next"})[1]["worker_id"] == i0_owner
    assert owner in placed


def test_errors_are_typed_with_real_statuses(shared_cluster):
    assert shared_cluster.op("create", {"instance_id": "a"})[0] == 200
    status, answer = shared_cluster.op("create", {"instance_id": "a"})
    assert (status, answer["error"]["type"]) == (409, "conflict")  # create-once
    status, answer = shared_cluster.op("execute", {"instance_id": "a", "parameters": {"step": "x"}})
    assert (status, answer["error"]["type"]) == (400, "invalid_arguments")
    status, answer = shared_cluster.op("execute", {"instance_id": "a", "parameters": {"step": -1}})
    assert (status, answer["error"]["type"]) == (422, "negative_step")  # the tool's own ToolError kind
    status, answer = shared_cluster.op("execute", {"instance_id": "nope", "parameters": {"step": 1}})
    assert (status, answer["error"]["type"]) == (404, "unknown_instance")
    status, answer = shared_cluster.op("create", {}, tool="nosuchtool")
    assert (status, answer["error"]["type"]) == (404, "unknown_tool")
    status, answer = shared_cluster.op("execute", {"instance_id": "../etc", "parameters": {}})
    assert status == 400
    status, answer = call(f"{shared_cluster.url}/count/execute", raw=b"{not json")
    assert (status, answer["error"]["type"]) == (400, "bad_request")
    assert _declared_huge_body(shared_cluster) == 413
    status, answer = shared_cluster.op("execute", {"instance_id": "a", "parameters": {"step": 1, "sleep": 3}})
    assert (status, answer["error"]["type"]) == (504, "timeout")  # master timeout is 1.5 s
    metrics = call(f"{shared_cluster.url}/metrics")[1]
    assert 'bc_toolserve_errors_total{type="conflict"}' in metrics
    assert 'bc_toolserve_requests_total{operation="execute",status="504"} 1' in metrics
    assert "bc_toolserve_request_seconds_bucket" in metrics and 'bc_toolserve_instances{worker="' in metrics


def test_auth_required_everywhere_but_health_and_dashboard(shared_cluster):
    body = {"instance_id": "z"}
    status, answer = call(f"{shared_cluster.url}/count/create", body, token=None)
    assert (status, answer["error"]["type"]) == (401, "unauthorized")
    status, answer = call(f"{shared_cluster.url}/count/create", body, token="wrong")
    assert (status, answer["error"]["type"]) == (403, "forbidden")
    assert call(f"{shared_cluster.url}/metrics", token=None)[0] == 401
    assert call(f"{shared_cluster.url}/_workers/register", {"worker_id": "x"}, token=None)[0] == 401
    assert call(f"{shared_cluster.url}/health", token=None)[0] == 200
    assert call(f"{shared_cluster.url}/", token=None)[0] == 200
    # workers demand the token as well (clients may call them directly)
    worker_url = shared_cluster.health()["workers"][0]["url"]
    assert call(f"{worker_url}/count/create", body, token=None)[0] == 401
    assert call(f"{worker_url}/count/create", body, token="wrong")[0] == 403


def test_registration_requires_proof_of_token(shared_cluster, tmp_path):
    """A registered URL that cannot prove the token is refused, and is never sent the token."""
    import threading
    from http.server import BaseHTTPRequestHandler, HTTPServer

    seen = []

    class Trap(BaseHTTPRequestHandler):
        def do_POST(self):
            seen.append((self.path, self.headers.get("Authorization")))
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.end_headers()
            self.wfile.write(b'{"proof": "0000"}')

        def log_message(self, *args):
            pass

    trap = HTTPServer(("127.0.0.1", 0), Trap)
    threading.Thread(target=trap.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{trap.server_address[1]}"
        status, answer = call(f"{shared_cluster.url}/_workers/register", {"worker_id": "evil", "url": url, "tools": ["count"]})
        assert (status, answer["error"]["type"]) == (403, "proof_failed")
        assert seen == [("/_proof", None)]  # one nonce challenge, no token
        for bad in ("file:///etc/passwd", "gopher://127.0.0.1:70", "http://user:pw@127.0.0.1:1", "http://127.0.0.1:1/x"):
            status, answer = call(f"{shared_cluster.url}/_workers/register", {"worker_id": "evil", "url": bad, "tools": ["count"]})
            assert status == 400, bad
        assert "evil" not in {w["worker_id"] for w in shared_cluster.health()["workers"]}
    finally:
        trap.shutdown()


def test_sigkilled_worker_instances_get_410_fast_and_new_ones_go_elsewhere(cluster):
    ids = {}
    for i in range(9):
        status, answer = cluster.op("create", {"instance_id": f"k{i}"})
        ids[f"k{i}"] = answer["worker_id"]
    victim = "w1"
    cluster.workers[victim].send_signal(signal.SIGKILL)
    cluster.workers[victim].wait()
    killed_at = time.monotonic()
    for instance_id, worker_id in ids.items():
        started = time.monotonic()
        status, answer = cluster.op("execute", {"instance_id": instance_id, "parameters": {"step": 1}}, timeout=5)
        assert time.monotonic() - started < 2.0  # no call hangs
        if worker_id == victim:
            assert (status, answer["error"]["type"]) == (410, "instance_lost")
        else:
            assert status == 200, answer
    # within the heartbeat window the master has declared it dead
    wait_for(lambda: {w["worker_id"]: w["status"] for w in cluster.health()["workers"]}[victim] == "dead",
             timeout=HEARTBEAT * 3 + 2, what="victim marked dead")
    assert time.monotonic() - killed_at < HEARTBEAT * 3 + 2
    placed = Counter(cluster.op("create", {"instance_id": f"n{i}"})[1]["worker_id"] for i in range(6))
    assert victim not in placed and sum(placed.values()) == 6
    status, answer = cluster.op("calc_reward", {"instance_id": next(i for i, w in ids.items() if w == victim)})
    assert status == 410


def test_worker_killed_without_traffic_is_detected_by_heartbeat(cluster):
    status, answer = cluster.op("create", {"instance_id": "quiet"})
    owner = answer["worker_id"]
    cluster.workers[owner].send_signal(signal.SIGKILL)
    cluster.workers[owner].wait()
    wait_for(lambda: cluster.health()["instances"]["lost"] == 1, timeout=HEARTBEAT * 3 + 2, what="instance lost")
    status, answer = cluster.op("execute", {"instance_id": "quiet", "parameters": {"step": 1}}, timeout=5)
    assert (status, answer["error"]["type"]) == (410, "instance_lost")


def test_master_restart_workers_reregister_and_keep_instances(cluster):
    assert cluster.op("create", {"instance_id": "old"})[0] == 200
    assert cluster.op("execute", {"instance_id": "old", "parameters": {"step": 5}})[1]["text"] == "5"
    cluster.master.send_signal(signal.SIGKILL)
    cluster.master.wait()
    cluster.start_master()
    cluster.wait_alive(["w0", "w1", "w2"], timeout=15)
    status, answer = cluster.op("create", {"instance_id": "new"})
    assert status == 200, answer
    assert cluster.op("execute", {"instance_id": "new", "parameters": {"step": 1}})[1]["text"] == "1"
    # the workers report their live instances when they register again: old ones still route
    assert cluster.op("execute", {"instance_id": "old", "parameters": {"step": 1}})[1]["text"] == "6"


def test_dashboard_escapes_hostile_worker_ids(shared_cluster):
    hostile = "<script>alert(1)</script>"
    shared_cluster.start_worker(hostile)
    shared_cluster.wait_alive([hostile])
    status, page = call(f"{shared_cluster.url}/", token=None)
    assert status == 200
    assert "<script>" not in page
    assert html.escape(hostile) in page
    assert 'http-equiv="refresh" content="3"' in page
    for wid in ("w0", "w1", "w2"):
        assert f">{wid}<" in page


def test_no_token_no_public_bind(tmp_path):
    c = Cluster(tmp_path, token=None)
    proc = c._spawn("public", ["master", "--host", "0.0.0.0", "--port", "0"])
    assert proc.wait(timeout=20) == 2
    assert "without a token" in c.log("public")


@pytest.mark.parametrize("token", [None])
def test_without_token_loopback_works(tmp_path, token):
    c = Cluster(tmp_path, token=token)
    try:
        c.start_master()
        c.start_worker("solo")
        c.wait_alive(["solo"])
        assert c.op("create", {"instance_id": "x"})[0] == 200
        assert call(f"{c.url}/count/execute", {"instance_id": "x", "parameters": {"step": 2}}, token=None)[0] == 200
    finally:
        c.stop()


def test_token_is_never_logged(shared_cluster):
    shared_cluster.op("create", {"instance_id": "secret-check", "identity": {"target": 424242}})
    logs = "".join(shared_cluster.log(n) for n in ("master", "worker-0", "worker-1", "worker-2"))
    assert logs and TOKEN not in logs and "424242" not in logs


def _declared_huge_body(cluster) -> int:
    """POST headers announcing a 3 MB body; the server must refuse before reading it."""
    import http.client

    conn = http.client.HTTPConnection("127.0.0.1", cluster.port, timeout=5)
    conn.putrequest("POST", "/count/create")
    conn.putheader("Authorization", f"Bearer {TOKEN}")
    conn.putheader("Content-Type", "application/json")
    conn.putheader("Content-Length", str(3 << 20))
    conn.endheaders()
    conn.send(b"{")
    try:
        return conn.getresponse().status
    finally:
        conn.close()

"""What a public tool server meets in its first week: forbidden worker addresses, takeover claims, weak tokens,
the seed's clients and flags, restarts and readiness (all on loopback)."""
from __future__ import annotations

import asyncio
import ipaddress
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request

import aiohttp
import orjson
import pytest

from bc_common.errors import ConfigError
from bc_common.remote_tool import RemoteTool
from bc_toolserve.admission import PolicyResolver
from bc_toolserve.auth import address_allowed, check_bind, proof_of, token_from_env
from bc_toolserve.master import Master
from tests.toolserve.conftest import ROOT, TOKEN, Cluster, call, free_port, wait_for
from tests.toolserve.counter_tool import SCHEMA, write_config
from tests.toolserve.test_hostile import InProcessMaster, Silent, http_trap, register


# --- tokens -------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("token", [None, " ", "\t \n", "short-token", " " * 20 + "abc", "a b c d e f g h i j k l m n o"])
def test_weak_tokens_never_bind_beyond_loopback(token):
    with pytest.raises(ConfigError):
        check_bind("0.0.0.0", token)
    check_bind("127.0.0.1", token)  # loopback needs none


def test_a_strong_token_may_bind_widely_and_env_tokens_are_stripped(monkeypatch):
    check_bind("0.0.0.0", "0123456789abcdef")
    check_bind("::", " 0123456789abcdef ")
    monkeypatch.setenv("BC_TOOLSERVE_TOKEN", "   ")
    assert token_from_env() is None
    monkeypatch.setenv("BC_TOOLSERVE_TOKEN", " s3cret-s3cret-s3cret \n")
    assert token_from_env() == "s3cret-s3cret-s3cret"


@pytest.mark.parametrize("token", [" ", "short-token"])
def test_cli_refuses_a_public_bind_with_a_weak_token(tmp_path, token):
    c = Cluster(tmp_path, token=None)
    c.env["BC_TOOLSERVE_TOKEN"] = token
    proc = c._spawn("public", ["master", "--host", "0.0.0.0", "--port", "0"])
    assert proc.wait(timeout=20) == 2
    log = c.log("public")
    assert ("without a token" in log if not token.strip() else "16 non-space characters" in log), log


def test_blank_bearer_values_are_401(shared_cluster):
    for blank in (" ", "   ", "\t"):
        status, answer = call(f"{shared_cluster.url}/count/create", {}, token=blank)
        assert (status, answer["error"]["type"]) == (401, "unauthorized"), repr(blank)
    status, answer = call(f"{shared_cluster.url}/count/create", {}, token="wrong-token-wrong")
    assert (status, answer["error"]["type"]) == (403, "forbidden")


# --- registration: where the master may connect -------------------------------------------------------------
class TrapConnector(aiohttp.BaseConnector):
    """Records every connection the master tries and makes none."""

    tried: list[str] = []

    async def connect(self, req, traces, timeout):
        TrapConnector.tried.append(str(req.url))
        raise aiohttp.ClientConnectionError("trap: no connection made")


class TrappedMaster(Master):
    def make_connector(self):
        return TrapConnector()


FORBIDDEN = ["http://169.254.169.254", "http://169.254.169.254:80", "http://[fe80::1]:8000", "http://224.0.0.1:80",
             "http://[ff02::1]:80", "http://0.0.0.0:8000", "http://[::]:8000", "http://[::ffff:169.254.169.254]:80",
             "http://240.0.0.1:80", "http://10.0.0.5:8000", "http://192.168.1.10:8000", "http://8.8.8.8:53"]


@pytest.mark.parametrize("nets", [[], [ipaddress.ip_network("0.0.0.0/0"), ipaddress.ip_network("::/0")]])
def test_forbidden_worker_addresses_are_refused_before_any_connection(nets):
    m = InProcessMaster(TrappedMaster, proof_timeout=0.5, allow_worker_nets=nets)
    TrapConnector.tried.clear()
    try:
        answers = {url: register(m.url, url) for url in FORBIDDEN[:9 if nets else None]}
        assert TrapConnector.tried == []  # refused before the connector was asked for anything
        assert {(s, orjson.dumps(a)) for s, a in answers.values()} == {
            (403, orjson.dumps({"error": {"type": "proof_failed",
                                          "message": "the worker url did not prove it holds the token"}}))}
    finally:
        m.stop()


def test_allowed_networks_reach_the_connector():
    m = InProcessMaster(TrappedMaster, proof_timeout=0.5, allow_worker_nets=[ipaddress.ip_network("10.0.0.0/8")])
    TrapConnector.tried.clear()
    try:
        assert register(m.url, "http://10.0.0.5:8000")[0] == 403  # the trap refused: no packet left the machine
        assert register(m.url, "http://192.168.1.10:8000")[0] == 403
        assert TrapConnector.tried == ["http://10.0.0.5:8000/_proof"]
    finally:
        m.stop()


def test_names_resolving_to_forbidden_addresses_are_refused_at_connect():
    class Fixed:
        def __init__(self, addresses):
            self.addresses = addresses

        async def resolve(self, host, port=0, family=0):
            return [{"hostname": host, "host": a, "port": port, "family": 0, "proto": 0, "flags": 0}
                    for a in self.addresses]

        async def close(self):
            pass

    async def run(addresses, nets=()):
        resolver = PolicyResolver(list(nets))
        resolver.inner = Fixed(addresses)  # no DNS query leaves the machine
        try:
            return [a["host"] for a in await resolver.resolve("worker.example", 80)]
        except OSError:
            return None

    assert asyncio.run(run(["169.254.169.254"])) is None
    assert asyncio.run(run(["10.1.2.3", "169.254.169.254"], [ipaddress.ip_network("10.0.0.0/8")])) == ["10.1.2.3"]
    assert asyncio.run(run(["127.0.0.1"])) == ["127.0.0.1"]
    for address in ("169.254.1.1", "fe80::1", "224.0.0.251", "0.0.0.0", "::", "255.255.255.255"):
        assert not address_allowed(address, [ipaddress.ip_network("0.0.0.0/0"), ipaddress.ip_network("::/0")])


def test_every_failed_proof_gives_the_same_answer():
    silent = Silent()
    wrong, wrong_url, _ = http_trap(lambda h: (h.send_response(200), h.send_header("Content-Length", "15"),
                                               h.end_headers(), h.wfile.write(b'{"proof": "no"}')))
    m = InProcessMaster(proof_timeout=0.5)
    try:
        answers = [register(m.url, url) for url in (silent.url, wrong_url, f"http://127.0.0.1:{free_port()}",
                                                    "http://169.254.169.254")]
        assert len({orjson.dumps(a) for a in answers}) == 1 and {s for s, _ in answers} == {403}
    finally:
        m.stop()
        silent.close()
        wrong.shutdown()


# --- registration: claimed instances ------------------------------------------------------------------------
def proving_worker():
    """An HTTP server that proves it holds the token (a token holder's rogue worker)."""
    def answer(h):
        nonce = orjson.loads(h.rfile.read(int(h.headers["Content-Length"])))["nonce"]
        body = orjson.dumps({"proof": proof_of(TOKEN, nonce)})
        h.send_response(200)
        h.send_header("Content-Type", "application/json")
        h.send_header("Content-Length", str(len(body)))
        h.end_headers()
        h.wfile.write(body)

    return http_trap(answer)


def test_claims_are_validated_and_takeovers_refused_and_logged(shared_cluster):
    c = shared_cluster
    status, answer = c.op("create", {"instance_id": "placed"})
    assert status == 200
    owner = answer["worker_id"]
    server, url, _ = proving_worker()
    try:
        for bad in ({"<b>x</b>": "count"}, {"ok": "other_tool"}, {"a\n": "count"}, ["placed"]):
            status, answer = call(f"{c.url}/_workers/register", {"worker_id": "rogue", "url": url,
                                                                  "tools": ["count"], "instances": bad})
            assert (status, answer["error"]["type"]) == (400, "bad_request"), bad
        status, answer = call(f"{c.url}/_workers/register", {"worker_id": "rogue", "url": url, "tools": ["count"],
                                                              "instances": {"placed": "count", "fresh": "count"}})
        assert status == 200 and answer["release"] == ["placed"]
        wait_for(lambda: "claimed instance 'placed' placed on live worker" in c.log("master"), 5, "a logged refusal")
        status, answer = c.op("execute", {"instance_id": "placed", "parameters": {"step": 2}})
        assert (status, answer["text"]) == (200, "2")  # still routed to its real worker
        assert [w for w in c.health()["workers"] if w["worker_id"] == owner][0]["status"] == "alive"
    finally:
        server.shutdown()


# --- the seed's wire format and flags -----------------------------------------------------------------------
def test_seed_clients_class_name_and_flat_parameters(shared_cluster):
    c = shared_cluster
    seed = f"{c.url}/CounterTool"  # the seed's mcp_server_url: http://IP:PORT/<ToolClassName>
    status, created = call(f"{seed}/create", {"instance_id": "seed-1", "identity": {"target": 5}})
    assert status == 200 and created["instance_id"] == "seed-1"
    text, reward, metrics = seed_execute(f"{seed}/execute", {"instance_id": "seed-1", "step": 2})  # flat
    assert (text, reward, metrics) == ("2", 0.0, {"total": 2})
    assert c.op("execute", {"instance_id": "seed-1", "parameters": {"step": 3}})[1]["text"] == "5"  # ours, nested
    # the seed's shape follows the seed's habits one at a time: class name with nested parameters, flat on our name
    assert seed_execute(f"{seed}/execute", {"instance_id": "seed-1", "parameters": {"step": 0}})[0] == "5"
    assert seed_execute(f"{c.url}/count/execute", {"instance_id": "seed-1", "step": 0})[0] == "5"
    assert call(f"{seed}/calc_reward", {"instance_id": "seed-1"}) == (200, {"reward": 1.0})
    status, answer = call(f"{seed}/execute", {"instance_id": "seed-1", "step": "two"})
    assert (status, answer["error"]["type"]) == (400, "invalid_arguments")  # flat arguments are validated too
    worker_url = created["worker_url"]
    assert seed_execute(f"{worker_url}/CounterTool/execute", {"instance_id": "seed-1", "step": 1})[0] == "6"
    assert call(f"{worker_url}/count/execute", {"instance_id": "seed-1", "parameters": {"step": 0}},
                token=c.token)[1]["text"] == "6"  # ours at the worker too
    assert call(f"{seed}/release", {"instance_id": "seed-1"}) == (200, {"released": True})
    assert call(f"{c.url}/NoSuchTool/create", {})[1]["error"]["type"] == "unknown_tool"


def seed_execute(url: str, body: dict) -> tuple[str, float, dict]:
    """An execute call as the seed's client makes it: it unpacks the answer into three values."""
    status, answer = call(url, body)
    assert status == 200, answer
    text, reward, metrics = answer
    return text, reward, metrics


def _cli(tmp_path, *args, timeout=60):
    return subprocess.run([sys.executable, "-m", "bc_toolserve", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=timeout, env=Cluster(tmp_path).env)


def test_seed_flags_are_accepted(tmp_path):
    tools = write_config(tmp_path / "tools.yaml")
    proc = _cli(tmp_path, "config", tools, "--master_url", "http://127.0.0.1:8000", "--updated_tool_class",
                "internbootcamp.src.base_mcp_tool.BaseMCPTool")
    assert proc.returncode == 0 and "bc_common.remote_tool.RemoteTool" in proc.stdout
    assert "--updated_tool_class internbootcamp.src.base_mcp_tool.BaseMCPTool is ignored" in proc.stderr
    proc = _cli(tmp_path, "--mode", "unified", "--tools_yaml_path", tools, "--num_workers", "1", "--port",
                str(free_port()), "--test_servers", "--connectivity_only", "--test_timeout", "5")
    assert proc.returncode == 0, proc.stderr
    assert "test count: ok (1 live workers)" in proc.stderr
    proc = _cli(tmp_path, "--mode", "worker", "--tools_yaml_path", tools, "--master_url", "http://127.0.0.1:1",
                "--test_timeout", "5", "--connectivity_only", "--host", "0.0.0.0")  # exits at the bind check
    assert "--test_timeout is ignored here: it applies to `unified --test`" in proc.stderr
    assert "--connectivity_only is ignored here" in proc.stderr and "no such option" not in proc.stderr


# --- restarts and readiness ---------------------------------------------------------------------------------
def test_unified_reports_starting_until_its_workers_registered(tmp_path):
    c = Cluster(tmp_path)
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    proc = subprocess.Popen([sys.executable, "-m", "bc_toolserve", "unified", "--tools", c.tools, "-n", "3",
                             "--port", str(port)], cwd=ROOT, env=c.env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    try:
        seen = []
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                status, state = call(f"{url}/health", timeout=2)
            except OSError:
                time.sleep(0.02)
                continue
            seen.append((status, state["status"], state["workers_alive"]))
            if status == 200:
                break
            time.sleep(0.02)
        assert seen[0] == (503, "starting", 0), seen[:3]
        assert all(s == (503, "starting", s[2]) and s[2] < 3 for s in seen[:-1])
        assert seen[-1] == (200, "ok", 3)
        # what a script does after the one-line wait: its first call works
        assert c.op_at(url, "create", {"instance_id": "first"})[0] == 200
    finally:
        proc.terminate()
        proc.wait(timeout=20)


def test_restarted_master_answers_503_while_recovering_and_remote_tool_waits(cluster, monkeypatch):
    monkeypatch.setenv("BC_TOOLSERVE_TOKEN", TOKEN)
    assert cluster.op("create", {"instance_id": "kept"})[0] == 200
    # the workers wait (SIGSTOP) until the probes below have run: on a loaded machine one re-registered before the
    # first probe (200) or the master took its whole recovery to start (404), and the test raced them
    for worker in cluster.workers.values():
        worker.send_signal(signal.SIGSTOP)
    try:
        cluster.master.kill()
        cluster.master.wait()
        cluster.start_master("--heartbeat-interval", "2")  # recovery lasts 6 s: time to look at it
        request = urllib.request.Request(f"{cluster.url}/count/execute", method="POST",
                                         data=orjson.dumps({"instance_id": "kept", "parameters": {"step": 1}}),
                                         headers={"Authorization": f"Bearer {TOKEN}"})
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request, timeout=10)
        answer = orjson.loads(refused.value.read())
        assert refused.value.code == 503 and refused.value.headers["Retry-After"] == "1"  # never 404 unknown_instance
        assert answer["error"]["type"] == "recovering" and answer["error"]["retryable"] is True
        assert cluster.op("create", {"instance_id": "unknown-yet"}, tool="not_yet_registered")[0] == 503
        assert call(f"{cluster.url}/health")[1]["status"] == "recovering"
    finally:
        for worker in cluster.workers.values():
            worker.send_signal(signal.SIGCONT)

    async def through_remote_tool():
        tool = RemoteTool({"type": "native", "server_url": cluster.url, "timeout_per_query": 20, "direct": False},
                          SCHEMA)
        tool._live.add("kept")
        started = time.monotonic()
        text, _, _ = await tool.execute("kept", {"step": 1})
        return text, time.monotonic() - started

    text, took = asyncio.run(through_remote_tool())
    assert text in ("1", "2")  # the instance survived the restart (the probe above may have reached it too)
    assert took < 10
    wait_for(lambda: call(f"{cluster.url}/health")[1]["status"] == "ok", 10, "recovery over")
    status, answer = cluster.op("execute", {"instance_id": "never-created", "parameters": {"step": 1}})
    assert (status, answer["error"]["type"]) == (404, "unknown_instance")

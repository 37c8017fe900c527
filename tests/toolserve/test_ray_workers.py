"""Tool workers as Ray actors on a real local Ray head (loopback, dashboard off, started and stopped here): they
register with the master like hand-started workers, serve sessions through RemoteTool, and a killed actor is a
dead worker (its sessions get 410, the others go on) that Ray replaces within 10 s.

BC_RAY_FULL=1 (`make test-ray-full`) runs the acceptance size, 1,000 sessions x 10 calls; CI runs 200 x 10."""
from __future__ import annotations

import asyncio
import fcntl
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

import pytest

from bc_common.errors import ToolError
from bc_common.extras import missing_modules
from tests.toolserve.conftest import ROOT, Cluster, call, free_port, wait_for
from tests.toolserve.counter_tool import SCHEMA

# one xdist worker should run every Ray test; RayHead's lock makes sure two heads never compete for the same CPUs
pytestmark = [pytest.mark.skipif(bool(missing_modules(["ray"])), reason="Ray is not installed (the `ray` extra)"),
              pytest.mark.timeout(300), pytest.mark.slow, pytest.mark.xdist_group("ray")]
FULL = os.environ.get("BC_RAY_FULL") == "1"
SESSIONS = 1000 if FULL else 200
CALLS = 10
ACTORS = 3


def _one_head_at_a_time(wait: float = 240.0):
    """An exclusive lock held while a head runs: pytest-xdist workers then never run two heads on the same CPUs
    (`xdist_group` cannot promise it: pytest 9 ignores the node id xdist 3.8 rewrites to group tests)."""
    handle = open(Path(tempfile.gettempdir()) / "bc-harness-ray-head.lock", "w")
    deadline = time.monotonic() + wait
    while True:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return handle
        except BlockingIOError:
            if time.monotonic() > deadline:
                handle.close()
                raise TimeoutError(f"another Ray head held the test lock for {wait:g}s") from None
            time.sleep(0.5)


class RayHead:
    """`ray start --head --block --node-ip-address 127.0.0.1` in its own process group, so stopping it ends only
    what it began. (Ray 2.60 turns a loopback node address into the machine's own; our servers bind 127.0.0.1.)"""

    START_TRIES = 3  # the GCS port is free when chosen, but another process may take it before Ray binds it

    def __init__(self, env: dict[str, str], num_cpus: int = 2):
        self.lock = _one_head_at_a_time()  # before anything that stop() must undo
        self.env = env
        for tries_left in range(self.START_TRIES - 1, -1, -1):
            self.temp = tempfile.mkdtemp(prefix="bcray-", dir="/tmp")  # Ray's socket paths must stay short
            self.port = free_port()
            self.address = f"127.0.0.1:{self.port}"
            ray_cli = str(Path(sys.executable).with_name("ray"))
            self.log = open(Path(self.temp) / "head.log", "ab")
            self.proc = subprocess.Popen(  # a failed start below stops it and frees the lock
                [ray_cli, "start", "--head", "--block", "--node-ip-address", "127.0.0.1", "--port", str(self.port),
                 "--include-dashboard=false", "--num-cpus", str(num_cpus), "--object-store-memory", str(80 << 20),
                 "--temp-dir", self.temp, "--disable-usage-stats"],
                env=env, stdout=self.log, stderr=self.log, start_new_session=True)
            try:
                wait_for(lambda: self.proc.poll() is not None or self._up(), timeout=120, what="Ray head")
                if self.proc.poll() is None:
                    return
                said = (Path(self.temp) / "head.log").read_text(errors="replace")
                if not tries_left or "Failed to start the grpc server" not in said:
                    raise AssertionError(said[-3000:])
                self.stop(keep_lock=True)  # the port was taken meanwhile: another port
            except BaseException:
                self.stop(keep_files=True)  # head.log says why
                raise

    def _up(self) -> bool:
        """`ray start` says so once the head's processes answer (cheaper than a probing driver on a busy box)."""
        return b"Ray runtime started" in (Path(self.temp) / "head.log").read_bytes()

    def stop(self, keep_lock: bool = False, keep_files: bool = False) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)  # `ray start --block` stops the processes it started
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                pass
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)  # anything of that session still there
        except ProcessLookupError:
            pass
        self.proc.wait()
        self.log.close()
        if not keep_files:
            shutil.rmtree(self.temp, ignore_errors=True)
        if not keep_lock:
            self.lock.close()  # the next head may start


def _env_with_worktree() -> dict[str, str]:
    """The cluster's environment, with this checkout first on PYTHONPATH (Ray's workers import the tools)."""
    env = {k: v for k, v in os.environ.items() if k != "RAY_ADDRESS"}
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)
    return env


@pytest.fixture(scope="module")
def ray_setup(tmp_path_factory):
    """A master (token on, 1 s heartbeats), a Ray head, and `bc-toolserve ray -n 3` placing the workers."""
    tmp = tmp_path_factory.mktemp("ray")
    cluster = Cluster(tmp)
    cluster.env = {**_env_with_worktree(), "BC_TOOLSERVE_TOKEN": cluster.token}
    head = launcher = None
    try:
        cluster.start_master("--heartbeat-interval", "1.0", timeout_per_query=20.0)
        head = RayHead({k: v for k, v in cluster.env.items() if k != "BC_TOOLSERVE_TOKEN"})  # token: runtime env
        launcher = cluster._spawn("ray", ["ray", "--address", head.address, "--master-url", cluster.url, "--tools",
                                          cluster.tools, "-n", str(ACTORS), "--num-cpus", "0.5", "--memory", "200M",
                                          "--host", "127.0.0.1"])
        wait_for(lambda: launcher.poll() is not None or len(_ray_workers(cluster)) == ACTORS, timeout=120,
                 what=f"{ACTORS} Ray workers registered")
        assert launcher.poll() is None, cluster.log("ray")[-3000:]
        yield cluster, head, launcher
    finally:
        if launcher is not None and launcher.poll() is None:
            launcher.send_signal(signal.SIGTERM)
            try:
                launcher.wait(timeout=30)
            except subprocess.TimeoutExpired:
                launcher.kill()
                launcher.wait()
        if head is not None:
            head.stop()
        cluster.stop()


def _ray_workers(cluster: Cluster) -> dict[str, dict]:
    """The master's live workers that the Ray launcher placed, by worker id."""
    return {w["worker_id"]: w for w in cluster.health().get("workers", [])
            if w["status"] == "alive" and w["worker_id"].startswith("ray-")}


def _remote_tool(cluster: Cluster, monkeypatch):
    """The real client, with the cluster's token (RemoteTool reads it from the environment)."""
    from bc_common.remote_tool import RemoteTool

    monkeypatch.setenv("BC_TOOLSERVE_TOKEN", cluster.token)
    return RemoteTool({"type": "native", "server_url": cluster.url, "timeout_per_query": 30}, SCHEMA)


async def _sessions(tool, prefix: str, n: int, calls: int, concurrency: int = 64, after_call=None):
    """Play `n` sessions of `calls` counter steps each; per session: (worker id, results: True or error kind)."""
    gate = asyncio.Semaphore(concurrency)
    done = Counter()

    async def session(i: int):
        async with gate:
            instance_id = await tool.create(f"{prefix}-{i}", identity={"target": calls})
            worker_id = tool._worker_ids[instance_id]  # where the master placed it (the create answer)
            results = []
            for step in range(calls):
                try:
                    text, _, _ = await tool.execute(instance_id, {"step": 1})
                    results.append(text == str(step + 1) or f"wrong total {text}")
                except ToolError as exc:
                    results.append(exc.kind)
                done["calls"] += 1
                if after_call is not None:
                    after_call(done["calls"], worker_id, step)
            try:
                await tool.release(instance_id)
            except ToolError as exc:  # a lost instance has nothing to release
                assert exc.kind == "instance_lost", exc
            return worker_id, results

    return await asyncio.gather(*(session(i) for i in range(n)))


def test_ray_workers_serve_sessions_like_hand_started_ones(ray_setup, monkeypatch):
    cluster, head, launcher = ray_setup
    workers = _ray_workers(cluster)
    assert len(workers) == ACTORS and all(w["url"].startswith("http://127.0.0.1:") for w in workers.values())
    # workers demand the token as hand-started ones do (it reached the actors through their runtime env)
    url = next(iter(workers.values()))["url"]
    assert call(f"{url}/count/create", {"instance_id": "t"}, token=None)[0] == 401
    started = time.monotonic()
    outcomes = asyncio.run(_sessions(_remote_tool(cluster, monkeypatch), "full", SESSIONS, CALLS))
    elapsed = time.monotonic() - started
    failures = [r for _, results in outcomes for r in results if r is not True]
    assert failures == [] and len(outcomes) == SESSIONS
    placed = Counter(worker_id for worker_id, _ in outcomes)
    assert set(placed) == set(workers) and min(placed.values()) >= SESSIONS // ACTORS // 2  # sticky and spread
    print(f"\n{SESSIONS} sessions x {CALLS} calls on {ACTORS} Ray workers: {elapsed:.1f}s, "
          f"{SESSIONS * (CALLS + 2) / elapsed:.0f} requests/s")


def test_killed_actor_gives_410_to_its_sessions_only_and_is_replaced(ray_setup, monkeypatch):
    cluster, head, launcher = ray_setup
    before = _ray_workers(cluster)
    victim_id = sorted(before)[0]
    victim_pid = before[victim_id]["pid"]
    prefix = victim_id.rsplit("-", 1)[0] + "-"  # ray-INDEX-: Ray restarts the actor of that index
    killed, replaced = {}, {}

    def watch_for_replacement() -> None:  # polls beside the load, so the time is the replacement's, not the run's
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not replaced:
            try:
                new = [w for w in _ray_workers(cluster) if w.startswith(prefix) and w != victim_id]
            except OSError:
                new = []
            if new:
                replaced.update(id=new[0], at=time.monotonic())
            time.sleep(0.1)

    watcher = threading.Thread(target=watch_for_replacement, daemon=True)

    def kill_midway(calls_done: int, worker_id: str, step: int) -> None:
        # midway through the run, while one of the victim's sessions is midway through its calls: that session
        # is certainly on the victim when it dies (a kill between the victim's sessions would test nothing)
        if not killed and calls_done >= SESSIONS * CALLS // 2 and worker_id == victim_id and step == CALLS // 2:
            os.kill(victim_pid, signal.SIGKILL)  # the actor's process: what a crash or an OOM kill does
            killed["at"] = time.monotonic()
            watcher.start()

    outcomes = asyncio.run(_sessions(_remote_tool(cluster, monkeypatch), "kill", SESSIONS, CALLS, after_call=kill_midway))
    assert killed
    on_victim = [results for worker_id, results in outcomes if worker_id == victim_id]
    others = [results for worker_id, results in outcomes if worker_id != victim_id]
    assert on_victim and others
    failed = Counter(r for results in others for r in results if r is not True)
    assert not failed, failed  # the other workers' sessions all succeed
    for results in on_victim:  # its sessions: successes until the kill, then 410 (final), nothing else
        first_error = next((i for i, r in enumerate(results) if r is not True), len(results))
        assert all(r is True for r in results[:first_error])
        assert set(results[first_error:]) <= {"instance_lost"}, results
    assert any("instance_lost" in results for results in on_victim)
    # Ray starts a replacement actor: a new worker registered with the master within 10 s of the kill
    watcher.join(35)
    assert replaced, "no replacement worker registered within 30 s of the kill"
    print(f"\nreplacement {replaced['id']} alive {replaced['at'] - killed['at']:.1f}s after the kill")
    assert replaced["at"] - killed["at"] < 10
    states = {w["worker_id"]: w["status"] for w in cluster.health()["workers"]}
    assert states[victim_id] == "dead"
    # new sessions are served, the replacement taking its share
    fresh = asyncio.run(_sessions(_remote_tool(cluster, monkeypatch), "after", 30, 2))
    assert all(r is True for _, results in fresh for r in results)
    assert replaced["id"] in {worker_id for worker_id, _ in fresh}


def test_python_api_places_and_removes_workers(ray_setup, monkeypatch):
    import ray

    from bc_toolserve.ray_workers import RayToolWorkers

    cluster, head, launcher = ray_setup
    monkeypatch.setenv("BC_TOOLSERVE_TOKEN", cluster.token)
    ray.init(address=head.address, log_to_driver=False)
    try:
        with RayToolWorkers(cluster.url, cluster.tools, 1, num_cpus=0.25, worker_id="api", host="127.0.0.1") as workers:
            ids = workers.wait_registered(timeout=60)
            assert len(ids) == 1 and ids[0].startswith("api-0-")
            assert cluster.op("create", {"instance_id": "api-x"})[0] == 200
        # stopped: the worker is gone from the cluster and the master declares it dead
        wait_for(lambda: {w["worker_id"]: w["status"] for w in cluster.health()["workers"]}[ids[0]] == "dead",
                 timeout=15, what="the API's worker declared dead after stop")
    finally:
        ray.shutdown()


def test_cli_refuses_bad_memory_and_missing_master(tmp_path):
    env = {**_env_with_worktree(), "BC_TOOLSERVE_TOKEN": ""}
    bad = subprocess.run([sys.executable, "-m", "bc_toolserve", "ray", "--master-url", "http://127.0.0.1:1",
                          "--tools", "arithmetic", "--memory", "lots"], env=env, cwd=ROOT, capture_output=True,
                         text=True, timeout=60)
    assert bad.returncode == 2 and "--memory" in bad.stderr and "not a size" in bad.stderr
    bad = subprocess.run([sys.executable, "-m", "bc_toolserve", "ray", "--tools", "arithmetic"], env=env, cwd=ROOT,
                         capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "--master-url" in bad.stderr


def test_cli_reports_a_worker_that_cannot_start(ray_setup):
    """A public bind without a token is refused inside the actor; the launcher says so and exits 2."""
    cluster, head, launcher = ray_setup
    env = {k: v for k, v in cluster.env.items() if k != "BC_TOOLSERVE_TOKEN"}
    run = subprocess.run([sys.executable, "-m", "bc_toolserve", "ray", "--address", head.address, "--master-url",
                          cluster.url, "--tools", cluster.tools, "--host", "0.0.0.0", "--num-cpus", "0"],
                         env=env, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert run.returncode == 2, run.stderr[-2000:]
    assert "a Ray worker actor died" in run.stderr and "refusing to bind 0.0.0.0 without a token" in run.stderr


def test_without_ray_the_command_gives_the_install_hint():
    """Where the `ray` extra is missing (simulated: the module hidden), the command says how to install it."""
    code = ("import sys; sys.modules['ray'] = None\nfrom bc_toolserve.cli import main\n"
            "main(['ray', '--master-url', 'http://127.0.0.1:1', '--tools', 'arithmetic'])")
    run = subprocess.run([sys.executable, "-c", code], env=_env_with_worktree(), cwd=ROOT, capture_output=True,
                         text=True, timeout=60)
    assert run.returncode == 2 and "Ray is not installed" in run.stderr and "[ray]" in run.stderr, run.stderr

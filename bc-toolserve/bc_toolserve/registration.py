"""The worker's side of membership: register (again after a master restart) and heartbeat forever."""
from __future__ import annotations

import asyncio
import logging
import os
import socket

import aiohttp
import orjson

from .worker import Worker

log = logging.getLogger("bc_toolserve.worker")


async def stay_registered(worker: Worker, master_url: str, self_url: str, token: str | None) -> None:
    """Register with the master, then heartbeat; a 404 on heartbeat (new or forgetful master) re-registers."""
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    master_url = master_url.rstrip("/")
    interval, backoff, registered, failures = 2.0, 0.2, False, 0
    timeout = aiohttp.ClientTimeout(total=10)
    async with aiohttp.ClientSession(headers=headers, timeout=timeout) as session:
        while True:
            try:
                if not registered:
                    body = {"worker_id": worker.settings.worker_id, "url": self_url, "tools": sorted(worker.tools),
                            "aliases": worker.aliases, "host": socket.gethostname(), "pid": os.getpid(),
                            "instances": worker.live()}
                    async with session.post(f"{master_url}/_workers/register", data=orjson.dumps(body)) as resp:
                        answer = await resp.read()
                        if resp.status != 200:
                            raise RuntimeError(f"HTTP {resp.status}: {answer[:300].decode(errors='replace')}")
                    answer = orjson.loads(answer)
                    interval = float(answer.get("heartbeat_interval_s", interval))
                    worker.dead_after = float(answer.get("dead_after_s", 3 * interval))
                    for instance_id in answer.get("release") or []:  # lost meanwhile (410 is final) or not ours
                        await worker.drop(instance_id)
                    worker.suspect = False
                    registered, backoff, failures = True, 0.2, 0
                    log.info("worker %r registered with %s as %s", worker.settings.worker_id, master_url, self_url)
                    continue
                await asyncio.sleep(interval)
                released = dict(worker.released)
                body = {"worker_id": worker.settings.worker_id, "calls": worker.calls, "released": list(released),
                        "incarnations": list(released.values())}
                async with session.post(f"{master_url}/_workers/heartbeat", data=orjson.dumps(body)) as resp:
                    await resp.read()
                    if resp.status == 404:
                        registered = False
                        log.warning("master does not know worker %r: registering again", worker.settings.worker_id)
                    elif resp.status == 200:
                        for instance_id, incarnation in released.items():  # unless released again meanwhile
                            if worker.released.get(instance_id) == incarnation:
                                del worker.released[instance_id]
                        worker.suspect, failures = False, 0
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                failures += 1
                if failures == 1 or failures % 20 == 0:
                    log.warning("master %s unreachable or refused (%s): retrying", master_url,
                                str(exc) or type(exc).__name__)
                if not registered:
                    await asyncio.sleep(backoff)
                    backoff = min(backoff * 2, 2.0)

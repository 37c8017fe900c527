"""Worker admission: a registration is validated, its URL must be an address workers may use and prove it holds
the token (no SSRF via registration), and the instances it claims are checked against the table."""
from __future__ import annotations

import asyncio
import hmac
import ipaddress
import logging
import re
import socket
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import aiohttp
import orjson

from .auth import address_allowed, check_worker_url, new_nonce, proof_of
from .membership import Membership, WorkerInfo
from .protocol import TOOL_NAME, ApiError, check_instance_id
from .routing import InstanceTable
from .worker_link import WorkerLink

log = logging.getLogger("bc_toolserve.master")
CLASS_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,63}")
PROOF_FAILED = "the worker url did not prove it holds the token"  # one answer for every failure: no scan oracle


class PolicyResolver(aiohttp.abc.AbstractResolver):
    """Resolve worker host names, keeping only addresses the master may contact (checked at every connect, so
    a name that later resolves elsewhere is refused too)."""

    def __init__(self, nets: list):
        self.inner = aiohttp.ThreadedResolver()
        self.nets = nets

    async def resolve(self, host: str, port: int = 0, family: socket.AddressFamily = socket.AF_INET) -> list:
        allowed = [a for a in await self.inner.resolve(host, port, family) if address_allowed(a["host"], self.nets)]
        if not allowed:
            raise OSError(f"{host} resolves to no address workers may use")
        return allowed

    async def close(self) -> None:
        await self.inner.close()


@dataclass(frozen=True)
class Registration:
    """A worker's registration body, validated."""

    worker_id: str
    url: str
    tools: list[str]
    instances: dict[str, str]  # instance id -> tool: what a worker re-registering after a master restart holds
    aliases: dict[str, str]  # class name -> tool (the seed's addressing)
    host: str
    pid: int | None


def parse_registration(body: dict[str, Any]) -> Registration:
    """The registration in `body`, or ApiError 400 naming the first bad field."""
    worker_id = body.get("worker_id")
    if not isinstance(worker_id, str) or not 1 <= len(worker_id) <= 200:
        raise ApiError(400, "bad_request", "worker_id must be a string of 1-200 characters")
    try:
        url = check_worker_url(body.get("url"))
    except ValueError as exc:
        raise ApiError(400, "bad_request", f"invalid worker url: {exc}") from None
    tools = body.get("tools")
    if not isinstance(tools, list) or not tools or not all(isinstance(t, str) and TOOL_NAME.fullmatch(t) for t in tools):
        raise ApiError(400, "bad_request", "tools must be a non-empty list of tool names")
    instances = body.get("instances") or {}
    if not isinstance(instances, dict) or not all(
            isinstance(t, str) and t in tools and check_instance_id(i) for i, t in instances.items()):
        raise ApiError(400, "bad_request", "instances must map valid instance ids to tools of this worker")
    aliases = body.get("aliases") or {}
    if not isinstance(aliases, dict) or not all(
            isinstance(a, str) and CLASS_NAME.fullmatch(a) and t in tools for a, t in aliases.items()):
        raise ApiError(400, "bad_request", "aliases must map class names to tools of this worker")
    host = body.get("host") if isinstance(body.get("host"), str) else ""
    pid = body.get("pid") if isinstance(body.get("pid"), int) else None
    return Registration(worker_id, url, tools, instances, aliases, host[:200], pid)


class Admission:
    """Admits workers into the membership: proof first, then the claims, then the table adopts what they keep."""

    def __init__(self, membership: Membership, table: InstanceTable, link: WorkerLink, token: str | None,
                 allow_worker_nets: list, proof_timeout: float):
        self.membership = membership
        self.table = table
        self.link = link
        self.token = token
        self.allow_worker_nets = allow_worker_nets
        self.proof_timeout = proof_timeout

    async def admit(self, body: dict[str, Any]) -> tuple[WorkerInfo, list[str]]:
        """The registered worker and the claimed instances it must release; ApiError 400/403 when refused."""
        reg = parse_registration(body)
        await self.check_proof(reg.url)
        previous = self.membership.workers.get(reg.worker_id)
        if previous is not None and previous.url != reg.url:
            self.table.lose_worker(reg.worker_id)
        live, refused = self.claims(reg.worker_id, reg.instances)
        info = self.membership.register(WorkerInfo(reg.worker_id, reg.url, sorted(set(reg.tools)), reg.host, reg.pid,
                                                   aliases=reg.aliases))
        self.table.adopt(reg.worker_id, live)
        log.info("worker %r registered at %s with tools %s (%d live instances)", reg.worker_id, reg.url,
                 ", ".join(info.tools), len(live))
        return info, refused

    def claims(self, worker_id: str, instances: dict[str, str]) -> tuple[dict[str, str], list[str]]:
        """The claimed instances a (re-)registering worker may keep, and those it must release: lost ones (410
        is final) and ones placed on another live worker (a takeover attempt, logged)."""
        live, refused = {}, []
        for instance_id, tool in instances.items():
            placement = self.table.get(instance_id)
            owner = self.membership.workers.get(placement.worker_id) if placement else None
            if placement is not None and placement.worker_id != worker_id and owner is not None and owner.alive:
                log.warning("worker %r claimed instance %r placed on live worker %r: refused", worker_id,
                            instance_id, placement.worker_id)
                refused.append(instance_id)
            elif self.table.is_lost(instance_id):
                refused.append(instance_id)
            else:
                live[instance_id] = tool
        return live, refused

    async def check_proof(self, url: str) -> None:
        """Talk to a registered URL only after it proves it holds the token (no SSRF via registration). Only
        loopback and `--allow-worker-net` addresses are contacted; every failure gives the same 403."""
        host = urlsplit(url).hostname or ""
        try:
            ipaddress.ip_address(host.split("%", 1)[0])
        except ValueError:
            pass  # a name: PolicyResolver checks what it resolves to, at every connect
        else:
            if not address_allowed(host, self.allow_worker_nets):
                log.warning("registration refused: %s is not an address workers may use (--allow-worker-net)", url)
                raise ApiError(403, "proof_failed", PROOF_FAILED)
        nonce = new_nonce()
        try:
            status, raw = await self.link.ask_proof(url, nonce, self.proof_timeout)
        except (aiohttp.ClientError, asyncio.TimeoutError, OSError) as exc:
            log.warning("registration refused: cannot reach %s for the proof (%s)", url, type(exc).__name__)
            raise ApiError(403, "proof_failed", PROOF_FAILED) from None
        try:
            answer = orjson.loads(raw).get("proof") if status == 200 else None
        except (orjson.JSONDecodeError, AttributeError):
            answer = None
        expected = proof_of(self.token, nonce).encode()
        if not isinstance(answer, str) or not hmac.compare_digest(answer.encode(errors="replace"), expected):
            log.warning("registration refused: %s answered a wrong proof (HTTP %s)", url, status)
            raise ApiError(403, "proof_failed", PROOF_FAILED)

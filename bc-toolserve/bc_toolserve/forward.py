"""The master's hop to its workers: pooled keep-alive HTTP/1.1 POSTs, parsed by httptools (uvicorn's parser).

Forwarding is the master's hot path, and aiohttp's client spent about as much of the master's CPU on it as the
whole server side of the call (py-spy under bench/toolserve.py). A worker answers small JSON bodies with a
Content-Length over plain HTTP to an address the master checked at registration, so the lean connections of
`bc_common.http1` (shared with bc-eval's model client) do: one write per request, one parser callback per part,
idle connections reused. Workers with a host name or https keep going through aiohttp (`WorkerLink.post` decides).
"""
from __future__ import annotations

from bc_common.http1 import ConnectFailed, Dropped
from bc_common.http1 import Pool as Forwarder

__all__ = ["ConnectFailed", "Dropped", "Forwarder"]

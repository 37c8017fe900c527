"""Bearer-token auth, the bind rule (no token, no public bind), the DNS-rebinding guard of a tokenless server, and
the worker proof-of-token challenge."""
from __future__ import annotations

import hashlib
import hmac
import ipaddress
import os
import secrets
from collections.abc import Iterable
from urllib.parse import urlsplit

import orjson

from bc_common.errors import ConfigError

TOKEN_ENV = "BC_TOOLSERVE_TOKEN"
PUBLIC_PATHS = frozenset({"/", "/health", "/_proof"})


MIN_PUBLIC_TOKEN = 16  # non-space characters a token needs before we listen beyond loopback
LOOPBACK_NETS = (ipaddress.ip_network("127.0.0.0/8"), ipaddress.ip_network("::1/128"))


def token_from_env() -> str | None:
    """The shared token from `BC_TOOLSERVE_TOKEN`, stripped (headers cannot carry edge spaces); None when blank."""
    return os.environ.get(TOKEN_ENV, "").strip() or None


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def check_bind(host: str, token: str | None) -> None:
    """Refuse to listen beyond loopback without a token of at least 16 non-space characters (the predecessor
    served 0.0.0.0 unauthenticated, and took `BC_TOOLSERVE_TOKEN=" "` for a token)."""
    if is_loopback(host):
        return
    if not token:
        raise ConfigError(f"refusing to bind {host} without a token: set {TOKEN_ENV} "
                          f"(or bind 127.0.0.1)")
    if sum(not c.isspace() for c in token) < MIN_PUBLIC_TOKEN:
        raise ConfigError(f"refusing to bind {host}: {TOKEN_ENV} must have at least {MIN_PUBLIC_TOKEN} "
                          f"non-space characters to listen beyond loopback")


def new_nonce() -> str:
    return secrets.token_hex(16)


def proof_of(token: str | None, nonce: str) -> str:
    """HMAC-SHA256 of the nonce under the token: what a worker answers to prove it holds the token."""
    return hmac.new((token or "").encode(), nonce.encode(), hashlib.sha256).hexdigest()


def check_worker_url(url: object) -> str:
    """A worker URL the master may talk to: http(s), a host, no credentials, query or fragment."""
    if not isinstance(url, str) or len(url) > 512:
        raise ValueError("url must be a string of at most 512 characters")
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https"):
        raise ValueError("url must be http:// or https://")
    if not parts.hostname or parts.username or parts.password or parts.query or parts.fragment:
        raise ValueError("url must be scheme://host:port with no credentials, query or fragment")
    if parts.path not in ("", "/"):
        raise ValueError("url must have no path")
    try:
        _ = parts.port
    except ValueError:
        raise ValueError("url has an invalid port") from None
    return f"{parts.scheme}://{parts.netloc}"


def parse_nets(cidrs: Iterable[str]) -> list[ipaddress.IPv4Network | ipaddress.IPv6Network]:
    """`--allow-worker-net` values as networks; ValueError names the bad one."""
    nets = []
    for cidr in cidrs:
        try:
            nets.append(ipaddress.ip_network(cidr.strip(), strict=False))
        except ValueError:
            raise ValueError(f"not a network (CIDR such as 10.0.0.0/8): {cidr!r}") from None
    return nets


def address_allowed(address: str, nets: Iterable = ()) -> bool:
    """May the master connect to `address`? Never link-local (cloud metadata), multicast, unspecified or
    reserved; otherwise only loopback and the allowed networks."""
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return False
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    if ip.is_link_local or ip.is_multicast or ip.is_unspecified or ip.is_reserved:
        return False
    return any(ip in net for net in (*LOOPBACK_NETS, *nets) if net.version == ip.version)


class BearerAuth:
    """ASGI middleware: every path but the public ones needs `Authorization: Bearer <token>` (401 / 403)."""

    def __init__(self, app, token: str | None, public: frozenset[str] = PUBLIC_PATHS, on_deny=None):
        self.app = app
        self.on_deny = on_deny
        self.expected = f"Bearer {token}".encode() if token else None
        self.public = public

    async def __call__(self, scope, receive, send):
        if self.expected is None or scope["type"] != "http" or scope["path"] in self.public:
            return await self.app(scope, receive, send)
        given = _bearer(scope["headers"])
        if given is None or not given.partition(b" ")[2].strip():  # absent, or a blank bearer value
            status, kind, message = 401, "unauthorized", "missing (or blank) Authorization: Bearer token"
        elif not hmac.compare_digest(given, self.expected):
            status, kind, message = 403, "forbidden", "wrong token"
        else:
            return await self.app(scope, receive, send)
        if self.on_deny is not None:
            self.on_deny(status, kind)
        await _deny(send, status, kind, message, jsonrpc=scope["path"] == "/mcp")


def _bearer(headers) -> bytes | None:
    """The value of the first Authorization header, if any."""
    for key, value in headers:
        if key == b"authorization":
            return value
    return None


def passes(headers, expected: bytes | None) -> bool:
    """Would a request with `headers` pass our servers' auth untouched: `BearerAuth` with `expected`
    (b"Bearer <token>"), or without a token `RebindingGuard` (a loopback Host; here also no Origin at all, the plain
    case)? False leaves the request to them, to be answered or denied (`server.FastCalls`)."""
    if expected is not None:
        given = _bearer(headers)
        return given is not None and hmac.compare_digest(given, expected)
    for key, value in headers:
        if key == b"origin" or (key == b"host" and not _loopback_authority(value.decode("latin-1"))):
            return False
    return True


class RebindingGuard:
    """ASGI middleware for a server without a token: it listens on loopback only (check_bind), but a web page the
    user opens could still reach it by DNS rebinding (its own name resolving to 127.0.0.1) and post a `text/plain`
    body to any route. Every route accepts only a loopback Host (421 otherwise) and, when a browser sends one, a
    loopback Origin (403 otherwise): the guard the MCP SDK keeps at /mcp, on the whole server."""

    def __init__(self, app, on_deny=None):
        self.app = app
        self.on_deny = on_deny

    async def __call__(self, scope, receive, send):
        if scope["type"] not in ("http", "websocket"):
            return await self.app(scope, receive, send)
        host = origin = None
        for key, value in scope["headers"]:
            if key == b"host":
                host = value.decode("latin-1")
            elif key == b"origin":
                origin = value.decode("latin-1")
        if host is not None and not _loopback_authority(host):
            status, message = 421, "Host header is not a loopback address: a server without a token answers " \
                                   "only 127.0.0.1, localhost or [::1] (set a token to serve other names)"
        elif origin is not None and not _loopback_origin(origin):
            status, message = 403, "Origin is not a loopback address: a server without a token answers no " \
                                   "other web page"
        else:
            return await self.app(scope, receive, send)
        if self.on_deny is not None:
            self.on_deny(status, "forbidden_host")
        if scope["type"] == "websocket":
            return await send({"type": "websocket.close", "code": 1008})
        await _deny(send, status, "forbidden_host", message, jsonrpc=scope["path"] == "/mcp")


def _loopback_authority(authority: str) -> bool:
    """`127.0.0.1:8000`, `localhost`, `[::1]:9`: a loopback host with an optional numeric port."""
    host, sep, port = authority.rpartition(":") if not authority.endswith("]") else (authority, "", "")
    if not sep or "]" in port:
        host, port = authority, ""
    if port and not port.isdigit():
        return False
    if host.startswith("["):
        return host.endswith("]") and is_loopback(host)
    return ":" not in host and is_loopback(host)


def _loopback_origin(origin: str) -> bool:
    parts = urlsplit(origin)
    return parts.scheme in ("http", "https") and not parts.path.strip("/") and _loopback_authority(parts.netloc)


async def _deny(send, status: int, kind: str, message: str, jsonrpc: bool = False) -> None:
    error = {"type": kind, "message": message}
    if jsonrpc:  # MCP clients show a JSON-RPC error's message (ours keeps its "type" beside code and message)
        error = {"code": -32001, "message": f"{kind}: {message}", "type": kind, "data": {"type": kind}}
    body = orjson.dumps({"jsonrpc": "2.0", "id": None, "error": error} if jsonrpc else {"error": error})
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    if status == 401:
        headers.append((b"www-authenticate", b"Bearer"))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})

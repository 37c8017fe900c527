"""Bearer-token auth, the bind rule (no token, no public bind), and the worker proof-of-token challenge."""
from __future__ import annotations

import hashlib
import hmac
import ipaddress
import os
import secrets
from urllib.parse import urlsplit

import orjson

from bc_common.errors import ConfigError

TOKEN_ENV = "BC_TOOLSERVE_TOKEN"
PUBLIC_PATHS = frozenset({"/", "/health", "/_proof"})


def token_from_env() -> str | None:
    """The shared token from `BC_TOOLSERVE_TOKEN`; None when unset or empty."""
    return os.environ.get(TOKEN_ENV) or None


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def check_bind(host: str, token: str | None) -> None:
    """Refuse to listen beyond loopback without a token (the predecessor served 0.0.0.0 unauthenticated)."""
    if not token and not is_loopback(host):
        raise ConfigError(f"refusing to bind {host} without a token: set {TOKEN_ENV} "
                          f"(or bind 127.0.0.1)")


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
        given = None
        for key, value in scope["headers"]:
            if key == b"authorization":
                given = value
                break
        if given is None:
            status, kind, message = 401, "unauthorized", "missing Authorization: Bearer token"
        elif not hmac.compare_digest(given, self.expected):
            status, kind, message = 403, "forbidden", "wrong token"
        else:
            return await self.app(scope, receive, send)
        if self.on_deny is not None:
            self.on_deny(status, kind)
        await _deny(send, status, kind, message)


async def _deny(send, status: int, kind: str, message: str) -> None:
    body = orjson.dumps({"error": {"type": kind, "message": message}})
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    if status == 401:
        headers.append((b"www-authenticate", b"Bearer"))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})

"""Keep secrets out of records and logs: the values to cut, cutting them from text, and URLs shown without them.

    secrets = secret_values(api_key, headers, base_url)
    redact_text("HTTP 401: you sent sk-abc...", secrets)   # -> "HTTP 401: you sent [redacted]"
    redact_url("http://user:pw@host/v1?api-key=k")          # -> "http://user:[redacted]@host/v1?api-key=[redacted]"
"""
from __future__ import annotations

import re
from urllib.parse import parse_qsl, quote, urlencode, urlsplit, urlunsplit

REDACTED = "[redacted]"
MIN_SECRET = 4  # shorter values (e.g. "1" in a header) would shred ordinary text
MIN_PREFIX = 8  # a server echoing the first N characters of a key leaks them too; 8 is too long to hit by chance
_SECRET_PARAM = re.compile(r"key|token|secret|password|passwd|sig|auth|credential", re.IGNORECASE)


def url_secrets(url: str | None) -> list[str]:
    """The secret parts of a URL: the userinfo password (or a lone user name, often a token) and the values of
    query parameters named like keys, tokens or signatures."""
    if not url:
        return []
    try:
        parts = urlsplit(url)
        password, user = parts.password, parts.username
    except ValueError:
        return []
    found = [password] if password else ([user] if user else [])
    found += [v for k, v in parse_qsl(parts.query, keep_blank_values=False) if _SECRET_PARAM.search(k)]
    return [s for s in found if s]


def secret_values(api_key: str | None = None, headers: dict[str, str] | None = None,
                  *urls: str | None) -> list[str]:
    """Every string that must never reach a record or a log, longest first (so a secret that contains another
    is cut whole)."""
    values = [api_key or ""] + [str(v) for v in (headers or {}).values()]
    for url in urls:
        values += url_secrets(url)
    return sorted({v for v in values if len(v) >= MIN_SECRET}, key=len, reverse=True)


def redact_text(text: str, secrets: list[str]) -> str:
    """`text` with every secret, and every prefix of 8 or more characters of a secret, replaced by `[redacted]`
    (a server may echo `sk-live-0123...` cut short). Call it before cutting text short: a secret that straddles
    the cut would otherwise leak its first half."""
    for secret in secrets:
        if secret in text:
            text = text.replace(secret, REDACTED)
        if len(secret) >= MIN_PREFIX and secret[:MIN_PREFIX] in text:
            text = _redact_prefixes(text, secret)
    return text


def _redact_prefixes(text: str, secret: str) -> str:
    """Cut each occurrence of `secret[:n]` (n >= MIN_PREFIX, as long as the text goes on matching)."""
    head, out, start = secret[:MIN_PREFIX], [], 0
    while (at := text.find(head, start)) >= 0:
        end = at + MIN_PREFIX
        while end - at < len(secret) and end < len(text) and text[end] == secret[end - at]:
            end += 1
        out += [text[start:at], REDACTED]
        start = end
    return "".join(out) + text[start:]


def redact_url(url: str | None) -> str:
    """A URL fit for a log line: its password (or lone user name) and key-like query values replaced by
    `[redacted]`, the rest kept for debugging."""
    if not url:
        return ""
    try:
        parts = urlsplit(url)
        user, password, host = parts.username, parts.password, parts.hostname
    except ValueError:
        return REDACTED  # unparsable: it may be anything
    netloc = parts.netloc
    if user is not None or password is not None:
        shown = f"{quote(user or '', safe='')}:{REDACTED}" if password is not None else REDACTED
        port = f":{parts.port}" if parts.port is not None else ""
        host = f"[{host}]" if host and ":" in host else (host or "")  # IPv6 keeps its brackets
        netloc = f"{shown}@{host}{port}"
    query = parts.query
    if query:
        pairs = parse_qsl(query, keep_blank_values=True)
        query = urlencode([(k, REDACTED if _SECRET_PARAM.search(k) else v) for k, v in pairs], safe="[]")
    return urlunsplit((parts.scheme, netloc, parts.path, query, parts.fragment))


def clip(text: str, secrets: list[str], limit: int = 500) -> str:
    """Redact, then cut to `limit` characters (in that order)."""
    text = redact_text(text, secrets)
    return text if len(text) <= limit else text[:limit] + "..."

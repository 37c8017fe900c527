"""bc-eval's chat calls over bc_common.http1 (plain http://, no proxy) against raw asyncio servers on loopback: every
body framing and encoding, the size cap, dropped keep-alive connections, timeouts, and the same replies and errors
as the aiohttp path on the same answers."""
from __future__ import annotations

import asyncio
import gzip
import zlib

import orjson
import pytest

from bc_common.http1 import Dropped, Pool
from bc_eval.client import ChatClient, ModelError, ModelRequest, RetryPolicy, plain_route

REPLY = orjson.dumps({"choices": [{"index": 0, "finish_reason": "stop",
                                   "message": {"role": "assistant", "content": "Héllo ✓ 12345678901234567890"}}],
                      "usage": {"prompt_tokens": 3, "completion_tokens": 2, "total_tokens": 5}})
REQUEST = ModelRequest([{"role": "user", "content": "hi"}], [])


def head(status: str = "200 OK", **fields: str) -> bytes:
    return (f"HTTP/1.1 {status}\r\n" + "".join(f"{k.replace('_', '-')}: {v}\r\n" for k, v in fields.items())
            + "\r\n").encode()


def sized(body: bytes, status: str = "200 OK", **fields: str) -> bytes:
    return head(status, content_length=str(len(body)), content_type="application/json", **fields) + body


def chunked(body: bytes, size: int = 7, **fields: str) -> bytes:
    parts = b"".join(b"%x\r\n%s\r\n" % (len(body[i:i + size]), body[i:i + size])
                     for i in range(0, len(body), size))
    return head(transfer_encoding="chunked", **fields) + parts + b"0\r\n\r\n"


async def serve(answers: list, seen: list[bytes]):
    """A server answering the n-th request with answers[n] (bytes, then "close" closes the connection after it, or
    None: close without answering, or a float: wait that long first); records each request's bytes."""
    count = iter(range(10**6))

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while True:
                request = await reader.readuntil(b"\r\n\r\n")
                length = int(request.lower().split(b"content-length: ")[1].split(b"\r\n")[0])
                request += await reader.readexactly(length)
                seen.append(request)
                answer = answers[min(next(count), len(answers) - 1)]
                if isinstance(answer, float):
                    await asyncio.sleep(answer)
                    answer = sized(REPLY)
                if answer is None:
                    break
                close = isinstance(answer, tuple)
                writer.write(answer[0] if close else answer)
                await writer.drain()
                if close:
                    break
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        writer.close()

    server = await asyncio.start_server(handle, "127.0.0.1", 0)
    return server, f"http://127.0.0.1:{server.sockets[0].getsockname()[1]}/v1?api-version=2"


def run(answers: list, plain: bool = True, calls: int = 1, **kwargs) -> tuple[list, list[bytes]]:
    """The replies (or ModelErrors) of `calls` sequential completions through a ChatClient, and what the server saw."""
    async def main():
        seen: list[bytes] = []
        server, url = await serve(answers, seen)
        client = ChatClient(url, "m", api_key="sk-secret-0123456789", retry=kwargs.pop("retry", RetryPolicy(0)),
                            **kwargs)
        assert client._route is not None
        if not plain:
            client._route = None  # the aiohttp path, for comparison
        out = []
        for _ in range(calls):
            try:
                out.append(await client.complete(REQUEST))
            except ModelError as exc:
                out.append(exc)
        await client.aclose()
        server.close()
        return out, seen

    return asyncio.run(main())


GZ = gzip.compress(REPLY)
BODIES = {
    "content-length": [sized(REPLY)],
    "chunked": [chunked(REPLY)],
    "close-delimited": [(head(content_type="application/json") + REPLY,)],
    "gzip": [head(content_length=str(len(GZ)), content_encoding="gzip") + GZ],
    "deflate (zlib)": [head(transfer_encoding="chunked", content_encoding="deflate")
                       + b"%x\r\n%s\r\n0\r\n\r\n" % (len(zlib.compress(REPLY)), zlib.compress(REPLY))],
    "deflate (raw)": [head(content_length=str(len(zlib.compress(REPLY, wbits=-15))), content_encoding="deflate")
                      + zlib.compress(REPLY, wbits=-15)],
    "100 continue first": [b"HTTP/1.1 100 Continue\r\n\r\n" + sized(REPLY)],
}


@pytest.mark.parametrize("case", list(BODIES))
def test_every_body_framing_gives_the_same_reply_as_aiohttp(case):
    plain, seen = run(BODIES[case], calls=2)
    slow, _ = run(BODIES[case], plain=False, calls=2)
    assert [r.message for r in plain] == [r.message for r in slow] and plain[0].message["content"].startswith("Hé")
    assert [(r.usage, r.finish_reason, r.attempts) for r in plain] == [(r.usage, r.finish_reason, r.attempts)
                                                                      for r in slow]
    first = seen[0]
    assert first.startswith(b"POST /v1/chat/completions?api-version=2 HTTP/1.1\r\nHost: 127.0.0.1:")
    assert b"\r\nAuthorization: Bearer sk-secret-0123456789\r\n" in first
    assert orjson.loads(first.split(b"\r\n\r\n", 1)[1])["messages"] == REQUEST.messages


ERRORS = {
    "429 then ok": ([sized(b'{"error": {"message": "slow down"}}', "429 Too Many", retry_after="0"), sized(REPLY)],
                    None, 2),
    "500 twice": ([sized(b"oops", "500 Internal")], "server_error", 3),
    "not JSON": ([sized(b"<html>sk-secret-0123456789</html>")], "invalid_response", 3),
    "redirect": ([sized(b"", "307 Temporary", location="http://elsewhere.example/v1")], "redirect", 1),
    "400": ([sized(b'{"error": {"message": "context too long"}}', "400 Bad")], "bad_request", 1),
    "announced too large": ([head(content_length=str(10 << 20))], "response_too_large", 1),
    "chunked too large": ([chunked(b" " * (2 << 20), 1 << 16)], "response_too_large", 1),
    "gzip bomb": ([head(content_length=str(len(gzip.compress(b" " * (8 << 20)))), content_encoding="gzip")
                   + gzip.compress(b" " * (8 << 20))], "response_too_large", 1),
    "dropped mid-answer": ([sized(REPLY)[:40], None], "connection_error", 3),
    "timeout then ok": ([1.5, sized(REPLY)], None, 2),
}


@pytest.mark.parametrize("case", list(ERRORS))
def test_errors_and_retries_match_the_aiohttp_path(case):
    answers, kind, attempts = ERRORS[case]
    answers = [(a,) if isinstance(a, bytes) and "dropped" in case else a for a in answers]
    results = [run(answers, plain=plain, retry=RetryPolicy(max_retries=2, base_delay=0.001),
                   timeout=0.5 if "timeout" in case else 60, max_response_bytes=1 << 20)[0][0]
               for plain in (True, False)]
    for result in results:
        if kind is None:
            assert result.message["content"].startswith("Hé") and result.attempts == attempts
        else:
            assert isinstance(result, ModelError) and result.type == kind and result.attempts == attempts
            assert "sk-secret" not in result.message
    if kind is not None:
        assert results[0].status == results[1].status and results[0].retryable == results[1].retryable


def test_routes_only_plain_http_without_proxy(monkeypatch):
    for name in ("http_proxy", "HTTP_PROXY", "all_proxy", "ALL_PROXY", "no_proxy", "NO_PROXY"):
        monkeypatch.delenv(name, raising=False)
    headers = {"Content-Type": "application/json", "X-Key": "v"}
    assert plain_route("http://127.0.0.1:8000/v1/chat/completions", headers)[:2] == ("127.0.0.1", 8000)
    assert b"Host: localhost\r\n" in plain_route("http://localhost/v1/chat/completions", headers)[2]
    for url in ("https://127.0.0.1/v1", "http://u:p@127.0.0.1/v1", "http://[::1]:8000/v1", "http://h/v1 x",
                "http://h:99999/v1"):
        assert plain_route(url, headers) is None, url
    for bad in ({"X-A": "a\r\nInjected: 1"}, {"Host": "other"}, {"Bad Name": "v"}, {"X-A": "ü€"}):
        assert plain_route("http://127.0.0.1/v1", bad) is None, bad
    monkeypatch.setenv("HTTP_PROXY", "http://proxy.example:3128")
    assert plain_route("http://10.1.2.3/v1", headers) is None
    monkeypatch.setenv("NO_PROXY", "10.1.2.3")
    assert plain_route("http://10.1.2.3/v1", headers) is not None
    monkeypatch.delenv("HTTP_PROXY")
    monkeypatch.setenv("ALL_PROXY", "socks5://proxy.example:1080")
    assert plain_route("http://10.9.9.9/v1", headers) is None


def test_connections_are_reused_up_to_the_concurrency():
    async def main():
        seen: list[bytes] = []
        server, url = await serve([0.05], seen)
        peers = set()
        pool = Pool(4, full=True, max_body=1 << 20)
        port = int(url.split(":")[2].split("/")[0])
        original = pool._connect

        async def counted(host, p):
            conn = await original(host, p)
            peers.add(conn.transport.get_extra_info("sockname"))
            return conn

        pool._connect = counted
        head_bytes = b"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\n"
        answers = await asyncio.gather(*(pool.request("127.0.0.1", port, head_bytes, b"{}", 5) for _ in range(12)))
        pool.close()
        server.close()
        return answers, peers

    answers, peers = asyncio.run(main())
    assert all(a.status == 200 and a.body == REPLY and a.headers["content-type"] == "application/json"
               for a in answers)
    assert len(peers) == 4  # 12 calls, -c 4: four connections, each reused


def test_a_kept_alive_connection_closed_unanswered_is_retried_once_on_a_fresh_one():
    (first, second), seen = run([sized(REPLY), None, sized(REPLY)], calls=2)
    assert first.message == second.message and second.attempts == 1  # not a retry of the policy: nothing was answered
    assert len(seen) == 3
    _, seen = run([sized(REPLY), None, None], calls=2)
    assert len(seen) == 3  # a fresh connection closed unanswered is not retried again


def test_a_drop_after_bytes_arrived_is_not_retried():
    async def main():
        seen: list[bytes] = []
        server, url = await serve([sized(REPLY), (sized(REPLY)[:30],)], seen)
        port = int(url.split(":")[2].split("/")[0])
        pool = Pool(2, full=True, max_body=1 << 20)
        head_bytes = b"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\n"
        first = await pool.request("127.0.0.1", port, head_bytes, b"{}", 5)
        with pytest.raises(Dropped):
            await pool.request("127.0.0.1", port, head_bytes, b"{}", 5)
        pool.close()
        server.close()
        return first, len(seen)

    first, requests = asyncio.run(main())
    assert first.status == 200 and requests == 2  # the request may have been handled: sent once only

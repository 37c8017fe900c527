"""Tool calls answered past the ASGI app chain (`server.FastCalls`, `answer_writes.answer`) keep HTTP/1.1's rules: the
same headers as the app would send, pipelined requests answered in order, `Connection: close` and HTTP/1.0 honoured,
a body that arrives late or after `100 Continue` waited for, and anything the fast path does not vouch for (a wrong
token, another method) answered by the app as before."""
from __future__ import annotations

import socket
import time

import orjson

from tests.toolserve.conftest import TOKEN
from tests.toolserve.test_hostile import read_response


def post(path: str, body: dict, *, token: str | None = TOKEN, version: str = "1.1", extra: str = "") -> bytes:
    data = orjson.dumps(body)
    auth = f"Authorization: Bearer {token}\r\n" if token else ""
    return (f"POST {path} HTTP/{version}\r\nHost: 127.0.0.1\r\n{auth}Content-Type: application/json\r\n"
            f"Content-Length: {len(data)}\r\n{extra}\r\n").encode() + data


def connect(url: str) -> socket.socket:
    host, port = url.removeprefix("http://").rsplit(":", 1)
    return socket.create_connection((host, int(port)), timeout=10)


def parts(answer: bytes) -> tuple[int, dict[bytes, bytes], bytes]:
    """(status, headers, body) of the first answer in `answer` (a pipelined answer may follow it in the bytes)."""
    head, _, body = answer.partition(b"\r\n\r\n")
    status, *lines = head.split(b"\r\n")
    fields = (line.split(b": ", 1) for line in lines)
    headers = {name.lower(): value for name, value in fields}
    return int(status.split()[1]), headers, body[:int(headers.get(b"content-length", len(body)))]


def created(cluster, name: str) -> str:
    status, body = cluster.op("create", {"instance_id": name})
    assert status == 200, body
    return body["worker_url"]


def test_an_answer_has_the_apps_headers_and_the_connection_stays_open(shared_cluster):
    worker = created(shared_cluster, "fast-headers")
    with connect(worker) as s:
        for total in (2, 4):
            s.sendall(post("/count/execute", {"instance_id": "fast-headers", "parameters": {"step": 2}}))
            status, headers, body = parts(read_response(s))
            assert status == 200 and orjson.loads(body)["text"] == str(total)
            assert set(headers) == {b"date", b"server", b"content-length", b"content-type"}
            assert headers[b"content-type"] == b"application/json" and int(headers[b"content-length"]) == len(body)


def test_pipelined_calls_are_answered_in_order(shared_cluster):
    worker = created(shared_cluster, "fast-pipe")
    with connect(worker) as s:
        s.sendall(b"".join(post("/count/execute", {"instance_id": "fast-pipe", "parameters": {"step": 1}})
                           for _ in range(5)) + post("/count/execute", {"instance_id": "nope", "parameters": {}}))
        buffer = b""
        answers = []
        while len(answers) < 6:
            chunk = s.recv(65536)
            assert chunk, f"closed after {len(answers)} answers"
            buffer += chunk
            while True:
                head, sep, rest = buffer.partition(b"\r\n\r\n")
                if not sep:
                    break
                length = int(parts(head + b"\r\n\r\n")[1][b"content-length"])
                if len(rest) < length:
                    break
                answers.append(parts(head + b"\r\n\r\n" + rest[:length]))
                buffer = rest[length:]
    assert [orjson.loads(body)["text"] for _, _, body in answers[:5]] == ["1", "2", "3", "4", "5"]
    status, _, body = answers[5]
    assert status == 404 and orjson.loads(body)["error"]["type"] == "unknown_instance"


def test_connection_close_and_http_1_0_end_the_connection(shared_cluster):
    worker = created(shared_cluster, "fast-close")
    for request in (post("/count/execute", {"instance_id": "fast-close", "parameters": {"step": 1}},
                         extra="Connection: close\r\n"),
                    post("/count/execute", {"instance_id": "fast-close", "parameters": {"step": 1}}, version="1.0")):
        with connect(worker) as s:
            s.sendall(request)
            status, headers, body = parts(read_response(s))
            assert status == 200 and headers[b"connection"] == b"close"
            s.settimeout(5)
            assert s.recv(1) == b""  # closed by the server


def test_a_late_body_and_expect_continue_are_waited_for(shared_cluster):
    worker = created(shared_cluster, "fast-late")
    request = post("/count/execute", {"instance_id": "fast-late", "parameters": {"step": 3}})
    head, _, body = request.partition(b"\r\n\r\n")
    with connect(worker) as s:
        s.sendall(head + b"\r\n\r\n")
        time.sleep(0.3)
        s.sendall(body)
        assert orjson.loads(parts(read_response(s))[2])["text"] == "3"
        s.sendall(head + b"\r\nExpect: 100-continue\r\n\r\n")
        assert s.recv(65536).startswith(b"HTTP/1.1 100 Continue")
        s.sendall(body)
        assert orjson.loads(parts(read_response(s))[2])["text"] == "6"


def test_what_the_fast_path_does_not_vouch_for_goes_to_the_app(shared_cluster):
    worker = created(shared_cluster, "fast-auth")
    call = {"instance_id": "fast-auth", "parameters": {"step": 1}}
    with connect(worker) as s:
        s.sendall(post("/count/execute", call, token=None))
        status, headers, body = parts(read_response(s))
        assert status == 401 and headers[b"www-authenticate"] == b"Bearer"
    with connect(worker) as s:
        s.sendall(post("/count/execute", call, token=TOKEN + "x"))
        assert parts(read_response(s))[0] == 403
    with connect(worker) as s:  # another method: the app's routing answers
        s.sendall(f"GET /count/execute HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {TOKEN}\r\n\r\n".encode())
        assert parts(read_response(s))[0] == 405
    status, body = shared_cluster.op("execute", call)  # and the instance was not touched by any of them
    assert status == 200 and body["text"] == "1"


def test_the_master_answers_tool_calls_the_same_way(shared_cluster):
    with connect(shared_cluster.url) as s:
        s.sendall(post("/count/create", {"instance_id": "fast-master"}) + post("/count/execute", {
            "instance_id": "fast-master", "parameters": {"step": 7}}))
        first = read_response(s)
        status, headers, body = parts(first)
        assert status == 200 and orjson.loads(body)["instance_id"] == "fast-master"
        assert set(headers) == {b"date", b"server", b"content-length", b"content-type"}

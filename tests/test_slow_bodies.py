"""Slow request bodies cannot shut the phones out: a body must arrive within `body_seconds` of its head (408),
and it is read whole before its request takes one of the places answered at once (`web/limits.py`). A real
server on 127.0.0.1, port 0, in this process; every loop is bounded in count and time."""

from __future__ import annotations

import asyncio
import concurrent.futures
import inspect
import re
import socket
import time
import tomllib
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from pages import served_in_process

from ginscore.web.limits import MOST_REQUESTS, Busy, Limit
from ginscore.web.security import Guard

pytestmark = pytest.mark.waits  # on a real server's timeouts: the first file the worker beside the browser ones takes

TOKEN = "slow-token"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
BODY_SECONDS = 2.0
"""The body's deadline in these tests: short, through the app's parameter, so nothing waits the real one."""
TRICKLERS = 70
"""More tokened clients trickling bodies than there are places (MOST_REQUESTS) for requests answered at once."""


@pytest.fixture
def server(tmp_path: Path) -> Iterator[int]:
    """A real `serve` (its uvicorn config and protocol) on 127.0.0.1 and a free port, with one match, `m.toml`."""
    with served_in_process(tmp_path, TOKEN, body_seconds=BODY_SECONDS) as port:
        with httpx.Client(timeout=5) as client:
            made = client.post(f"http://127.0.0.1:{port}/api/matches", headers=AUTH, json={"file": "m.toml", "players": ["Ann", "Bob"]})
            assert made.status_code == 201, made.text
        yield port


def rest_of(sock: socket.socket, begun: bytes, seconds: float = 3.0) -> bytes:
    """What more of an answer that has `begun` comes on `sock`: up to the length its head gives, or until the
    server closes, within `seconds`."""
    if not begun:
        return b""
    head, _, body = begun.partition(b"\r\n\r\n")
    length = next((int(line.split(b":", 1)[1]) for line in head.split(b"\r\n") if line.lower().startswith(b"content-length:")), None)
    more, until = b"", time.monotonic() + seconds
    sock.setblocking(True)
    while (length is None or len(body) + len(more) < length) and time.monotonic() < until:
        sock.settimeout(max(0.05, until - time.monotonic()))
        try:
            chunk = sock.recv(4096)
        except OSError:
            break
        if not chunk:
            break
        more += chunk
    return more


def test_more_trickled_bodies_than_places_and_the_phone_is_answered(server: int):
    """70 tokened clients send a hand's head and then its body a byte at a time, never finishing: each is
    answered 408 once `body_seconds` have passed since its head, and meanwhile every poll from a phone, each on
    a new connection, is answered 200 (never 503)."""
    assert TRICKLERS > MOST_REQUESTS
    head = (f"POST /api/matches/m.toml/hands HTTP/1.1\r\nHost: 127.0.0.1:{server}\r\nAuthorization: Bearer {TOKEN}\r\n"
            "Content-Type: application/json\r\nContent-Length: 4000\r\n\r\n{").encode()
    tricklers = [socket.create_connection(("127.0.0.1", server), timeout=5) for _ in range(TRICKLERS)]
    answers: dict[socket.socket, bytes] = {}
    polls: list[int] = []
    try:
        for sock in tricklers:
            sock.sendall(head)
            sock.setblocking(False)
        deadline = time.monotonic() + BODY_SECONDS + 8  # the test's own bound: it stops by itself
        with httpx.Client(timeout=5, headers={**AUTH, "Connection": "close"}) as phone:
            while len(answers) < TRICKLERS and time.monotonic() < deadline:
                for sock in tricklers:
                    if sock in answers:
                        continue
                    try:
                        answers[sock] = sock.recv(4096)  # the server's answer, or b"" once it has closed
                    except BlockingIOError:
                        try:
                            sock.send(b" ")  # one more byte of the body, which never ends
                        except OSError:
                            answers[sock] = b""
                    except OSError:
                        answers[sock] = b""
                polls.append(phone.get(f"http://127.0.0.1:{server}/api/matches/m.toml/version").status_code)
                time.sleep(0.1)
        for sock, answer in answers.items():  # an answer's head and body may come in two reads
            answers[sock] = answer + rest_of(sock, answer)
    finally:
        for sock in tricklers:
            sock.close()
    assert len(polls) >= 5, polls  # the phone polled all the while the bodies trickled
    assert set(polls) == {200}, polls
    assert len(answers) == TRICKLERS, f"{TRICKLERS - len(answers)} trickling clients were never answered"
    statuses = {answer[:12] for answer in answers.values()}
    assert statuses == {b"HTTP/1.1 408"}, statuses
    assert all(b"did not arrive within 2 seconds" in answer for answer in answers.values())


def test_a_body_sent_in_pieces_within_the_time_is_recorded(server: int):
    """The deadline lets a body that arrives in a few pieces through: it is the whole body, not each piece, that
    must arrive in time, and a hand so sent is recorded."""
    body = b'{"knocker": "Ann", "deadwood": 3, "opponent_deadwood": 20}'
    head = (f"POST /api/matches/m.toml/hands HTTP/1.1\r\nHost: 127.0.0.1:{server}\r\nAuthorization: Bearer {TOKEN}\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\nConnection: close\r\n\r\n").encode()
    with socket.create_connection(("127.0.0.1", server), timeout=10) as sock:
        sock.sendall(head)
        for start in range(0, len(body), 20):
            sock.sendall(body[start:start + 20])
        answer = b""
        while chunk := sock.recv(4096):
            answer += chunk
    assert answer.startswith(b"HTTP/1.1 201"), answer[:200]


# --- the one limit ------------------------------------------------------------------------------------------


def in_a_loop(main):
    """`main()` run in an event loop of its own thread (a browser test's Playwright may hold this thread's)."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, main()).result(timeout=20)


def test_a_limit_lets_in_so_many_queues_so_many_and_turns_the_rest_away():
    async def main() -> tuple[list[str], int]:
        limit = Limit(2, 1, "busy now", retry_after=3)
        release = asyncio.Event()
        seen: list[str] = []

        async def one(name: str) -> None:
            try:
                async with limit.turn():
                    seen.append(f"in {name}")
                    await release.wait()
            except Busy as busy:
                seen.append(f"busy {name} {busy.args[0]} {busy.retry_after}")

        tasks = [asyncio.ensure_future(one(name)) for name in "abcd"]
        for _ in range(5):
            await asyncio.sleep(0)
        release.set()
        await asyncio.wait_for(asyncio.gather(*tasks), 5)
        after = 0
        for _ in range(3):  # every place is free again
            async with limit.turn():
                after += 1
        return seen, after

    seen, after = in_a_loop(main)
    assert seen[:3] == ["in a", "in b", "busy d busy now 3"]
    assert sorted(seen) == ["busy d busy now 3", "in a", "in b", "in c"]
    assert after == 3


def test_a_request_past_the_limit_is_answered_503_with_retry_after():
    """The guard answers a full limit itself: 503, `{"error", "field"}` under /api, and Retry-After."""

    async def main() -> list[dict]:
        release = asyncio.Event()
        sent: list[dict] = []

        async def slow_app(scope, receive, send):
            await release.wait()
            await send({"type": "http.response.start", "status": 200, "headers": []})
            await send({"type": "http.response.body", "body": b"ok"})

        guard = Guard(slow_app, TOKEN, ["127.0.0.1:8000"], requests=Limit(1, 0, "the server is answering too many requests"))

        async def request() -> list[dict]:
            mine: list[dict] = []

            async def send(message):
                mine.append(message)

            async def receive():
                return {"type": "http.request", "body": b"", "more_body": False}

            scope = {"type": "http", "method": "GET", "path": "/api/matches", "query_string": b"", "scheme": "http",
                     "headers": [(b"host", b"127.0.0.1:8000"), (b"authorization", f"Bearer {TOKEN}".encode())]}
            await guard(scope, receive, send)
            return mine

        first = asyncio.ensure_future(request())
        await asyncio.sleep(0)
        sent = await asyncio.wait_for(request(), 5)
        release.set()
        assert (await asyncio.wait_for(first, 5))[0]["status"] == 200
        return sent

    sent = in_a_loop(main)
    assert sent[0]["status"] == 503
    assert (b"retry-after", b"1") in sent[0]["headers"]
    assert sent[1]["body"] == b'{"error": "the server is answering too many requests", "field": null}'


# --- uvicorn's insides -------------------------------------------------------------------------------------------


def test_uvicorn_is_the_minor_version_whose_insides_the_protocol_uses():
    """serve's protocol subclasses uvicorn's h11 protocol: the version installed is the one pyproject.toml pins,
    and the parts the subclass uses are still there (moving the pin means reading them again)."""
    import uvicorn
    from uvicorn.protocols.http.h11_impl import H11Protocol

    pyproject = tomllib.loads((Path(__file__).resolve().parent.parent / "pyproject.toml").read_text(encoding="utf-8"))
    pin = next(spec for spec in pyproject["project"]["dependencies"] if spec.startswith("uvicorn"))
    low, high = re.fullmatch(r"uvicorn>=(\d+\.\d+),<(\d+\.\d+)", pin).groups()  # type: ignore[union-attr]
    installed = tuple(int(part) for part in uvicorn.__version__.split(".")[:2])
    assert tuple(map(int, low.split("."))) <= installed < tuple(map(int, high.split("."))), (pin, uvicorn.__version__)
    assert (int(high.split(".")[1]) - int(low.split(".")[1]), high.split(".")[0]) == (1, low.split(".")[0])  # one minor version
    source = inspect.getsource(H11Protocol)
    for part in ("self.conn = ", "self.cycle", "self.connections", "self.timeout_keep_alive_task", "self.timeout_keep_alive ",
                 "def timeout_keep_alive_handler", "def on_response_complete", "def data_received", "def connection_lost"):
        assert part in source, part


@pytest.mark.parametrize("trickle", [False, True], ids=["stalled", "still-sending"])
def test_a_slow_request_head_is_answered_408_not_reset(tmp_path: Path, trickle: bool, monkeypatch: pytest.MonkeyPatch):
    """A head not complete within HEAD_SECONDS of its first byte gets the 408 docs/serve.md promises, read whole:
    from a client gone quiet, and from one that sends its head a line at a time, as a slow link does, and reads
    only once it has sent it all (past the deadline), as every HTTP client does. The deadline here is 2 s, as
    BODY_SECONDS is, so that nothing waits the real 4 s (test_cli_serve.py's real server waits it)."""
    from ginscore.web import server as web_server

    monkeypatch.setattr(web_server, "HEAD_SECONDS", 2)
    HEAD_SECONDS = web_server.HEAD_SECONDS
    with served_in_process(tmp_path, "slow-head-token") as port:
        with socket.create_connection(("127.0.0.1", port), timeout=HEAD_SECONDS + 8) as sock:
            began = time.monotonic()
            sock.sendall(f"GET /api/matches HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n".encode())  # no blank line yet
            while trickle and time.monotonic() - began < HEAD_SECONDS + 0.6:
                time.sleep(0.2)
                sock.sendall(b"X-Slow: one more line\r\n")
            received = b""
            while chunk := sock.recv(4096):
                received += chunk
            waited = time.monotonic() - began
    assert received.startswith(b"HTTP/1.1 408 Request Timeout\r\n"), received
    assert HEAD_SECONDS - 0.5 <= waited <= HEAD_SECONDS + 7, waited

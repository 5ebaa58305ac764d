"""`ginscore serve` as a person starts it: a real server in a subprocess, on 127.0.0.1 and a free port.

Every request goes to 127.0.0.1, `--lan` included (its LAN address is only read from what it prints); the
address picker is tested on made-up interface lists. Each test is bounded in requests and time.
"""

from __future__ import annotations

import contextlib
import os
import queue
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from conftest import one_error_line
from pages import served_in_process

from ginscore.web.server import allowed_hosts, hosts_file_addresses, pick_lan_addresses

pytestmark = pytest.mark.waits  # on a real server's timeouts: the first file the worker beside the browser ones takes

TOKEN = "cli-token"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
URL_LINE = re.compile(r"^Open (http://\S+/\?token=(\S+))$")


class Served:
    """A running `ginscore serve`: its process, the lines it printed up to the URL, its port and token."""

    def __init__(self, process: subprocess.Popen[str], lines: list[str], port: int, token: str):
        self.process, self.lines, self.port, self.token = process, lines, port, token
        self.base = f"http://127.0.0.1:{port}"

    def stop(self) -> tuple[int, str, str]:
        """Ctrl-C, then its exit status and the rest of its output."""
        self.process.send_signal(signal.SIGINT)
        out, err = self.process.communicate(timeout=20)
        return self.process.returncode, out, err


@contextlib.contextmanager
def serving(*args: str, env: dict[str, str] | None = None) -> Iterator[Served]:
    """Start `ginscore serve ARGS` and read what it prints up to its `Open http://...` line (at most 20 s)."""
    process = subprocess.Popen(
        [sys.executable, "-m", "ginscore", "serve", *args],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env={**os.environ, **(env or {})},
    )
    lines: queue.Queue[str | None] = queue.Queue()

    def read() -> None:
        assert process.stdout is not None
        for line in iter(process.stdout.readline, ""):
            lines.put(line.rstrip("\n"))
            if line.startswith("Press Ctrl-C"):
                return
        lines.put(None)

    threading.Thread(target=read, daemon=True).start()
    seen: list[str] = []
    try:
        deadline = time.monotonic() + 20
        while not seen or not seen[-1].startswith("Press Ctrl-C"):
            line = lines.get(timeout=max(0.1, deadline - time.monotonic()))
            if line is None:
                raise AssertionError(f"serve stopped: {seen} {process.stderr.read() if process.stderr else ''}")
            seen.append(line)
        found = next(URL_LINE.match(line) for line in seen if URL_LINE.match(line))
        port = int(re.search(r":(\d+)/", found.group(1)).group(1))  # type: ignore[union-attr]
        yield Served(process, seen, port, found.group(2))
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate(timeout=10)


def new_match(base: str, name: str = "m.toml") -> None:
    response = httpx.post(f"{base}/api/matches", headers=AUTH, json={"file": name, "players": ["Ann", "Bob"], "set": ["target=100000"]})
    assert response.status_code == 201, response.text


def test_serve_prints_the_url_answers_with_the_token_and_stops_cleanly_on_ctrl_c(tmp_path: Path):
    with serving(str(tmp_path), "--port", "0", "--token", TOKEN) as served:
        assert served.token == TOKEN
        assert f"127.0.0.1:{served.port}" in served.lines[0]
        assert httpx.get(f"{served.base}/api/matches", headers=AUTH).json() == []
        assert httpx.get(f"{served.base}/api/matches").status_code == 401
        status, out, err = served.stop()
    assert status == 0
    assert "Traceback" not in err and err == ""
    assert out.endswith("Stopped.\n")


def test_the_token_comes_from_ginscore_token(tmp_path: Path):
    with serving(str(tmp_path), "--port", "0", env={"GINSCORE_TOKEN": "from-env"}) as served:
        assert served.token == "from-env"
        assert httpx.get(f"{served.base}/api/matches", headers={"Authorization": "Bearer from-env"}).status_code == 200
        assert served.stop()[0] == 0


def test_without_a_token_a_random_one_is_printed(tmp_path: Path):
    with serving(str(tmp_path), "--port", "0", env={"GINSCORE_TOKEN": ""}) as served:
        assert len(served.token) >= 32
        assert httpx.get(f"{served.base}/api/matches", headers={"Authorization": f"Bearer {served.token}"}).status_code == 200
        response = httpx.get(f"{served.base}/?token={served.token}")
        assert (response.status_code, response.headers["location"]) == (303, "/")
        assert "HttpOnly" in response.headers["set-cookie"]
        assert served.stop()[0] == 0


def test_lan_listens_on_every_address_and_prints_a_qr_code(tmp_path: Path):
    with serving(str(tmp_path), "--port", "0", "--lan", "--token", TOKEN) as served:
        text = "\n".join(served.lines)
        assert f"on 0.0.0.0:{served.port} (every address" in served.lines[0]
        assert sum(line.count("█") for line in served.lines) > 100 and ("▀" in text or "▄" in text)
        # only ever to 127.0.0.1: the LAN address printed is read, never connected to
        assert httpx.get(f"{served.base}/api/matches", headers=AUTH).status_code == 200
        assert served.stop()[0] == 0


def test_a_half_sent_request_does_not_hold_up_another_client(tmp_path: Path):
    with serving(str(tmp_path), "--port", "0", "--token", TOKEN) as served:
        with socket.create_connection(("127.0.0.1", served.port), timeout=10) as slow:
            slow.sendall(
                f"POST /api/check HTTP/1.1\r\nHost: 127.0.0.1:{served.port}\r\nAuthorization: Bearer {TOKEN}\r\n"
                "Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"cards\": ".encode()
            )
            start = time.monotonic()
            response = httpx.get(f"{served.base}/api/matches", headers=AUTH, timeout=5)
            assert response.status_code == 200 and time.monotonic() - start < 2
        assert served.stop()[0] == 0


def test_silent_connections_are_closed_and_cannot_shut_the_phones_out(tmp_path: Path):
    """As many sockets as the server takes, opened and never spoken on, are closed after the keep-alive time."""
    from ginscore.web.server import KEEP_ALIVE_SECONDS, MOST_CONNECTIONS

    with serving(str(tmp_path), "--port", "0", "--token", TOKEN) as served:
        silent = [socket.create_connection(("127.0.0.1", served.port), timeout=10) for _ in range(MOST_CONNECTIONS)]
        try:
            deadline = time.monotonic() + KEEP_ALIVE_SECONDS + 1.5
            for sock in silent:  # each read waits until the server closes it, or the deadline passes (TimeoutError)
                sock.settimeout(max(deadline - time.monotonic(), 0.01))
                assert sock.recv(1) == b""  # the server closed it
            assert httpx.get(f"{served.base}/api/matches", headers=AUTH, timeout=5).status_code == 200
        finally:
            for sock in silent:
                sock.close()
        assert served.stop()[0] == 0


def raw_answer(port: int, head: str, chunks: list[bytes]) -> bytes:
    """Send a request by hand (headers, then each chunk), and read the answer until the server closes or 5 s pass."""
    with socket.create_connection(("127.0.0.1", port), timeout=5) as raw:
        raw.sendall(head.encode())
        answer = b""
        try:
            for chunk in chunks:
                raw.sendall(chunk)
            while part := raw.recv(65536):
                answer += part
                if b"\r\n\r\n" in answer and answer.endswith(b"}"):
                    break
        except (ConnectionResetError, BrokenPipeError, TimeoutError):
            pass  # the server may close as soon as it has answered
        if not answer:
            with contextlib.suppress(OSError):
                answer = raw.recv(65536)
        return answer


def test_the_real_server_caps_bodies_chunked_or_announced(tmp_path: Path):
    with serving(str(tmp_path), "--port", "0", "--token", TOKEN) as served:
        new_match(served.base)
        before = (tmp_path / "m.toml").read_bytes()
        head = f"POST /api/matches/m.toml/hands HTTP/1.1\r\nHost: 127.0.0.1:{served.port}\r\nAuthorization: Bearer {TOKEN}\r\n"
        chunk = b"x" * 8192
        chunked = [f"{len(chunk):x}\r\n".encode() + chunk + b"\r\n" for _ in range(12)] + [b"0\r\n\r\n"]
        answer = raw_answer(served.port, head + "Transfer-Encoding: chunked\r\n\r\n", chunked)
        assert answer.startswith(b"HTTP/1.1 413 "), answer[:200]
        answer = raw_answer(served.port, head + "Content-Length: 1000000\r\n\r\n", [b"x" * 1000])
        assert answer.startswith(b"HTTP/1.1 413 "), answer[:200]
        assert (tmp_path / "m.toml").read_bytes() == before
        assert httpx.get(f"{served.base}/api/matches", headers=AUTH).status_code == 200  # and it goes on serving
        assert served.stop()[0] == 0


def test_answers_on_a_kept_alive_connection_do_not_wait_for_a_delayed_ack(tmp_path: Path):
    """With Nagle's algorithm on, every answer after the first on a connection waits about 40 ms for the client's
    delayed ACK; the quickest of ten must be far below that."""
    with serving(str(tmp_path), "--port", "0", "--token", TOKEN) as served:
        with httpx.Client(base_url=served.base, headers=AUTH, timeout=10) as client:
            spent = []
            for _ in range(10):
                start = time.perf_counter()
                assert client.get("/api/matches").status_code == 200
                spent.append(time.perf_counter() - start)
        assert min(spent[1:]) < 0.03, spent
        assert served.stop()[0] == 0


def test_phones_and_the_command_line_on_one_file_lose_no_hand(tmp_path: Path):
    threads_count, per_thread, cli_runs = 4, 5, 3
    ginscore = [sys.executable, "-m", "ginscore"]
    with serving(str(tmp_path), "--port", "0", "--token", TOKEN) as served:
        new_match(served.base)
        statuses: list[int] = []

        def phone() -> None:
            with httpx.Client(base_url=served.base, headers=AUTH, timeout=30) as client:
                for _ in range(per_thread):
                    hand = {"knocker": "Ann", "deadwood": 9, "opponent_deadwood": 10}
                    statuses.append(client.post("/api/matches/m.toml/hands", json=hand).status_code)

        phones = [threading.Thread(target=phone) for _ in range(threads_count)]
        record = [*ginscore, "record", str(tmp_path / "m.toml"), "--knocker", "Bob", "--deadwood", "9", "--opponent-deadwood", "10"]
        clis = [subprocess.Popen(record, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE) for _ in range(cli_runs)]
        for thread in phones:
            thread.start()
        for thread in phones:
            thread.join(timeout=60)
        assert all(process.wait(timeout=60) == 0 for process in clis)
        assert statuses == [201] * threads_count * per_thread
        hands = httpx.get(f"{served.base}/api/matches/m.toml", headers=AUTH).json()["hands"]
        assert len(hands) == threads_count * per_thread + cli_runs
        assert [hand["derived"]["number"] for hand in hands] == list(range(1, len(hands) + 1))
        assert served.stop()[0] == 0
    done = subprocess.run([*ginscore, "validate", str(tmp_path / "m.toml")], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr


def test_ctrl_c_while_hands_are_recorded_leaves_a_whole_file(tmp_path: Path):
    with serving(str(tmp_path), "--port", "0", "--token", TOKEN) as served:
        new_match(served.base)
        recorded: list[int] = []
        stop = threading.Event()

        def phone() -> None:
            with httpx.Client(base_url=served.base, headers=AUTH, timeout=10) as client:
                for _ in range(200):
                    if stop.is_set():
                        return
                    try:
                        response = client.post("/api/matches/m.toml/hands", json={"knocker": "Ann", "deadwood": 9, "opponent_deadwood": 10})
                    except httpx.HTTPError:
                        return
                    if response.status_code == 201:
                        recorded.append(response.json()["derived"]["number"])

        thread = threading.Thread(target=phone)
        thread.start()
        deadline = time.monotonic() + 10
        while len(recorded) < 3 and time.monotonic() < deadline:
            time.sleep(0.05)
        status, _, err = served.stop()
        stop.set()
        thread.join(timeout=20)
    assert status == 0 and "Traceback" not in err
    done = subprocess.run([sys.executable, "-m", "ginscore", "show", str(tmp_path / "m.toml"), "--json"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.count('"number"') >= len(recorded) >= 3  # every hand answered 201 is in the file


def test_a_port_in_use_is_one_error_line(run, tmp_path: Path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = run("serve", str(tmp_path), "--port", str(port), "--token", TOKEN)
    assert result.exit_code == 1
    assert one_error_line(result) == f"error: cannot listen on 127.0.0.1:{port}: address already in use"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["no-such-folder"], "'no-such-folder' is not a folder"),
        ([".", "--port", "70000"], "is not a port"),
        ([".", "--token", " "], "the token is empty"),
    ],
)
def test_bad_options_are_one_error_line(run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str], message: str):
    monkeypatch.chdir(tmp_path)
    result = run("serve", *args)
    assert result.exit_code == 2
    assert message in one_error_line(result)


def test_serve_help_has_an_example(run):
    result = run("serve", "--help")
    assert result.exit_code == 0 and "ginscore serve matches --lan" in result.stdout and "GINSCORE_TOKEN" in result.stdout


def test_check_does_not_load_the_web_layer():
    code = "import sys; from ginscore.cli import main; sys.argv = ['ginscore', 'check', '3h', '4h', '5h', 'KS', 'KC', 'KD', '7c', '8c', '9c', '2d']\n" \
        "try:\n    main()\nexcept SystemExit:\n    pass\n" \
        "print(sorted(m for m in ('starlette', 'uvicorn', 'jinja2', 'segno', 'ginscore.web') if m in sys.modules), file=sys.stderr)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.stderr.strip() == "[]"


# --- the LAN address, picked from made-up interfaces ----------------------------------------------------------


@pytest.mark.parametrize(
    ("interfaces", "expected"),
    [
        ([("lo", "127.0.0.1"), ("wlan0", "192.168.1.23")], ["192.168.1.23"]),
        ([("lo", "127.0.0.1"), ("docker0", "172.17.0.1"), ("wlp2s0", "10.0.0.5")], ["10.0.0.5", "172.17.0.1"]),
        ([("eth0", "81.2.69.160"), ("wlan0", "192.168.0.4")], ["192.168.0.4", "81.2.69.160"]),
        ([("tailscale0", "100.101.102.103"), ("en0", "172.20.10.2")], ["172.20.10.2", "100.101.102.103"]),
        ([("eth0", "169.254.3.4"), ("lo", "127.0.0.1")], []),
        ([("eth0", "fe80::1"), ("eth1", "not an address")], []),
        ([("veth12", "10.1.0.1"), ("br-abc", "10.2.0.1")], ["10.1.0.1", "10.2.0.1"]),
        ([("wlan0", "192.168.1.23"), ("wlan0", "192.168.1.23")], ["192.168.1.23"]),
        ([], []),
    ],
)
def test_the_lan_address_picked(interfaces: list[tuple[str, str]], expected: list[str]):
    assert pick_lan_addresses(interfaces) == expected


def test_the_hosts_file_fallback():
    text = "127.0.0.1 localhost\n127.0.1.1 table\n192.168.1.40 table.home table  # the laptop\n::1 table\n# 10.0.0.1 table\n"
    assert hosts_file_addresses("TABLE", text) == ["127.0.1.1", "192.168.1.40"]
    assert pick_lan_addresses(("hosts", address) for address in hosts_file_addresses("table", text)) == ["192.168.1.40"]
    assert hosts_file_addresses("other", text) == []


def test_the_hosts_allowed():
    assert allowed_hosts("127.0.0.1", 8000, []) == ["127.0.0.1:8000", "localhost:8000"]
    assert allowed_hosts("0.0.0.0", 5000, ["192.168.1.23"]) == ["127.0.0.1:5000", "localhost:5000", "192.168.1.23:5000"]
    assert allowed_hosts("::1", 8000, []) == ["127.0.0.1:8000", "localhost:8000", "[::1]:8000"]
    assert "table.local:8000" in allowed_hosts("table.local", 8000, [])


def test_trickling_and_stalled_heads_are_closed_and_cannot_shut_the_phones_out(tmp_path: Path):
    """100 connections that trickle a header line every half second and 100 whose head stops halfway: each is
    answered 408 and closed within the head's time limit, and meanwhile every tokened request, each on a new
    connection, is answered 200 within 2 s."""
    from ginscore.web.server import HEAD_SECONDS

    with serving(str(tmp_path), "--port", "0", "--token", TOKEN) as served:
        head = f"GET /api/matches HTTP/1.1\r\nHost: 127.0.0.1:{served.port}\r\nAuthorization: Bearer {TOKEN}\r\n".encode()
        stalled = [socket.create_connection(("127.0.0.1", served.port), timeout=10) for _ in range(100)]
        trickling = [socket.create_connection(("127.0.0.1", served.port), timeout=10) for _ in range(100)]
        try:
            for sock in stalled + trickling:
                sock.sendall(head)  # never the blank line that ends a head
                sock.setblocking(False)
            still_open, ended, answers = set(stalled + trickling), [], []
            bound = HEAD_SECONDS + 4  # the test's own limit: it stops by itself
            deadline = time.monotonic() + bound
            while still_open and time.monotonic() < deadline:
                for sock in list(still_open):
                    try:
                        ended.append(sock.recv(4096))  # the server's answer, or b"" once it has closed
                        still_open.discard(sock)
                    except BlockingIOError:
                        if sock in trickling:
                            sock.send(b"X-Slow: one more line\r\n")
                    except OSError:
                        still_open.discard(sock)
                with httpx.Client(timeout=2) as phone:
                    answers.append(phone.get(f"{served.base}/api/matches", headers=AUTH).status_code)
                time.sleep(0.5)
            assert not still_open, f"{len(still_open)} slow connections were still open after {bound} s"
            assert {answer[:12] for answer in ended} <= {b"HTTP/1.1 408", b""}
            assert answers and set(answers) == {200}, answers
        finally:
            for sock in stalled + trickling:
                sock.close()
        assert served.stop()[0] == 0


def test_past_the_most_connections_the_one_waiting_longest_for_a_head_is_closed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """However many slow or silent clients connect, a phone's new connection gets in: each one past
    MOST_CONNECTIONS closes the connection that has waited longest without a complete head (here 20, in-process)."""
    from ginscore.web import server as web_server

    monkeypatch.setattr(web_server, "MOST_CONNECTIONS", 20)
    with served_in_process(tmp_path, TOKEN) as port:
        silent = [socket.create_connection(("127.0.0.1", port), timeout=2) for _ in range(25)]
        with httpx.Client(timeout=2) as phone:
            assert phone.get(f"http://127.0.0.1:{port}/api/matches", headers=AUTH).status_code == 200
        assert [client.recv(1) for client in silent[:5]] == [b""] * 5  # the five waiting longest were let go
        for client in silent[6:]:
            client.setblocking(False)
            with pytest.raises(BlockingIOError):
                client.recv(1)  # the rest are still open
        for client in silent:
            client.close()

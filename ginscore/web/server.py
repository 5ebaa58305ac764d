"""Starting `ginscore serve`: the address to listen on, the token, the URL and QR code printed, uvicorn, and
a clean stop on Ctrl-C.

This is the web layer's one door for the command line: `cli/serve.py` imports `serve` from here, inside the
command, and nothing else of the web layer (tests/test_imports.py allows exactly that import).

The LAN address is found without sending a single packet: the machine's interfaces are listed
(`socket.if_nameindex` and the `SIOCGIFADDR` ioctl on Linux), or, failing that, the host's own name is looked up
in `/etc/hosts`. No DNS query, no UDP "connect" to a public address.
"""

from __future__ import annotations

import asyncio
import ipaddress
import os
import signal
import socket
import sys
from collections.abc import Iterable
from typing import Any, TextIO
from urllib.parse import quote as url_quote

from ..errors import InputError, RefusedError, os_error_reason, quote

LOCAL_NAMES = ("127.0.0.1", "localhost")
"""Host names every server answers to."""
WILDCARDS = ("0.0.0.0", "::", "")
VIRTUAL_PREFIXES = (
    "docker", "br-", "veth", "virbr", "vmnet", "vboxnet", "tun", "tap", "wg", "zt", "tailscale", "lxc", "lxd",
    "cni", "flannel", "podman", "utun", "kube",
)
"""Interfaces of containers, virtual machines and VPNs: a phone on the Wi-Fi cannot reach their addresses."""
SIOCGIFADDR = 0x8915
KEEP_ALIVE_SECONDS = 5
"""How long a connection may say nothing: from its start, and between one answer and the next request."""
HEAD_SECONDS = 4
"""How long a request head may take from its first byte to its blank line, however it trickles in: a phone sends
its head in one packet, and this leaves time for a few lost ones to be sent again."""
SLOW_HEAD_ANSWER = b"HTTP/1.1 408 Request Timeout\r\ncontent-length: 0\r\nconnection: close\r\n\r\n"
LET_GO_SECONDS = (1, 5)
"""A connection answered 408 for a slow head has its sending side closed, and whatever more it sends is read and
dropped until it has been quiet for the first figure, or for at most the second, in seconds: closed at once while
bytes still come, the kernel resets it and the client, still sending its head, loses the answer (uvicorn 0.54
and h11 have no clock for a head at all)."""
MOST_CONNECTIONS = 500
"""Connections open at once; a new one beyond this closes the one that has waited longest for a request head,
so a flood of slow or silent clients runs into its own kind, never into the phones."""


# --- the LAN address -------------------------------------------------------------------------------------



def _head_deadline_protocol() -> type:
    """uvicorn's h11 HTTP protocol with two clocks of its own, so that slow or silent clients cannot hold the server.

    - A connection that says nothing is closed after KEEP_ALIVE_SECONDS, from its first moment: uvicorn starts
      that clock only after a first answer.
    - A request head must be complete within HEAD_SECONDS of its first byte, however it trickles: uvicorn
      cancels its idle clock at the first byte and has none for the head. One that is not is answered 408, its
      sending side closed, and closed once it is quiet (LET_GO_SECONDS), so that the 408 is read, not reset.

    And when MOST_CONNECTIONS are open, a new one closes the connection that has waited longest without a
    complete head: a phone sends its head at once, so only a slow or silent client is ever dropped.

    The protocol's insides (`conn`, `cycle`, `connections`, `timeout_keep_alive_task`) are uvicorn's, not an
    interface it promises: pyproject.toml holds uvicorn to the one minor version they were read from.
    """
    import h11
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class HeadDeadlineProtocol(H11Protocol):
        head_timer: asyncio.TimerHandle | None = None
        letting_go = False
        quiet_timer: asyncio.TimerHandle | None = None
        """Answered 408 for a slow head: what it sends now is dropped until it is closed."""
        waiting_since = 0.0
        """When this connection began to wait for a request head (its start, or its last answer)."""

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            self.waiting_since = self.loop.time()
            self.timeout_keep_alive_task = self.loop.call_later(self.timeout_keep_alive, self.timeout_keep_alive_handler)
            if len(self.connections) > MOST_CONNECTIONS:
                waiting = [other for other in self.connections if other is not self and _awaits_head(other)]
                if waiting:
                    min(waiting, key=_waiting_since).transport.close()

        def data_received(self, data: bytes) -> None:
            if self.letting_go:
                self._close_when_quiet()
                return
            super().data_received(data)
            if self.conn.their_state is not h11.IDLE:
                self._stop_head_clock()  # the head is complete: the body has its own limit (security.BODY_SECONDS)
            elif self.head_timer is None and not self.transport.is_closing():
                self.head_timer = self.loop.call_later(HEAD_SECONDS, self._head_too_slow)

        def on_response_complete(self) -> None:
            super().on_response_complete()
            self.waiting_since = self.loop.time()

        def connection_lost(self, exc: Exception | None) -> None:
            self._stop_head_clock()
            if self.quiet_timer is not None:
                self.quiet_timer.cancel()
            super().connection_lost(exc)

        def _stop_head_clock(self) -> None:
            if self.head_timer is not None:
                self.head_timer.cancel()
                self.head_timer = None

        def _head_too_slow(self) -> None:
            self.head_timer = None
            if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
                self.transport.write(SLOW_HEAD_ANSWER)
                self.letting_go = True
                if self.transport.can_write_eof():
                    self.transport.write_eof()  # the answer, then the end: the client reads both before a close
                self.loop.call_later(LET_GO_SECONDS[1], self.transport.close)
                self._close_when_quiet()

        def _close_when_quiet(self) -> None:
            if self.quiet_timer is not None:
                self.quiet_timer.cancel()
            self.quiet_timer = self.loop.call_later(LET_GO_SECONDS[0], self.transport.close)

    def _waiting_since(connection: Any) -> float:
        since: float = connection.waiting_since
        return since

    def _awaits_head(connection: Any) -> bool:
        return (
            isinstance(connection, HeadDeadlineProtocol)
            and not connection.transport.is_closing()  # let go already: it leaves the set when the loop next runs
            and connection.conn.their_state is h11.IDLE
            and (connection.cycle is None or connection.cycle.response_complete)
        )

    return HeadDeadlineProtocol


def interface_addresses() -> list[tuple[str, str]]:
    """Each network interface's name and IPv4 address, read from the kernel; empty where that cannot be done."""
    try:
        import fcntl
        import struct

        names = [name for _, name in socket.if_nameindex()]
    except (ImportError, OSError, AttributeError):
        return []
    found = []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:  # never connected, never sends
        for name in names:
            try:
                answer = fcntl.ioctl(probe.fileno(), SIOCGIFADDR, struct.pack("256s", name.encode()[:15]))
            except OSError:
                continue  # no IPv4 address on this interface
            found.append((name, socket.inet_ntoa(answer[20:24])))
    return found


def hosts_file_addresses(hostname: str, text: str) -> list[str]:
    """The IPv4 addresses `/etc/hosts` (given as `text`) gives `hostname`, in order."""
    found = []
    for line in text.splitlines():
        words = line.partition("#")[0].split()
        if len(words) >= 2 and hostname.lower() in (word.lower() for word in words[1:]):
            try:
                if isinstance(ipaddress.ip_address(words[0]), ipaddress.IPv4Address):
                    found.append(words[0])
            except ValueError:
                continue
    return found


def pick_lan_addresses(interfaces: Iterable[tuple[str, str]]) -> list[str]:
    """The addresses a phone on the same network could use, best first: private IPv4 addresses of real
    interfaces, then other routable ones, then those of containers and VPNs; never loopback or link-local."""
    ranked = []
    for order, (name, text) in enumerate(interfaces):
        try:
            address = ipaddress.ip_address(text)
        except ValueError:
            continue
        if not isinstance(address, ipaddress.IPv4Address):
            continue
        if address.is_loopback or address.is_link_local or address.is_multicast or address.is_unspecified:
            continue
        virtual = name.lower().startswith(VIRTUAL_PREFIXES)
        ranked.append((virtual, not address.is_private, order, text))
    return list(dict.fromkeys(text for *_, text in sorted(ranked)))


def lan_addresses() -> list[str]:
    """This machine's LAN addresses, best first, found without sending anything."""
    found = pick_lan_addresses(interface_addresses())
    if found:
        return found
    try:
        with open("/etc/hosts", encoding="utf-8", errors="replace") as handle:
            text = handle.read()
    except OSError:
        return []
    return pick_lan_addresses(("hosts", address) for address in hosts_file_addresses(socket.gethostname(), text))


# --- serving ---------------------------------------------------------------------------------------------


def _host_port(host: str, port: int) -> str:
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def allowed_hosts(host: str, port: int, lan: list[str]) -> list[str]:
    """The Host headers the server answers: the local names, the host it was started for, and its LAN addresses."""
    names = [*LOCAL_NAMES, *([host] if host not in WILDCARDS else []), *lan]
    hosts = [_host_port(name, port) for name in dict.fromkeys(names)]
    if port == 80:
        hosts += [name for name in dict.fromkeys(names)]
    return hosts


def listen(host: str, port: int) -> socket.socket:
    """A listening socket on `host:port` (port 0 picks a free one); a `RefusedError` saying why when it cannot."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # IPPROTO_TCP said outright: asyncio turns Nagle's algorithm off only on sockets that say it, and with Nagle on,
    # each answer on a kept-alive connection waits 40 ms for the client's delayed ACK.
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(128)
    except OSError as error:
        sock.close()
        raise RefusedError(f"cannot listen on {_host_port(host, port)}: {os_error_reason(error)}") from None
    except (OverflowError, UnicodeError):
        sock.close()
        raise InputError(f"cannot listen on {quote(host)} port {port}: give an address and a port from 0 to 65535") from None
    sock.set_inheritable(False)
    return sock


def serve(folder: str, host: str = "127.0.0.1", port: int = 8000, lan: bool = False, token: str | None = None, out: TextIO | None = None) -> None:
    """Serve the match files of `folder` until Ctrl-C (or SIGTERM), then return: no traceback, no write cut short
    (each write is an atomic rename, and uvicorn lets running requests finish)."""
    import uvicorn

    from .asgi import create_app
    from .security import new_token

    out = out or sys.stdout
    if not os.path.isdir(folder):
        raise InputError(f"{quote(folder)} is not a folder: give the folder of match files to serve")
    if not 0 <= port <= 65535:
        raise InputError(f"{port} is not a port: give one from 1 to 65535, or 0 for any free one", field="port")
    if token is not None and not token.strip():
        raise InputError("the token is empty: give some text, or leave it out for a random one", field="token")
    token = token or new_token()
    bind = "0.0.0.0" if lan else host
    found = lan_addresses() if lan or bind in WILDCARDS else []
    sock = listen(bind, port)
    port = sock.getsockname()[1]
    shown = found[0] if lan and found else ("127.0.0.1" if bind in WILDCARDS else host)
    url = f"http://{_host_port(shown, port)}/?token={url_quote(token, safe='')}"
    app = create_app(folder, token, allowed_hosts(bind, port, found))
    every = " (every address: anyone on the network with the token can use it)" if bind in WILDCARDS else ""
    print(f"Serving the matches in {os.path.abspath(folder)} on {_host_port(bind, port)}{every}", file=out)
    if lan and not found:
        print("No LAN address found (is this machine on a network?): phones cannot reach it; serving on every address anyway.", file=out)
    print(f"Open {url}", file=out)
    if lan:
        import segno

        print("or scan this with a phone on the same network:", file=out)
        segno.make_qr(url).terminal(out=out, compact=True)
    print("Press Ctrl-C to stop.", file=out, flush=True)
    config = uvicorn_config(app)
    server = uvicorn.Server(config)
    previous = signal.signal(signal.SIGTERM, _interrupt) if _main_thread() else None
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:
        pass  # uvicorn stopped gracefully, then raised the Ctrl-C again for whoever is above: that is us
    finally:
        sock.close()
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)
    print("Stopped.", file=out, flush=True)


def uvicorn_config(app: Any) -> Any:
    """How uvicorn serves `app`: quiet, no proxy headers, the slow-client clocks and limits above. The requests
    answered at once are the app's own limit (`limits`), not uvicorn's `limit_concurrency`, which counts open
    connections as well, so that clients still sending their heads (or saying nothing) would turn the phones away."""
    import uvicorn

    return uvicorn.Config(
        app,
        lifespan="off",
        log_level="warning",
        access_log=False,
        proxy_headers=False,
        server_header=False,
        timeout_keep_alive=KEEP_ALIVE_SECONDS,
        http=_head_deadline_protocol(),
        timeout_graceful_shutdown=10,
    )


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def _main_thread() -> bool:
    import threading

    return threading.current_thread() is threading.main_thread()

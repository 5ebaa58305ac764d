"""What keeps `serve` safe on a network, as one ASGI middleware, `Guard`, run in front of every route.

In order, for each HTTP request:

1. **Host.** The `Host` header must be one the server was started for (`127.0.0.1:PORT`, `localhost:PORT`, and
   with `--lan` the LAN addresses found): a page from another site whose name was re-pointed at this machine
   (DNS rebinding) gets 400.
2. **Token.** Every path but `/static/` needs the access token, given one of three ways:
   `?token=TOKEN` on a GET (it sets the cookie and redirects to the same URL without the token, as Jupyter
   does), the cookie (`HttpOnly`, `SameSite=Strict`), or `Authorization: Bearer TOKEN` for API clients.
   Without it: 401 (`{"error": ...}` under `/api`, a short page elsewhere).
3. **Origin and CSRF.** A request that may write (POST, PUT, PATCH, DELETE) with an `Origin` header must come
   from this server's own origin (403 otherwise). An API write authenticated by the cookie, rather than by
   Bearer, must also carry `X-CSRF-Token: <csrf_token(request)>` (403 otherwise); pages check their forms'
   hidden `csrf` field with `check_csrf(request, form)`.
4. **Body cap.** A body over `MAX_BODY` bytes gets 413, whether announced by `Content-Length` or sent chunked;
   one not complete within `BODY_SECONDS` of its head gets 408. The body is read whole before the request is
   let in among those answered at once (`limits`): a client trickling one holds only its own connection.
5. **Headers.** Every response, errors included, gets the Content-Security-Policy in `HEADERS` (the server
   itself only, no inline script or style, no framing; pictures from `blob:` too, the PNG "Share the result"
   draws from the result's SVG) and the other headers there. With
   `Referrer-Policy: no-referrer` a browser sends `Origin: null` on a form's POST, which the Origin check
   refuses: pages carry `<meta name="referrer" content="same-origin">` (templates/base.html), so that their
   forms send their real origin while no address ever leaves for another site.
6. **Failures.** An exception no route caught is logged and answered 500, with the same headers, never a
   traceback.

The CSRF token is stateless: an HMAC of the access token, the same for every form while the server runs.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import logging
import secrets
from collections.abc import Iterable, Mapping
from typing import Any
from urllib.parse import parse_qsl, quote, urlencode

from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..errors import InputError
from ..game.numbers import read_whole
from .limits import Busy, Limit, Limits

log = logging.getLogger("ginscore.web")
MAX_BODY = 64 * 1024
"""The most bytes a request body may have: a hand is a few hundred."""
BODY_SECONDS = 10.0
"""How long a request body may take to arrive after its head, however it trickles: a phone sends a hand's few
hundred bytes with the head; a half-sent request is answered 408 and let go."""
CSRF_FIELD = "csrf"
"""The hidden form field that carries the CSRF token."""
CSRF_HEADER = "x-csrf-token"
HEADERS = [
    (
        b"content-security-policy",
        b"default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' blob:; object-src 'none'; "
        b"base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    ),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"cross-origin-resource-policy", b"same-origin"),
]
_UNSAFE = {"POST", "PUT", "PATCH", "DELETE"}
_OPEN_PREFIXES = ("/static/",)
"""Paths served without the token: the style sheet and script hold no match data, and the 401 page uses them."""


def new_token() -> str:
    """A random access token, as Jupyter makes one: 32 URL-safe characters."""
    return secrets.token_urlsafe(24)


def _derived(token: str, purpose: bytes) -> str:
    return hmac.new(token.encode("utf-8"), purpose, hashlib.sha256).hexdigest()


def cookie_name(token: str) -> str:
    """The session cookie's name, its own for each token: browsers share cookies between the ports of one host, so
    two servers on one machine must not overwrite each other's."""
    return "ginscore_" + _derived(token, b"cookie name")[:12]


def csrf_token(request: Request) -> str:
    """The CSRF token to put in a form's hidden `csrf` field (or a script's `X-CSRF-Token` header)."""
    csrf: str = request.app.state.csrf
    return csrf


def check_csrf(request: Request, form: Mapping[str, Any]) -> bool:
    """Whether a form (or the request's `X-CSRF-Token` header) carries this server's CSRF token.

    A page that writes calls this and refuses with 403 when it is false; Bearer clients need no CSRF token.
    """
    given = form.get(CSRF_FIELD) or request.headers.get(CSRF_HEADER) or ""
    return isinstance(given, str) and hmac.compare_digest(given.encode(), request.app.state.csrf.encode())


class BodyTooLarge(Exception):
    """A body past `MAX_BODY`: the guard answers 413."""


class BodyTooSlow(Exception):
    """A body not complete within `BODY_SECONDS` of its head: the guard answers 408."""


class Guard:
    """The Host, token, Origin, CSRF and body checks, the request limit and the security headers, for every
    HTTP request. `requests` is the limit on requests answered at once (`limits.Limits().requests` by default)."""

    def __init__(self, app: ASGIApp, token: str, hosts: Iterable[str], max_body: int = MAX_BODY,
                 body_seconds: float = BODY_SECONDS, requests: Limit | None = None):
        self.app = app
        self.body_seconds = body_seconds
        self.token = token.encode("utf-8")
        self.session = _derived(token, b"session").encode()
        self.cookie = cookie_name(token)
        self.hosts = {host.lower() for host in hosts}
        self.max_body = max_body
        self.requests = requests or Limits().requests

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def send_with_headers(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                headers = [(k, v) for k, v in message.get("headers", []) if k.lower() not in _HEADER_NAMES]
                message = {**message, "headers": headers + HEADERS}
            await send(message)

        refusal = self._refusal(scope)
        if refusal is not None:
            await _respond(scope, send_with_headers, *refusal)
            return
        # The whole body first, on a clock started with the head, before the request takes a place among those
        # answered at once: a client trickling a body holds its own connection and nothing else.
        try:
            body = await self._body(receive)
        except BodyTooLarge:
            await _respond(scope, send_with_headers, 413, _too_large(self.max_body))
            return
        except BodyTooSlow:
            await _respond(scope, send_with_headers, 408, f"the request body did not arrive within {self.body_seconds:g} seconds; nothing was changed")
            return
        if body is None:
            return  # the client went away
        given = False

        async def replayed() -> Message:
            nonlocal given
            if given:
                return await receive()  # only waiting for a disconnect now
            given = True
            return {"type": "http.request", "body": body, "more_body": False}

        try:
            async with self.requests.turn():
                await self.app(scope, replayed, send_with_headers)
        except Exception as error:
            if started:
                raise
            if isinstance(error, Busy):
                await _respond(scope, send_with_headers, 503, error.args[0], [(b"retry-after", str(error.retry_after).encode())])
            else:
                log.exception("%s %s failed", scope["method"], scope["path"])
                await _respond(scope, send_with_headers, 500, "the server failed on this request (its log says why)")

    async def _body(self, receive: Receive) -> bytes | None:
        """The request's whole body, at most `max_body` bytes within `body_seconds` of now; None on a disconnect."""
        chunks: list[bytes] = []
        received = 0
        try:
            async with asyncio.timeout(self.body_seconds):
                while True:
                    message = await receive()
                    if message["type"] != "http.request":
                        return None
                    chunk = message.get("body", b"")
                    received += len(chunk)
                    if received > self.max_body:
                        raise BodyTooLarge()
                    chunks.append(chunk)
                    if not message.get("more_body", False):
                        return b"".join(chunks)
        except TimeoutError:
            raise BodyTooSlow() from None

    def _refusal(self, scope: Scope) -> tuple[int, str, list[tuple[bytes, bytes]]] | tuple[int, str] | None:
        """Why this request is refused before the app sees it, as a status and a message (and headers); None to go on."""
        headers = _headers(scope)
        host = headers.get(b"host", b"").decode("latin-1").lower()
        if host not in self.hosts:
            return 400, f"the Host header {host[:60]!r} is not an address this server was started for"
        path: str = scope["path"]
        method: str = scope["method"]
        query = scope.get("query_string", b"").decode("latin-1")
        pairs = parse_qsl(query, keep_blank_values=True)
        given = [value for name, value in pairs if name == "token"]
        if given and method in ("GET", "HEAD") and not path.startswith("/api/"):
            if not hmac.compare_digest(given[0].encode("utf-8"), self.token):
                return 401, "wrong token: open the link the server printed (or scan its QR code), token and all"
            rest = urlencode([(name, value) for name, value in pairs if name != "token"])
            # the path as it was sent (still percent-encoded), and never `//host`, which would leave this server
            sent = scope.get("raw_path") or quote(path).encode()
            location = "/" + sent.decode("latin-1").replace("\\", "%5C").lstrip("/") + (f"?{rest}" if rest else "")
            cookie = f"{self.cookie}={self.session.decode()}; Path=/; HttpOnly; SameSite=Strict"
            return 303, "", [(b"location", location.encode("latin-1")), (b"set-cookie", cookie.encode()), (b"cache-control", b"no-store")]
        if path.startswith(_OPEN_PREFIXES):
            return None
        bearer = self._bearer(headers)
        by_cookie = self._cookie(headers)
        if bearer is False or not (bearer or by_cookie):
            if path.startswith("/api/"):  # a program's words for a program; a phone's for a person
                return 401, "the access token is missing or wrong: send Authorization: Bearer TOKEN, or the cookie the link sets"
            return 401, "this page needs the server's link: open the link it printed, or scan its QR code"
        length = headers.get(b"content-length")
        if length is not None and not _at_most(length.decode("latin-1"), self.max_body):
            return 413, _too_large(self.max_body)
        if method in _UNSAFE:
            origin = headers.get(b"origin")
            if origin is not None and origin.decode("latin-1").lower() != f"{scope.get('scheme', 'http')}://{host}":
                return 403, f"the request came from another site ({origin.decode('latin-1')[:60]!r}); nothing was changed"
            if path.startswith("/api/") and not bearer:
                csrf = headers.get(CSRF_HEADER.encode(), b"")
                if not hmac.compare_digest(csrf, _state_csrf(scope).encode()):
                    return 403, "the CSRF token is missing or wrong: reload the page and try again; nothing was changed"
        return None

    def _bearer(self, headers: dict[bytes, bytes]) -> bool | None:
        """True for the right Bearer token, False for a wrong one, None when none is sent."""
        value = headers.get(b"authorization")
        if value is None:
            return None
        scheme, _, credentials = value.partition(b" ")
        if scheme.lower() != b"bearer":
            return None
        return hmac.compare_digest(credentials.strip(), self.token)

    def _cookie(self, headers: dict[bytes, bytes]) -> bool:
        raw = headers.get(b"cookie")
        if raw is None:
            return False
        # Read piece by piece: a cookie another app on this host set in a shape SimpleCookie rejects must not
        # hide ours, since browsers share cookies across every port of 127.0.0.1.
        for piece in raw.split(b";"):
            name, _, value = piece.strip().partition(b"=")
            if name.decode("latin-1") == self.cookie and hmac.compare_digest(value.strip().strip(b'"'), self.session):
                return True
        return False


_HEADER_NAMES = {name for name, _ in HEADERS}


def _headers(scope: Scope) -> dict[bytes, bytes]:
    """The request's headers by lower-case name; the first of a repeated one (a second Host is ignored)."""
    found: dict[bytes, bytes] = {}
    for name, value in scope.get("headers", []):
        found.setdefault(name.lower(), value)
    return found


def _state_csrf(scope: Scope) -> str:
    app = scope.get("app")
    csrf: str = app.state.csrf if app is not None else ""
    return csrf


def _at_most(length: str, limit: int) -> bool:
    """Whether a Content-Length header says at most `limit` bytes, in digits 0-9, leading zeros or not."""
    try:
        size = read_whole(length)
    except InputError:  # more digits than any body could have
        return False
    return size is not None and size <= limit


def _too_large(limit: int) -> str:
    return f"the request body is over {limit // 1024} KB, far more than any hand; nothing was read"


async def _respond(scope: Scope, send: Send, status: int, message: str, headers: list[tuple[bytes, bytes]] | None = None) -> None:
    """A refusal: `{"error": message, "field": null}` under `/api`, a short plain page elsewhere (a redirect when 303)."""
    if status == 303:
        body, kind = b"", b"text/plain; charset=utf-8"
    elif scope["path"].startswith("/api/") or scope["path"] == "/api":
        body, kind = json.dumps({"error": message, "field": None}, ensure_ascii=False).encode(), b"application/json"
    else:
        body, kind = _page(status, message), b"text/html; charset=utf-8"
    all_headers = [(b"content-type", kind), (b"content-length", str(len(body)).encode()), *(headers or [])]
    if status == 413:
        all_headers.append((b"connection", b"close"))
    await send({"type": "http.response.start", "status": status, "headers": all_headers})
    await send({"type": "http.response.body", "body": body if scope["method"] != "HEAD" else b""})


def _page(status: int, message: str) -> bytes:
    from html import escape

    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>ginscore</title>'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        '<link rel="stylesheet" href="/static/style.css"></head>'
        f'<body><main><h1>ginscore</h1><p class="error">{escape(message)}</p></main></body></html>'
    ).encode()

"""The Python the app's Web Worker runs under Pyodide: serve's own pages, answered in the browser.

The worker's script (`shell/worker.js`) loads Pyodide, unpacks the lean archive and imports this module; `check`
answers at once from `game.check`, while `start_pages` imports the web layer. Then every navigation, form and
`fetch()` of a page arrives as `request(...)`: one ASGI call into `web.asgi.create_app`, the very app `serve` runs,
over a folder in Pyodide's in-memory file system.

The match files live in the browser's storage; this module only holds them in memory. Before each request the
worker hands in the stored texts (`sync`), and after a change takes back what changed (`changes`) with each
match's summary, to store in one transaction. Nothing here touches the network.
"""

from __future__ import annotations

import json
import os
import secrets
import time
from typing import Any

FOLDER = "/matches"
"""The in-memory folder the pages are served from."""
HOST = "pocket.invalid"
"""The Host every request carries: the guard answers only for the hosts it is given, and this name is nobody's."""

_app: Any = None
_token = secrets.token_urlsafe(24)
_synced: dict[str, str] = {}
"""The texts as the storage last held them, by file name."""


def check(text: str) -> str:
    """`ginscore check`'s plain answer for one hand's cards (standard rules), or its error line."""
    from ..errors import GinscoreError
    from ..game.check import check_hand, plain_report
    from ..game.rulebook import PRESETS

    try:
        return plain_report(check_hand(text), PRESETS["standard"].knock_limit)
    except GinscoreError as error:
        return f"error: {error}"


def check_json(text: str) -> str:
    """`ginscore check --json`'s line for one hand's cards (standard rules), or `{"error": ...}`."""
    from ..errors import GinscoreError
    from ..game.check import check_hand, json_line
    from ..game.rulebook import PRESETS

    try:
        return json_line(check_hand(text), PRESETS["standard"].knock_limit)
    except GinscoreError as error:
        return json.dumps({"error": str(error)}, ensure_ascii=False)


def start_pages() -> float:
    """Import the web layer and make the app (seconds taken): after this, `request` answers."""
    global _app
    began = time.perf_counter()
    from ..web.asgi import create_app

    os.makedirs(FOLDER, exist_ok=True)
    _app = create_app(FOLDER, _token, [HOST])
    return time.perf_counter() - began


def _names() -> list[str]:
    from ..files.served import Folder

    return Folder(FOLDER).names()


def _read(name: str) -> str | None:
    try:
        with open(os.path.join(FOLDER, name), encoding="utf-8") as handle:
            return handle.read()
    except (OSError, UnicodeDecodeError):
        return None


def sync(texts_json: str) -> None:
    """Make the in-memory folder hold exactly the stored texts (`{name: text}` as JSON)."""
    global _synced
    texts: dict[str, str] = json.loads(texts_json)
    os.makedirs(FOLDER, exist_ok=True)
    for name in set(_names()) - set(texts):
        os.remove(os.path.join(FOLDER, name))
    for name, text in texts.items():
        if _read(name) != text:
            temporary = os.path.join(FOLDER, f".{name}.incoming")
            with open(temporary, "w", encoding="utf-8", newline="") as handle:
                handle.write(text)
            os.replace(temporary, os.path.join(FOLDER, name))
    _synced = dict(texts)


def changes() -> str:
    """What the last request changed, as JSON: `{"texts": {name: text or null}, "summaries": {name: summary}}`,
    a removed file as null. Empty when nothing changed."""
    global _synced
    now = {name: text for name in _names() if (text := _read(name)) is not None}
    texts: dict[str, str | None] = {name: text for name, text in now.items() if _synced.get(name) != text}
    texts.update({name: None for name in _synced if name not in now})
    _synced = now
    return json.dumps({"texts": texts, "summaries": {name: summary(name) for name, text in texts.items() if text is not None}},
                      ensure_ascii=False)


def summary(name: str) -> dict[str, Any]:
    """The match's line in the list, as serve's folder page has it (players, totals, status, hands...)."""
    from ..files.served import Folder

    return Folder(FOLDER).summary(name).as_json()


def summaries() -> str:
    """Every stored match's summary, as JSON by name."""
    return json.dumps({name: summary(name) for name in _names()}, ensure_ascii=False)


def opened(name: str, text: str) -> str:
    """A `.toml` file opened on the phone, read by the same loader as every match file: put in the folder under a
    name not yet taken (`{"name": ...}`), or refused with the loader's words (`{"error": ...}`)."""
    from ..errors import MatchFileError
    from ..files.reading import loads

    shown = os.path.basename(name.replace("\\", "/")) or "match.toml"
    if not shown.endswith(".toml"):
        return json.dumps({"error": f"{shown}: not a match file (a match file's name ends in .toml)"}, ensure_ascii=False)
    match, _sheet, problems = loads(text)
    if match is None or problems:
        return json.dumps({"error": str(MatchFileError(shown, problems or ["not a match"]))}, ensure_ascii=False)
    taken = set(_names())
    stem, number, chosen = shown[:-5], 2, shown
    while chosen in taken:
        chosen, number = f"{stem}-{number}.toml", number + 1
    with open(os.path.join(FOLDER, chosen), "w", encoding="utf-8", newline="") as handle:
        handle.write(text)
    return json.dumps({"name": chosen}, ensure_ascii=False)


async def request(method: str, raw_path: str, query: str, text: str, content_type: str) -> dict[str, Any]:
    """One request to serve's app, its path as a URL spells it (`/m/a%20b.toml`): `{"status", "headers", "body"}`,
    the body as bytes."""
    from urllib.parse import unquote

    body = text.encode("utf-8")

    if _app is None:
        raise LookupError("the pages are not ready yet")
    headers = [(b"host", HOST.encode()), (b"authorization", f"Bearer {_token}".encode())]
    if content_type:
        headers.append((b"content-type", content_type.encode("latin-1")))
    if body:
        headers.append((b"content-length", str(len(body)).encode()))
    scope = {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": method, "scheme": "http",
        "path": unquote(raw_path), "raw_path": raw_path.encode("ascii", "replace"), "query_string": query.encode("latin-1"), "root_path": "",
        "headers": headers, "client": ("127.0.0.1", 0), "server": (HOST, 80),
    }
    pending = [{"type": "http.request", "body": body, "more_body": False}]
    answer: dict[str, Any] = {"status": 500, "headers": [], "body": b""}

    async def receive() -> dict[str, Any]:
        return pending.pop() if pending else {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.start":
            answer["status"] = message["status"]
            answer["headers"] = [[name.decode("latin-1"), value.decode("latin-1")] for name, value in message.get("headers", [])]
        elif message["type"] == "http.response.body":
            answer["body"] += message.get("body", b"")

    await _app(scope, receive, send)
    return answer


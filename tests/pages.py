"""Test helpers for the exports: a match with hostile names and notes, and a small reader of the page's tables."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

from ginscore.files import storage
from ginscore.game.rulebook import preset
from ginscore.match.records import HandRecord, Match

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_matches"
SAMPLE_FILES = [SAMPLES / "standard.toml", SAMPLES / "oklahoma.toml", SAMPLES / "counts_only.toml"]
HOSTILE = "<script>alert(1)</script>"
QUOTED = 'Tom & "Jerry"'
# Hollywood, target 50: the hands of tests/test_cli_show_extras.py (games entered: see HOLLYWOOD_ENTRIES).
HOLLYWOOD_HANDS = [(HOSTILE, 10), (HOSTILE, 40), (QUOTED, 5), (HOSTILE, 10), (QUOTED, 5), (HOSTILE, 40)]
# (hand, game, player): hand 1 opens game 1 for the first player, hand 2 game 2, hand 3 game 2 for the other, ...
HOLLYWOOD_ENTRIES = {(1, 1, HOSTILE), (2, 2, HOSTILE), (3, 2, QUOTED), (4, 3, HOSTILE), (5, 3, QUOTED)}


def write_hostile_hollywood(path: Path) -> Path:
    """A finished Hollywood match between two hostile names, with a note on the match and on odd hands."""
    records = tuple(
        HandRecord(knocker=who, deadwood=1, opponent_deadwood=points + 1,
                   note=f'hand {number}: <img src=x onerror=alert(2)> & "so"' if number % 2 else "")
        for number, (who, points) in enumerate(HOLLYWOOD_HANDS, start=1)
    )
    match = Match(
        players=(HOSTILE, QUOTED), rules=replace(preset("standard"), target=50), first_dealer=HOSTILE,
        hands=records, hollywood=True, preset="standard", note='At <b>home</b> & "away"',
    )
    path.write_text(storage.dumps(match), encoding="utf-8")
    return path


@dataclass
class Cell:
    tag: str
    text: str
    attrs: dict[str, str]


@dataclass
class Table:
    css: str
    caption: str = ""
    sections: dict[str, list[list[Cell]]] = field(default_factory=lambda: {"thead": [], "tbody": [], "tfoot": []})


class PageReader(HTMLParser):
    """The page's tables (cells by section), every element's tag, and the text of a few elements by class."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self.tables: list[Table] = []
        self.tags: list[tuple[str, dict[str, str]]] = []
        self.texts: dict[str, list[str]] = {}
        self._section = "tbody"
        self._cell: Cell | None = None
        self._open: list[tuple[str, str]] = []  # (tag, key for texts)
        self._caption = False
        self.feed(text)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {name: value or "" for name, value in attrs}
        self.tags.append((tag, values))
        if tag == "table":
            self.tables.append(Table(values.get("class", "")))
        elif tag in ("thead", "tbody", "tfoot"):
            self._section = tag
        elif tag == "tr":
            self.tables[-1].sections[self._section].append([])
        elif tag in ("th", "td"):
            self._cell = Cell(tag, "", values)
        elif tag == "caption":
            self._caption = True
        key = values.get("class", "").split()[0] if values.get("class") else tag
        if tag not in ("meta", "br", "img", "line", "circle", "rect", "polyline"):
            self._open.append((tag, key))

    def handle_endtag(self, tag: str) -> None:
        if tag in ("th", "td") and self._cell is not None:
            self._cell.text = self._cell.text.strip()
            self.tables[-1].sections[self._section][-1].append(self._cell)
            self._cell = None
        elif tag in ("thead", "tfoot"):
            self._section = "tbody"
        elif tag == "caption":
            self._caption = False
        while self._open:
            opened, _ = self._open.pop()
            if opened == tag:
                break

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.text += data
        if self._caption:
            self.tables[-1].caption += data
        for _, key in self._open:
            self.texts.setdefault(key, []).append(data)

    def text(self, key: str) -> str:
        """All the text inside elements of that class (or tag), joined."""
        return "".join(self.texts.get(key, [])).strip()

    def table(self, css: str) -> Table:
        return next(table for table in self.tables if table.css == css)


PAD_TOKEN = "test-token"


@contextmanager
def signed_in(folder: Path) -> Iterator[TestClient]:
    """serve's app over `folder` through Starlette's TestClient, its token cookie already set."""
    from ginscore.web.asgi import create_app

    with TestClient(create_app(str(folder), PAD_TOKEN, ["127.0.0.1:8000"]), base_url="http://127.0.0.1:8000") as client:
        assert client.get(f"/?token={PAD_TOKEN}").status_code == 200
        yield client


@contextmanager
def served_in_process(folder: Path, token: str, **app_options: Any) -> Iterator[int]:
    """serve's own uvicorn config and protocol over `folder`, in a thread of this process, on 127.0.0.1 and a free
    port (yielded once it has started); stopped on leaving. `app_options` go to `create_app`."""
    import threading
    import time

    import uvicorn

    from ginscore.web import server as web_server
    from ginscore.web.asgi import create_app

    listening = web_server.listen("127.0.0.1", 0)
    port = listening.getsockname()[1]
    running = uvicorn.Server(web_server.uvicorn_config(create_app(str(folder), token, [f"127.0.0.1:{port}"], **app_options)))
    thread = threading.Thread(target=running.run, kwargs={"sockets": [listening]}, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 10
        while not running.started and time.monotonic() < deadline:
            time.sleep(0.01)
        yield port
    finally:
        running.should_exit = True
        thread.join(timeout=15)
        listening.close()


def samples_and_a_broken_file(folder: Path) -> Path:
    """`folder` holding the three sample matches and a broken match file: what the pad's page tests read."""
    import shutil

    for path in SAMPLE_FILES:
        shutil.copy(path, folder / path.name)
    (folder / "broken.toml").write_text("[match\nplayers = 1\n", encoding="utf-8")
    return folder

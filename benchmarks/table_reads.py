"""How often each match file of a table is read: by `show`, by a phone's match page, by a phone's Save, and by
the app's Save (the worker's Python, driven here as `worker.js` drives it, over a temporary folder).

A table of ten matches: `friday.toml` in play and nine finished matches beside it. Each read of a match file's
bytes is counted (`files.folder.read_text`, however it is reached), for the file itself and for the others.
Run it from the repository root, against any checkout (it uses what each version has):

    .venv/bin/python benchmarks/table_reads.py
"""

from __future__ import annotations

import asyncio
import json
import shutil
import sys
import tempfile
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "sample_matches" / "standard.toml"
TOKEN = "bench-token"


@contextmanager
def counting() -> Iterator[Counter[str]]:
    """Count each read of a match file's text, by the file's name."""
    from ginscore.files import folder, reading

    counts: Counter[str] = Counter()
    real = folder.read_text

    def counted(path: str) -> str:
        counts[Path(path).name] += 1
        return real(path)

    owners = [owner for owner in (folder, reading) if getattr(owner, "read_text", None) is real]
    for owner in owners:
        owner.read_text = counted  # type: ignore[attr-defined]
    try:
        yield counts
    finally:
        for owner in owners:
            owner.read_text = real  # type: ignore[attr-defined]


def a_table(folder: Path) -> None:
    text = SAMPLE.read_text(encoding="utf-8")
    for number in range(1, 10):
        (folder / f"game-{number}.toml").write_text(text.replace("2026-11-30T23:10", f"2026-11-2{number}T10:10"), encoding="utf-8")
    head = text[: text.index("[[hands]]")]
    (folder / "friday.toml").write_text(head.replace("2026-11-30T23:10", "2026-11-30T23:59"), encoding="utf-8")


def said(counts: Counter[str]) -> str:
    others = sum(n for name, n in counts.items() if name != "friday.toml")
    return f"friday.toml {counts['friday.toml']}, the nine others {others} in all"


def show(folder: Path) -> str:
    from typer.testing import CliRunner

    from ginscore.cli import app

    with counting() as counts:
        result = CliRunner().invoke(app, ["show", str(folder / "friday.toml"), "--json"])
    assert result.exit_code == 0, result.output
    return said(counts)


def pages(folder: Path) -> list[tuple[str, str]]:
    from starlette.testclient import TestClient

    from ginscore.web.asgi import create_app

    found = []
    with TestClient(create_app(str(folder), TOKEN, ["127.0.0.1:8000"]), base_url="http://127.0.0.1:8000") as client:
        for label, address in (("the match page, first", f"/m/friday.toml?token={TOKEN}"), ("the match page, again", "/m/friday.toml")):
            with counting() as counts:
                assert client.get(address).status_code == 200
            found.append((label, said(counts)))
        page = client.get("/m/friday.toml/record").text
        csrf = page.split('name="csrf" value="', 1)[1].split('"', 1)[0]
        form = {"csrf": csrf, "action": "save", "how": "counts", "knocker": "Tom", "deadwood": "3", "opponent_deadwood": "20", "expected_hands": "0"}
        with counting() as counts:
            saved = client.post("/m/friday.toml/record", data=form, follow_redirects=True)
        assert saved.status_code == 200 and "Recorded hand 1" in saved.text, saved.text[:400]
        found.append(("a phone's Save and the sheet after it", said(counts)))
    return found


def app_save(folder: Path) -> list[tuple[str, str]]:
    """The app's Save as worker.js makes it, from the match page: hold every stored text, run the request, take
    the changes back; then the sheet it leads to."""
    from ginscore.pocket import worker

    memory = Path(tempfile.mkdtemp()) / "matches"
    worker.FOLDER = str(memory)
    worker.start_pages()
    texts = {path.name: path.read_text(encoding="utf-8") for path in sorted(folder.glob("*.toml"))}
    generations = dict.fromkeys(texts, 1)
    seen = {"keys": list(texts), "generations": generations, "texts": texts, "others": {}, "summaries": {}, "next": {}}
    worker.hold(json.dumps(seen))
    asyncio.run(worker.request("GET", "/m/friday.toml", "", "", ""))  # the page the Save is made from
    body = "action=save&how=counts&knocker=Tom&deadwood=3&opponent_deadwood=20&expected_hands=0&csrf=" + _csrf(worker)
    found = []
    with counting() as counts:
        answer = asyncio.run(worker.request("POST", "/m/friday.toml/record", "", body, "application/x-www-form-urlencoded"))
        changed = json.loads(worker.changes())
    assert answer["status"] == 303 and list(changed["texts"]) == ["friday.toml"], (answer["status"], answer["body"][:300])
    found.append(("the app's Save", said(counts)))
    with counting() as counts:
        shown = asyncio.run(worker.request("GET", "/m/friday.toml", "recorded=1", "", ""))
    assert shown["status"] == 200
    found.append(("the app's sheet after it", said(counts)))
    shutil.rmtree(memory.parent)
    return found


def _csrf(worker: Any) -> str:
    return str(worker._app.state.csrf)


def main() -> None:
    steps: list[tuple[str, Callable[[Path], Any]]] = [("show --json", show), ("pages", pages), ("app", app_save)]
    for label, step in steps:
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp)
            a_table(folder)
            try:
                made = step(folder)
            except Exception as error:  # an older checkout may not have what a step drives
                print(f"{label}: not measured ({type(error).__name__}: {error})", file=sys.stderr)
                continue
            for what, counts in made if isinstance(made, list) else [(label, made)]:
                print(f"{what:40} {counts}")


if __name__ == "__main__":
    main()

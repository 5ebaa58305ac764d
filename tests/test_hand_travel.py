"""How far one hand travels: a phone's Save and `ginscore record`, counted by patching what reads, parses and
scores, and what builds each shape the hand takes on its way to the file.

The counts are those docs/architecture.md shows. Run as a script to print them:

    python tests/test_hand_travel.py
"""

from __future__ import annotations

import re
import shutil
import sys
import tomllib
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from ginscore.cli import app
from ginscore.files import folder as disk_folder
from ginscore.files import plain_toml, reading, storage
from ginscore.match import entry, records, scored, tally

ROOT = Path(__file__).resolve().parent.parent
TOKEN = "test-token"
# The best spread for Ann blocks Bob's lay-offs; the least-deadwood one lets him undercut (tests/test_web_pages.py).
BEST_K, BEST_O = "Ac 6c 6h 3c 2s 6d 3h 2c Ah 2h", "2d 5s As 5h 3d 4c 3s 4d 4s 4h"

SHAPES = ("HandEntry", "HandRecord", "ScoredRecord", "HandLine")
"""The hand's typed shapes, each counted when it is built."""
TABLES = ("_hand_table", "_hand_entry", "_hand_block")
"""What turns a record into the file's table and its TOML text (`_hand_entry` is the table's old name)."""


@contextmanager
def counting() -> Iterator[Counter[str]]:
    """Count, while inside: reads of a match file, parses of its text, scorings of a hand, and the shapes built."""
    counts: Counter[str] = Counter()
    patches: list[tuple[Any, str, Any]] = []

    def wrap(owner: Any, name: str, label: str) -> None:
        real = getattr(owner, name)

        def counted(*args: Any, **kwargs: Any) -> Any:
            counts[label] += 1
            return real(*args, **kwargs)

        patches.append((owner, name, real))
        setattr(owner, name, counted)

    wrap(reading, "read_text", "reads")  # a file read by its path
    wrap(disk_folder, "read_text", "reads")  # and through its table's storage (`Disk.text`)
    for name in ("read", "read_after"):
        wrap(plain_toml, name, "parses")
    wrap(tomllib, "loads", "parses")
    for name in ("score_cards", "score_counts"):
        wrap(scored, name, "scorings")
    from ginscore.web import picker

    shapes = {getattr(module, shape): shape for module in (entry, records, scored, tally, picker) for shape in (*SHAPES, "Picker")
              if hasattr(module, shape)}
    for shape, name in shapes.items():
        wrap(shape, "__init__", name)
    for name in TABLES:
        if hasattr(storage, name):
            wrap(storage, name, "TOML table" if name != "_hand_block" else "TOML text")
    try:
        yield counts
    finally:
        for owner, name, real in reversed(patches):
            setattr(owner, name, real)


def _create_app() -> Callable[..., Any]:
    try:
        from ginscore.web.asgi import create_app
    except ImportError:  # before web/app.py was named web/asgi.py, for the figures before
        from ginscore.web.app import create_app  # type: ignore[no-redef]
    return create_app


def phone_save(folder: Path) -> Counter[str]:
    """A phone's Save of a hand by cards with the least-deadwood spread, the record page shown just before."""
    from starlette.testclient import TestClient

    shutil.copy(ROOT / "sample_matches" / "standard.toml", folder / "m.toml")
    (folder / "m.toml").write_text(_unfinished((folder / "m.toml").read_text(encoding="utf-8")), encoding="utf-8")
    app = _create_app()(str(folder), TOKEN, ["127.0.0.1:8000"])
    with TestClient(app, base_url="http://127.0.0.1:8000") as client:
        assert client.get(f"/?token={TOKEN}").status_code == 200
        page = client.get("/m/m.toml/record").text
        hands = re.search(r'name="expected_hands" value="(\d+)"', page)
        csrf = re.search(r'name="csrf" value="([^"]+)"', page)
        assert hands and csrf
        form = {"csrf": csrf.group(1), "knocker": "Maria", "how": "cards", "cards": BEST_K, "opponent_cards": BEST_O,
                "expected_hands": hands.group(1), "action": "save", "spread": "lowest"}
        with counting() as counts:
            saved = client.post("/m/m.toml/record", data=form, follow_redirects=False)
    assert saved.status_code == 303, saved.text
    return counts


def _unfinished(text: str) -> str:
    """The sample with a target no hand reaches, so that one more hand can be recorded."""
    return text.replace("target = 100", "target = 1000")


def cli_record(folder: Path) -> Counter[str]:
    """`ginscore record` of a hand by cards, in a fresh process (nothing remembered)."""
    path = folder / "m.toml"
    path.write_text(_unfinished((ROOT / "sample_matches" / "standard.toml").read_text(encoding="utf-8")), encoding="utf-8")
    reading.REMEMBERED.forget()
    with counting() as counts:
        result = CliRunner().invoke(app, ["record", str(path), "--knocker", "Maria", "--cards", BEST_K, "--opponent-cards", BEST_O],
                                    env={"NO_COLOR": "1"})
    assert result.exit_code == 0, result.output
    return counts


PHONE_SAVE = {"reads": 1, "parses": 1, "scorings": 1, "HandEntry": 1, "HandRecord": 3, "ScoredRecord": 1,
              "HandLine": 1, "TOML table": 1, "TOML text": 1}
"""A Save of the least-deadwood spread, now: the form read straight into the `HandEntry` (no `Picker`), the file
read and parsed once (the record page before it parsed the same text, remembered), the hand scored once; its record
made, regrouped as laid down, and read back from the appended text. Before: 2 reads, 4 scorings, 2 `HandEntry`,
2 `HandLine` and a `Picker` built from the form."""
CLI_RECORD = {"reads": 1, "parses": 2, "scorings": 9, "HandEntry": 1, "HandRecord": 13, "ScoredRecord": 1, "HandLine": 11,
              "TOML table": 1, "TOML text": 1}
"""`record` in a fresh process, now: the file read once and parsed once, and the appended text parsed alone to prove
it; the sample's eight knocks scored as it loads and the new one once (before: 10 scorings). The nine hands read
make nine of the records and lines."""


def test_a_phone_save_reads_parses_and_scores_once(tmp_path: Path) -> None:
    assert dict(phone_save(tmp_path)) == PHONE_SAVE


def test_record_reads_and_parses_the_file_once_and_scores_the_new_hand_once(tmp_path: Path) -> None:
    assert dict(cli_record(tmp_path)) == CLI_RECORD


@pytest.fixture(autouse=True)
def _forget() -> Iterator[None]:
    reading.REMEMBERED.forget()
    yield
    reading.REMEMBERED.forget()


def main() -> None:
    import tempfile

    for name, travel in (("phone Save (lowest spread)", phone_save), ("ginscore record", cli_record)):
        with tempfile.TemporaryDirectory() as folder:
            reading.REMEMBERED.forget()
            counts = travel(Path(folder))
        sys.stdout.write(f"{name}: " + ", ".join(f"{key} {value}" for key, value in sorted(counts.items())) + "\n")


if __name__ == "__main__":
    main()

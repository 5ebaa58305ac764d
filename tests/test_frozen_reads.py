"""A match file as read is remembered and shared (`reading.REMEMBERED`, the table's files), so its parsed TOML is
read-only all the way down (issue 55): no reader can change what the next one is handed."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from ginscore.files import changes
from ginscore.files.reading import FrozenTable, frozen, load_file, parse, thawed
from ginscore.files.table import Table
from ginscore.game.rulebook import PRESETS
from ginscore.match.entry import HandEntry, NewMatch

KNOCK = HandEntry(knocker="Ann", deadwood=4, opponent_deadwood=30)


@pytest.fixture
def game(tmp_path: Path) -> str:
    path = str(tmp_path / "friday.toml")
    changes.start(path, NewMatch(["Ann", "Bob"], PRESETS["standard"]))
    changes.record(path, KNOCK)
    return path


def _changes(document: Any) -> list[str]:
    """The ways a reader might change a document that it lets through (none, for a read-only one)."""
    tries: dict[str, Callable[[], object]] = {
        "a top key": lambda: document.__setitem__("format", 3),
        "the match table": lambda: document["match"].__setitem__("note", "changed"),
        "a player": lambda: document["match"]["players"].__setitem__(0, "Eve"),
        "a rule": lambda: document["rules"].__setitem__("gin_bonus", 99),
        "the hands": lambda: document["hands"].append({}),
        "a hand": lambda: document["hands"][0].__setitem__("knocker", "Bob"),
        "a hand's totals": lambda: document["hands"][0]["totals"].__setitem__("Ann", 500),
        "a top key removed": lambda: document.__delitem__("rules"),
        "cleared": lambda: document.clear(),
    }
    let_through = []
    for what, change in tries.items():
        try:
            change()
        except (TypeError, AttributeError):
            continue
        let_through.append(what)
    return let_through


def test_a_remembered_files_document_cannot_be_changed_at_any_depth(game: str) -> None:
    read = load_file(game)
    assert read.data == parse(read.text)  # equal to what tomllib-like parsing gives, as before
    assert _changes(read.data) == []
    assert len(_changes(parse(read.text))) == 9  # the test can fail: a plain document gives way every time
    assert load_file(game) is read and read.data["hands"][0]["totals"]["Ann"] == 26


def test_the_tables_file_and_a_written_file_are_read_only_too(game: str) -> None:
    table = Table(str(Path(game).parent))
    found = table.file("friday.toml").read
    assert found is not None and _changes(found.data) == []
    before = changes.record(game, HandEntry(knocker="Bob", deadwood=0, opponent_deadwood=12)).before
    assert before is found  # the service read the table's file, shared
    appended = load_file(game)  # as the write proved it: its document shares the hands before it, read-only
    assert _changes(appended.data) == [] and len(appended.data["hands"]) == 2
    assert appended.data["hands"][0] is before.data["hands"][0] and appended.data == parse(appended.text)


def test_an_edit_and_an_undo_still_keep_the_other_tables(game: str) -> None:
    changes.record(game, KNOCK)
    changes.edit(game, 1, HandEntry(knocker="Bob", deadwood=2, opponent_deadwood=40), expected_hands=2)
    changes.undo(game, expected_hands=2)
    read = load_file(game)
    assert [hand["knocker"] for hand in read.data["hands"]] == ["Bob"]
    assert read.data["match"]["players"] == ("Ann", "Bob") and _changes(read.data) == []


def test_thawed_is_a_fresh_copy_to_change_and_frozen_gives_it_back() -> None:
    document = {"match": {"players": ["Ann", "Bob"]}, "hands": [{"totals": {"Ann": 1}}], "format": 2}
    still = frozen(document)
    assert isinstance(still, FrozenTable) and still == document and document == still
    assert frozen(still) is still and still["hands"] == ({"totals": {"Ann": 1}},)
    copy = thawed(still)
    copy["hands"][0]["totals"]["Ann"] = 2
    copy["match"]["players"].append("Cy")
    assert copy != document and still == document and thawed(still) == document
    assert type(copy["hands"]) is list and type(copy["hands"][0]) is dict
    assert still != {**document, "format": 1} and still != ["format"]
    with pytest.raises(TypeError):
        hash(still)

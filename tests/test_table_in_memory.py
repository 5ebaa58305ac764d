"""The table over a storage in memory (issue 55): every change the service makes and every figure the table gives
runs with no disk. Any `open` or `os` call that reaches a match file of the table outside its storage fails the
test, so a reader that goes around the storage is caught."""

from __future__ import annotations

import builtins
import contextlib
import hashlib
import os
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ginscore.errors import ExistsError, MatchFileError
from ginscore.files import changes
from ginscore.files.table import Table
from ginscore.game.rulebook import PRESETS
from ginscore.match.entry import HandEntry, NewMatch

FOLDER = "/in-memory/table"
SAMPLES = Path(__file__).resolve().parent.parent / "sample_matches"


class Memory:
    """A table's storage that holds its files in a dict: what the app's store is to the worker."""

    def __init__(self, texts: dict[str, str]):
        self.texts = dict(texts)
        self.writes = 0
        self.locks: dict[str, threading.Lock] = {}

    def listed(self) -> list[str]:
        return sorted(self.texts)

    def listed_files(self) -> list[str]:
        return sorted(self.texts)

    def is_file(self, name: str) -> bool:
        return name in self.texts

    def exists(self, name: str) -> bool:
        return name in self.texts

    def identity(self, name: str) -> object:
        return None

    def text(self, name: str) -> str:
        if name not in self.texts:
            raise MatchFileError(self.path(name), ["no such file"])
        return self.texts[name]

    def data(self, name: str) -> bytes:
        return self.text(name).encode("utf-8")

    def version(self, name: str) -> str | None:
        text = self.texts.get(name)
        return None if text is None else hashlib.sha256(text.encode()).hexdigest()

    def settled(self) -> str | None:
        return None

    def modified(self, name: str) -> float | None:
        return 0.0 if name in self.texts else None

    def path(self, name: str) -> str:
        return f"{FOLDER}/{name}"

    @contextlib.contextmanager
    def lock(self, name: str, *, existing: bool = False) -> Iterator[None]:
        if existing and name not in self.texts:
            raise MatchFileError(self.path(name), ["no such file"])
        with self.locks.setdefault(name, threading.Lock()):
            yield

    def write(self, name: str, data: bytes) -> None:
        self.texts[name] = data.decode("utf-8")
        self.writes += 1


@pytest.fixture
def no_disk(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every `open` and file call of `os` on the in-memory folder fails the test."""

    def guarded(real: Any) -> Any:
        def call(path: Any, *args: Any, **kwargs: Any) -> Any:
            if str(os.fspath(path) if isinstance(path, (str, os.PathLike)) else "").startswith(FOLDER):
                pytest.fail(f"{real.__name__}({path!r}) went around the storage")
            return real(path, *args, **kwargs)
        return call

    monkeypatch.setattr(builtins, "open", guarded(builtins.open))
    for module, names in ((os, ("open", "stat", "lstat", "listdir", "scandir", "replace", "rename", "unlink")),
                          (os.path, ("exists", "lexists", "isfile", "isdir", "realpath"))):
        for name in names:
            monkeypatch.setattr(module, name, guarded(getattr(module, name)))


def test_every_change_and_figure_runs_on_a_storage_in_memory(no_disk: None) -> None:
    memory = Memory({sample.name: sample.read_text(encoding="utf-8") for sample in sorted(SAMPLES.glob("*.toml"))})
    table = Table(FOLDER, memory)
    path = memory.path("friday.toml")
    new = NewMatch(["Ann", "Bob"], PRESETS["standard"])
    assert changes.start(path, new, storage=memory).lines == ()
    with pytest.raises(ExistsError):
        changes.start(path, new, storage=memory)
    knock = HandEntry(knocker="Ann", deadwood=4, opponent_deadwood=30)
    assert changes.preview(path, knock, memory).sheet.lines[-1].points == 26
    changes.record(path, knock, storage=memory)
    changes.record(path, HandEntry(knocker="Bob", deadwood=0, opponent_deadwood=50), storage=memory)
    assert changes.preview_edit(path, 2, knock, memory).sheet.lines[-1].points == 26
    changes.edit(path, 2, HandEntry(knocker="Bob", deadwood=2, opponent_deadwood=40), expected_hands=2, storage=memory)
    changes.undo(path, expected_hands=2, storage=memory)
    changes.record(path, HandEntry(knocker="Ann", deadwood=0, opponent_deadwood=90), storage=memory)  # a gin: 90 + 20, 136 in all
    assert memory.writes == 6
    sheet = table.sheet_at(path)
    assert sheet.finished and [line.points for line in sheet.lines] == [26, 110]
    changes.next_game(path, memory.path("friday-2.toml"), storage=memory)
    assert "friday-2.toml" in memory.texts

    shown = table.show(table.sheet_at(memory.path("friday-2.toml")))
    assert shown["series"]["wins"] == {"Ann": 1, "Bob": 0}
    assert shown["odds"]["model"]["history_matches"] >= 2
    assert table.odds(table.sheet_at(memory.path("friday-2.toml"))).model == table.model(PRESETS["standard"])
    assert {pair.players for pair in table.pairs()} >= {("Ann", "Bob")}
    assert [name for name, _ in table.named_sheets()] == [name for name, _ in table.gives()]
    assert table.copies() == {}

    memory.texts["friday-copy.toml"] = memory.texts["friday.toml"]
    assert table.copies() == {"friday.toml": "friday-copy.toml"}  # alike: the first by name counts
    assert table.show(table.sheet_at(memory.path("friday-2.toml")))["series"] == shown["series"]  # counted once
    changes.put(memory.path("friday-copy.toml"), table.sheet_at(path).match, memory)
    assert memory.writes == 8

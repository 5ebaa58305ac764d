"""The last reads around the table (issue 55): a merge, a kept copy and a restore go through the folder's storage,
so they run over a storage in memory with no disk (any `open` or `os` call on its files fails the test, as in
test_table_in_memory.py); `ginscore merge` reads its copy through the copy's table, and the players the shell
completes after `--knocker` are read through the file's storage."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from conftest import RunCli
from test_table_in_memory import FOLDER, Memory, no_disk  # noqa: F401  (no_disk: the fixture, used by name)

from ginscore.errors import ExistsError
from ginscore.files import changes, merging
from ginscore.files.disk import Disk
from ginscore.files.served import Folder
from ginscore.game.rulebook import PRESETS
from ginscore.match.entry import HandEntry, NewMatch

HANDS = [HandEntry(knocker="Ann", deadwood=4, opponent_deadwood=30), HandEntry(knocker="Bob", deadwood=2, opponent_deadwood=12)]


def _played(memory: Memory, name: str, hands: list[HandEntry]) -> str:
    """A match of Ann and Bob started in `memory` under `name` with `hands`: its text."""
    path = memory.path(name)
    changes.start(path, NewMatch(["Ann", "Bob"], PRESETS["standard"]), storage=memory)
    for hand in hands:
        changes.record(path, hand, storage=memory)
    return memory.texts[name]


@pytest.fixture
def memory(no_disk: None) -> Memory:  # noqa: F811  (the fixture imported above)
    """A storage in memory holding one match of one hand, `friday.toml`, and a longer copy of it (not stored)."""
    store = Memory({})
    _played(store, "friday.toml", HANDS[:1])
    return store


def test_a_copy_merged_kept_and_restored_runs_over_a_storage_in_memory(memory: Memory) -> None:
    shorter = memory.texts["friday.toml"]
    changes.record(memory.path("friday.toml"), HANDS[1], storage=memory)
    longer = memory.texts.pop("friday.toml")
    memory.texts["friday.toml"] = shorter
    folder = Folder(FOLDER, memory)

    done = merging.restore_member(folder, "friday.toml", longer)  # the file of that name: merged by the rule
    assert (done.outcome, done.added, memory.texts["friday.toml"]) == ("added", 1, longer)
    assert merging.restore_member(folder, "friday.toml", longer).outcome == "unchanged"
    assert merging.restore_member(folder, "saturday.toml", shorter).outcome == "new"  # a free name: byte for byte
    assert memory.texts["saturday.toml"] == shorter
    assert folder.merge(longer, "saturday.toml").outcome == "added" and memory.texts["saturday.toml"] == longer

    with pytest.raises(ExistsError):  # asked of the storage, not of the disk
        merging.keep_copy(memory.path("friday.toml"), merging.read_copy("the copy", shorter), memory)
    writes = memory.writes
    restored = folder.restore(folder.backup())
    assert [(merged.name, merged.outcome) for merged in restored] == [("friday.toml", "unchanged"), ("saturday.toml", "unchanged")]
    assert memory.writes == writes


def test_a_conflict_taken_from_the_copy_is_written_through_the_storage(memory: Memory) -> None:
    path = memory.path("friday.toml")
    mine = memory.texts["friday.toml"]
    changes.record(path, HANDS[1], storage=memory)
    theirs = merging.read_copy("theirs", memory.texts["friday.toml"])
    memory.texts["friday.toml"] = mine
    changes.record(path, HandEntry(knocker="Bob", deadwood=0, opponent_deadwood=40), storage=memory)
    conflict = merging.merge_file(path, theirs, storage=memory)
    assert (conflict.outcome, conflict.differing) == ("conflict", (2,))
    taken = merging.merge_file(path, theirs, "theirs", expected_hands=2, storage=memory)
    assert taken.outcome == "replaced" and memory.texts["friday.toml"] == theirs.text


@pytest.fixture
def counted_reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names read through a folder's storage on the disk (`Disk.text`), in order."""
    read: list[str] = []
    text = Disk.text

    def counted(self: Disk, name: str) -> str:
        read.append(name)
        return text(self, name)

    monkeypatch.setattr(Disk, "text", counted)
    return read


def test_merge_reads_its_copy_through_the_copys_table(run: RunCli, tmp_path: Path, counted_reads: list[str]) -> None:
    mine, theirs = tmp_path / "friday.toml", tmp_path / "other" / "friday-from-bob.toml"
    theirs.parent.mkdir()
    assert run("new", mine, "Ann", "Bob").exit_code == 0
    theirs.write_bytes(mine.read_bytes())
    assert run("record", theirs, "--knocker", "Ann", "--deadwood", "4", "--opponent-deadwood", "30").exit_code == 0
    counted_reads.clear()
    done = run("merge", mine, theirs)
    assert (done.exit_code, done.stdout, done.stderr) == (0, f"Added 1 hand from {theirs} to {mine}.\n", "")
    assert counted_reads == ["friday-from-bob.toml"]
    assert mine.read_bytes() == theirs.read_bytes()

    (theirs.parent / "damaged.toml").write_text("format = \n", encoding="utf-8")
    damaged = os.path.join(theirs.parent, "damaged.toml")
    refused = run("merge", mine, damaged)
    assert (refused.exit_code, refused.stdout) == (1, "")
    assert refused.stderr.startswith(f"error: {damaged}: not valid TOML")  # named as typed, as before


def _players_completed(path: Path, typed: str = "") -> list[str]:
    from ginscore.cli.completion import players_in

    return [name for name in players_in([str(path)]) if name.lower().startswith(typed.lower())]


def test_the_players_completed_are_read_through_the_files_storage(run: RunCli, tmp_path: Path, counted_reads: list[str]) -> None:
    path = tmp_path / "friday.toml"
    assert run("new", path, "Ann Marie", "Bob").exit_code == 0
    counted_reads.clear()
    assert _players_completed(path) == ["Ann Marie", "Bob"] and counted_reads == ["friday.toml"]
    assert _players_completed(path, "b") == ["Bob"]
    typed = path.read_text(encoding="utf-8")
    path.write_text("\ufeff# typed by hand: read by tomllib\n" + typed.replace("[match]", "[match] # the players"), encoding="utf-8")
    assert _players_completed(path) == ["Ann Marie", "Bob"]
    for damaged in (b"\xff\xfe not UTF-8", b"[match]\nplayers = 3\n", b"format = \n"):
        path.write_bytes(damaged)
        assert _players_completed(path) == []
    assert _players_completed(tmp_path) == [] and _players_completed(tmp_path / "missing.toml") == []

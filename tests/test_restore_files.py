"""Restore keeps files (issue 54): each file of a backup goes back under its own name, byte for byte, whenever the
folder has no file of that name; into a file of that name it merges by the rule; over a damaged file of that name
it is a conflict, and nothing is written."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import RunCli

NIGHT = "2026-01-06T19:30+00:00"
HANDS = [["--knocker", "Ann", "--deadwood", str(deadwood), "--opponent-deadwood", "12"] for deadwood in (1, 2, 3, 4, 5)]


def files_of(folder: Path) -> dict[str, bytes]:
    """The match files of a folder, by name, with their bytes (not the hidden lock files writers leave)."""
    return {path.name: path.read_bytes() for path in sorted(folder.iterdir()) if not path.name.startswith(".")}


@pytest.fixture
def club(run: RunCli, tmp_path: Path) -> Path:
    """Five games of Ann and Bob started in one second, each holding the first hands of the next, and a CRLF copy of
    the last: the folder a script or a stack of paper sheets makes."""
    folder = tmp_path / "club"
    folder.mkdir()
    for number in range(1, 6):
        path = folder / f"game-{number}.toml"
        assert run("new", path, "Ann", "Bob", "--at", NIGHT).exit_code == 0
        for hand in HANDS[:number]:  # stamped with the night too: the games' first hands alike to the second
            assert run("record", path, *hand, "--at", NIGHT).exit_code == 0
    (folder / "game-5-crlf.toml").write_bytes((folder / "game-5.toml").read_bytes().replace(b"\n", b"\r\n"))
    return folder


def test_a_backup_comes_back_byte_for_byte_file_for_file_and_again_changes_nothing(run: RunCli, club: Path, tmp_path: Path) -> None:
    backup = tmp_path / "club.zip"
    assert run("backup", club, "-o", backup).exit_code == 0
    kept = files_of(club)
    empty = tmp_path / "empty"
    first = run("restore", backup, empty)
    assert (first.exit_code, first.stderr) == (0, "")
    assert first.stdout.splitlines() == [*(f"new       {name}" for name in sorted(kept)), f"Restored {backup} into {empty}: 6 new."]
    assert files_of(empty) == kept
    for folder in (empty, club):
        again = run("restore", backup, folder)
        assert (again.exit_code, again.stderr) == (0, "")
        assert again.stdout.splitlines()[-1] == f"Restored {backup} into {folder}: 6 unchanged."
        assert files_of(folder) == kept


def test_a_backup_merges_into_the_file_of_its_name(run: RunCli, club: Path, tmp_path: Path) -> None:
    backup = tmp_path / "club.zip"
    assert run("backup", club, "-o", backup).exit_code == 0
    laptop = tmp_path / "laptop"
    laptop.mkdir()
    shorter = laptop / "game-5.toml"
    text = (club / "game-4.toml").read_text(encoding="utf-8")
    shorter.write_text(text.replace(_id_line(club / "game-4.toml"), _id_line(club / "game-5.toml")), encoding="utf-8")
    done = run("restore", backup, laptop)
    assert done.exit_code == 0
    assert "added     game-5.toml: 1 hand more" in done.stdout.splitlines()
    assert shorter.read_bytes() == (club / "game-5.toml").read_bytes()  # four hands, one id: the fifth hand added


def _id_line(path: Path) -> str:
    return next(line for line in path.read_text(encoding="utf-8").splitlines() if line.startswith("id = "))


@pytest.mark.parametrize("damage", ["truncated", "inconsistent"])
def test_restore_over_a_damaged_file_is_a_conflict_and_writes_nothing(damage: str, run: RunCli, club: Path, tmp_path: Path) -> None:
    backup = tmp_path / "club.zip"
    assert run("backup", club, "-o", backup).exit_code == 0
    damaged = club / "game-3.toml"
    text = damaged.read_text(encoding="utf-8")
    if damage == "truncated":
        damaged.write_text(text[: len(text) // 2], encoding="utf-8")
    else:
        damaged.write_text(text.replace("Ann = 11", "Ann = 99", 1), encoding="utf-8")
    before = files_of(club)
    result = run("restore", backup, club)
    assert result.exit_code == 1
    line = next(line for line in result.stdout.splitlines() if line.startswith("conflict"))
    assert line.startswith("conflict  game-3.toml: the folder's game-3.toml is damaged (")
    assert line.endswith("it was left as it was: mend it (`ginscore validate game-3.toml` lists its problems) and restore "
                         "again, or move it aside (`mv game-3.toml game-3.toml.damaged`) and restore again to take the backup's")
    assert result.stdout.splitlines()[-1] == f"Restored {backup} into {club}: 5 unchanged, 1 in conflict."
    assert result.stderr == ("error: 1 of the backup's 6 files could not be merged (listed above); the folder's copies of them "
                             "are as they were\n")
    assert files_of(club) == before  # no new file, the damaged one untouched

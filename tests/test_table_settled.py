"""A warm `show` or `odds` flat in the folder's size (issue 55): while the folder stands settled, its listing comes
from the cache with no file asked its version; any name that comes, goes or is renamed into place (every write of
ginscore's) is seen at once, and a folder changed within the margin is listed in full."""

from __future__ import annotations

import os
import shutil
import sqlite3
import time
from collections import Counter
from pathlib import Path
from types import SimpleNamespace

import pytest
from conftest import RunCli

from ginscore.files import disk
from ginscore.files.disk import SETTLED_NS, Disk
from ginscore.files.stats_cache import CACHE_NAME, cache_folder
from ginscore.files.table import Table, table_at

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = sorted((ROOT / "sample_matches").glob("*.toml"))
KNOCK = ["--knocker", "Bob", "--deadwood", "3", "--opponent-deadwood", "20"]


@pytest.fixture
def later(monkeypatch: pytest.MonkeyPatch) -> None:
    """The clock the storage reads the margin by, a minute on: the test's folder, just written, stands settled (its
    ctime cannot be set back)."""
    real = time.time_ns
    monkeypatch.setattr(disk, "time", SimpleNamespace(time_ns=lambda: real() + 60 * 10**9))


@pytest.fixture
def folder(run: RunCli, tmp_path: Path) -> Path:
    """The sample matches, and `cur.toml` of Ann and Bob in play after one hand."""
    for sample in SAMPLES:
        shutil.copy(sample, tmp_path / sample.name)
    assert run("new", tmp_path / "cur.toml", "Ann", "Bob").exit_code == 0
    assert run("record", tmp_path / "cur.toml", *KNOCK).exit_code == 0
    return tmp_path


@pytest.fixture
def asked(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """Each file a table's storage on the disk was asked the version of, by name."""
    counted: Counter[str] = Counter()
    version = Disk.version

    def counting(self: Disk, name: str) -> str | None:
        counted[name] += 1
        return version(self, name)

    monkeypatch.setattr(Disk, "version", counting)
    return counted


def shown(folder: Path) -> dict:
    table = table_at(str(folder))
    return table.show(table.sheet_at(str(folder / "cur.toml")))


def afresh(folder: Path) -> dict:
    table = Table(str(folder))  # no layer: every file read now
    return table.show(table.sheet_at(str(folder / "cur.toml")))


def test_a_settled_folder_asks_only_the_shown_file_its_version(folder: Path, later: None, asked: Counter[str]) -> None:
    first = shown(folder)
    assert set(asked) == {path.name for path in folder.glob("*.toml")}
    asked.clear()
    warm = shown(folder)
    assert set(asked) == {"cur.toml"}
    assert warm == first == afresh(folder)


def test_a_write_of_ginscores_is_seen_at_once(run: RunCli, folder: Path, later: None, asked: Counter[str]) -> None:
    before = shown(folder)
    assert run("new", folder / "other.toml", "Ann", "Bob", "--at", "2026-01-02T20:00").exit_code == 0
    for _ in range(2):  # two gins of 65: the game is over, Ann's
        assert run("record", folder / "other.toml", "--knocker", "Ann", "--deadwood", "0", "--opponent-deadwood", "40",
                   "--at", "2026-01-02T21:00").exit_code == 0
    asked.clear()
    after = shown(folder)
    assert after["series"]["wins"] == {"Ann": 1, "Bob": 0} and after != before
    assert after == afresh(folder)
    assert "other.toml" in asked  # listed in full again: the folder changed
    (folder / "other.toml").unlink()
    assert shown(folder) == before


def test_a_folder_changed_within_the_margin_is_listed_in_full(folder: Path, asked: Counter[str]) -> None:
    shown(folder)
    asked.clear()
    os.utime(folder)  # changed now: its times say nothing of a change later in the same tick
    assert Disk(str(folder)).settled() is None
    shown(folder)
    assert set(asked) == {path.name for path in folder.glob("*.toml")}


def test_the_margin_is_what_a_settled_folder_has_stood(folder: Path) -> None:
    now = os.stat(folder)
    assert Disk(str(folder)).settled() is None  # just written
    assert time.time_ns() - max(now.st_mtime_ns, now.st_ctime_ns) < SETTLED_NS
    assert Disk(str(folder / "nowhere")).settled() is None


def test_the_shown_file_rewritten_in_place_is_read_again(folder: Path, later: None) -> None:
    shown(folder)
    path = folder / "cur.toml"
    text = path.read_text(encoding="utf-8")
    with open(path, "w", encoding="utf-8") as rewritten:  # in place: the folder's times do not change
        rewritten.write(text.replace("Ann", "Cat"))
    assert shown(folder)["players"] == ["Cat", "Bob"]


def test_a_damaged_listing_row_is_never_believed(folder: Path, later: None, asked: Counter[str]) -> None:
    first = shown(folder)
    with sqlite3.connect(os.path.join(cache_folder(), CACHE_NAME)) as database:
        damaged = database.execute("UPDATE listings SET twins = '{\"a.toml\": \"A.toml\"}' WHERE folder = ?", (str(folder),))
        assert damaged.rowcount == 1
    asked.clear()
    assert shown(folder) == first
    assert set(asked) == {path.name for path in folder.glob("*.toml")}

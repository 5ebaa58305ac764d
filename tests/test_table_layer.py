"""What each match gives the table, kept on disk (issue 55): a warm `show` or `odds` reads only the match it shows,
and while the folder stands settled asks no other file its version; a changed file is read again, a damaged row is
never believed, and every figure is the one a fresh read gives."""

from __future__ import annotations

import os
import shutil
import sqlite3
import time
from collections import Counter
from pathlib import Path
from types import SimpleNamespace

import pytest
from conftest import RunCli, json_object

from ginscore.files import disk
from ginscore.files import table as table_module
from ginscore.files.disk import SETTLED_NS, Disk
from ginscore.files.stats_cache import CACHE_NAME, cache_folder
from ginscore.files.table import Table, table_at
from ginscore.match.gives import MatchGives, TableGives, match_gives

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = sorted((ROOT / "sample_matches").glob("*.toml"))
KNOCK = ["--knocker", "Bob", "--deadwood", "3", "--opponent-deadwood", "20"]


@pytest.fixture
def folder(run: RunCli, tmp_path: Path) -> Path:
    """The sample matches, and `cur.toml` of Ann and Bob in play after one hand."""
    for sample in SAMPLES:
        shutil.copy(sample, tmp_path / sample.name)
    assert run("new", tmp_path / "cur.toml", "Ann", "Bob").exit_code == 0
    assert run("record", tmp_path / "cur.toml", *KNOCK).exit_code == 0
    return tmp_path


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """Each match file read through a table's storage on the disk, by name."""
    counted: Counter[str] = Counter()
    text = Disk.text

    def counting(self: Disk, name: str) -> str:
        counted[name] += 1
        return text(self, name)

    monkeypatch.setattr(Disk, "text", counting)
    return counted


def shown(folder: Path) -> tuple[dict, Table]:
    """What `show --json` says of cur.toml, by the table a command makes afresh."""
    table = table_at(str(folder))
    return table.show(table.sheet_at(str(folder / "cur.toml"))), table


def test_a_warm_table_reads_only_the_match_it_shows(folder: Path, reads: Counter[str]) -> None:
    first, _ = shown(folder)
    assert set(reads) == {path.name for path in folder.glob("*.toml")}  # the first run reads every file once
    assert max(reads.values()) == 1
    reads.clear()
    warm, _ = shown(folder)
    assert dict(reads) == {"cur.toml": 1}
    assert warm == first
    fresh = Table(str(folder))  # no layer: every file read now
    assert fresh.show(fresh.sheet_at(str(folder / "cur.toml"))) == first


def test_a_changed_file_is_read_again_and_the_figures_follow_it(run: RunCli, folder: Path, reads: Counter[str]) -> None:
    before, _ = shown(folder)
    assert run("new", folder / "other.toml", "Ann", "Bob", "--at", "2026-01-02T20:00").exit_code == 0  # before cur.toml
    for _ in range(2):  # two gins of 65: the game is over
        assert run("record", folder / "other.toml", "--knocker", "Ann", "--deadwood", "0", "--opponent-deadwood", "40", "--at", "2026-01-02T21:00").exit_code == 0
    reads.clear()
    after, _ = shown(folder)
    assert dict(reads) == {"cur.toml": 1, "other.toml": 1}
    assert after["series"] != before["series"] and after["series"]["wins"] == {"Ann": 1, "Bob": 0}
    assert after["odds"]["model"]["history_hands"] == before["odds"]["model"]["history_hands"] + 2
    (folder / "other.toml").unlink()
    reads.clear()
    assert shown(folder)[0] == before
    assert dict(reads) == {"cur.toml": 1}


def test_a_damaged_row_is_never_believed(folder: Path, reads: Counter[str]) -> None:
    first, _ = shown(folder)
    database = sqlite3.connect(str(Path(cache_folder()) / CACHE_NAME))
    with database:
        database.execute("UPDATE tables SET record = replace(record, '\"matches\": ', '\"matches\": 1')")
        database.execute("UPDATE gives SET record = replace(record, '\"dead\": ', '\"dead\": 9')")
        database.execute("UPDATE table_pairs SET record = replace(record, '\"final\": [', '\"final\": [1')")
    database.close()
    reads.clear()
    assert shown(folder)[0] == first
    assert set(reads) == {path.name for path in folder.glob("*.toml")}  # every row refused: every file read again


def test_what_a_match_gives_comes_back_from_its_record_and_nothing_else_passes() -> None:
    from ginscore.files.reading import load

    given = [match_gives(load(str(sample))[1]) for sample in SAMPLES]
    assert [MatchGives.from_record(gives.as_record()) for gives in given] == given
    table = TableGives.of(given)
    back = TableGives.from_record(table.as_record(), table.pair_record)
    assert back is not None and back.histories == table.histories
    for gives in given:
        assert back.pair(gives.players) == table.pair(gives.players)
    record = given[0].as_record()
    for key, bad in (("players", ["Ann"]), ("created", 3), ("games", [{"winner": "Zed", "final": [1, 2]}]),
                     ("outcomes", {"dead": True, "dealer": [], "non_dealer": []}), ("rules", {"target": 100})):
        assert MatchGives.from_record({**record, key: bad}) is None, key
    assert TableGives.from_record({"pairs": [], "histories": [{"rules": {}, "outcomes": {}, "matches": 1}]}) is None
    damaged = TableGives.from_record({"pairs": ["ann\0bob"], "histories": []}, lambda key: [{"players": 1}])
    assert damaged is not None and damaged.pair(("Ann", "Bob")) is None


def test_show_and_odds_say_the_same_warm_as_cold(run: RunCli, folder: Path) -> None:
    cold = json_object(run("show", "--json", folder / "cur.toml"))
    odds = json_object(run("odds", "--json", folder / "cur.toml"))
    assert json_object(run("show", "--json", folder / "cur.toml")) == cold
    assert json_object(run("odds", "--json", folder / "cur.toml")) == odds
    assert cold["odds"]["model"]["history_matches"] == odds["model"]["history_matches"] >= 1


def test_a_table_without_a_usable_cache_still_answers(folder: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("a file where the cache folder would be")
    monkeypatch.setenv("GINSCORE_CACHE_DIR", str(blocked / "cache"))
    with_layer, _ = shown(folder)
    fresh = Table(str(folder))
    assert with_layer == fresh.show(fresh.sheet_at(str(folder / "cur.toml")))
    assert table_module.table_at(str(folder)).layer is not None


def test_a_damaged_pair_row_is_refused_and_its_matches_given_again(folder: Path, reads: Counter[str]) -> None:
    first, _ = shown(folder)
    database = sqlite3.connect(str(Path(cache_folder()) / CACHE_NAME))
    with database:
        changed = database.execute("UPDATE table_pairs SET record = replace(record, '\"final\": [', '\"final\": [1')").rowcount
    database.close()
    assert changed >= 1
    reads.clear()
    assert shown(folder)[0] == first  # believed, the row would give a final total of 1 and more digits
    assert dict(reads) == {"cur.toml": 1}  # each file's own row gives its match again
    table = table_at(str(folder))
    kept = table.layer.table_gives(table.folder, table._listing())  # type: ignore[union-attr]
    assert kept is not None and kept.pair(("Ann", "Bob")) is not None  # and the pair's row is kept again, whole


def test_a_damaged_files_problem_is_shared_and_never_renamed(tmp_path: Path) -> None:
    """The table keeps a damaged file's problem; what a front end says of it is a new error, named its own way."""
    from ginscore.errors import MatchFileError
    from ginscore.files.served import Folder

    (tmp_path / "broken.toml").write_text("this is not toml [\n", encoding="utf-8")
    served = Folder(str(tmp_path))
    kept = served.table.file("broken.toml").problem
    assert kept is not None
    said = []
    for _ in range(2):
        with pytest.raises(MatchFileError) as raised:
            served.sheet("broken.toml")
        said.append(raised.value)
    assert said[0] is not said[1] and said[0] is not kept
    assert said[0].file == "broken.toml" and kept.file == str(tmp_path / "broken.toml")
    assert served.table.file("broken.toml").problem is kept


@pytest.mark.parametrize("command", [["show"], ["odds"], ["qr"], ["undo", "--yes"]])
def test_a_file_read_through_its_table_is_named_as_typed(run: RunCli, tmp_path: Path, command: list[str]) -> None:
    broken = tmp_path / "bad.toml"
    broken.write_text("not toml [\n", encoding="utf-8")
    said = run(command[0], broken, *command[1:])
    assert (said.exit_code, said.stdout) == (1, "")
    assert said.stderr.startswith(f"error: {broken}: not valid TOML: ")
    missing = tmp_path / "nope" / "x.toml"
    said = run(command[0], missing, *command[1:])
    assert said.stderr.startswith(f"error: {missing}: no such file") and said.stdout == ""


@pytest.fixture
def later(monkeypatch: pytest.MonkeyPatch) -> None:
    """The clock the storage reads the margin by, a minute on: the test's folder, just written, stands settled (its
    ctime cannot be set back)."""
    real = time.time_ns
    monkeypatch.setattr(disk, "time", SimpleNamespace(time_ns=lambda: real() + 60 * 10**9))


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


def afresh(folder: Path) -> dict:
    table = Table(str(folder))  # no layer: every file read now
    return table.show(table.sheet_at(str(folder / "cur.toml")))


def test_a_settled_folder_asks_only_the_shown_file_its_version(folder: Path, later: None, asked: Counter[str]) -> None:
    first = shown(folder)[0]
    assert set(asked) == {path.name for path in folder.glob("*.toml")}
    asked.clear()
    warm = shown(folder)[0]
    assert set(asked) == {"cur.toml"}
    assert warm == first == afresh(folder)


def test_a_write_of_ginscores_is_seen_at_once(run: RunCli, folder: Path, later: None, asked: Counter[str]) -> None:
    before = shown(folder)[0]
    assert run("new", folder / "other.toml", "Ann", "Bob", "--at", "2026-01-02T20:00").exit_code == 0
    for _ in range(2):  # two gins of 65: the game is over, Ann's
        assert run("record", folder / "other.toml", "--knocker", "Ann", "--deadwood", "0", "--opponent-deadwood", "40",
                   "--at", "2026-01-02T21:00").exit_code == 0
    asked.clear()
    after = shown(folder)[0]
    assert after["series"]["wins"] == {"Ann": 1, "Bob": 0} and after != before
    assert after == afresh(folder)
    assert "other.toml" in asked  # listed in full again: the folder changed
    (folder / "other.toml").unlink()
    assert shown(folder)[0] == before


def test_a_folder_changed_within_the_margin_is_listed_in_full(folder: Path, asked: Counter[str]) -> None:
    shown(folder)[0]
    asked.clear()
    os.utime(folder)  # changed now: its times say nothing of a change later in the same tick
    assert Disk(str(folder)).settled() is None
    shown(folder)[0]
    assert set(asked) == {path.name for path in folder.glob("*.toml")}


def test_the_margin_is_what_a_settled_folder_has_stood(folder: Path) -> None:
    now = os.stat(folder)
    assert Disk(str(folder)).settled() is None  # just written
    assert time.time_ns() - max(now.st_mtime_ns, now.st_ctime_ns) < SETTLED_NS
    assert Disk(str(folder / "nowhere")).settled() is None


def test_the_shown_file_rewritten_in_place_is_read_again(folder: Path, later: None) -> None:
    shown(folder)[0]
    path = folder / "cur.toml"
    text = path.read_text(encoding="utf-8")
    with open(path, "w", encoding="utf-8") as rewritten:  # in place: the folder's times do not change
        rewritten.write(text.replace("Ann", "Cat"))
    assert shown(folder)[0]["players"] == ["Cat", "Bob"]


def test_a_damaged_listing_row_is_never_believed(folder: Path, later: None, asked: Counter[str]) -> None:
    first = shown(folder)[0]
    with sqlite3.connect(os.path.join(cache_folder(), CACHE_NAME)) as database:
        damaged = database.execute("UPDATE listings SET twins = '{\"a.toml\": \"A.toml\"}' WHERE folder = ?", (str(folder),))
        assert damaged.rowcount == 1
    asked.clear()
    assert shown(folder)[0] == first
    assert set(asked) == {path.name for path in folder.glob("*.toml")}

"""`ginscore stats` with its cache of figures: the same results as without it, read again when a file's
bytes or the version change, a broken file never remembered, and a corrupt or unusable cache ignored.

Every test points the cache at its own folder (`GINSCORE_CACHE_DIR`). Whether a file was read in full
is seen by counting calls to `storage.loads`, which the cache calls for a file it has not seen.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import json_object

import ginscore.files.stats_cache
from ginscore.files.reading import load
from ginscore.files.storage import save
from ginscore.game.rulebook import PRESETS
from ginscore.match.entry import HandEntry
from ginscore.match.records import Match
from ginscore.match.scored import make_record
from ginscore.match.stats import collect
from ginscore.match.tally import add_hand

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_matches"


@pytest.fixture
def cache(tmp_path, monkeypatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("GINSCORE_CACHE_DIR", str(folder))
    return folder


@pytest.fixture
def full_reads(monkeypatch) -> list[int]:
    """How many files the cache reads in full (through `storage.loads`), one entry a file."""
    calls: list[int] = []
    real = ginscore.files.stats_cache.loads

    def counted(text: str):
        calls.append(1)
        return real(text)

    monkeypatch.setattr(ginscore.files.stats_cache, "loads", counted)
    return calls


def write_club(folder: Path, seed: int = 3) -> list[Path]:
    """The sample matches and a dozen count-only matches between players whose names change case."""
    folder.mkdir()
    for sample in SAMPLES.glob("*.toml"):
        shutil.copy(sample, folder / sample.name)
    rng = random.Random(seed)
    names = ["ann", "Ann", "BOB", "bob", "Cy"]
    for number in range(12):
        a, b = rng.sample(names, 2)
        if a.casefold() == b.casefold():
            b = "Dee"
        match = Match((a, b), PRESETS["standard"], a)
        for _ in range(rng.randint(0, 9)):
            if rng.random() < 0.1:
                match, _sheet = add_hand(match, make_record(match, HandEntry(cancelled=True)))
                continue
            deadwood = rng.randint(0, 10)
            knock = make_record(match, HandEntry(knocker=rng.choice((a, b)), deadwood=deadwood, opponent_deadwood=rng.randint(0, 40)))
            match, sheet = add_hand(match, knock)
            if sheet.finished:
                break
        save(str(folder / f"m{number:02d}.toml"), match)
    return sorted(folder.glob("*.toml"))


def broken(folder: Path) -> Path:
    """A copy of the standard sample whose first hand holds a card that does not exist."""
    path = folder / "zz_bad.toml"
    path.write_text((SAMPLES / "standard.toml").read_text(encoding="utf-8").replace('Ac 6h"', 'Ax 6h"'), encoding="utf-8")
    return path


def outputs(run, *args) -> list[tuple[int, str, str]]:
    return [(r.exit_code, r.stdout, r.stderr) for r in (run("stats", *args, "--json"), run("stats", *args))]


def test_the_cache_gives_the_same_results_as_reading_every_file(run, tmp_path, cache, full_reads):
    club = tmp_path / "club"
    files = write_club(club)
    broken(club)
    without = outputs(run, club, "--no-cache")
    assert not cache.exists() and len(full_reads) == 2 * (len(files) + 1)
    assert without[0][0] == 1 and without[0][2].endswith("(skipped)\n") and len(without[0][2].splitlines()) == 1
    full_reads.clear()
    cold, warm = outputs(run, club), outputs(run, club)
    assert cold == warm == without
    # four runs: each good file was read in full once, the broken one every time (it is never remembered)
    assert len(full_reads) == len(files) + 4
    # and the figures are those of the files loaded one by one and collected in memory
    expected = [pair.as_dict() for pair in collect(load(str(path))[1] for path in files)]
    assert [{k: v for k, v in pair.items() if k != "odds"} for pair in json.loads(cold[0][1])["pairs"]] == expected


def test_a_remembered_file_is_not_read_again_until_its_bytes_change(run, tmp_path, cache, full_reads):
    club = tmp_path / "club"
    files = write_club(club)
    before = json_object(run("stats", club, "--json"))
    assert len(full_reads) == len(files)
    full_reads.clear()
    assert json_object(run("stats", club, "--json")) == before
    assert full_reads == []
    changed = club / "m00.toml"
    result = run("record", changed, "--knocker", load(str(changed))[0].players[0], "--deadwood", "3", "--opponent-deadwood", "9")
    assert result.exit_code == 0, result.stderr
    after = json_object(run("stats", club, "--json"))
    assert len(full_reads) == 1  # only the changed file
    assert sum(pair["hands"] for pair in after["pairs"]) == sum(pair["hands"] for pair in before["pairs"]) + 1
    assert after == json_object(run("stats", club, "--json", "--no-cache"))


def test_a_new_version_reads_every_file_again_and_drops_the_old_figures(run, tmp_path, cache, full_reads, monkeypatch):
    club = tmp_path / "club"
    files = write_club(club)
    before = json_object(run("stats", club, "--json"))
    monkeypatch.setattr(ginscore.files.stats_cache, "__version__", "99.0.0")
    full_reads.clear()
    assert json_object(run("stats", club, "--json")) == before
    assert len(full_reads) == len(files)
    with sqlite3.connect(cache / "stats.sqlite3") as database:
        versions = database.execute("SELECT version, count(*) FROM figures GROUP BY version").fetchall()
    assert versions == [("99.0.0", len(files))]


def test_totals_edited_after_a_file_was_remembered_are_still_checked(run, tmp_path, cache):
    club = tmp_path / "club"
    write_club(club)
    assert run("stats", club).exit_code == 0
    path = club / "standard.toml"
    text = path.read_text(encoding="utf-8")
    assert text.count("Maria = 64\nTom = 103\n") == 1  # the last hand's totals
    path.write_text(text.replace("Maria = 64\nTom = 103\n", "Maria = 64\nTom = 130\n"), encoding="utf-8")
    result = run("stats", club, "--json")
    assert result.exit_code == 1
    assert result.stderr.startswith(f"{path}: hands[") and "totals" in result.stderr
    assert json.loads(result.stdout)["skipped"] == [str(path)]


@pytest.mark.parametrize("damage", [b"not a database at all\n" * 200, b"SQLite format 3\x00" + b"\xff" * 4000])
def test_a_corrupt_cache_is_ignored_then_replaced(run, tmp_path, cache, full_reads, damage):
    club = tmp_path / "club"
    files = write_club(club)
    expected = outputs(run, club, "--no-cache")
    cache.mkdir()
    (cache / "stats.sqlite3").write_bytes(damage)
    full_reads.clear()
    assert outputs(run, club) == expected  # the first of these runs removes the damaged cache, the second makes a new one
    assert len(full_reads) == 2 * len(files)
    full_reads.clear()
    assert outputs(run, club) == expected and full_reads == []


def test_a_cache_that_cannot_be_made_is_done_without(run, tmp_path, monkeypatch):
    club = tmp_path / "club"
    write_club(club)
    blocker = tmp_path / "a_file"
    blocker.write_text("in the way\n")
    monkeypatch.setenv("GINSCORE_CACHE_DIR", str(blocker / "cache"))
    assert outputs(run, club) == outputs(run, club, "--no-cache")
    assert blocker.read_text() == "in the way\n"


def test_the_cache_lives_under_the_users_cache_folder(monkeypatch, tmp_path):
    monkeypatch.delenv("GINSCORE_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert ginscore.files.stats_cache.cache_folder() == str(tmp_path / "xdg" / "ginscore")
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert ginscore.files.stats_cache.cache_folder() == str(tmp_path / "home" / ".cache" / "ginscore")


def test_the_cache_never_writes_in_the_match_folder(run, tmp_path, cache):
    club = tmp_path / "club"
    write_club(club)
    listing = {path: path.read_bytes() for path in club.iterdir()}
    for _ in range(2):
        assert run("stats", club).exit_code == 0
    assert {path: path.read_bytes() for path in club.iterdir()} == listing
    assert (cache / "stats.sqlite3").is_file()


def test_concurrent_runs_share_one_cache(tmp_path):
    club = tmp_path / "club"
    write_club(club)
    environment = {**os.environ, "GINSCORE_CACHE_DIR": str(tmp_path / "cache"), "NO_COLOR": "1"}
    command = [sys.executable, "-m", "ginscore", "stats", str(club), "--json"]
    expected = subprocess.run([*command, "--no-cache"], capture_output=True, text=True, env=environment)
    assert expected.returncode == 0 and expected.stderr == ""
    runs = [subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=environment) for _ in range(4)]
    for process in runs:
        stdout, stderr = process.communicate(timeout=60)
        assert (process.returncode, stdout, stderr) == (0, expected.stdout, "")


def test_a_file_nested_too_deeply_is_one_line_and_the_rest_still_count(run, tmp_path, cache):
    club = tmp_path / "club"
    files = write_club(club)
    deep = club / "deep.toml"
    deep.write_text("format = 1\nx = " + "[" * 3000 + "]" * 3000 + "\n", encoding="utf-8")
    result = run("stats", club, "--json")
    assert result.exit_code == 1
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"{deep}: ") and lines[0].endswith("(skipped)")
    data = json.loads(result.stdout)
    assert data["files"] == len(files) and data["skipped"] == [str(deep)]

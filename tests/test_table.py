"""The table: which files of a folder count, read once per version, and every reader stating the same figures."""

from __future__ import annotations

import html
import os
import re
import shutil
from pathlib import Path

import pytest
from conftest import json_object
from pages import PAD_TOKEN, SAMPLES, signed_in

from ginscore.files.file_names import name_problem
from ginscore.files.table import Table, match_odds
from ginscore.match.records import pair_key, person_key

STANDARD = (SAMPLES / "standard.toml").read_text(encoding="utf-8")
"""A finished match of Maria and Tom, which Tom won."""


def finished_copy(path: Path, created: str) -> Path:
    """The standard sample, started at another time: one more game Tom won."""
    path.write_text(STANDARD.replace("2026-11-30T23:10:54+00:00", created), encoding="utf-8")
    return path


@pytest.fixture
def table(tmp_path: Path, run) -> Path:
    """A folder with one match in play and, beside it, each kind of file the one rule decides about."""
    folder = tmp_path / "table"
    folder.mkdir()
    assert run("new", str(folder / "friday.toml"), "Maria", "Tom").exit_code == 0
    assert run("record", str(folder / "friday.toml"), "--knocker", "Tom", "--deadwood", "4", "--opponent-deadwood", "30").exit_code == 0
    shutil.copy(SAMPLES / "standard.toml", folder / "standard.toml")  # counts
    finished_copy(folder / ".hidden.toml", "2026-11-28T10:00:00+00:00")  # hidden: never counts
    outside = finished_copy(tmp_path / "elsewhere.toml", "2026-11-27T10:00:00+00:00")
    (folder / "out.toml").symlink_to(outside)  # a link out of the folder: followed, as the command line follows it
    (folder / "loop.toml").symlink_to(folder / "loop.toml")  # leads to no file: not listed
    (folder / "bad.toml").write_text("[match\nplayers = 1\n", encoding="utf-8")  # damaged: listed, counts in nothing
    finished_copy(folder / "CAFÉ.toml", "2026-11-26T10:00:00+00:00")  # counts
    finished_copy(folder / "cafe\u0301.toml", "2026-11-25T10:00:00+00:00")  # the same name on a phone: damaged
    return folder


def test_one_rule_decides_which_files_belong(table: Path):
    found = Table(str(table))
    assert found.names() == sorted(["CAFÉ.toml", "bad.toml", "cafe\u0301.toml", "friday.toml", "out.toml", "standard.toml"])
    damaged = {entry.name: entry.problem.problems[0] for entry in found.files() if entry.problem is not None}
    assert set(damaged) == {"bad.toml", "cafe\u0301.toml"}
    assert "'CAFÉ.toml'" in damaged["cafe\u0301.toml"] and "rename one" in damaged["cafe\u0301.toml"]
    assert [sheet.match.created[:10] for sheet in found.sheets()] == ["2026-11-26", "2026-11-27", "2026-11-30", found.sheets()[-1].match.created[:10]]


def test_every_reader_states_the_same_series_and_chance(table: Path, run):
    shown = json_object(run("show", str(table / "friday.toml"), "--json"))
    assert shown["series"]["wins"] == {"Maria": 0, "Tom": 3}  # standard, out and CAFÉ: not the hidden, the twin, the damaged
    odds = json_object(run("odds", str(table / "friday.toml"), "--json"))
    assert shown["odds"] == odds == match_odds(str(table / "friday.toml")).as_dict()
    with signed_in(table) as client:
        api = client.get("/api/matches/friday.toml", headers={"Authorization": f"Bearer {PAD_TOKEN}"}).json()
        page = html.unescape(client.get("/m/friday.toml").text)
        listing = html.unescape(client.get("/").text)
    assert api["series"] == shown["series"] and api["odds"] == shown["odds"]
    tom = odds["chance"]["Tom"]
    assert f"{round(tom * 100)}%" in page and odds["model"]["source"] in page
    assert "Maria 0 – Tom 3" in page and "Maria 0 – Tom 3" in listing


def test_a_file_is_read_once_for_each_version(table: Path, monkeypatch):
    from ginscore.files import reading

    reads: list[str] = []
    real = reading.match_file
    monkeypatch.setattr(reading, "match_file", lambda path, text: reads.append(os.path.basename(path)) or real(path, text))
    found = Table(str(table))
    first = found.sheets()
    assert sorted(reads) == sorted(["CAFÉ.toml", "bad.toml", "friday.toml", "out.toml", "standard.toml"])
    assert found.sheets() == first and len(reads) == 5  # nothing changed: nothing read
    finished_copy(table / "standard.toml", "2026-11-30T23:10:54+00:00")  # the same text, a new file in its place
    found.sheets()
    assert reads[5:] == ["standard.toml"]


@pytest.mark.parametrize("name", [".x.toml", "x.txt", ".toml", "a/b.toml", "a\u200fb.toml", "x" * 252 + ".toml"])
def test_names_a_match_file_cannot_have(name: str):
    assert name_problem(name) is not None


def test_one_person_in_any_case_or_form():
    assert person_key("José") == person_key("JOSE\u0301") == person_key(" josé ")
    assert pair_key(("Ann", "JOSÉ")) == pair_key(("jose\u0301", "ann"))
    assert re.fullmatch(r"[a-zé]+", person_key("JOSÉ"))


def test_the_next_game_started_in_the_same_second_counts_the_game_before(tmp_path: Path):
    created = "2026-11-30T23:10:54+00:00"
    shutil.copy(SAMPLES / "standard.toml", tmp_path / "maria-tom.toml")
    new = STANDARD[: STANDARD.index("[[hands]]")] if "[[hands]]" in STANDARD else STANDARD
    new = new.replace("[match]\n", '[match]\nid = "0d5f1c1e-5a4e-4b8e-9a55-6f3c2f1e9b70"\n')  # as new --next writes it
    (tmp_path / "maria-tom-2.toml").write_text(new, encoding="utf-8")  # started in that second, no hand yet; its name sorts first
    table = Table(str(tmp_path))
    fresh = next(sheet for sheet in table.sheets() if not sheet.match.hands)
    assert fresh.match.created == created
    assert table.series(fresh).wins == (0, 1)

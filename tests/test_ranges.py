"""Every value ginscore reads has a range, checked where it is read, the same for the command line, `serve` and
its API (the app's side is in test_app_records_browser.py): a time stamp that no time zone can show, a player's
name or a note longer than a page and the shared picture can hold."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from conftest import one_error_line
from pages import PAD_TOKEN, SAMPLE_FILES, signed_in

from ginscore.match.records import NAME_MOST, NOTE_MOST, STAMP_RANGE, check_stamp

FAR = "9999-12-31T23:59:59-23:59"
"""A time `datetime` reads, and cannot convert to UTC: the year would be 10000."""
LONG_NAME = "W" * 10_000
BEARER = {"authorization": f"Bearer {PAD_TOKEN}"}


def far_file(run, path: Path, where: str = "recorded") -> Path:
    """A match of two hands whose last hand (or the match, with `where="created"`) is stamped `FAR` by hand."""
    assert run("new", path, "Ann", "Bob").exit_code == 0
    for _ in range(2):
        assert run("record", path, "--knocker", "Ann", "--deadwood", "2", "--opponent-deadwood", "12").exit_code == 0
    text = path.read_text(encoding="utf-8")
    if where == "created":
        text = re.sub(r'^created = "[^"]*"', f'created = "{FAR}"', text, count=1, flags=re.M)
    else:
        head, _, last = text.rpartition("recorded = ")
        text = head + f'recorded = "{FAR}"' + last[last.index("\n"):]
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("stamp", [FAR, "0001-01-01T00:00:00+01:00", "9999-12-31T12:00:00", "0001-01-01"])
def test_a_time_no_zone_can_show_is_refused(stamp: str):
    with pytest.raises(ValueError, match=re.escape(f"between {STAMP_RANGE[0]} and {STAMP_RANGE[1]}")):
        check_stamp(stamp)


@pytest.mark.parametrize("stamp", ["", "2026-11-30T23:11:03+00:00", "9999-12-30T23:59:59-23:59", "0001-01-02T00:00:00+23:59",
                                   "t", "2024"])
def test_a_time_in_range_or_text_that_is_no_time_is_kept(stamp: str):
    assert check_stamp(stamp) == stamp


@pytest.mark.parametrize("where, place", [("recorded", "hands[2].recorded"), ("created", "created")])
def test_validate_refuses_a_time_out_of_range_naming_the_hand_and_field(run, tmp_path: Path, where: str, place: str):
    path = far_file(run, tmp_path / "far.toml", where)
    before = path.read_bytes()
    result = run("validate", path)
    assert result.exit_code == 1
    assert one_error_line(result).startswith(f"{path}: {place}: '{FAR}' is a time that cannot be shown in every time zone")
    shown = run("show", path)
    assert shown.exit_code == 1 and "Traceback" not in shown.stderr and place in shown.stderr
    assert path.read_bytes() == before


def test_serves_list_shows_the_other_matches_and_names_the_one_out_of_range(run, tmp_path: Path):
    for sample in SAMPLE_FILES:
        shutil.copy(sample, tmp_path / sample.name)
    far_file(run, tmp_path / "far.toml")
    with signed_in(tmp_path) as client:
        page = client.get("/")
        assert page.status_code == 200
        for sample in SAMPLE_FILES:
            assert f'href="/m/{sample.name}"' in page.text
        assert "far.toml" in page.text and "hands[2].recorded" in page.text
        listed = {line["name"]: line for line in client.get("/api/matches").json()}
        assert listed["far.toml"]["status"] == "broken" and listed["far.toml"]["reason"].startswith(f"hands[2].recorded: '{FAR}'")
        assert all(listed[sample.name]["reason"] is None for sample in SAMPLE_FILES)
        shown = client.get("/api/matches/far.toml")
        assert shown.status_code == 422 and "hands[2].recorded" in shown.json()["error"]
        assert client.get("/m/far.toml").status_code == 422


def test_a_name_longer_than_a_page_shows_is_refused_by_new_and_the_api(run, tmp_path: Path):
    result = run("new", tmp_path / "long.toml", LONG_NAME, "Bob")
    assert result.exit_code == 2
    line = one_error_line(result)
    assert f"it has 10,000 characters, and a name has at most {NAME_MOST}" in line and len(line) < 300
    assert not (tmp_path / "long.toml").exists()
    assert run("new", tmp_path / "fits.toml", "W" * NAME_MOST, "Bob").exit_code == 0
    with signed_in(tmp_path) as client:
        answer = client.post("/api/matches", headers=BEARER, json={"file": "long.toml", "players": [LONG_NAME, "Bob"]})
        assert answer.status_code == 400
        assert answer.json()["field"] == "players" and f"a name has at most {NAME_MOST}" in answer.json()["error"]
        page = client.get("/").text
        csrf = re.search(r'name="csrf" value="([^"]+)"', page)
        assert csrf
        form = client.post("/new", data={"csrf": csrf.group(1), "player1": LONG_NAME, "player2": "Bob", "rules": "standard",
                                          "file": "long.toml"}, follow_redirects=False)
        assert form.status_code == 400 and f"a name has at most {NAME_MOST}" in form.text
    assert not (tmp_path / "long.toml").exists()


def test_a_note_longer_than_the_limit_is_refused_every_way_in(run, tmp_path: Path):
    path = tmp_path / "m.toml"
    assert run("new", path, "Ann", "Bob").exit_code == 0
    before = path.read_bytes()
    refused = run("record", path, "--knocker", "Ann", "--deadwood", "2", "--opponent-deadwood", "12", "--note", "n" * (NOTE_MOST + 1))
    assert refused.exit_code == 2 and f"a note has at most {NOTE_MOST} characters" in one_error_line(refused)
    assert path.read_bytes() == before
    with signed_in(tmp_path) as client:
        answer = client.post("/api/matches/m.toml/hands", headers=BEARER, json={"knocker": "Ann", "deadwood": 2, "opponent_deadwood": 12,
                                                                "note": "n" * (NOTE_MOST + 1)})
        assert answer.status_code == 400 and answer.json()["field"] == "note"
    assert path.read_bytes() == before
    path.write_text(before.decode().replace("[match]\n", f'[match]\nnote = "{"n" * (NOTE_MOST + 1)}"\n'), encoding="utf-8")
    assert "match.note: a note has at most" in one_error_line(run("validate", path))


@pytest.mark.parametrize("name", ["con.toml", "COM1.toml", "nul.tar.toml", "a:b.toml", "what?.toml", "aux .toml"])
def test_the_app_refuses_a_name_new_refuses_in_news_own_words(run, tmp_path: Path, name: str):
    from ginscore.pocket.held import PocketFolder

    refused = run("new", tmp_path / name, "Ann", "Bob")
    assert refused.exit_code == 2
    words = one_error_line(refused).removeprefix("error: ")
    kept = tmp_path / "app"
    kept.mkdir()
    assert PocketFolder(str(kept)).refusal(name) == words.replace(str(tmp_path / name), name)
    with signed_in(tmp_path) as client:
        answer = client.post("/api/matches", headers=BEARER, json={"file": name, "players": ["Ann", "Bob"]})
        assert answer.status_code == 400 and answer.json()["field"] == "file"
    assert not (tmp_path / name).exists()

"""One match counted once, and said (issue 54): a `cp` copy, a link and a "keep both" copy of a match count once in
every figure, and each is listed with the command that settles it; the match page's download gives the file itself."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import RunCli, json_object
from pages import PAD_TOKEN, signed_in
from starlette.testclient import TestClient

from ginscore.files.copies import copies_among
from ginscore.files.served import Folder
from ginscore.files.table import Table

GIN = ["--knocker", "Ann", "--deadwood", "0", "--opponent-deadwood", "95"]  # 25 + 95: the game in one hand
BOB_GIN = ["--knocker", "Bob", "--deadwood", "0", "--opponent-deadwood", "95"]
KNOCK = ["--knocker", "Bob", "--deadwood", "3", "--opponent-deadwood", "20"]
COPIES = {"b-copy.toml": "a.toml", "c-link.toml": "a.toml", "d-both.toml": "a.toml", "q-copy.toml": "p.toml"}


def clean_folder(run: RunCli, folder: Path) -> Path:
    """Two matches of Ann and Bob: a.toml finished by one gin, p.toml in play."""
    folder.mkdir()
    a, p = folder / "a.toml", folder / "p.toml"
    for path in (a, p):
        assert run("new", path, "Ann", "Bob").exit_code == 0
    shutil.copy(a, folder / "d-both.toml")  # before a's hand: its own first hand will differ
    assert run("record", a, *GIN).exit_code == 0
    assert run("record", p, *KNOCK).exit_code == 0
    return folder


@pytest.fixture
def folders(run: RunCli, tmp_path: Path) -> tuple[Path, Path]:
    """The same two matches twice: alone, and beside a cp copy, a link and a "keep both" copy of a.toml, and a
    shorter copy of p.toml."""
    folder = clean_folder(run, tmp_path / "with-copies")
    alone = tmp_path / "alone"
    alone.mkdir()
    for name in ("a.toml", "p.toml"):
        shutil.copy(folder / name, alone / name)
    shutil.copy(folder / "a.toml", folder / "b-copy.toml")
    (folder / "c-link.toml").symlink_to("a.toml")
    assert run("record", folder / "d-both.toml", *BOB_GIN).exit_code == 0  # one id, another first hand: keep both
    q = folder / "q-copy.toml"
    q.write_bytes((folder / "p.toml").read_bytes())
    assert run("record", folder / "p.toml", *KNOCK).exit_code == 0
    assert run("record", alone / "p.toml", *KNOCK).exit_code == 0
    assert (alone / "p.toml").read_bytes().count(b"[[hands]]") == 2 == (folder / "p.toml").read_bytes().count(b"[[hands]]")
    return alone, folder


def settle(copy: str, counted: str, folder: Path | None = None) -> str:
    at = (lambda name: str(folder / name)) if folder else (lambda name: name)
    return f"ginscore merge {at(counted)} {at(copy)}"


def test_the_table_counts_each_match_once(folders: tuple[Path, Path]) -> None:
    alone, folder = folders
    table = Table(str(folder))
    assert table.copies() == COPIES
    assert [name for name, _ in table.named_sheets()] == ["a.toml", "p.toml"]
    assert Table(str(alone)).copies() == {}


def test_the_first_by_name_counts_when_neither_holds_the_other() -> None:
    from ginscore.game.rulebook import PRESETS
    from ginscore.match.records import HandRecord, Match

    match = Match(("Ann", "Bob"), PRESETS["standard"], "Ann", created="2026-12-01T20:00:00+00:00", id="aaaaaaaa-1")
    one = match.with_hands((HandRecord(knocker="Ann", deadwood=1, opponent_deadwood=9),))
    two = match.with_hands((HandRecord(knocker="Bob", deadwood=1, opponent_deadwood=9),))
    longer = one.with_hands((*one.hands, *two.hands))
    assert copies_among([("y.toml", None, two), ("x.toml", None, one)]) == {"y.toml": "x.toml"}
    assert copies_among([("x.toml", None, one), ("z.toml", None, longer)]) == {"x.toml": "z.toml"}  # z has x's hands
    other = Match(("Ann", "Bob"), PRESETS["standard"], "Ann", created=match.created, id="bbbbbbbb-2")
    assert copies_among([("x.toml", None, one), ("w.toml", None, other)]) == {}  # one second, two ids: two matches
    assert copies_among([("x.toml", "inode", one), ("w.toml", "inode", other)]) == {"x.toml": "w.toml"}  # one file


def test_standings_stats_and_validate_count_once_and_list_the_copies(run: RunCli, folders: tuple[Path, Path]) -> None:
    alone, folder = folders
    said = [f"{folder / copy}: a copy of {folder / counted}'s match, counted once; `{settle(copy, counted, folder)}` makes them "
            f"one, then remove {folder / copy}" for copy, counted in sorted(COPIES.items())]
    listed = [{"file": str(folder / copy), "copy_of": str(folder / counted), "settle": settle(copy, counted, folder)}
              for copy, counted in sorted(COPIES.items())]
    standings = run("standings", folder, "--json", "--no-cache")
    assert standings.exit_code == 0
    assert standings.stderr.splitlines() == said
    got, expected = json.loads(standings.stdout), json_object(run("standings", alone, "--json", "--no-cache"))
    assert got.pop("copies") == listed and expected.pop("copies") == []
    assert got == expected and got["games"] == 1

    stats = run("stats", folder, "--json", "--no-cache")
    assert stats.exit_code == 0
    assert stats.stderr.splitlines() == said  # one rule for which files count: a link is a copy here too
    got, expected = json.loads(stats.stdout), json_object(run("stats", alone, "--json", "--no-cache"))
    assert got.pop("copies") == listed
    assert expected.pop("copies") == []
    assert got == expected and got["files"] == 2 and got["pairs"][0]["games"] == 1

    validated = run("validate", folder)
    assert validated.exit_code == 0
    assert validated.stdout.count(": ok (") == 6
    assert validated.stderr.splitlines() == standings.stderr.splitlines()


def test_show_json_counts_each_game_once_in_the_series_and_the_chance(run: RunCli, folders: tuple[Path, Path]) -> None:
    alone, folder = folders
    got = json_object(run("show", folder / "p.toml", "--json"))
    expected = json_object(run("show", alone / "p.toml", "--json"))
    assert got["series"] == expected["series"] and got["odds"] == expected["odds"]
    assert got["series"]["games"] == 1
    copy_of = json_object(run("show", folder / "b-copy.toml", "--json"))["series"]  # a copy shown sees the game once too
    assert copy_of == json_object(run("show", alone / "a.toml", "--json"))["series"]


@pytest.fixture
def client(folders: tuple[Path, Path]) -> Iterator[TestClient]:
    with signed_in(folders[1]) as client:
        yield client


def test_the_api_and_the_list_page_count_once_and_list_the_copies(folders: tuple[Path, Path], client: TestClient) -> None:
    alone, folder = folders
    auth = {"Authorization": f"Bearer {PAD_TOKEN}"}
    got = client.get("/api/matches/p.toml", headers=auth).json()
    expected = Folder(str(alone)).show("p.toml")
    assert got["series"] == json.loads(json.dumps(expected["series"])) and got["series"]["games"] == 1
    assert got["odds"] == json.loads(json.dumps(expected["odds"]))
    page = client.get("/").text
    for copy, counted in COPIES.items():
        assert (f"A copy of <a href=\"/m/{counted}\">{counted}</a>'s match, counted once: <code>ginscore merge {counted} {copy}"
                "</code> makes them one.") in page
    assert page.count("A copy of") == len(COPIES)


def test_the_match_page_offers_the_match_file_byte_for_byte(folders: tuple[Path, Path], client: TestClient) -> None:
    folder = folders[1]
    page = client.get("/m/d-both.toml").text
    assert 'href="/m/d-both.toml/export/toml" download>The match file (.toml)</a>' in page
    response = client.get("/m/d-both.toml/export/toml")
    assert response.status_code == 200
    assert response.content == (folder / "d-both.toml").read_bytes()
    assert response.headers["content-type"] == "application/toml"
    assert response.headers["content-disposition"] == 'attachment; filename="d-both.toml"'
    crlf = folder / "crlf.toml"
    crlf.write_bytes((folder / "a.toml").read_bytes().replace(b"\n", b"\r\n"))
    assert client.get("/m/crlf.toml/export/toml").content == crlf.read_bytes()
    assert client.get("/m/nothing.toml/export/toml").status_code == 404

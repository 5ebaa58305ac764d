"""Merging from the pages (serve's, and so the app's): a copy posted whole is merged by the rule, a conflict is
shown side by side with keep mine / take theirs / keep both, and the folder downloads as one zip."""

from __future__ import annotations

import base64
import html
import io
import re
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import RunCli
from starlette.testclient import TestClient
from test_merge import copy, played_on, started
from test_web_pages import BASE, TOKEN, csrf

from ginscore.web.asgi import create_app


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    made = tmp_path / "f"
    made.mkdir()
    return made


@pytest.fixture
def client(folder: Path) -> Iterator[TestClient]:
    with TestClient(create_app(str(folder), TOKEN, ["127.0.0.1:8000"]), base_url=BASE) as client:
        assert client.get(f"/?token={TOKEN}").status_code == 200
        yield client


def post_copy(client: TestClient, text: str, name: str = "", **fields: str):
    token = csrf(client.get("/").text)
    return client.post("/merge", data={"csrf": token, "text": text, "name": name, **fields}, follow_redirects=False)


def test_a_longer_copy_adds_its_hands_and_the_page_says_so(run: RunCli, client: TestClient, folder: Path, tmp_path: Path) -> None:
    mine = started(run, folder / "m.toml", "A")
    theirs = copy(mine, tmp_path / "t.toml", "BC", run)
    answer = post_copy(client, theirs.read_text(encoding="utf-8"), "t.toml")
    assert answer.status_code == 303 and answer.headers["location"] == "/m/m.toml?merged=added&added=2"
    assert mine.read_bytes() == theirs.read_bytes()
    page = client.get(answer.headers["location"]).text
    assert "The copy added 2 hands after this match&#39;s own." in page


def test_a_new_match_is_kept_under_its_name(run: RunCli, client: TestClient, folder: Path, tmp_path: Path) -> None:
    theirs = started(run, tmp_path / "friday.toml", "A")
    answer = post_copy(client, theirs.read_text(encoding="utf-8"), "friday.toml")
    assert answer.headers["location"] == "/m/friday.toml?merged=new&added=0"
    assert (folder / "friday.toml").read_bytes() == theirs.read_bytes()


def test_a_conflict_is_shown_side_by_side_and_each_choice_works(run: RunCli, client: TestClient, folder: Path,
                                                                 tmp_path: Path) -> None:
    mine = started(run, folder / "m.toml", "AB")
    theirs = copy(mine, tmp_path / "t.toml", "C", run)
    played_on(run, mine, "A")
    before = mine.read_bytes()
    text = theirs.read_text(encoding="utf-8")
    page = post_copy(client, text, "t.toml")
    assert page.status_code == 200 and "Two copies of this match differ" in page.text
    cells = [html.unescape(cell) for cell in re.findall(r"<td>(.+?)</td>", page.text)]
    assert cells[0].startswith("knock: Ann scores 15 · 5 / 20") and cells[1].startswith("gin: Ann scores 32 · 0 / 12")
    assert mine.read_bytes() == before
    assert re.findall(r'name="choice" value="(\w+)"', page.text) == ["mine", "theirs", "both"]
    assert re.findall(r'<form method="post" action="([^"]*)"', page.text) == ["/merge"] * 3
    copies = re.findall(r'name="copy" value="([^"]*)"', page.text)
    assert len(copies) == 3 and {base64.b64decode(copy) for copy in copies} == {theirs.read_bytes()}
    assert "text" not in re.findall(r'name="(\w+)"', page.text)
    kept = post_copy(client, text, "t.toml", choice="mine", expected_hands="3")
    assert kept.headers["location"] == "/m/m.toml?merged=kept&added=0" and mine.read_bytes() == before
    both = post_copy(client, text, "t.toml", choice="both", expected_hands="3")
    assert both.headers["location"] == "/m/ann-bob.toml?merged=both&added=0"
    assert (folder / "ann-bob.toml").read_bytes() == theirs.read_bytes() and mine.read_bytes() == before
    (folder / "ann-bob.toml").unlink()
    late = post_copy(client, text, "t.toml", choice="theirs", expected_hands="2")
    assert late.status_code == 409 and "someone changed it while the choice waited" in late.text
    taken = post_copy(client, text, "t.toml", choice="theirs", expected_hands="3")
    assert taken.headers["location"] == "/m/m.toml?merged=replaced&added=0"
    assert mine.read_bytes() == theirs.read_bytes()


def test_a_choice_posts_the_copy_back_byte_for_byte_whatever_its_line_endings(run: RunCli, client: TestClient, folder: Path,
                                                                              tmp_path: Path) -> None:
    mine = started(run, folder / "m.toml", "AB")
    theirs = copy(mine, tmp_path / "t.toml", "C", run)
    played_on(run, mine, "A")
    crlf = "\ufeff" + theirs.read_text(encoding="utf-8").replace("\n", "\r\n")
    page = post_copy(client, crlf, "t.toml").text
    packed_copy = re.findall(r'name="copy" value="([^"]*)"', page)[0]
    token = csrf(client.get("/").text)
    both = client.post("/merge", data={"csrf": token, "copy": packed_copy, "name": "t.toml", "choice": "both",
                                       "expected_hands": "3"}, follow_redirects=False)
    assert both.status_code == 303
    assert (folder / "ann-bob.toml").read_bytes() == crlf.encode("utf-8")
    damaged = client.post("/merge", data={"csrf": token, "copy": "not base64!", "choice": "both"})
    assert damaged.status_code == 400 and "damaged on the way" in damaged.text


def test_a_copy_that_is_not_a_match_file_is_refused_in_words(client: TestClient, folder: Path) -> None:
    answer = post_copy(client, "[match]\nplayers = 1\n", "x.toml")
    assert answer.status_code == 422 and "This copy cannot be merged" in answer.text
    assert list(folder.iterdir()) == []


def test_the_backup_is_every_file_byte_for_byte(run: RunCli, client: TestClient, folder: Path) -> None:
    started(run, folder / "a.toml", "AB")
    started(run, folder / "b.toml", "")
    answer = client.get("/backup.zip")
    assert answer.status_code == 200 and answer.headers["content-type"] == "application/zip"
    assert re.fullmatch(r'attachment; filename="ginscore-backup-\d{4}-\d\d-\d\d\.zip"', answer.headers["content-disposition"])
    with zipfile.ZipFile(io.BytesIO(answer.content)) as archive:
        assert {name: archive.read(name) for name in archive.namelist()} == {
            name: (folder / name).read_bytes() for name in ("a.toml", "b.toml")}


def test_the_api_merges_by_the_same_rule(run: RunCli, client: TestClient, folder: Path, tmp_path: Path) -> None:
    mine = started(run, folder / "m.toml", "AB")
    theirs = copy(mine, tmp_path / "t.toml", "C", run)
    played_on(run, mine, "A")
    before = mine.read_bytes()
    headers = {"authorization": f"Bearer {TOKEN}"}
    answer = client.post("/api/merge", json={"text": theirs.read_text(encoding="utf-8"), "name": "t.toml"}, headers=headers)
    assert answer.status_code == 200
    assert answer.json() == {"outcome": "conflict", "name": "m.toml", "added": 0, "differing": [3], "hands": 3}
    assert mine.read_bytes() == before
    both = client.post("/api/merge", json={"text": theirs.read_text(encoding="utf-8"), "choice": "both", "expected_hands": 3},
                       headers=headers)
    assert both.json() == {"outcome": "both", "name": "ann-bob.toml", "added": 0, "differing": [], "hands": 0}
    refused = client.post("/api/merge", json={"text": ""}, headers=headers)
    assert (refused.status_code, refused.json()["field"]) == (400, "text")

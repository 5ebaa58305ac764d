"""The phone's figures pages (`/stats`, a pair's, a player's) against `ginscore stats --json` on the same folder:
the same numbers, as the terminal's table words them."""

from __future__ import annotations

import html
import json
import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from pages import samples_and_a_broken_file, signed_in
from starlette.testclient import TestClient
from typer.testing import CliRunner

from ginscore.cli import app as cli
from ginscore.files.served import Folder
from ginscore.match.stats import STAT_ROWS, PlayerStats, stat_text


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    return samples_and_a_broken_file(tmp_path)


@pytest.fixture
def client(folder: Path) -> Iterator[TestClient]:
    with signed_in(folder) as client:
        yield client


def stats_json(folder: Path) -> dict:
    result = CliRunner().invoke(cli, ["stats", str(folder), "--json", "--no-cache"])
    assert result.exit_code == 1  # broken.toml is skipped, and said so
    return json.loads(result.stdout)


def table(page: str) -> dict[str, list[str]]:
    rows = re.findall(r'<tr><th scope="row">(.*?)</th>(.*?)</tr>', page)
    return {html.unescape(label): [html.unescape(v) for v in re.findall(r'<td class="num">(.*?)</td>', cells)] for label, cells in rows}


def test_every_pair_and_player_is_listed_with_links(client: TestClient, folder: Path):
    page = client.get("/stats").text
    for pair in stats_json(folder)["pairs"]:
        a, b = pair["players"]
        assert f">{a} vs {b}</a>" in page
        assert f'href="/stats/player?name={a}"' in page and f'href="/stats/player?name={b}"' in page


def test_a_pairs_page_shows_the_numbers_of_stats_json(client: TestClient, folder: Path):
    for pair in stats_json(folder)["pairs"]:
        a, b = pair["players"]
        response = client.get("/stats/pair", params={"a": b.upper(), "b": a})  # either order, any case
        assert response.status_code == 200
        expected = {label: [stat_text(key, pair["by_player"][name][key]) for name in (a, b)] for label, key in STAT_ROWS}
        assert table(response.text) == expected


def test_a_players_page_sums_their_pairs(client: TestClient, folder: Path):
    pairs = stats_json(folder)["pairs"]
    name = pairs[0]["players"][0]
    theirs = [pair for pair in pairs if name in pair["players"]]
    response = client.get("/stats/player", params={"name": name})
    assert response.status_code == 200
    shown = table(response.text)
    games_won = sum(pair["by_player"][name]["games_won"] for pair in theirs)
    hands = sum(pair["hands"] for pair in theirs)
    assert shown["games won"] == [str(games_won)]
    assert f"{hands} hand" in response.text
    if len(theirs) == 1:  # one opponent: every figure is that pair's
        assert shown == {label: [stat_text(key, theirs[0]["by_player"][name][key])] for label, key in STAT_ROWS}
    assert set(PlayerStats().as_dict(0)) == {key for _, key in STAT_ROWS}


def test_strangers_get_a_page_saying_so(client: TestClient):
    for path, params in (("/stats/pair", {"a": "Nobody", "b": "Else"}), ("/stats/player", {"name": "<b>Nobody</b>"})):
        response = client.get(path, params=params)
        assert response.status_code == 404
        assert "has no match in this folder" in response.text or "have no match in this folder" in response.text
        assert "<b>Nobody</b>" not in response.text


def test_stats_and_the_page_count_the_same_files_of_a_folder(folder: Path, tmp_path: Path):
    """A hidden file and a file in a folder below are no match of this table for the pages; `stats` leaves them
    out too (it once walked into folders below and read hidden files)."""
    made = tmp_path / "elsewhere" / "made.toml"
    made.parent.mkdir()
    for args in (["new", str(made), "Hidda", "Belowe"], ["record", str(made), "--knocker", "Hidda", "--deadwood", "0", "--opponent-deadwood", "95"]):
        assert CliRunner().invoke(cli, args).exit_code == 0
    shutil.copy(made, folder / ".hidden.toml")
    (folder / "older").mkdir()
    shutil.copy(made, folder / "older" / "last-year.toml")
    said = stats_json(folder)
    names = {name for pair in said["pairs"] for name in pair["players"]}
    assert names and not names & {"Hidda", "Belowe"}
    assert said["files"] == len([path for path in folder.glob("*.toml") if not path.name.startswith(".")]) - 1  # not broken.toml
    assert [Path(path).name for path in said["skipped"]] == ["broken.toml"]
    with signed_in(folder) as client:
        page = client.get("/stats").text
    assert "Hidda" not in page and "Belowe" not in page
    assert [f">{a} vs {b}</a>" in page for a, b in (pair["players"] for pair in said["pairs"])] == [True] * len(said["pairs"])
    assert page.count(" vs ") == len(said["pairs"])
    counted = [pair.as_dict() for pair in Folder(str(folder)).table.pairs()]  # what /stats renders
    assert counted == [{key: value for key, value in pair.items() if key != "odds"} for pair in said["pairs"]]

"""The series on the pad and in `show`: a folder of matches made with `ginscore new` and `record`, and the
series each front end states, after each game."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from pages import signed_in
from starlette.testclient import TestClient
from typer.testing import CliRunner

from ginscore.cli import app as cli


def run(*args: str) -> str:
    result = CliRunner().invoke(cli, list(args))
    assert result.exit_code == 0, result.stderr
    return result.stdout


def play_game(path: Path, winner: str, *, first: str = "Ann", second: str = "Bob") -> None:
    """A game of one hand: `winner` gins against 90 (standard: 110, a shutout, 330 - 0)."""
    run("new", str(path), first, second)
    run("record", str(path), "--knocker", winner, "--deadwood", "0", "--opponent-deadwood", "90")


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    return tmp_path


@pytest.fixture
def client(folder: Path) -> Iterator[TestClient]:
    with signed_in(folder) as client:
        yield client


def test_three_games_in_a_row_and_the_series_after_each(folder: Path, client: TestClient):
    expected = [("Ann", "Series: Ann 1 – Bob 0"), ("Bob", "Series: Ann 1 – Bob 1"), ("Bob", "Series: Ann 1 – Bob 2")]
    for number, (winner, series) in enumerate(expected, start=1):
        path = folder / f"game{number}.toml"
        play_game(path, winner)
        page = client.get(f"/m/{path.name}").text
        assert "After this game: " in page and f">{series}</a>" in page
        shown = json.loads(run("show", str(path), "--json"))["series"]
        assert shown["wins"] == {"Ann": [1, 1, 1][number - 1], "Bob": [0, 1, 2][number - 1]}
        assert shown["last"]["winner"] == winner
        assert client.get(f"/api/matches/{path.name}").json()["series"] == shown
        assert series in run("show", str(path))
    assert json.loads(run("show", str(folder / "game3.toml"), "--json"))["series"]["streak"] == {"player": "Bob", "games": 2}
    first = client.get("/m/game1.toml").text  # the first game still says the series as it stood after it
    assert ">Series: Ann 1 – Bob 0</a>" in first and "Bob 2" not in first
    assert json.loads(run("show", str(folder / "game1.toml"), "--json"))["series"]["wins"] == {"Ann": 1, "Bob": 0}
    listing = client.get("/").text
    pair = '<a href="/stats/pair?a=Ann&amp;b=Bob">'
    assert f'<h2 class="pair-heading">{pair}Ann vs Bob</a> <span class="pair-series">Series: Ann 1 – Bob 2</span></h2>' in listing


def test_a_finished_match_in_the_list_shows_the_winner_and_the_final_with_its_bonuses(folder: Path, client: TestClient):
    play_game(folder / "done.toml", "Bob")
    run("new", str(folder / "open.toml"), "Ann", "Bob")
    run("record", str(folder / "open.toml"), "--knocker", "Ann", "--deadwood", "5", "--opponent-deadwood", "25")
    listing = client.get("/").text
    assert '<span class="score">Bob won 330 – 0</span>' in listing
    assert '<span class="score">Ann <b>20</b>, Bob <b>0</b></span>' in listing
    entry = next(line for line in client.get("/api/matches").json() if line["name"] == "done.toml")
    assert entry["final"] == {"Ann": 0, "Bob": 330} and entry["winner"] == "Bob"


def test_no_series_is_said_before_a_game_between_them_is_over(folder: Path, client: TestClient):
    run("new", str(folder / "first.toml"), "Ann", "Bob")
    page = client.get("/m/first.toml").text
    assert "Series:" not in page
    assert '<a href="/stats/pair?a=Ann&amp;b=Bob">Ann and Bob: their figures</a>' in page  # the pair's page, still a tap away
    assert "Series:" not in run("show", str(folder / "first.toml"))
    play_game(folder / "other.toml", "Cy", first="Cy", second="Dee")
    assert "Series:" not in client.get("/m/first.toml").text

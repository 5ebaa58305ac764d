"""The phone's standings (`/standings`), a player's rating chart and a pair's odds, against `ginscore standings
--json` and `ginscore stats --json` on the same folder; `GET /api/standings`."""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from pages import signed_in
from starlette.testclient import TestClient
from test_standings import DAYS, one_game, write_days
from typer.testing import CliRunner

from ginscore.cli import app as cli
from ginscore.files.storage import save


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    write_days(tmp_path)
    return tmp_path


@pytest.fixture
def client(folder: Path) -> Iterator[TestClient]:
    with signed_in(folder) as client:
        yield client


def cli_json(*args: str) -> dict:
    result = CliRunner().invoke(cli, [*args, "--json", "--no-cache"])
    assert (result.exit_code, result.stderr) == (0, "")
    return json.loads(result.stdout)


def standings_rows(page: str) -> list[tuple[str, str, str]]:
    """Each listed player's name, rating words and figures line, in order."""
    found = re.findall(r'<li class="standing">.*?<a class="players"[^>]*>(.*?)</a>\s*<b class="rating">(.*?)</b>.*?<span class="status">(.*?)</span></li>', page, re.S)
    return [(html.unescape(a), html.unescape(b), html.unescape(c)) for a, b, c in found]


def test_the_standings_page_is_standings_json(client: TestClient, folder: Path):
    data = cli_json("standings", str(folder))
    page = client.get("/standings")
    assert page.status_code == 200
    rows = standings_rows(page.text)
    assert [name for name, _, _ in rows] == [player["player"] for player in data["players"]]
    for (_, rating, status), player in zip(rows, data["players"]):
        mark = "?" if player["provisional"] else ""
        assert re.fullmatch(rf"{round(player['rating'])}{re.escape(mark)} ± {round(2 * player['rd'])}", rating), (rating, player)
        assert status.startswith(f"{player['games']} games, {player['won']} won ({round(100 * player['win_share'])}%)")
        assert status.endswith(f"last played {player['last_played']}")
    assert page.text.count(">provisional</small>") == sum(player["provisional"] for player in data["players"])
    called = round(100 * data["prediction"]["called"])
    assert f"The ratings called {called}% of {data['prediction']['games']} games right" in html.unescape(page.text)
    assert "a coin flip calls 50%" in page.text


def test_the_header_links_the_standings(client: TestClient):
    assert '<a href="/standings">Standings</a>' in client.get("/").text


def test_a_season_is_chosen_by_tapping(client: TestClient, folder: Path):
    today = datetime.now(UTC).date()
    save(str(folder / "today.toml"), one_game("Eve", "Ann", today.isoformat()))
    last_year = today.replace(year=today.year - 1, day=1)
    save(str(folder / "last-year.toml"), one_game("Finn", "Eve", last_year.isoformat()))
    page = client.get("/standings").text
    assert '<a href="/standings?season=all" aria-current="page">All</a>' in page
    month = client.get("/standings?season=month").text
    assert '<a href="/standings?season=month" aria-current="page">This month</a>' in month
    expected = cli_json("standings", str(folder), "--since", today.replace(day=1).isoformat())
    assert [name for name, _, _ in standings_rows(month)] == [player["player"] for player in expected["players"]]
    assert {name for name, _, _ in standings_rows(month)} >= {"Eve", "Ann"}
    year = client.get("/standings?season=year").text
    assert "Finn" not in [name for name, _, _ in standings_rows(year)]
    assert "Finn" in [name for name, _, _ in standings_rows(page)]
    assert client.get("/standings?season=nonsense").text.count('aria-current="page">All<') == 1


def test_an_empty_season_says_so(client: TestClient, folder: Path):
    page = client.get("/standings?season=month").text
    if any(day >= datetime.now(UTC).date().replace(day=1).isoformat() for day, _ in DAYS):
        pytest.skip("the folder's days fall in this month")
    assert "No finished games in this season" in page


def test_a_players_page_draws_their_rating_over_time(client: TestClient, folder: Path):
    data = cli_json("standings", str(folder))
    for player in data["players"]:
        page = client.get("/stats/player", params={"name": player["player"].upper()}).text
        titles = re.findall(r"<circle [^>]*><title>(.*?)</title></circle>", page)
        assert titles == [f"{point['day']}: {round(point['rating'])} ± {round(2 * point['rd'])}" for point in player["history"]]
        assert f"{player['player']}'s rating after each day played" in html.unescape(page)


def test_a_pairs_page_shows_the_odds_of_stats_json(client: TestClient, folder: Path):
    data = cli_json("stats", str(folder))
    for pair in data["pairs"]:
        a, b = pair["odds"]["players"]
        page = html.unescape(client.get("/stats/pair", params={"a": a, "b": b}).text)
        record = pair["odds"]["head_to_head"]
        games = record["wins"] + record["losses"]
        low, high = (round(100 * x) for x in record["interval"])
        assert f"{a} won {record['wins']} of {games} game{'' if games == 1 else 's'} against {b} ({round(100 * record['share'])}%; 95% sure it is between {low}% and {high}%)." in page
        assert f"By the ratings, {a} wins {round(100 * pair['odds']['expected'][a])}% of their games against {b}." in page


def test_two_players_who_never_met_get_their_odds(client: TestClient, folder: Path):
    data = cli_json("stats", str(folder))
    never = {tuple(odds["players"]): odds for odds in data["never_met"]}
    assert ("Bob", "Dee") in never or ("Dee", "Bob") in never
    odds = never.get(("Bob", "Dee")) or never[("Dee", "Bob")]
    a, b = odds["players"]
    response = client.get("/stats/pair", params={"a": a, "b": b})
    assert response.status_code == 200
    page = html.unescape(response.text)
    assert f"{a} and {b} have not played each other yet." in page
    assert f"By the ratings, {a} wins {round(100 * odds['expected'][a])}% of their games against {b}." in page
    assert '<table class="stats-table">' not in page
    assert client.get("/stats/pair", params={"a": "Ann", "b": "Nobody"}).status_code == 404


def test_the_standings_page_offers_any_two_players(client: TestClient):
    page = client.get("/standings").text
    form = re.search(r'<form method="get" action="/stats/pair".*?</form>', page, re.S)
    assert form is not None
    assert re.findall(r"<option[^>]*>(.*?)</option>", form.group()) == ["Ann", "Bob", "Cy", "Dee"] * 2


def test_the_api_answers_the_standings(client: TestClient, folder: Path):
    answer = client.get("/api/standings")
    assert answer.status_code == 200
    data = cli_json("standings", str(folder))
    assert answer.json() == {key: value for key, value in data.items() if key != "skipped"}
    window = client.get("/api/standings", params={"since": "2026-03-04", "until": "2026-03-05"}).json()
    assert window == {key: value for key, value in cli_json("standings", str(folder), "--since", "2026-03-04", "--until", "2026-03-05").items() if key != "skipped"}
    refused = client.get("/api/standings", params={"since": "2026-13-01"})
    assert refused.status_code == 400
    assert refused.json()["field"] == "since" and "YYYY-MM-DD" in refused.json()["error"]


def test_a_game_today_moves_the_page(client: TestClient, folder: Path):
    before = standings_rows(client.get("/standings").text)
    yesterday = (datetime.now(UTC) - timedelta(days=1)).date().isoformat()
    save(str(folder / "new.toml"), one_game("Dee", "Ann", yesterday))
    after = standings_rows(client.get("/standings").text)
    assert before != after

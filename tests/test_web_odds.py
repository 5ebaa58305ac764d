"""The chance to win the game on the pad's scoreboard and in the API's `show`, as `odds` gives it."""

from __future__ import annotations

import re

from test_web_pages import TOKEN, client, folder, new_match, record  # noqa: F401 (fixtures)

from ginscore.files.odds_model import match_odds
from ginscore.sheets.odds_words import percent


def test_the_scoreboard_gives_the_likelier_player_s_chance_with_the_model_one_tap_away(client, folder):  # noqa: F811
    new_match(client)
    assert record(client, "x.toml", how="counts", knocker="Bob", deadwood="3", opponent_deadwood="20").status_code == 303
    page = client.get("/m/x.toml").text
    expected = match_odds(str(folder / "x.toml"))
    bob = expected.now.chance["Bob"]
    assert bob > 0.5
    found = re.search(r'<details class="board-odds"><summary>([^<]*)</summary><p>From ([^:<]*):', page)
    assert found, page
    assert found.group(1) == f"Bob {percent(bob)} to win this game"
    assert found.group(2) == expected.model.source
    assert page.index('<section class="board"') < page.index('class="board-odds"') < page.index('<table class="hands')
    assert found.group(0) in client.get("/m/x.toml/sheet").text  # the live sheet swaps in the same board


def test_a_finished_match_shows_no_chance(client, folder):  # noqa: F811
    assert 'class="board-odds"' not in client.get("/m/standard.toml").text


def test_the_api_s_show_carries_the_odds_as_odds_json_gives_them(client, folder):  # noqa: F811
    new_match(client)
    assert record(client, "x.toml", how="counts", knocker="Ann", deadwood="2", opponent_deadwood="30").status_code == 303
    data = client.get("/api/matches/x.toml", headers={"Authorization": f"Bearer {TOKEN}"}).json()
    expected = match_odds(str(folder / "x.toml")).as_dict()
    assert data["odds"] == expected
    assert data["odds"]["chance"]["Ann"] + data["odds"]["chance"]["Bob"] == 1.0

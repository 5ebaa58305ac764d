"""What the phone's first screens offer and say, without a browser (Starlette's TestClient): Big gin only under
rules that pay it, the chosen season marked (and drawn so), a new scoreboard's "level at 0", and an illegal knock's
reason under the preview's heading, tied to Save and to the field it names. The layout itself is
tests/test_first_screen_browser.py's."""

from __future__ import annotations

import re

import pytest
import test_web_pages
from test_pad_gin import post, save_button
from test_web_pages import new_match

from ginscore.web.standings_pages import SEASONS

folder = test_web_pages.folder  # the fixtures: the sample folder, and a client signed in to it
client = test_web_pages.client

STYLE = test_web_pages.STATIC / "style.css"
BIG_GIN = '<input type="checkbox" id="big_gin" name="big_gin"'


@pytest.mark.parametrize(("rules", "offered"), [("standard", False), ("oklahoma", False), ("tournament", True)])
def test_big_gin_is_offered_only_where_the_rules_pay_a_big_gin_bonus(client, rules, offered):
    new_match(client, rules=rules)
    page = client.get("/m/x.toml/record").text
    assert (BIG_GIN in page) is offered
    assert ("Big gin (all 11 cards melded)" in page) is offered


def test_a_big_gin_hand_keeps_its_box_checked_on_the_edit_page(client):
    new_match(client, rules="tournament")
    page = post(client, "x.toml", knocker="Ann", how="counts", deadwood="0", opponent_deadwood="30", big_gin="on",
                action="save")
    assert page.status_code == 303
    edit = client.get("/m/x.toml/edit/1").text
    assert f'{BIG_GIN} value="on" checked' in edit


@pytest.mark.parametrize("season", [value for value, _ in SEASONS])
def test_the_chosen_season_is_marked_current_and_only_it(client, season):
    page = client.get(f"/standings?season={season}").text
    chips = re.findall(r'<a href="/standings\?season=(\w+)"( aria-current="page")?>', page)
    assert [(value, bool(current)) for value, current in chips] == [(value, value == season) for value, _ in SEASONS]


def test_the_chosen_season_is_drawn_apart_from_the_others():
    rules = re.findall(r"([^{}]+)\{([^}]*)\}", STYLE.read_text(encoding="utf-8"))
    marked = [body for selectors, body in rules if ".chips [aria-current]" in [s.strip() for s in selectors.split(",")]]
    assert marked and any("background: var(--accent)" in body for body in marked), marked


def test_a_new_scoreboard_says_level_at_0_never_level_alone(client):
    new_match(client)
    page = client.get("/m/x.toml").text
    assert '<ul class="board-line"><li>level at 0</li><li class="board-dealer">' in page
    assert "<li>level</li>" not in page
    for knocker in ("Ann", "Bob"):  # 10 each
        assert post(client, "x.toml", knocker=knocker, how="counts", deadwood="2", opponent_deadwood="12",
                    action="save").status_code == 303
    assert '<ul class="board-line"><li>level at 10</li>' in client.get("/m/x.toml").text


def test_a_level_hollywood_game_says_at_what(client):
    new_match(client, hollywood="on")
    page = client.get("/m/x.toml").text
    assert [line for line in re.findall(r"<li>(Game \d: [^<]*)</li>", page)] == [
        "Game 1: level at 0", "Game 2: level at 0", "Game 3: level at 0"]


def test_an_illegal_knocks_reason_is_under_the_previews_heading_and_describes_save_and_the_count(client):
    new_match(client)
    page = post(client, "x.toml", knocker="Ann", how="counts", deadwood="15", opponent_deadwood="30",
                action="preview").text
    heading = page.index('<h2 id="preview-heading">This hand cannot be recorded as it is</h2>')
    reason = page.index('<p class="save-reason" id="save-reason">Save waits until the hand can be recorded: illegal knock: 15')
    assert heading < reason < page.index("</section>", heading) < page.index(save_button(page))
    assert page.count('id="save-reason"') == 1
    assert 'aria-describedby="save-reason"' in save_button(page)
    count = re.search(r'<input id="deadwood"[^>]*>', page)
    assert count and 'aria-invalid="true" aria-describedby="save-reason"' in count.group()
    opponent = re.search(r'<input id="opponent_deadwood"[^>]*>', page)
    assert opponent and "aria-describedby" not in opponent.group()


def test_the_live_preview_carries_the_one_place_for_saves_reason_mended_or_not(client):
    new_match(client)
    form = client.get("/m/x.toml/record").text
    live = form[form.index('<div id="live-hand"'):form.index('<p class="buttons">')]
    assert '<p class="save-reason" id="save-reason" hidden></p>' in live  # nothing to say yet, the place kept
    assert form.count('id="save-reason"') == 1

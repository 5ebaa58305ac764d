"""The phone pages of `ginscore serve` through Starlette's TestClient: every page renders, every form works
without script, refusals keep what was typed, and hostile names stay text."""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from pages import HOSTILE, QUOTED, SAMPLES, write_hostile_hollywood
from starlette.testclient import TestClient

from ginscore.files.served import Folder
from ginscore.game.cards import parse_card
from ginscore.web.asgi import create_app
from ginscore.web.picker import card_words

TOKEN = "test-token"
BASE = "http://127.0.0.1:8000"
STATIC = Path(__file__).resolve().parent.parent / "ginscore" / "web" / "static"
# The lowest count lets the opponent lay off and undercut; a spread with more deadwood wins (tests/test_cli_score.py).
BEST_K, BEST_O = "Ac 6c 6h 3c 2s 6d 3h 2c Ah 2h", "2d 5s As 5h 3d 4c 3s 4d 4s 4h"
KNOCK_K, KNOCK_O = "3h 4h 5h Ks Kc Kd 7c 8c 9c 2d", "Qh Qd 5s 6s 7s Jc 4d 8h 2c Ac"


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    for name in ("standard.toml", "oklahoma.toml", "counts_only.toml"):
        shutil.copy(SAMPLES / name, tmp_path / name)
    (tmp_path / "broken.toml").write_text("[match]\nplayers = 1\n", encoding="utf-8")
    (tmp_path / "notes.toml").write_text('title = "a shopping list, not a match"\n', encoding="utf-8")
    return tmp_path


@pytest.fixture
def client(folder: Path) -> Iterator[TestClient]:
    app = create_app(str(folder), TOKEN, ["127.0.0.1:8000"])
    with TestClient(app, base_url=BASE) as client:
        assert client.get(f"/?token={TOKEN}").status_code == 200  # sets the cookie
        yield client


def csrf(page: str) -> str:
    found = re.search(r'name="csrf" value="([^"]+)"', page)
    assert found, "no CSRF field on the page"
    return found.group(1)


def hidden(page: str, name: str) -> str:
    found = re.search(rf'<input type="hidden" name="{name}" value="([^"]*)"', page)
    assert found, f"no hidden {name}"
    return found.group(1)


def new_match(client: TestClient, **fields: str) -> str:
    page = client.get("/").text
    form = {"csrf": csrf(page), "player1": "Ann", "player2": "Bob", "rules": "standard", "file": "x.toml", **fields}
    response = client.post("/new", data=form, follow_redirects=False)
    assert response.status_code == 303, response.text
    return response.headers["location"]


def record(client: TestClient, name: str, **fields: str):
    page = client.get(f"/m/{name}/record").text
    form = {"csrf": csrf(page), "expected_hands": hidden(page, "expected_hands"), "action": "save", **fields}
    return client.post(f"/m/{name}/record", data=form, follow_redirects=False)


PAGES = ["/", "/m/standard.toml", "/m/standard.toml/record", "/m/oklahoma.toml/record", "/m/standard.toml/edit/2",
         "/m/standard.toml/undo", "/check", "/m/standard.toml/check"]


@pytest.mark.parametrize("url", PAGES)
def test_each_page_renders_as_a_phone_page(client, url):
    response = client.get(url)
    assert response.status_code == 200
    page = response.text
    assert page.startswith("<!DOCTYPE html>\n<html lang=\"en\">")
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in page
    assert page.count("<main") == 1 and page.count("<h1>") == 1
    assert "style=" not in page and "onclick" not in page.lower() and "<script>" not in page
    assert re.findall(r"<script[^>]*>", page) == ['<script src="/static/pages.js" defer>']
    fields = re.findall(r'<(?:input|select|textarea)\b(?![^>]*type="hidden")[^>]*>', page)
    assert fields or url.endswith(("/undo", ".toml/check"))
    for tag in fields:
        found = re.search(r'\bid="([^"]+)"', tag)
        assert found and f'for="{found.group(1)}"' in page, f"no label for {tag}"
    assert "Traceback" not in page


def test_the_folder_lists_every_file_with_its_score_and_a_broken_one_with_its_reason(client, folder):
    page = client.get("/").text
    # under the pair's heading, each match by its game in their series and its rules
    assert re.search(r'<a class="players" href="/m/standard.toml">Game \d · standard rules</a>', page)
    final = Folder(str(folder)).show("oklahoma.toml")["final"]  # finished: the winner and the final, bonuses and all
    assert f'<span class="score">Ines won {final["Ines"]} – {final["Raj"]}</span>' in page
    assert re.search(r'finished · 7 hands · last played <time datetime="[^"]+">\d{4}-\d\d-\d\d \d\d:\d\d UTC</time>', page)
    broken = re.search(r'<span class="file">broken.toml</span>\s*<span class="reason"><span class="status">broken:</span>([^<]+)</span>', page)
    assert broken and "is this a ginscore match file?" in broken.group(1)
    assert re.search(r'<span class="file">notes.toml</span>\s*<span class="reason"><span class="status">not a match:</span>', page)
    new_match(client)
    assert re.search(r'<span class="status">playing · 0 hands', client.get("/").text)


def test_the_match_page_shows_the_totals_words_and_exports(client, folder):
    page = client.get("/m/oklahoma.toml").text
    data = Folder(str(folder)).show("oklahoma.toml")
    assert "Ines wins by 213." in page
    assert "gin: Raj scores 56" in page and "undercut: Ines scores 30" in page
    assert "Ines reached 150." in page
    final = re.search(r'<tr class="end end-final"><th scope="row" colspan="2">final</th>(.*?)</tr>', page)
    assert final and re.findall(r">(\d+)<", final.group(1)) == [str(data["final"][p]) for p in data["players"]]
    last = re.findall(r'<tr class="hand r-\w+" id="hand-7">(.*?)</tr>', page, re.S)[0]
    assert re.findall(r'<td class="num total[^"]*">(\d+)</td>', last) == ["93", "156"]
    assert '<svg xmlns="http://www.w3.org/2000/svg"' in page
    for kind in ("html", "svg", "csv", "md"):
        assert f'href="/m/oklahoma.toml/export/{kind}" download' in page
        response = client.get(f"/m/oklahoma.toml/export/{kind}")
        assert response.status_code == 200 and response.headers["content-disposition"] == f'attachment; filename="oklahoma.{kind}"'


def test_a_new_match_starts_with_the_target_and_knobs(client, folder):
    location = new_match(client, target="50", settings="gin_bonus=30\n", note="Friday & <club>", hollywood="on")
    assert location == "/m/x.toml"
    data = Folder(str(folder)).show("x.toml")
    assert (data["rules"]["target"], data["rules"]["gin_bonus"], data["hollywood"]) == (50, 30, True)
    assert data["note"] == "Friday & <club>"
    page = client.get(location).text
    assert "Friday &amp; &lt;club&gt;" in page and "No hands yet." in page


def test_a_refused_new_match_says_why_next_to_the_field_and_keeps_what_was_typed(client, folder):
    page = client.get("/").text
    form = {"csrf": csrf(page), "player1": "Ann", "player2": "Zed", "file": "y.toml", "rules": "standard",
            "settings": "gin_bonus=lots", "note": "kept note"}
    response = client.post("/new", data=form)
    assert response.status_code == 400
    assert re.search(r'<p class="error" id="error-settings" role="alert"[^>]*>[^<]*gin_bonus[^<]*</p>', response.text)
    assert 'value="Zed"' in response.text and "gin_bonus=lots</textarea>" in response.text and 'value="kept note"' in response.text
    assert not (folder / "y.toml").exists()
    taken = client.post("/new", data={**form, "settings": "", "file": "standard.toml"})
    assert taken.status_code == 409 and "already exists" in taken.text


def test_record_counts_only_without_script(client, folder):
    new_match(client)
    response = record(client, "x.toml", knocker="Bob", how="counts", deadwood="4", opponent_deadwood="19", note="first")
    assert response.status_code == 303 and response.headers["location"] == "/m/x.toml?recorded=1"
    data = Folder(str(folder)).show("x.toml")
    assert data["totals"] == {"Ann": 0, "Bob": 15} and data["hands"][0]["note"] == "first"
    page = client.get("/m/x.toml?recorded=1").text
    assert "Recorded hand 1." in page and "knock: Bob scores 15" in page
    assert "Recorded hand" not in client.get("/m/x.toml?recorded=1%20(call%20us)").text  # a link cannot put words here


def test_a_bad_count_is_refused_next_to_it_with_everything_kept(client, folder):
    new_match(client)
    response = record(client, "x.toml", knocker="Ann", how="counts", deadwood="four", opponent_deadwood="19", note="keep me")
    assert response.status_code == 400
    assert re.search(r'id="error-deadwood" role="alert"[^>]*>&#39;four&#39; is not a whole number', response.text)
    assert 'value="four"' in response.text and 'value="19"' in response.text and 'value="keep me"' in response.text
    assert 'value="Ann" checked' in response.text
    over = record(client, "x.toml", knocker="Ann", how="counts", deadwood="12", opponent_deadwood="19")
    assert over.status_code == 422 and "cannot knock" in over.text.lower() or "limit" in over.text
    assert Folder(str(folder)).show("x.toml")["hands"] == []


@pytest.mark.parametrize(("fields", "place", "words"), [
    ({"how": "cards", "cards": "3h 4h 5h Ks Qc Jd 7c 8c 9c 2d", "opponent_cards": KNOCK_O, "upcard": "5s"}, "cards", "illegal knock: 32 deadwood"),
    ({"how": "cards", "cards": "3h 4h 5h Ks Kc Kd 7c 8c 9c", "opponent_cards": KNOCK_O, "upcard": "5s"}, "cards", "needs 10 or 11 cards"),
    ({"how": "cards", "cards": KNOCK_K, "opponent_cards": KNOCK_O}, "upcard", "give the up-card"),
    ({"how": "cards", "cards": KNOCK_K + " 9h", "discard": "Qs", "opponent_cards": KNOCK_O, "upcard": "5s"}, "discard", "the discard Qs is not in"),
    ({"how": "counts", "deadwood": "7", "opponent_deadwood": "20", "upcard": "5s"}, "deadwood", "illegal knock"),
    ({"how": "counts", "deadwood": "3", "opponent_deadwood": "20", "upcard": "Xx"}, "upcard", "&#39;Xx&#39; is not a card"),
])
def test_a_refused_hand_says_why_beside_the_field_it_is_about(client, folder, fields, place, words):
    location = new_match(client, rules="oklahoma")
    response = record(client, "x.toml", knocker="Ann", **fields)
    assert response.status_code in (400, 422)
    found = re.search(rf'<p class="error" id="error-{place}" role="alert"[^>]*>([^<]*)</p>', response.text)
    assert found and words in found.group(1), re.findall(r'id="error-\w*" role="alert"[^>]*>[^<]*', response.text)
    assert 'value="Ann" checked' in response.text
    assert "No hands yet." in client.get(location).text


def test_who_knocked_is_asked_beside_the_knocker_buttons(client):
    new_match(client)
    response = record(client, "x.toml", how="counts", deadwood="3", opponent_deadwood="20")
    assert re.search(r'id="error-knocker" role="alert"[^>]*>say who knocked', response.text)


def toggle_cards(client: TestClient, url: str, page: str, cards: str, side: str | None = None, **fields: str) -> str:
    """Tap each card, as a browser without script does: each tap posts the form and gets it back."""
    state = {"csrf": csrf(page), **fields}
    if 'name="expected_hands"' in page:
        state["expected_hands"] = hidden(page, "expected_hands")
    for number, card in enumerate(cards.split()):
        for name in ("cards", "opponent_cards", "picking"):
            if f'<input type="hidden" name="{name}"' in page:
                state[name] = hidden(page, name)
        tap = {"toggle": card, **({"side": side} if side and number == 0 else {})}
        response = client.post(url, data={**state, **tap})
        assert response.status_code == 200, response.text
        page = response.text
        words = card_words(parse_card(card))
        assert f'value="{card}" formnovalidate class="card" aria-label="{words}" aria-pressed="true"' in page, card
    return page


def test_record_by_tapping_cards_without_script(client, folder):
    new_match(client)
    url = "/m/x.toml/record"
    page = client.get(url).text
    page = toggle_cards(client, url, page, KNOCK_K, knocker="Ann", how="cards")
    assert hidden(page, "cards") == "3h 4h 5h Ks Kc Kd 7c 8c 9c 2d"
    assert "You can knock: 2 deadwood, limit 10" in page
    assert '<span class="meld"><span class="card-chip red">3♥</span><span class="card-chip red">4♥</span><span class="card-chip red">5♥</span></span>' in page
    page = toggle_cards(client, url, page, KNOCK_O, side="opponent", knocker="Ann", how="cards")
    assert hidden(page, "opponent_cards") == "Qh Qd 5s 6s 7s Jc 4d 8h 2c Ac"
    assert re.search(r'value="3h" formnovalidate class="card other" aria-label="3 of hearts" aria-pressed="false" disabled', page)
    assert "This hand will score" in page and "knock: Ann scores" in page
    form = {"csrf": csrf(page), "expected_hands": "0", "knocker": "Ann", "how": "cards", "cards": hidden(page, "cards"),
            "opponent_cards": hidden(page, "opponent_cards"), "picking": "opponent", "action": "save"}
    response = client.post(url, data=form, follow_redirects=False)
    assert response.status_code == 303
    hand = Folder(str(folder)).show("x.toml")["hands"][0]
    assert (hand["derived"]["result"], hand["derived"]["winner"], hand["derived"]["deadwood"]) == ("knock", "Ann", 2)


def test_the_preview_offers_the_spread_laid_down_when_the_best_one_is_not_the_lowest(client, folder):
    new_match(client)
    base = {"knocker": "Ann", "how": "cards", "cards": BEST_K, "opponent_cards": BEST_O, "expected_hands": "0"}
    page = client.get("/m/x.toml/record").text
    response = client.post("/m/x.toml/record", data={**base, "csrf": csrf(page), "action": "preview"})
    assert "Which spread was laid down?" in response.text
    assert 'name="spread" value="best" checked' in response.text and "undercut: Bob scores 11" in response.text
    saved = client.post("/m/x.toml/record", data={**base, "csrf": csrf(page), "action": "save", "spread": "lowest"},
                        follow_redirects=False)
    assert saved.status_code == 303, saved.text
    hand = Folder(str(folder)).show("x.toml")["hands"][0]
    assert (hand["derived"]["result"], hand["derived"]["winner"], hand["derived"]["points"]) == ("undercut", "Bob", 11)


def test_the_live_fragment_judges_the_picked_cards(client):
    page = client.get("/m/standard.toml/record").text
    response = client.post("/m/standard.toml/record/live", data={"csrf": csrf(page), "how": "cards", "cards": KNOCK_K})
    assert response.status_code == 200 and not response.text.lstrip().startswith("<!DOCTYPE")
    assert "You can knock: 2 deadwood, limit 10" in response.text
    few = client.post("/m/standard.toml/record/live", data={"csrf": csrf(page), "how": "cards", "cards": "3h 4h"})
    assert "2 picked: 8 more cards for a hand." in few.text


def test_the_record_pages_answer_is_the_check_pages_and_the_apps(client):
    from ginscore.game.rulebook import preset
    from ginscore.sheets.hand_check import checked_hand, hand_check_html

    page = client.get("/m/standard.toml/record").text
    for cards in (KNOCK_K, "3h 4h 5h Ks Kc Kd 7c 8c 9c 10c Jc"):  # eleven melded: a gin with a discard, ten melded
        live = client.post("/m/standard.toml/record/live", data={"csrf": csrf(page), "how": "cards", "cards": cards}).text
        assert hand_check_html(checked_hand(cards, preset("standard"))) in live, cards


def test_a_write_after_someone_elses_says_someone_recorded_first(client, folder):
    new_match(client)
    page = client.get("/m/x.toml/record").text
    form = {"csrf": csrf(page), "expected_hands": "0", "knocker": "Ann", "how": "counts", "deadwood": "3",
            "opponent_deadwood": "20", "action": "save"}
    assert client.post("/m/x.toml/record", data=form, follow_redirects=False).status_code == 303
    again = client.post("/m/x.toml/record", data=form, follow_redirects=False)  # the double tap
    assert again.status_code == 409 and "the same hand was recorded." in again.text and 'value="20"' in again.text
    assert "Hand 1: Ann knocked, counts 3 / 20: <strong>knock: Ann scores 17</strong>" in again.text
    assert "The same hand: discard mine" in again.text and 'name="also" value="1"' in again.text
    third = client.post("/m/x.toml/record", data=form, follow_redirects=False)  # Save once more: still never a duplicate
    assert third.status_code == 409
    assert len(Folder(str(folder)).show("x.toml")["hands"]) == 1
    also = client.post("/m/x.toml/record", data={**form, "also": "1"}, follow_redirects=False)  # a person chose so
    assert also.status_code == 303 and len(Folder(str(folder)).show("x.toml")["hands"]) == 2
    assert hidden(again.text, "expected_hands") == "0"  # what this phone saw: a plain Save is refused again


def test_a_different_hand_recorded_meanwhile_is_shown_beside_mine_and_recording_mine_comes_first(client, folder):
    new_match(client)
    page = client.get("/m/x.toml/record").text
    theirs = {"csrf": csrf(page), "expected_hands": "0", "knocker": "Ann", "how": "counts", "deadwood": "2",
              "opponent_deadwood": "12", "action": "save"}
    assert client.post("/m/x.toml/record", data=theirs, follow_redirects=False).status_code == 303
    mine = {**theirs, "knocker": "Bob", "deadwood": "5", "opponent_deadwood": "25"}
    again = client.post("/m/x.toml/record", data=mine, follow_redirects=False)
    assert again.status_code == 409 and "another one was recorded, not the same as yours." in again.text
    assert "Hand 1: Ann knocked, counts 2 / 12: <strong>knock: Ann scores 10</strong>" in again.text
    assert '<li class="mine">Yours: Bob knocked, counts 5 / 25: <strong>knock: Bob scores 20</strong></li>' in again.text
    assert '<button type="submit" name="also" value="1" class="primary">Record mine as well</button>' in again.text
    assert "The same hand: discard mine" not in again.text
    assert len(Folder(str(folder)).show("x.toml")["hands"]) == 1


def test_undo_asks_first_then_removes_the_hand_it_showed(client, folder):
    new_match(client)
    record(client, "x.toml", knocker="Ann", how="counts", deadwood="0", opponent_deadwood="20")
    page = client.get("/m/x.toml/undo").text
    assert "Remove hand 1 (gin: Ann scores 40)?" in page
    assert len(Folder(str(folder)).show("x.toml")["hands"]) == 1  # asking removes nothing
    stale = client.post("/m/x.toml/undo", data={"csrf": csrf(page), "expected_hands": "2"}, follow_redirects=False)
    assert stale.status_code == 409 and "x.toml now has 1 hand, not 2: someone else changed it first; nothing was written" in stale.text
    assert stale.text.lower().count("changed it first") + stale.text.lower().count("changed the match first") == 1  # said once
    done = client.post("/m/x.toml/undo", data={"csrf": csrf(page), "expected_hands": "1"}, follow_redirects=False)
    assert done.status_code == 303 and done.headers["location"] == "/m/x.toml?removed=1"
    assert Folder(str(folder)).show("x.toml")["hands"] == []
    assert "There is no hand to undo." in client.get("/m/x.toml/undo").text


def test_an_edit_refused_because_the_match_changed_says_so_once(client, folder):
    new_match(client)
    record(client, "x.toml", knocker="Ann", how="counts", deadwood="2", opponent_deadwood="20")
    page = client.get("/m/x.toml/edit/1").text
    form = {"csrf": csrf(page), "expected_hands": "2", "knocker": "Bob", "how": "counts", "deadwood": "2",
            "opponent_deadwood": "20", "action": "save"}
    stale = client.post("/m/x.toml/edit/1", data=form, follow_redirects=False)
    assert stale.status_code == 409 and "x.toml now has 1 hand, not 2: someone else changed it first; nothing was written" in stale.text
    assert stale.text.lower().count("changed it first") + stale.text.lower().count("changed the match first") == 1
    assert Folder(str(folder)).show("x.toml")["hands"][0]["knocker"] == "Ann"


def test_edit_a_past_hand(client, folder):
    new_match(client)
    record(client, "x.toml", knocker="Ann", how="counts", deadwood="2", opponent_deadwood="20", note="typo")
    record(client, "x.toml", knocker="Bob", how="counts", deadwood="5", opponent_deadwood="9")
    page = client.get("/m/x.toml/edit/1").text
    assert "<h1>Edit hand 1</h1>" in page and 'value="2"' in page and 'value="typo"' in page
    form = {"csrf": csrf(page), "expected_hands": "2", "knocker": "Bob", "how": "counts", "deadwood": "2",
            "opponent_deadwood": "20", "note": "fixed", "action": "save"}
    response = client.post("/m/x.toml/edit/1", data=form, follow_redirects=False)
    assert response.status_code == 303 and response.headers["location"] == "/m/x.toml?edited=1"
    hands = Folder(str(folder)).show("x.toml")["hands"]
    assert (hands[0]["knocker"], hands[0]["note"], len(hands)) == ("Bob", "fixed", 2)
    assert client.get("/m/x.toml/edit/9").status_code == 404
    assert '<a class="edit-hand" href="/m/x.toml/edit/2" aria-label="Edit hand 2">2</a>' in client.get("/m/x.toml").text
    assert client.get("/m/x.toml/edit?number=2", follow_redirects=False).headers["location"] == "/m/x.toml/edit/2"


def test_check_by_tapping_ten_then_eleven_cards_gives_the_advice(client):
    page = client.get("/check").text
    page = toggle_cards(client, "/check", page, KNOCK_K)
    assert "You can knock: 2 deadwood, limit 10" in page and "Which discard?" not in page
    page = toggle_cards(client, "/check", page, "9h")
    assert "Which discard?" in page and "Discard 9♥." in page and '<tr class="recommended"><th scope="row">9♥</th>' in page
    bad = client.post("/check", data={"csrf": csrf(page), "cards": "3h 3h 4x 5h 6h 7h 8h 9h 10h Jh Qh"})
    assert bad.status_code == 200 and "&#39;4x&#39; is not a card" in bad.text


def test_hostile_names_and_notes_are_text_in_html_attributes_and_json(client, folder):
    write_hostile_hollywood(folder / "hostile.toml")
    pages = [client.get(url).text for url in ("/", "/m/hostile.toml", "/m/hostile.toml/record", "/m/hostile.toml/edit/1",
                                               "/m/hostile.toml/undo", "/m/hostile.toml/sheet", "/m/hostile.toml/check")]
    for page in pages:
        assert HOSTILE not in page and "<img src=x" not in page and "<b>home" not in page
        assert 'Tom & "Jerry"' not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in pages[1] and "Tom &amp; &#34;Jerry&#34;" in pages[1]
    assert 'value="Tom &amp; &#34;Jerry&#34;"' in pages[2]  # an attribute
    assert "hand 1: &lt;img src=x onerror=alert(2)&gt; &amp; &#34;so&#34;" in pages[1]
    version = client.get("/m/hostile.toml/version")
    assert version.headers["content-type"] == "application/json" and set(json.loads(version.text)) == {"version"}
    new_match(client, player1=HOSTILE, player2=QUOTED, file="h2.toml", note=QUOTED)
    assert Folder(str(folder)).show("h2.toml")["players"] == [HOSTILE, QUOTED]


def test_a_form_without_the_csrf_token_writes_nothing(client, folder):
    new_match(client)
    response = client.post("/m/x.toml/record", data={"expected_hands": "0", "knocker": "Ann", "how": "counts",
                                                     "deadwood": "3", "opponent_deadwood": "20", "action": "save"})
    assert response.status_code == 403 and "Reload the page" in response.text
    assert Folder(str(folder)).show("x.toml")["hands"] == []


def test_an_unexpected_failure_is_a_plain_page_not_a_traceback(client, monkeypatch, caplog):
    def boom(self):
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(Folder, "listing", boom)
    response = client.get("/")
    assert response.status_code == 500
    assert "Something went wrong; nothing was written." in response.text
    assert "Traceback" not in response.text and "disk on fire" not in response.text
    assert "disk on fire" in caplog.text


def test_a_missing_or_broken_match_is_a_page_saying_so(client):
    missing = client.get("/m/nope.toml")
    assert missing.status_code == 404 and "no such match file" in missing.text
    broken = client.get("/m/broken.toml")
    assert broken.status_code == 422 and "broken.toml:" in broken.text


EXTERNAL = re.compile(r"(?:https?:)?//(?!www\.w3\.org/2000/svg\")[\w.-]+\.[a-z]{2,}", re.I)


def test_no_page_or_static_file_names_anything_outside(client, folder):
    write_hostile_hollywood(folder / "hostile.toml")
    texts = [client.get(url).text for url in PAGES + ["/m/hostile.toml", "/m/hostile.toml/sheet"]]
    texts += [path.read_text(encoding="utf-8") for path in STATIC.iterdir()]
    for text in texts:
        assert EXTERNAL.findall(text) == []
        assert "@import" not in text and "url(" not in text
    assert EXTERNAL.findall('<img src="https://cdn.example.com/x.png">') != []  # the pattern does find one


BUDGET = 53_600


def test_page_sizes_stay_small(client):
    # 49 kB: a page and every static file, uncompressed (40 kB before the series, the chances, the players offered
    # and the pages' lifecycle came; 44 kB before "Share the result" (3.6 kB of script, style and the game-over
    # screen's button) and the record page's Gin button, Save's reason and the ledger's card glyphs (about 2 kB);
    # 49 kB before the match page's "Show as QR" and the codes' style (0.6 kB);
    # 49.7 kB before the first screen's style (1.2 kB), the shared module of serve and the app (common.js, 1.9 kB net),
    # and the match page's review line and .toml download (0.3 kB);
    # the static files are cached after the first page, and precached by the app).
    # the app precaches handover.js too, but these pages never load it: only "Show as QR" and "Scan a match" do
    static = sum(path.stat().st_size for path in STATIC.iterdir() if path.name != "handover.js")
    for url in ("/", "/m/standard.toml", "/m/standard.toml/record", "/check"):
        assert len(client.get(url).content) + static < BUDGET, url


def test_a_cancelled_hand_and_an_oklahoma_up_card(client, folder):
    new_match(client, rules="oklahoma")
    page = client.get("/m/x.toml/record").text
    assert '<input type="radio" id="upcard-Qs" name="upcard" value="Qs">' in page  # one tap a card
    assert '<label for="upcard-Qs" class="upcard" aria-label="queen of spades">Q♠</label>' in page
    assert record(client, "x.toml", how="cancelled", knocker="Ann", note="phone rang").status_code == 303
    assert record(client, "x.toml", how="counts", knocker="Bob", deadwood="3", opponent_deadwood="20", upcard="7h").status_code == 303
    hands = Folder(str(folder)).show("x.toml")["hands"]
    assert [(hand["derived"]["result"], hand["note"]) for hand in hands] == [("cancelled", "phone rang"), ("knock", "")]
    page = client.get("/m/x.toml").text
    assert '<span class="result">cancelled</span>' in page and "phone rang" in page


def test_editing_a_hand_recorded_by_cards_shows_its_cards_picked(client, folder):
    new_match(client)
    record(client, "x.toml", how="cards", knocker="Ann", cards=KNOCK_K, opponent_cards=KNOCK_O)
    page = client.get("/m/x.toml/edit/1").text
    assert hidden(page, "cards").split() == KNOCK_K.split() and hidden(page, "opponent_cards").split() == KNOCK_O.split()
    assert 'aria-label="3 of hearts" aria-pressed="true"' in page
    assert 'aria-label="queen of hearts" aria-pressed="false" disabled' in page  # the opponent's, while the knocker's are picked
    assert 'id="how-cards" name="how" value="cards" checked' in page


def test_a_hollywood_match_shows_each_game(client, folder):
    new_match(client, hollywood="on", target="50")
    for knocker in ("Ann", "Bob"):
        assert record(client, "x.toml", how="counts", knocker=knocker, deadwood="0", opponent_deadwood="30").status_code == 303
    page = client.get("/m/x.toml").text
    data = Folder(str(folder)).show("x.toml")
    # each hand says which games its points went into; the columns give those games' totals
    assert re.findall(r'<span class="bit">(in games? [^<]*)</span>', page) == ["in game 1", "in game 2"]
    # the scoreboard: a column a game, marked over when it is, each player's total there (its final once over)
    games = data["columns"]
    states = re.findall(r'<th scope="col">(Game \d)<span class="board-state[^"]*">(over|in play)</span></th>', page)
    assert states == [(f"Game {i + 1}", "over" if game["finished"] else "in play") for i, game in enumerate(games)]
    assert [game["finished"] for game in games] == [True, True, False]
    for at, player in enumerate(data["players"]):
        row = re.findall(r'<tr><th scope="row"><span class="name">([^<]*)</span></th>(.*?)</tr>', page, re.S)[at]
        assert row[0] == player
        shown = [int(x) for x in re.findall(r'<span class="board-total">(\d+)</span>', row[1])]
        assert shown == [game["final"][player] if game["finished"] else game["totals"][player] for game in games]
    # the ledger: a column a game, each cell the two players' running totals there, nothing summed
    last = re.findall(r'<tr class="hand r-\w+" id="hand-2">(.*?)</tr>', page, re.S)[0]
    cells = re.findall(r'<td class="num total stack">(.*?)</td>', last)
    assert [[int(x) for x in re.findall(r">(\d+)<", cell)] for cell in cells] == [
        [game["totals"][p] for p in data["players"]] for game in games]
    assert "end-final" not in page and "Final totals" not in page  # until all three games are over
    assert record(client, "x.toml", how="counts", knocker="Ann", deadwood="0", opponent_deadwood="30").status_code == 303
    page = client.get("/m/x.toml").text
    data = Folder(str(folder)).show("x.toml")
    assert data["finished"] and "Final totals over the three games, with every bonus" in page
    final = re.search(r'<tr class="end end-final"><th scope="row" colspan="2">final</th>(.*?)</tr>', page, re.S)
    assert final and [[int(x) for x in re.findall(r">(\d+)<", cell)] for cell in re.findall(r"<td[^>]*>(.*?)</td>", final.group(1))] == [
        [game["final"][p] for p in data["players"]] for game in data["columns"]]


def test_a_file_name_with_spaces_and_marks_links_to_itself(client, folder):
    assert new_match(client, file="a b#%&é.toml") == "/m/a%20b%23%25%26%C3%A9.toml"
    (folder / "a b#%&é.toml").rename(folder / "a b#?%&é.toml")  # made elsewhere: a new file may not have a ? in its name
    location = "/m/a%20b%23%3F%25%26%C3%A9.toml"
    page = client.get(location).text
    assert "<h1>Ann vs Bob</h1>" in page
    links = re.findall(r'(?:href|action|data-[a-z-]+-url)="(/m/[^"]*)"', page)
    assert '<a class="players" href="/m/a%20b%23%3F%25%26%C3%A9.toml">' in client.get("/").text
    assert links and all(link.startswith("/m/a%20b%23%3F%25%26%C3%A9.toml") for link in links), links
    for link in links:
        assert client.get(link).status_code == (400 if link.endswith("/edit") else 405 if link.endswith("/live") else 200), link


def test_an_oklahoma_hand_is_judged_by_its_up_card(client):
    page = client.get("/m/oklahoma.toml/record").text
    live = "/m/oklahoma.toml/record/live"
    form = {"csrf": csrf(page), "how": "cards", "cards": KNOCK_K}
    assert "Pick the up-card: its value is the knock limit" in client.post(live, data=form).text
    assert "You can knock: 2 deadwood, limit 5" in client.post(live, data={**form, "upcard": "5s"}).text
    assert "You cannot knock: gin only, and 2 deadwood is left" in client.post(live, data={**form, "upcard": "Ah"}).text  # oklahoma_ace = gin
    check = client.get("/m/oklahoma.toml/check").text
    assert '<input type="radio" id="check-upcard-Qs" name="upcard" value="Qs">' in check and "knock limit the up-card&#39;s value" in check
    answer = client.post("/m/oklahoma.toml/check/live", data={"csrf": csrf(check), "cards": KNOCK_K, "upcard": "3d"})
    assert "You can knock: 2 deadwood, limit 3" in answer.text


def test_a_long_match_shows_its_last_hands_and_its_chart_as_a_picture(client, folder):
    from dataclasses import replace

    from ginscore.files import storage
    from ginscore.game.rulebook import preset
    from ginscore.match.records import HandRecord, Match

    hands = tuple(HandRecord(knocker=("Ann", "Bob")[n % 2], deadwood=2, opponent_deadwood=12) for n in range(70))
    match = Match(players=("Ann", "Bob"), rules=replace(preset("standard"), target=5000), first_dealer="Ann", hands=hands)
    (folder / "long.toml").write_text(storage.dumps(match), encoding="utf-8")
    page = client.get("/m/long.toml").text
    assert re.findall(r'id="hand-(\d+)"', page) == [str(n) for n in range(31, 71)]
    assert 'Hands 1 to 30 are not shown. <a href="/m/long.toml?all=1">Show all 70 hands</a>' in page
    assert "<svg" not in page and re.search(r'<img src="/m/long.toml/chart.svg\?v=[\w-]+" alt="Running totals', page)
    assert page_totals_text(page) == ["350", "350"]
    every = client.get("/m/long.toml?all=1").text
    assert len(re.findall(r'id="hand-\d+"', every)) == 70 and 'data-sheet-url="/m/long.toml/sheet?all=1"' in every
    picture = client.get("/m/long.toml/chart.svg")
    assert picture.headers["content-type"] == "image/svg+xml" and picture.text.startswith('<svg xmlns="http://www.w3.org/2000/svg"')


def page_totals_text(page: str) -> list[str]:
    last = re.findall(r'<tr class="hand r-\w+" id="hand-\d+">(.*?)</tr>', page, re.S)[-1]
    return re.findall(r'<td class="num total[^"]*">(\d+)</td>', last)


def test_a_finished_match_leads_with_its_result_and_the_next_game(client, folder):
    data = Folder(str(folder)).show("standard.toml")
    page = client.get("/m/standard.toml").text
    assert page.index('<section class="result-block"') < page.index('<nav class="actions"') < page.index('<table class="hands')
    assert f'<h2 id="result-title" class="result-title">{data["winner"]} wins by {data["margin"]}.</h2>' in page
    assert "Record a hand" not in page and "result-dealer" not in page
    for url in ("/m/standard.toml", "/m/standard.toml/sheet"):  # the live fragment carries it too
        text = client.get(url).text
        block = re.search(r'<section class="result-block".*?</section>', text, re.S)
        assert block, url
        form = re.search(r'<form method="post" action="/m/standard.toml/next" class="next-game stack"(.*?)</form>', block.group(0), re.S)
        assert form, url
        assert 'name="csrf"' in form.group(1)
        checked = re.findall(r'name="dealer" value="([^"]+)" checked', form.group(1))
        assert checked == [data["next_dealer"]]
        assert re.findall(r'class="[^"]*\bprimary\b[^"]*"', text) == ['class="primary"']  # the one main action
        assert '<button type="submit" class="primary">Start the next game</button>' in form.group(1)


def test_a_match_in_play_leads_with_its_scoreboard(client, folder):
    new_match(client, rules="oklahoma")
    assert record(client, "x.toml", how="counts", knocker="Bob", deadwood="3", opponent_deadwood="20", upcard="7h").status_code == 303
    page = client.get("/m/x.toml").text
    assert page.index('<section class="board"') < page.index('<a class="button primary"') < page.index('<table class="hands')
    assert re.findall(r'<span class="board-total">(\d+)</span>', page) == ["0", "17"]
    assert re.findall(r"<li[^>]*>([^<]*)</li>", page)[:3] == ["Bob is ahead by 17", "Bob deals next", "first to 150"]
    assert '<span class="bit">up\u2011card\u00a07♥</span>' in page
    assert "result-block" not in page


@pytest.mark.parametrize(("rules", "shutout"), [("standard", "flat"), ("tournament", "double")])
def test_the_result_block_gives_every_bonus_a_shutout_included(client, folder, rules, shutout):
    new_match(client, rules=rules)
    assert record(client, "x.toml", how="counts", knocker="Ann", deadwood="0", opponent_deadwood="80").status_code == 303
    data = Folder(str(folder)).show("x.toml")
    assert data["finished"] and data["rules"]["shutout"] == shutout and data["totals"]["Bob"] == 0
    block = re.search(r'<table class="final-totals[^"]*">(.*?)</table>', client.get("/m/x.toml").text, re.S)
    assert block
    rows = {label: [int(x) for x in re.findall(r'<td class="num">(\d+)</td>', cells)]
            for label, cells in re.findall(r'<tr class="end-\w+"><th scope="row">([^<]+)</th>(.*?)</tr>', block.group(1))}
    players, bonuses = data["players"], data["bonuses"]
    flat = shutout == "flat"  # the flat shutout bonus replaces the game bonus; doubling adds the total again
    assert rows == {
        "points": [data["totals"][p] for p in players], "boxes": [data["boxes"][p] for p in players],
        "game bonus": [0 if flat else bonuses[p]["game"] for p in players],
        "box bonus": [bonuses[p]["boxes"] for p in players],
        "shutout bonus": [bonuses[p]["shutout"] + (bonuses[p]["game"] if flat else 0) for p in players],
        "final": [data["final"][p] for p in players],
    }
    assert rows["shutout bonus"][0] > 0 and sum(rows["final"]) == sum(sum(rows[k]) for k in rows if k not in ("boxes", "final"))


def test_a_new_match_file_name_that_does_not_travel_is_refused_beside_the_file_field(client, folder):
    page = client.get("/").text
    form = {"csrf": csrf(page), "player1": "Ann", "player2": "Bob", "rules": "standard", "file": "con.toml"}
    answer = client.post("/new", data=form, follow_redirects=False)
    assert answer.status_code == 400
    shown = re.search(r'<p class="error" id="error-file" role="alert"[^>]*>([^<]*)</p>', answer.text)
    assert shown is not None, answer.text  # beside the file name's field, not at the top of the form
    assert shown.group(1).startswith("&#39;con.toml&#39; cannot be a new match file&#39;s name: con is a device&#39;s name")
    assert not (folder / "con.toml").exists()


def test_a_card_hand_shows_both_sides_on_the_sheet(client, folder):
    new_match(client)
    opponent = "Qh Qd Qs 6s 7s 8s 4d 9h 2c 6h"  # two melds of his own, 6h to lay off on Ann's hearts
    assert record(client, "x.toml", knocker="Ann", how="cards", cards=KNOCK_K, opponent_cards=opponent).status_code == 303
    page = client.get("/m/x.toml").text
    bits = re.findall(r'<span class="bit">([^<]*)</span>', page)
    assert "Ann laid down 3♥ 4♥ 5♥ | 7♣ 8♣ 9♣ | K♣ K♦ K♠ | (2♦)" in bits  # the glyphs, the deadwood in brackets
    assert "Bob melded 6♠ 7♠ 8♠ | Q♦ Q♥ Q♠" in bits
    assert "Bob laid off 6♥" in bits
    assert "Bob&#39;s count after lay-offs: 15" in bits  # 4d 9h 2c


def test_a_file_name_typed_without_toml_gets_it(client, folder):
    page = client.get("/").text
    response = client.post("/new", data={"csrf": csrf(page), "player1": "Ann", "player2": "Bob", "rules": "standard", "file": "holly"},
                           follow_redirects=False)
    assert response.status_code == 303 and response.headers["location"] == "/m/holly.toml"
    assert (folder / "holly.toml").is_file() and not (folder / "holly").exists()


def test_a_page_without_the_token_speaks_a_phones_words(folder):
    app = create_app(str(folder), TOKEN, ["127.0.0.1:8000"])
    with TestClient(app, base_url=BASE) as stranger:
        page = stranger.get("/")
        assert page.status_code == 401
        assert "open the link it printed, or scan its QR code" in page.text and "Bearer" not in page.text
        api = stranger.get("/api/matches")
        assert api.status_code == 401 and "Authorization: Bearer TOKEN" in api.json()["error"]


@pytest.mark.parametrize(("method", "url", "status", "heading"), [
    ("GET", "/no/such/page", 404, "No such page"),
    ("GET", "/static/nothing.js", 404, "No such page"),
    ("DELETE", "/", 405, "This cannot be done here"),
    ("GET", "/new", 405, "This cannot be done here"),
])
def test_an_address_the_pad_does_not_have_gets_a_page_in_a_players_words(client: TestClient, method: str, url: str, status: int, heading: str):
    response = client.request(method, url)
    assert response.status_code == status
    assert response.headers["content-type"].startswith("text/html")
    assert f"<h1>{heading}</h1>" in response.text and '<a href="/">Back to the matches</a>' in response.text
    assert "error:" not in response.text
    only_posted = "takes what a page&#39;s form sends, not a visit" in response.text
    assert only_posted == (url == "/new")  # a form's address is not a page to visit; a page's is not a form's
    if method == "GET" and status == 404:  # the API keeps its own words, for a program
        assert client.get("/api" + url).json() == {"error": "no such page or match file", "field": None}


def test_a_pairs_matches_are_told_apart_by_their_games_in_the_series_and_their_rules(client):
    """Four matches of one pair are four titles under the pair's heading: each its game's number in their series
    (a Hollywood sheet holds three), its rules, Oklahoma and Hollywood marked; the rule changes are typed in words."""
    new_match(client, file="one.toml")
    new_match(client, file="two.toml", rules="oklahoma")
    new_match(client, file="three.toml", hollywood="on")
    new_match(client, file="four.toml", settings="gin bonus 30\nUndercut bonus = 15")
    page = client.get("/").text
    titles = dict(re.findall(r'<a class="players" href="/m/(one|two|three|four).toml">([^<]+)</a>', page))
    games = {name: title.split(" · ")[0] for name, title in titles.items()}
    assert {name: title.split(" · ")[1] for name, title in titles.items()} == {
        "one": "standard rules", "two": "Oklahoma", "three": "standard rules, Hollywood", "four": "standard rules, changed"}
    numbers = []  # started within a second, they are numbered by name: each game once, from 1 to 6
    for name, said in games.items():
        first, _, last = said.removeprefix("Games ").removeprefix("Game ").partition("–")
        numbers += range(int(first), int(last or first) + 1)
        assert (name == "three") == said.startswith("Games ")
    assert sorted(numbers) == [1, 2, 3, 4, 5, 6]
    rules = Folder(str(client.app.state.folder.path)).show("four.toml")["rules"]
    assert (rules["gin_bonus"], rules["undercut_bonus"]) == (30, 15)
    assert "Target left empty: 100 for standard, 100 for tournament, 150 for oklahoma." in " ".join(page.split())

"""The record page's fewer taps, without script, through Starlette's TestClient: the Gin button that comes back
with the knocker's count 0 and the preview, Save off with its reason while the preview refuses the hand, the
preview's spread with its deadwood and discard marked, and the ♥ ♦ ♣ ♠ glyphs in the ledger's card lists."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import test_web_pages
from starlette.testclient import TestClient
from test_web_pages import csrf, hidden, new_match, record

from ginscore.game.cards import parse_card, parse_cards
from ginscore.game.melds import solve
from ginscore.sheets.words import LaidDown, laid_down
from ginscore.web.picker import card_face, cards_face

folder = test_web_pages.folder  # the fixtures: the sample folder, and a client signed in to it
client = test_web_pages.client

ILLEGAL_K = "3h 4h 5h Ks Kc Kd 7c 9d Jc Qd"
"""Two melds and 7 + 9 + 10 + 10 = 36 deadwood: over the knock limit of 10."""
OPPONENT = "Qh Jd 5s 6s 7s Jh 4d 6h 2c Ac"
GIN_K = "3h 4h 5h Ks Kc Kd 7c 8c 9c 10c"
ELEVEN_K = "3h 4h 5h Ks Kc Kd 7c 8c 9c 2d 9h"
"""Three melds and 2♦ left after 9♥ is discarded."""


def stored_hands(folder: Path) -> list[dict[str, object]]:
    hands: list[dict[str, object]] = tomllib.loads((folder / "x.toml").read_text(encoding="utf-8")).get("hands", [])
    return hands


def save_button(page: str) -> str:
    found = re.search(r'<button type="submit" name="action" value="save"[^>]*>', page)
    assert found, "no Save button"
    return found.group()


def save_reason(page: str) -> str | None:
    """The reason beside Save, when it is shown."""
    found = re.search(r'<p class="save-reason" id="save-reason"( hidden)?>([^<]*)</p>', page)
    assert found, "no place for Save's reason"
    return None if found.group(1) else found.group(2)


def post(client: TestClient, name: str, **fields: str):
    page = client.get(f"/m/{name}/record").text
    form = {"csrf": csrf(page), "expected_hands": hidden(page, "expected_hands"), **fields}
    return client.post(f"/m/{name}/record", data=form, follow_redirects=False)


def test_the_gin_button_without_script_comes_back_with_the_count_0_and_the_preview(client, folder):
    new_match(client)
    page = post(client, "x.toml", knocker="Ann", how="counts", deadwood="7", opponent_deadwood="30", action="gin")
    assert page.status_code == 200
    assert '<input id="deadwood" name="deadwood" value="0"' in page.text
    assert '<p class="preview-words">gin: Ann scores 50</p>' in page.text  # 20 for gin + Bob's 30
    assert "disabled" not in save_button(page.text) and save_reason(page.text) is None
    assert stored_hands(folder) == []  # nothing saved by the Gin button
    saved = record(client, "x.toml", knocker="Ann", how="counts", deadwood="0", opponent_deadwood="30")
    assert saved.status_code == 303
    [hand] = stored_hands(folder)
    assert (hand["knocker"], hand["knocker_deadwood"], hand["opponent_deadwood"]) == ("Ann", 0, 30)
    assert hand["totals"] == {"Ann": 50, "Bob": 0}  # scored as a gin


def test_the_gin_button_before_the_opponents_count_shows_no_preview_yet(client):
    new_match(client)
    page = post(client, "x.toml", knocker="Ann", how="counts", action="gin")
    assert '<input id="deadwood" name="deadwood" value="0"' in page.text
    assert 'class="preview"' not in page.text and save_reason(page.text) is None


def test_save_is_off_with_its_reason_while_the_preview_refuses_the_hand(client):
    new_match(client)
    page = post(client, "x.toml", knocker="Ann", how="counts", deadwood="30", opponent_deadwood="40", action="preview").text
    assert "This hand cannot be recorded as it is" in page
    button = save_button(page)
    assert " disabled" in button and 'aria-describedby="save-reason"' in button
    reason = save_reason(page)
    assert reason is not None and reason.startswith("Save waits until the hand can be recorded: illegal knock: 30 deadwood")
    assert "Change the hand, then tap Preview" in page  # without script, the way back to Save
    shown = re.sub(r"<[^>]+>", " ", page)  # the words on the page, not its attributes
    assert shown.count("illegal knock: 30 deadwood") == 1  # said once, beside Save, not in the preview box as well
    fixed = post(client, "x.toml", knocker="Ann", how="counts", deadwood="3", opponent_deadwood="40", action="preview").text
    assert "disabled" not in save_button(fixed) and save_reason(fixed) is None
    assert "Change the hand, then tap Preview" not in fixed


def test_save_stays_on_when_the_match_was_won_meanwhile_and_saving_says_so(client, folder):
    new_match(client)
    page = client.get("/m/x.toml/record").text
    form = {"csrf": csrf(page), "expected_hands": hidden(page, "expected_hands"), "knocker": "Bob", "how": "counts",
            "deadwood": "3", "opponent_deadwood": "20"}
    assert record(client, "x.toml", knocker="Ann", how="counts", deadwood="0", opponent_deadwood="90").status_code == 303  # another phone wins
    live = client.post("/m/x.toml/record/live", data=form, headers={"x-csrf-token": form["csrf"]})
    assert "the match is over" in live.text and "data-save-reason" not in live.text  # not the hand's fault: Save on
    previewed = client.post("/m/x.toml/record", data={**form, "action": "preview"}).text
    assert "disabled" not in save_button(previewed) and save_reason(previewed) is None
    saved = client.post("/m/x.toml/record", data={**form, "action": "save"}, follow_redirects=False)
    assert saved.status_code == 409 and "this was recorded and ended the match" in saved.text and "Start the next game" in saved.text
    assert len(stored_hands(folder)) == 1


def test_save_is_off_while_a_side_has_the_wrong_number_of_cards(client):
    new_match(client)
    page = post(client, "x.toml", knocker="Ann", how="cards", cards=GIN_K, opponent_cards=" ".join(OPPONENT.split()[:9])).text
    assert " disabled" in save_button(page)
    assert save_reason(page) == "Save waits for the cards: Ann: 10 cards picked; Bob: 9 picked. Bob&#39;s hand needs 10."


def test_a_refused_save_without_script_still_comes_back_with_its_reason(client, folder):
    new_match(client)
    before = (folder / "x.toml").read_bytes()
    refused = record(client, "x.toml", knocker="Ann", how="counts", deadwood="30", opponent_deadwood="40")
    assert refused.status_code == 422  # as the API and the command line refuse an illegal knock
    assert re.search(r'<p class="error" id="error-deadwood"[^>]*>illegal knock: 30 deadwood', refused.text), refused.text
    assert (folder / "x.toml").read_bytes() == before


def test_the_live_fragment_says_when_save_is_off_and_why(client):
    new_match(client)
    page = client.get("/m/x.toml/record").text
    base = {"csrf": csrf(page), "expected_hands": "0", "knocker": "Ann", "how": "cards", "opponent_cards": OPPONENT}
    illegal = client.post("/m/x.toml/record/live", data={**base, "cards": ILLEGAL_K}).text
    found = re.search(r'<span hidden data-save-reason="([^"]*)"></span>', illegal)
    assert found and found.group(1).startswith("Save waits until the hand can be recorded: illegal knock: 36 deadwood")
    legal = client.post("/m/x.toml/record/live", data={**base, "cards": GIN_K}).text
    assert "data-save-reason" not in legal and "This hand will score" in legal


def test_the_card_check_says_gin_beside_the_count(client):
    new_match(client)
    page = client.get("/m/x.toml/record").text
    base = {"csrf": csrf(page), "expected_hands": "0", "knocker": "Ann", "how": "cards"}
    gin = client.post("/m/x.toml/record/live", data={**base, "cards": GIN_K}).text
    assert '<span class="deadwood-count">0</span> <strong class="gin-mark">gin</strong>' in gin
    knock = client.post("/m/x.toml/record/live", data={**base, "cards": ELEVEN_K.replace(" 9h", "")}).text
    assert '<span class="deadwood-count">2</span></dd>' in knock and "gin-mark" not in knock


def test_the_preview_marks_the_deadwood_and_the_discard(client):
    new_match(client)
    page = post(client, "x.toml", knocker="Ann", how="cards", cards=ELEVEN_K, opponent_cards=OPPONENT, action="preview").text
    spread = re.search(r'<p class="laid-down">Spread: (.*?)</p>', page, re.S)
    assert spread, page
    melds = re.findall(r'<span class="meld">(.*?)</span></span>', spread.group(1))
    assert [re.findall(r">([^<]+)</span>", meld + "</span>") for meld in melds] == [["3♥", "4♥", "5♥"], ["7♣", "8♣", "9♣"],
                                                                                   ["K♣", "K♦", "K♠"]]
    assert ('<span class="meld deadwood-cards"><span class="tag">deadwood</span> '
            '<span class="card-chip red dead">2♦</span></span>') in spread.group(1)
    assert '<span class="discarded">discarded <span class="card-chip red">9♥</span></span>' in spread.group(1)


def test_the_spread_choices_and_the_discard_choices_use_the_glyphs(client):
    new_match(client)
    choices = post(client, "x.toml", knocker="Ann", how="cards", cards=test_web_pages.BEST_K, opponent_cards=test_web_pages.BEST_O,
                   action="preview").text
    labels = re.findall(r'<label for="spread-\d">([^<]*)</label>', choices)
    assert [label.split(":")[0] for label in labels] == ["Best for Ann", "Least deadwood"]
    assert all(not re.search(r"\b(10|[2-9AJQK])[cdhs]\b", label) and "♥" in label for label in labels), labels
    eleven = post(client, "x.toml", knocker="Ann", how="cards", cards=ELEVEN_K).text
    assert '<option value="9h">9♥</option>' in eleven and '<option value="3h">3♥</option>' in eleven


def test_the_ledger_says_the_cards_with_glyphs_and_the_discard(client, folder: Path):
    new_match(client)
    assert record(client, "x.toml", knocker="Ann", how="cards", cards=ELEVEN_K, discard="9h", opponent_cards=OPPONENT).status_code == 303
    page = client.get("/m/x.toml").text
    bits = re.findall(r'<span class="bit">([^<]*)</span>', page)
    assert "Ann laid down 3♥ 4♥ 5♥ | 7♣ 8♣ 9♣ | K♣ K♦ K♠ | (2♦) (discarded 9♥)" in bits
    assert "Bob melded 5♠ 6♠ 7♠" in bits and "Bob laid off 6♥" in bits


def test_a_spread_laid_down_in_words():
    spread = laid_down(solve(parse_cards("3h 4h 5h Ks Kc Kd 7c 8c 9c 2d")).best, parse_card("9h"))
    assert spread == LaidDown((("3h", "4h", "5h"), ("7c", "8c", "9c"), ("Kc", "Kd", "Ks")), ("2d",), "9h")
    assert spread.words() == "3h 4h 5h | 7c 8c 9c | Kc Kd Ks | (2d) (discarded 9h)"  # as `ginscore score` says it
    assert spread.words(card_face) == "3♥ 4♥ 5♥ | 7♣ 8♣ 9♣ | K♣ K♦ K♠ | (2♦) (discarded 9♥)"
    assert LaidDown((), ("Ac", "Kd")).words(card_face) == "(A♣ K♦)"
    assert LaidDown(((("Ac", "2c", "3c")),), ()).words() == "Ac 2c 3c"


def test_stored_cards_are_shown_with_glyphs_and_the_rest_kept():
    assert cards_face("3h 4h 5h | Ks KC kd|2d") == "3♥ 4♥ 5♥ | K♠ K♣ K♦|2♦"
    assert cards_face("10c, Xx") == "10♣, Xx"


def test_the_edit_page_previews_the_hand_in_its_place_so_a_finished_match_can_still_be_mended(client, folder):
    """Hand 1 of the finished sample match, as it was entered: previewed in its place, not as a hand added after
    the end (which is refused), so Replace stays on."""
    page = client.get("/m/standard.toml/edit/1").text
    form = {"csrf": csrf(page), "expected_hands": hidden(page, "expected_hands"), "how": "cards", "knocker": "Maria",
            "cards": "3h 4h 5h 9c 9d 9s Jd Qd Kd 2c Ks", "opponent_cards": "7c 7d 7s 10h 10c 2d 3s 4c Ac 6h"}
    previewed = client.post("/m/standard.toml/edit/1", data={**form, "action": "preview"}).text
    assert '<p class="preview-words">knock: Maria scores 28</p>' in previewed
    assert "disabled" not in save_button(previewed) and save_reason(previewed) is None
    live = client.post("/m/standard.toml/edit/1/live", data=form).text
    assert "knock: Maria scores 28" in live and "data-save-reason" not in live
    worse = client.post("/m/standard.toml/edit/1", data={**form, "cards": "3h 4h 5h Ks Kc Kd 8c 9d Jc Qd", "action": "preview"}).text
    assert " disabled" in save_button(worse) and "illegal knock" in (save_reason(worse) or "")


def test_eleven_melded_cards_are_big_gin_beside_the_count_only_where_the_rules_score_it():
    from ginscore.game.rulebook import preset
    from ginscore.web.picker import judge

    eleven = "3h 4h 5h Ks Kc Kd 7c 8c 9c 10c Jc".split()
    standard, tournament = judge(eleven, (preset("standard"), None)), judge(eleven, (preset("tournament"), None))
    assert standard is not None and tournament is not None
    assert (standard.deadwood, standard.gin, tournament.gin) == (0, "gin", "big gin")
    # RULES.md: big gin is off in standard, so eleven melded cards are a gin with a discard; where it is on, a big
    # gin spreads all eleven and discards nothing
    assert (standard.verdict, standard.discards) == ("Gin: every card melds", ("Jc", "7c"))
    assert (tournament.verdict, tournament.discards) == ("Big gin: all 11 cards meld", ())
    knock = judge("3h 4h 5h Ks Kc Kd 7c 8c 9c 2d".split(), (preset("standard"), None))
    assert knock is not None and knock.gin == ""


def test_the_apps_first_check_says_eleven_melded_cards_as_the_standard_rules_score_them():
    from ginscore.pocket.worker import check

    said = check("3h 4h 5h Ks Kc Kd 7c 8c 9c 10c Jc")
    assert ('<p class="knock-verdict">Gin: every card melds, discarding <span class="card-chip">J♣</span> or '
            '<span class="card-chip">7♣</span>.</p>') in said


def test_a_card_hand_recorded_meanwhile_is_said_with_glyphs(client):
    new_match(client)
    page = client.get("/m/x.toml/record").text
    form = {"csrf": csrf(page), "expected_hands": "0", "knocker": "Ann", "how": "cards", "cards": GIN_K.replace("10c", "2d"),
            "opponent_cards": OPPONENT, "action": "save"}
    assert client.post("/m/x.toml/record", data=form, follow_redirects=False).status_code == 303
    again = client.post("/m/x.toml/record", data=form, follow_redirects=False)  # the double tap
    assert again.status_code == 409
    assert "Hand 1: Ann knocked, cards 3♥ 4♥ 5♥ K♠ K♣ K♦ 7♣ 8♣ 9♣ 2♦: <strong>knock: Ann scores 35</strong>" in again.text

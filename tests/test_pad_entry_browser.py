"""The score pad's moments of entry, in Debian's Chromium on a 390 x 844 touch screen: the next game twice in a
row with no typing, who deals first, two phones entering the same hand, both sides of a card hand in the
preview, the card-count warning with Save off, and a refused save brought into view with focus on its reason.

The server, the phones and the checks are those of test_serve_browser.py; every request goes to 127.0.0.1.
"""

from __future__ import annotations

import re
import shutil
from typing import Any

import test_serve_browser
from browsers import expect
from pages import SAMPLES
from test_serve_browser import KNOCK_K, KNOCK_O, Phone, Server, check_page, record_counts, show_json, words

COMMAND_WORDS = re.compile(r"(^|\s|\()--[a-z]|ginscore [a-z]")


server = test_serve_browser.server  # the fixtures: a server of this file's own, and a phone on it
phone = test_serve_browser.phone


def expected_refusals(phone: Phone, status: int) -> None:
    """The browser logs each refused page's status as a console error: those the test caused are not problems."""
    phone.problems[:] = [problem for problem in phone.problems if f"status of {status} " not in problem]


def no_command_words(page: Any) -> None:
    text = page.locator("main").inner_text()
    assert not COMMAND_WORDS.search(text), COMMAND_WORDS.search(text)


def start(page: Any, file: str, *, target: str = "", dealer: str = "Ann") -> None:
    page.locator("#player1").fill("Ann")
    page.locator("#player2").fill("Bob")
    page.get_by_label("File name").fill(file)
    if target:
        page.get_by_label("Target").fill(target)
    page.locator(".big-choice label", has_text=dealer).tap()
    page.get_by_role("button", name="Start the match", exact=True).tap()
    page.wait_for_url(f"**/m/{file}")


def test_next_game_twice_in_a_row_with_no_typing_and_the_dealer_chosen(phone: Phone, server: Server) -> None:
    page = phone.page
    start(page, "pair.toml", target="30", dealer="Bob")
    assert show_json(server, "pair.toml")["next_dealer"] == "Bob"
    record_counts(phone, "Ann", 0, 30)  # gin: 25 + 30 reaches 30
    old = (server.folder / "pair.toml").read_bytes()
    next_game = page.get_by_role("button", name="Start the next game")
    expect(next_game).to_be_visible()
    assert page.get_by_label("Ann", exact=True).is_checked()  # the winner deals next, shown before the tap
    next_game.tap()
    page.wait_for_url(re.compile(r"/m/ann-bob[-0-9]*\.toml$"))
    first = page.url.rsplit("/", 1)[1]
    assert show_json(server, first)["next_dealer"] == "Ann" and show_json(server, first)["hands"] == []
    record_counts(phone, "Bob", 0, 30)
    page.locator(".next-game label", has_text="Ann").tap()  # changeable: Ann deals although Bob won
    page.get_by_role("button", name="Start the next game").tap()
    page.wait_for_url(lambda url: url.endswith(".toml") and url.rsplit("/", 1)[1] not in (first, "pair.toml"))
    second = page.url.rsplit("/", 1)[1]
    assert show_json(server, second)["next_dealer"] == "Ann"
    assert (server.folder / "pair.toml").read_bytes() == old
    assert len(show_json(server, first)["hands"]) == 1
    check_page(page)
    expected_refusals(phone, 400)


def test_two_phones_entering_the_same_hand_leave_it_once(browser: Any, server: Server) -> None:
    a, b = Phone(browser, server), Phone(browser, server)
    try:
        start(a.page, "twice.toml")
        for phone in (a, b):
            phone.page.goto(server.base + "/m/twice.toml/record")
            phone.page.get_by_text("Ann", exact=True).tap()
            phone.page.get_by_label("Knocker's count").fill("4")
            phone.page.get_by_label("Opponent's count").fill("23")
            phone.page.locator(".preview-words").wait_for()
        a.tap("button", "Save the hand")
        a.page.wait_for_url(re.compile(r"\?recorded=1$"))
        b.tap("button", "Save the hand")
        question = b.page.get_by_text("While you were entering this hand, the same hand was recorded.")
        question.wait_for()
        expect(b.page.get_by_text("Hand 1: Ann knocked, counts 4 / 23")).to_be_visible()
        no_command_words(b.page)
        b.tap("button", "Save the hand")  # a plain second tap: still not recorded
        question.wait_for()
        assert len(show_json(server, "twice.toml")["hands"]) == 1
        b.tap("link", "The same hand: discard mine")
        b.page.wait_for_url("**/m/twice.toml")
        assert len(show_json(server, "twice.toml")["hands"]) == 1
        expected_refusals(b, 409)
    finally:
        a.close()
        b.close()


def pick(page: Any, cards: str) -> None:
    for card in cards.split():
        page.get_by_role("button", name=words(card), exact=True).tap()


def cards_entered(phone: Phone, file: str, knocker: str, opponent: str) -> None:
    """A new match `file`, and on its record page Ann's knock by cards: `knocker`'s cards, then `opponent`'s."""
    page = phone.page
    start(page, file)
    phone.tap("link", "Record a hand")
    page.get_by_text("Ann", exact=True).tap()
    page.get_by_text("Cards", exact=True).tap()
    pick(page, knocker)
    page.locator("button[data-side-button=opponent]").tap()
    pick(page, opponent)


def test_a_card_hand_shows_both_sides_warns_of_a_missing_card_with_save_off_and_a_refusal_takes_the_focus(
        phone: Phone, server: Server) -> None:
    page = phone.page
    cards_entered(phone, "cards.toml", KNOCK_K, " ".join(KNOCK_O.split()[:9]))
    warning = page.locator("#count-warning")
    warning.wait_for()
    expect(warning).to_have_text("Ann: 10 cards picked; Bob: 9 picked. Bob's hand needs 10.", use_inner_text=True)
    save = page.get_by_role("button", name="Save the hand", exact=True)
    expect(save).to_be_disabled()  # a save that could only be refused is not offered; the warning says why
    expect(save).to_have_accessible_description("Save waits for the cards: Ann: 10 cards picked; Bob: 9 picked. Bob's hand needs 10.")
    pick(page, KNOCK_O.split()[9])
    page.locator(".sides-words").wait_for()
    sides = page.locator(".sides-words li").all_inner_texts()
    assert sides[0].startswith("Bob melded ") and sides[1].startswith("Bob laid off") and sides[2].startswith("Bob's count after lay-offs: ")
    assert page.locator("#count-warning").count() == 0
    expect(page.locator("#preview-heading")).to_have_text("This hand will score", use_inner_text=True)
    expect(save).to_be_enabled()
    check_page(page)
    # A refusal the preview cannot foresee (by counts, the opponent's count not given yet) still comes from Save:
    # its reason is brought into view beside the field, and takes the focus.
    page.get_by_text("Counts", exact=True).tap()
    page.get_by_label("Knocker's count").fill("4")
    expect(save).to_be_enabled()
    save.tap()
    refusal = page.locator("[data-refusal]")
    refusal.wait_for()
    assert refusal.get_attribute("id") == "error-opponent_deadwood"
    expect(refusal).to_be_focused()  # by the page's script, once it has started: waited for, not raced
    box = refusal.bounding_box()
    assert box is not None and 0 <= box["y"] and box["y"] + box["height"] <= 844
    no_command_words(page)
    expected_refusals(phone, 400)


def test_a_match_started_by_taps_alone_from_the_players_the_folder_knows(phone: Phone, server: Server) -> None:
    page = phone.page
    start(page, "known.toml", dealer="Ann")
    page.goto(server.base + "/")
    expect(page.locator("label[for=dealer-1]")).to_have_text("First player")  # nothing typed yet
    phone.tap("button", "Ann vs Bob")  # the last pair, as one choice
    expect(page.locator("#player1")).to_have_value("Ann")
    expect(page.locator("#player2")).to_have_value("Bob")
    expect(page.locator("label[for=dealer-2]")).to_have_text("Bob")  # the dealer choice says the names
    page.locator(".big-choice label", has_text="Bob").tap()
    phone.tap("button", "Start the match")
    page.wait_for_url(re.compile(r".*/m/ann-bob[^/]*\.toml$"))
    name = page.url.rsplit("/", 1)[1]
    assert show_json(server, name)["players"] == ["Ann", "Bob"] and show_json(server, name)["next_dealer"] == "Bob"
    page.goto(server.base + "/")
    page.locator("#player1").fill("Cy")
    phone.tap("button", "Bob")  # one name tapped fills the next empty one
    expect(page.locator("#player2")).to_have_value("Bob")
    expect(page.locator("label[for=dealer-1]")).to_have_text("Cy")


def test_times_are_shown_in_the_phones_time_zone(browser: Any, server: Server) -> None:
    shutil.copy(SAMPLES / "standard.toml", server.folder / "timed.toml")  # its last hand: 2026-11-30 23:10 UTC
    context = browser.new_context(timezone_id="Asia/Tokyo", locale="en-US")
    try:
        page = context.new_page()
        page.goto(server.url)
        stamps = page.locator("time[datetime]")
        expect(stamps.first).not_to_have_text(re.compile("UTC"))
        for stamp in stamps.all():
            utc = stamp.get_attribute("datetime")
            assert utc is not None
            expected = page.evaluate("(utc) => new Date(utc).toLocaleString('en-US', {timeZone: 'Asia/Tokyo', dateStyle: 'medium', timeStyle: 'short'})", utc)
            expect(stamp).to_have_text(expected)
    finally:
        context.close()

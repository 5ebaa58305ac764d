"""An evening at the table on `ginscore serve`, in Debian's Chromium on a 390 x 844 touch screen and at 320 px:
three games in a row started by taps, the series after each on the scoreboard, the game-over block and the
list; the pair's figures against `ginscore stats --json`; two phones saving different hands; the Oklahoma
up-card tapped. Each new screen passes axe, the contrast check and the no-sideways-scroll check.

The server, the phones and the checks are those of test_serve_browser.py; every request goes to 127.0.0.1.
"""

from __future__ import annotations

import json
import re
import subprocess
import tomllib
from typing import Any

import test_serve_browser
from browsers import expect
from test_export_browser import assert_no_sideways_scroll
from test_pad_entry_browser import expected_refusals, start
from test_serve_browser import GINSCORE, Phone, Server, check_page, record_counts, show_json

from ginscore.match.stats import STAT_ROWS, stat_text

server = test_serve_browser.server  # the fixtures: a server of this file's own, and a phone on it
phone = test_serve_browser.phone

NARROW = {"width": 320, "height": 700}


def stats_json(server: Server) -> dict[str, Any]:
    result = subprocess.run([GINSCORE, "stats", str(server.folder), "--json", "--no-cache"], capture_output=True, text=True, timeout=30)
    assert result.returncode == 0, result.stderr
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def shown_table(page: Any) -> dict[str, list[str]]:
    """The figures table of a stats page: each row's label and its cells."""
    rows = page.locator(".stats-table tbody tr")
    return {row.locator("th").inner_text(): row.locator("td").all_inner_texts() for row in rows.all()}


def fits_narrow(page: Any) -> None:
    """At 320 px nothing scrolls sideways; back to the phone's 390 after."""
    page.set_viewport_size(NARROW)
    assert_no_sideways_scroll(page, NARROW["width"])
    page.set_viewport_size(test_serve_browser.PHONE)


def test_three_games_in_a_row_by_taps_and_the_series_after_each_on_every_screen(phone: Phone, server: Server) -> None:
    page = phone.page
    start(page, "evening.toml", target="30", dealer="Ann")
    expect(page.locator(".board-series")).to_have_text("Ann and Bob: their figures")  # no game finished yet
    winners = ["Ann", "Bob", "Bob"]
    wins = {"Ann": 0, "Bob": 0}
    names = ["evening.toml"]
    for number, winner in enumerate(winners, start=1):
        loser = "Bob" if winner == "Ann" else "Ann"
        record_counts(phone, winner, 0, 30)  # a gin: 25 + 30 reaches the target of 30
        wins[winner] += 1
        series = f"Series: Ann {wins['Ann']} – Bob {wins['Bob']}"
        expect(page.locator(".result-series")).to_have_text(f"After this game: {series}")  # the game-over block
        final = show_json(server, names[-1])["final"]
        page.goto(server.base + "/")
        entry = page.locator(".match-entry", has=page.locator(f"text={names[-1]}"))
        expect(entry.locator(".score")).to_have_text(f"{winner} won {final[winner]} – {final[loser]}")
        expect(page.locator(".pair-heading")).to_have_text(f"Ann vs Bob {series}")
        if number == 1:
            check_page(page)  # the list with a finished match, its pair heading and the players offered
            fits_narrow(page)
        page.go_back()
        if number == len(winners):
            break
        page.get_by_role("button", name="Start the next game").tap()  # the winner deals: no other tap needed
        page.wait_for_url(lambda url: url.endswith(".toml") and url.rsplit("/", 1)[1] not in names)
        names.append(page.url.rsplit("/", 1)[1])
        expect(page.locator(".board-series a")).to_have_text(series)  # the new game's scoreboard, under the totals
        if number == 1:
            check_page(page)
            fits_narrow(page)

    page.locator(".result-series a").tap()  # the pair's figures, from the final scoreboard
    page.wait_for_url("**/stats/pair?*")
    expect(page.locator("h1")).to_have_text("Ann vs Bob")
    pair = next(p for p in stats_json(server)["pairs"] if sorted(p["players"]) == ["Ann", "Bob"])
    assert pair["by_player"]["Bob"]["games_won"] == 2 and pair["by_player"]["Ann"]["games_won"] == 1
    expected = {label: [stat_text(key, pair["by_player"][name][key]) for name in ("Ann", "Bob")] for label, key in STAT_ROWS}
    assert shown_table(page) == expected
    check_page(page)
    fits_narrow(page)

    phone.tap("link", "Bob against everyone")
    page.wait_for_url("**/stats/player?*")
    shown = shown_table(page)
    assert shown == {label: [stat_text(key, pair["by_player"]["Bob"][key])] for label, key in STAT_ROWS}  # one opponent
    check_page(page)
    fits_narrow(page)

    phone.tap("link", "All players")
    page.wait_for_url("**/stats")
    expect(page.get_by_role("link", name="Ann vs Bob")).to_be_visible()
    check_page(page)
    fits_narrow(page)


def test_a_hand_saved_meanwhile_that_differs_is_shown_beside_mine_and_mine_is_recorded_as_well(browser: Any, server: Server) -> None:
    a, b = Phone(browser, server), Phone(browser, server)
    try:
        start(a.page, "apart.toml")
        entries = ((a, "Ann", "2", "12"), (b, "Bob", "5", "25"))
        for one, knocker, mine, theirs in entries:
            one.page.goto(server.base + "/m/apart.toml/record")
            one.page.get_by_text(knocker, exact=True).tap()
            one.page.get_by_label("Knocker's count").fill(mine)
            one.page.get_by_label("Opponent's count").fill(theirs)
            one.page.locator(".preview-words").wait_for()
        a.tap("button", "Save the hand")
        a.page.wait_for_url(re.compile(r"\?recorded=1$"))
        b.tap("button", "Save the hand")
        since = b.page.locator(".recorded-since")
        expect(since).to_be_visible()
        expect(since.locator("li").first).to_contain_text("Hand 1: Ann knocked, counts 2 / 12")
        expect(since.locator("li.mine")).to_contain_text("Yours: Bob knocked, counts 5 / 25")
        main = since.locator(".buttons .primary")
        expect(main).to_have_text("Record mine as well")  # they differ: mine is the likelier to be wanted
        expect(since.get_by_role("link", name="Discard mine")).to_be_visible()
        check_page(b.page)
        main.tap()
        b.page.wait_for_url(re.compile(r"\?recorded=2$"))
        hands = show_json(server, "apart.toml")["hands"]
        assert [(hand["knocker"], hand["derived"]["deadwood"], hand["derived"]["opponent_deadwood"]) for hand in hands] == [("Ann", 2, 12), ("Bob", 5, 25)]
        expected_refusals(b, 409)
    finally:
        a.close()
        b.close()


def test_the_oklahoma_up_card_is_chosen_by_one_tap_and_the_ledger_says_it_with_its_suit(phone: Phone, server: Server) -> None:
    page = phone.page
    page.locator("#player1").fill("Ann")
    page.locator("#player2").fill("Bob")
    page.get_by_label("File name").fill("okla")
    page.get_by_label("Rules", exact=True).select_option("oklahoma")
    phone.tap("button", "Start the match")
    page.wait_for_url("**/m/okla.toml")  # ".toml" added to the typed name
    phone.tap("link", "Record a hand")
    page.get_by_text("Ann", exact=True).tap()
    page.get_by_label("Knocker's count").fill("3")
    page.get_by_label("Opponent's count").fill("20")
    upcard = page.get_by_role("group", name="Up-card (knock card)")
    upcard.locator("label", has_text="7♥").tap()  # the up-card: one tap on its card
    expect(upcard.get_by_role("radio", name="7 of hearts")).to_be_checked()
    expect(page.locator(".preview-words")).to_be_visible()
    check_page(page)
    fits_narrow(page)
    phone.tap("button", "Save the hand")
    page.wait_for_url(re.compile(r"\?recorded=1$"))
    assert tomllib.loads((server.folder / "okla.toml").read_text(encoding="utf-8"))["hands"][0]["upcard"] == "7h"
    expect(page.locator("main")).to_contain_text("7♥")
    assert "up-card 7h" not in page.locator("main").inner_text()

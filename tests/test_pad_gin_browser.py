"""The record page's fewer taps in Debian's Chromium on a touch phone, 390 x 844 and 320 px wide: a gin by one tap,
Save off with its reason while the preview refuses the hand and on again once it is mended, and the preview's
spread with its deadwood and the discard marked; axe on the page with the Gin button and with Save off.

The server, the phones and the checks are those of test_serve_browser.py; every request goes to 127.0.0.1.
"""

from __future__ import annotations

import re
import tomllib
from typing import Any

import pytest
import test_serve_browser
from browsers import expect
from test_export_browser import assert_no_sideways_scroll
from test_pad_entry_browser import cards_entered, pick, start
from test_serve_browser import Phone, Server, check_page, show_json

server = test_serve_browser.server  # the fixtures: a server of this file's own, and a phone on it
phone = test_serve_browser.phone

ILLEGAL_K = "3h 4h 5h Ks Kc Kd 7c 9d Jc Qd"
"""Two melds and 7 + 9 + 10 + 10 = 36 deadwood: over the knock limit of 10."""
OPPONENT = "Qh Jd 5s 6s 7s Jh 4d 6h 2c Ac"


def narrow(page: Any) -> None:
    """The page at 320 px: nothing scrolls sideways there either."""
    page.set_viewport_size({"width": 320, "height": 844})
    assert_no_sideways_scroll(page, 320)
    page.set_viewport_size(test_serve_browser.PHONE)


@pytest.mark.parametrize("width", [390, 320])
def test_a_gin_by_one_tap(phone: Phone, server: Server, width: int) -> None:
    page = phone.page
    page.set_viewport_size({"width": width, "height": 844})
    file = f"gin{width}.toml"
    start(page, file)
    phone.tap("link", "Record a hand")
    page.get_by_text("Ann", exact=True).tap()
    count, theirs = page.get_by_label("Knocker's count"), page.get_by_label("Opponent's count")
    count.fill("7")
    phone.tap("button", "Gin")
    expect(count).to_have_value("0")
    expect(theirs).to_be_focused()  # the one count left to type comes next
    page.keyboard.type("30")
    expect(page.locator(".preview-words")).to_have_text("gin: Ann scores 50", use_inner_text=True)  # 20 + 30
    assert page.url.endswith("/record")  # the tap went nowhere: no page was sent
    if width == 390:
        check_page(page)
    else:
        assert_no_sideways_scroll(page, width)
    phone.tap("button", "Save the hand")
    page.wait_for_url(re.compile(r"\?recorded=1$"))
    hand = show_json(server, file)["hands"][0]
    assert (hand["derived"]["result"], hand["derived"]["winner"], hand["derived"]["points"], hand["deadwood"]) == ("gin", "Ann", 50, 0)


def test_save_is_off_with_its_reason_on_an_illegal_knock_and_on_again_once_mended(phone: Phone, server: Server) -> None:
    page = phone.page
    cards_entered(phone, "illegal.toml", ILLEGAL_K, OPPONENT)
    expect(page.locator("#preview-heading")).to_have_text("This hand cannot be recorded as it is", use_inner_text=True)
    save = page.get_by_role("button", name="Save the hand", exact=True)
    expect(save).to_be_disabled()
    reason = page.locator("#save-reason")
    expect(reason).to_be_visible()
    expect(reason).to_have_text(re.compile(r"^Save waits until the hand can be recorded: illegal knock: 36 deadwood is over the knock limit of 10"))
    expect(save).to_have_accessible_description(re.compile(r"^Save waits until the hand can be recorded: illegal knock: 36 deadwood"))
    check_page(page)  # axe on the page with Save off
    narrow(page)
    page.locator("button[data-side-button=knocker]").tap()
    pick(page, "9d Jc Qd 8c 9c 2d")  # 9d Jc Qd out, 8c 9c 2d in: 2 deadwood
    expect(page.locator("#preview-heading")).to_have_text("This hand will score", use_inner_text=True)
    expect(save).to_be_enabled()
    expect(reason).to_be_hidden()
    assert save.get_attribute("aria-describedby") is None
    # the spread laid down: its melds as chips, the deadwood marked in words and by its look, no discard for 10 cards
    melds = page.locator(".laid-down .meld:not(.deadwood-cards)")
    expect(melds).to_have_text(["3♥4♥5♥", "7♣8♣9♣", "K♣K♦K♠"])
    expect(page.locator(".laid-down .deadwood-cards")).to_have_text("deadwood 2♦", use_inner_text=True)
    assert page.locator(".laid-down .card-chip.dead").evaluate("chip => getComputedStyle(chip).borderStyle") == "dashed"
    assert page.locator(".laid-down .discarded").count() == 0
    pick(page, "9h")  # 11 cards: the 9♥ is the discard
    expect(page.locator(".laid-down .discarded")).to_have_text("discarded 9♥", use_inner_text=True)
    expect(page.locator(".laid-down .deadwood-cards .card-chip")).to_have_text(["2♦"])
    expect(page.locator("#discard option")).to_have_text(["the best one", "3♥", "4♥", "5♥", "K♠", "K♣", "K♦", "7♣", "8♣", "9♣", "2♦", "9♥"])
    check_page(page)
    save.tap()
    page.wait_for_url(re.compile(r"\?recorded=1$"))
    hand = show_json(server, "illegal.toml")["hands"][0]
    assert (hand["derived"]["result"], hand["derived"]["winner"], hand["derived"]["deadwood"]) == ("knock", "Ann", 2)
    [stored] = tomllib.loads((server.folder / "illegal.toml").read_text(encoding="utf-8"))["hands"]
    assert stored["spread"] == "3h 4h 5h | 7c 8c 9c | Kc Kd Ks | 2d" and "9h" in stored["knocker_cards"].split()  # 9h discarded
    ledger = page.locator("#hand-1 .detail .bit").all_inner_texts()
    assert "Ann laid down 3♥ 4♥ 5♥ | 7♣ 8♣ 9♣ | K♣ K♦ K♠ | (2♦) (discarded 9♥)" in ledger, ledger

"""The next step on the first screen of a phone, 320 and 390 px wide by 844 tall, in Chromium: the header's links
on one line, the game-over verdict with both final totals (a row a player) and "Start the next game", an illegal
knock's reason under the preview's heading (by counts, and by cards above the picker), and an empty folder's
new-match form; and the check's up-card offered only under rules that use it.

With GINSCORE_PICTURES=FOLDER, serve's pictures for the docs (tests/pictured.py) are taken there too
(docs/make_pictures.sh).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browsers import expect
from pages import served_in_process
from pictured import PHONE, SERVED, STYLE, fingerprint, fingerprints, pictured_folder

TOKEN = "first-screen-token"
SCREENS = ({"width": 320, "height": 844}, {"width": 390, "height": 844})

BOXES = """selector => [...document.querySelectorAll(selector)].map(e => {
  const box = e.getBoundingClientRect(), shown = e.cloneNode(true);
  shown.querySelectorAll(".visually-hidden").forEach(hidden => hidden.remove());
  return {text: shown.textContent.trim(), top: box.top, bottom: box.bottom, left: box.left, right: box.right};
})"""
"""Each element's text as shown (without what only a screen reader says) and box in the viewport, unscrolled."""
PICKED = """([knocker, opponent]) => {
  document.querySelector("input[data-side=knocker]").value = knocker.join(" ");
  document.querySelector("input[data-side=opponent]").value = opponent.join(" ");
}"""
"""Cards put in the picker's two fields as its taps leave them, so that one real tap completes the hand."""
KNOCKER_CARDS = "3h 4h 5h Ks Kc Kd 7c 9c Qd Jd".split()
"""Three melds and 36 deadwood: over the knock limit of 10."""
OPPONENT_CARDS = "Qh 2d 5s 6s 7s Jc 4d 8h 2c Ac".split()
FIVE = "3h 4h 5h Ks Kc Kd 7c 8c 9c 5d".split()
"""Three melds and 5 deadwood: a knock under a limit of 10, not under the 3♦'s 3."""


@pytest.fixture(scope="module")
def sites(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    """Two servers: one over the pictured matches, one over an empty folder."""
    folder = pictured_folder(tmp_path_factory.mktemp("pictured"))
    empty = tmp_path_factory.mktemp("empty")
    with served_in_process(folder, TOKEN) as port, served_in_process(empty, TOKEN) as bare:
        yield f"http://127.0.0.1:{port}", f"http://127.0.0.1:{bare}"


def on_screen(page: Any, selector: str, screen: dict[str, int]) -> list[dict[str, Any]]:
    """The boxes of `selector`, after checking that there is one and each lies wholly within the first screen."""
    boxes = page.evaluate(BOXES, selector)
    assert boxes, f"nothing matches {selector}"
    for box in boxes:
        assert 0 <= box["top"] < box["bottom"] <= screen["height"], (screen["width"], selector, box)
        assert 0 <= box["left"] < box["right"] <= screen["width"], (screen["width"], selector, box)
    return boxes


def one_line(page: Any, selector: str) -> list[str]:
    """The texts of `selector`, after checking that they all stand on one line."""
    boxes = page.evaluate(BOXES, selector)
    assert len({round(box["top"]) for box in boxes}) == 1 and all(box["bottom"] - box["top"] < 50 for box in boxes), boxes
    return [box["text"] for box in boxes]


def test_the_next_step_is_within_the_first_screen_at_320_and_390_px(browser: Any, sites: tuple[str, str]) -> None:
    base, bare = sites
    for screen in SCREENS:
        context = browser.new_context(viewport=screen, has_touch=True, is_mobile=True)
        page = context.new_page()
        page.set_default_timeout(10_000)
        try:
            page.goto(f"{base}/?token={TOKEN}")
            assert one_line(page, "header.top nav a") == ["Matches", "Check", "Standings", "Players"]
            check = page.get_by_role("navigation", name="Site").get_by_role("link", name="Check a hand", exact=True)
            expect(check).to_have_accessible_name("Check a hand")  # the short word shown, the whole name said

            # game over, just after the winning hand: the verdict, both finals, a row a player, and the next game
            page.goto(f"{base}/m/won.toml?recorded=4")
            assert [box["text"] for box in on_screen(page, ".result-title", screen)] == ["Ann wins by 219."]
            assert [box["text"] for box in on_screen(page, ".result-block .board-total", screen)] == ["268", "49"]
            finals = on_screen(page, ".final-totals .end-final td", screen)
            assert [box["text"] for box in finals] == ["268", "49"]
            assert finals[0]["bottom"] <= finals[1]["top"]  # a row each
            for at, figures in ((1, ["108", "3", "100", "60", "268"]), (2, ["29", "1", "0", "20", "49"])):
                row = on_screen(page, f".final-totals tbody td:nth-of-type({at})", screen)
                assert [box["text"] for box in row] == figures
                name = on_screen(page, f".final-totals thead th:nth-of-type({at})", screen)[0]
                assert len({round(box["bottom"]) for box in row}) == 1 and name["bottom"] >= row[0]["top"], (name, row)
            assert [box["text"] for box in on_screen(page, "main .primary", screen)] == ["Start the next game"]
            assert one_line(page, "header.top nav a") == ["Matches", "Check", "Standings", "Players"]
            page.goto(f"{base}/m/hollywood-won.toml?recorded=6")  # three games' notes and a shutout bonus column
            assert [box["text"] for box in on_screen(page, ".result-block .board-total", screen)] == ["1204", "270"]
            assert [box["text"] for box in on_screen(page, ".final-totals .end-final td", screen)] == ["1204", "270"]
            assert [box["text"] for box in on_screen(page, "main .primary", screen)] == ["Start the next game"]

            # an illegal knock: the reason under the preview's heading, within the first screen, describing Save
            page.goto(f"{base}/m/twelve.toml/record")
            page.locator('label[for="knocker-1"]').tap()
            page.locator("#deadwood").fill("15")
            page.locator("#opponent_deadwood").fill("30")
            reason = page.locator(".preview #save-reason")
            expect(reason).to_have_text(
                "Save waits until the hand can be recorded: illegal knock: 15 deadwood is over the knock limit of 10, so "
                "the hand goes on with the knocker's cards face up and nothing is scored.")
            heading = on_screen(page, "#preview-heading", screen)[0]
            assert heading["bottom"] <= on_screen(page, "#save-reason", screen)[0]["top"]
            save = page.get_by_role("button", name="Save the hand")
            expect(save).to_be_disabled()
            expect(save).to_have_accessible_description(reason.inner_text())
            assert page.locator("#big_gin").count() == 0  # standard rules pay no big gin
            page.locator("#deadwood").fill("5")  # mended: Save on, the reason gone
            expect(save).to_be_enabled()
            expect(page.locator("#save-reason")).to_be_hidden()

            # the same by cards: the reason under the heading, above the picker, within the first screen
            page.goto(f"{base}/m/twelve.toml/record")
            page.locator('label[for="knocker-1"]').tap()
            page.locator('label[for="how-cards"]').tap()
            page.locator('button[name="side"][value="opponent"]').tap()
            page.evaluate(PICKED, [KNOCKER_CARDS, OPPONENT_CARDS[:-1]])  # nineteen cards, then the last one tapped
            page.locator(f'.picker button.card[value="{OPPONENT_CARDS[-1]}"]').tap()
            reason = page.locator(".preview #save-reason")
            expect(reason).to_have_text(
                "Save waits until the hand can be recorded: illegal knock: 36 deadwood is over the knock limit of 10, so "
                "the hand goes on with the knocker's cards face up and nothing is scored.")
            page.evaluate("window.scrollTo(0, 0)")
            heading = on_screen(page, "#preview-heading", screen)[0]
            said = on_screen(page, ".preview #save-reason", screen)[0]
            assert heading["bottom"] <= said["top"] and said["bottom"] <= page.evaluate(BOXES, ".picker")[0]["top"]
            expect(save).to_be_disabled()
            expect(save).to_have_accessible_description(reason.inner_text())
            assert page.evaluate(BOXES, ".hand-check")[0]["top"] > said["bottom"]  # the cards' own answer stays by Save

            # an empty folder: the new-match form starts within the first screen
            page.goto(f"{bare}/?token={TOKEN}")
            on_screen(page, "#new-heading", screen)
            on_screen(page, "#player1", screen)
            assert one_line(page, "header.top nav a") == ["Matches", "Check", "Standings", "Players"]
        finally:
            context.close()


def test_the_check_offers_the_up_card_only_under_rules_that_use_it(browser: Any, sites: tuple[str, str]) -> None:
    base, _ = sites
    context = browser.new_context(viewport=SCREENS[0], has_touch=True, is_mobile=True)
    page = context.new_page()
    page.set_default_timeout(10_000)
    try:
        page.goto(f"{base}/?token={TOKEN}")
        page.goto(f"{base}/check")
        upcard = page.get_by_label("Up-card")
        expect(page.get_by_label("Rules")).to_have_value("standard")
        expect(upcard).to_be_hidden()
        page.get_by_label("Rules").select_option("oklahoma")
        expect(upcard).to_be_visible()
        for card in FIVE:
            page.locator(f'.picker button.card[value="{card}"]').tap()
        expect(page.locator(".knock-verdict")).to_have_text("Pick the up-card: its value is the knock limit.")
        upcard.select_option("3d")
        expect(page.locator(".knock-verdict")).to_have_text("You cannot knock: 5 deadwood, limit 3.")
        page.get_by_label("Rules").select_option("tournament")  # the 3♦ left picked, no longer offered nor counted
        expect(upcard).to_be_hidden()
        expect(page.locator(".knock-verdict")).to_have_text("You can knock: 5 deadwood, limit 10.")
    finally:
        context.close()


def test_the_docs_pictures(browser: Any, sites: tuple[str, str]) -> None:
    """With GINSCORE_PICTURES=FOLDER, serve's pictures of tests/pictured.py saved there: the first screen of a 390 x
    844 phone (docs/make_pictures.sh, which then stores each page's fingerprint). Each page photographed has the
    fingerprint the same page has rendered in process, so that the one stored is the picture's."""
    pictures = os.environ.get("GINSCORE_PICTURES")
    if not pictures:
        pytest.skip("GINSCORE_PICTURES is not set: no pictures to take")
    base, _ = sites
    expected = fingerprints()  # what docs/pictures.json will hold: each page as rendered in process
    style = STYLE.read_text(encoding="utf-8")
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True, device_scale_factor=2)
    page = context.new_page()
    try:
        page.goto(f"{base}/?token={TOKEN}")
        for shown in SERVED:
            page.emulate_media(color_scheme="dark" if shown.dark else "light")
            answer = page.goto(base + shown.path)
            assert answer is not None and fingerprint(answer.text(), style) == expected[shown.picture], shown
            if shown.scroll_to:
                page.locator(shown.scroll_to).scroll_into_view_if_needed()
            page.screenshot(path=str(Path(pictures) / shown.picture), scale="css")
    finally:
        context.close()

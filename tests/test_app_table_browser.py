"""An evening at the table in `ginscore app`, offline, on a 390 x 844 touch screen and at 320 px: three games in a
row started by taps, the series after each on the game-over screen, the next game's scoreboard and the list, the
pair's figures against `ginscore stats --json` over the files the phone keeps; and "Share the result": the card
is asked of the worker's Python through the page's host, drawn, and downloaded as a PNG where the phone cannot
share files. Few tests, each doing much: the app's tests are slow.

It uses test_app_browser.py's phone (the app built, opened online once, then offline), its own copy for this module.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from browsers import expect
from result_svg import read_card
from test_app_browser import Phone, finished_match, ginscore, phone, ready, record_counts, visit  # noqa: F401 (phone is the fixture)
from test_export_browser import assert_no_sideways_scroll
from test_serve_browser import check_page
from test_share_browser import NO_SHARE, SHARE, png_pixels

from ginscore.match.stats import STAT_ROWS, stat_text

NARROW = {"width": 320, "height": 700}
PHONE = {"width": 390, "height": 844}


def fits_narrow(page: Any) -> None:
    page.set_viewport_size(NARROW)
    assert_no_sideways_scroll(page, NARROW["width"])
    page.set_viewport_size(PHONE)


def shown_route(url: str) -> str:
    """The app's route in an address: `/m/NAME` of `.../#/m/NAME?recorded=1`."""
    return url.split("#", 1)[1].split("?", 1)[0]


def test_three_games_in_a_row_by_taps_and_the_series_after_each_and_the_figures_of_stats_json(phone: Phone, tmp_path: Path):  # noqa: F811
    page = phone.page()
    page.goto(phone.host.url)
    ready(page)
    page.locator("#player1").fill("Cy")
    page.locator("#player2").fill("Dee")
    page.get_by_label("File name").fill("evening")
    page.get_by_label("Target").fill("30")
    page.locator(".big-choice label", has_text="Cy").tap()
    page.get_by_role("button", name="Start the match", exact=True).tap()
    page.wait_for_url("**#/m/evening.toml")
    expect(page.locator(".board-series")).to_have_text("Cy and Dee: their figures")
    wins = {"Cy": 0, "Dee": 0}
    names = ["evening.toml"]
    for number, winner in enumerate(("Cy", "Dee", "Dee"), start=1):
        record_counts(page, winner, 0, 30)  # a gin: 25 + 30 reaches the target of 30
        wins[winner] += 1
        series = f"Series: Cy {wins['Cy']} – Dee {wins['Dee']}"
        expect(page.locator(".result-series")).to_have_text(f"After this game: {series}")
        visit(page, "/")
        entry = page.locator(".match-entry", has=page.locator(f"text={names[-1]}"))
        expect(entry.locator(".score")).to_have_text(re.compile(rf"^{winner} won \d+ – \d+$"))
        expect(page.locator(".pair-heading", has_text="Cy vs Dee")).to_have_text(f"Cy vs Dee {series}")
        visit(page, "/m/" + names[-1])
        if number == 3:
            break
        page.get_by_role("button", name="Start the next game").tap()
        page.wait_for_url(lambda url: "#/m/" in url and shown_route(url).rsplit("/", 1)[1] not in names)
        names.append(shown_route(page.url).rsplit("/", 1)[1])
        expect(page.locator(".board-series a")).to_have_text(series)
        if number == 1:
            fits_narrow(page)
    kept = page.evaluate("import('./store.js').then(store => store.texts())")
    for name in names:
        (tmp_path / name).write_text(kept[name], encoding="utf-8")
    figures = ginscore("stats", tmp_path, "--json", "--no-cache")
    assert figures.exit_code == 0, figures.stderr
    pair = next(p for p in json.loads(figures.stdout)["pairs"] if sorted(p["players"]) == ["Cy", "Dee"])
    page.locator(".result-series a").tap()
    page.wait_for_url("**#/stats/pair?*")
    rows = page.locator(".stats-table tbody tr")
    shown = {row.locator("th").inner_text(): row.locator("td").all_inner_texts() for row in rows.all()}
    assert shown == {label: [stat_text(key, pair["by_player"][name][key]) for name in ("Cy", "Dee")] for label, key in STAT_ROWS}
    check_page(page)
    fits_narrow(page)
    page.close()
    assert phone.problems == []


def test_share_the_result_downloads_the_card_as_a_png_in_the_app(phone: Phone, tmp_path: Path):  # noqa: F811
    page = phone.page()
    page.add_init_script(NO_SHARE)
    page.goto(phone.host.url)
    ready(page)
    finished_match(page, "shared.toml")
    visit(page, "/m/shared.toml")
    button = page.get_by_role("button", name=SHARE)
    expect(button).to_be_visible()
    expect(page.get_by_role("link", name="The result as a picture")).to_be_hidden()
    with page.expect_download() as downloading:
        button.tap()
    assert downloading.value.suggested_filename == "shared-result.png"
    path = tmp_path / "result.png"
    downloading.value.save_as(path)
    width, height, _ = png_pixels(path.read_bytes())
    svg = page.evaluate("window.ginscoreApp.call('GET', '/m/shared.toml/result.svg').then(answer => new TextDecoder().decode(answer.body))")
    card = read_card(svg)
    assert (width, height) == (2 * card.width, 2 * card.height)
    assert card.headline == page.locator(".result-title").inner_text() == "Ann wins by 270."  # 30 + 20 for gin, 200 for the shutout, 20 for the box
    expect(page.locator(".share-said")).to_have_text("")
    page.close()
    assert phone.problems == []

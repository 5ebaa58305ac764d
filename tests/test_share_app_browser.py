""""Share the result" in `ginscore app`, offline: the card is asked of the worker's Python through the page's host,
drawn, and downloaded as a PNG where the phone cannot share files. One test: the app's tests are slow.

It uses test_app_browser.py's phone (the app built, opened online once, then offline), its own copy for this module.
"""

from __future__ import annotations

from pathlib import Path

from browsers import expect
from result_svg import read_card
from test_app_browser import Phone, finished_match, phone, ready, visit  # noqa: F401 (phone is the fixture)
from test_share_browser import NO_SHARE, SHARE, png_pixels


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

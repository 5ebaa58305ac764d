""""Share the result" on `ginscore serve`'s game-over screen, in Chromium at 390 x 844 with touch (and at 320 px):
the PNG the page draws from the result card's SVG, downloaded where the phone cannot share files and handed to
the Web Share API where it can (downloaded when the share comes too long after the tap); a cancelled share says
nothing, a failed one says so.

Skipped without Playwright or Chromium, failed instead under CI (CI=true), as tests/browsers.py says.
"""

from __future__ import annotations

import io
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browsers import expect
from pages import SAMPLES
from result_svg import read_card
from test_export_browser import assert_no_sideways_scroll
from test_serve_browser import GINSCORE, PHONE, Phone, Server, check_page

SHARE = "Share the result"
NO_SHARE = "delete Navigator.prototype.share; delete Navigator.prototype.canShare;"
STUB_SHARE = """
window.shared = [];
window.shareAnswer = "ok";
Navigator.prototype.canShare = function (data) { return !!(data && data.files && data.files.length); };
Navigator.prototype.share = function (data) {
  window.shared.push({ files: data.files.map(file => ({ name: file.name, type: file.type, size: file.size })),
                       title: data.title, text: data.text });
  if (window.shareAnswer === "abort") return Promise.reject(new DOMException("Share canceled", "AbortError"));
  if (window.shareAnswer === "fail") return Promise.reject(new DOMException("No share target", "DataError"));
  if (window.shareAnswer === "late") return Promise.reject(new DOMException("Must be handling a user gesture", "NotAllowedError"));
  return Promise.resolve();
};
"""
"""A phone that shares files: what each share was given, and how it answers (`shareAnswer`)."""


def ginscore(*args: str) -> None:
    result = subprocess.run([GINSCORE, *args], capture_output=True, text=True, timeout=30)
    assert result.returncode == 0, result.stderr


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, browser: Any) -> Iterator[Server]:
    folder = tmp_path_factory.mktemp("shared")
    (folder / "standard.toml").write_bytes((SAMPLES / "standard.toml").read_bytes())
    for number, winner in enumerate(("Bob", "Ann"), start=1):  # a series before the last game: Ann 1 – Bob 1
        ginscore("new", str(folder / f"game{number}.toml"), "Ann", "Bob")
        ginscore("record", str(folder / f"game{number}.toml"), "--knocker", winner, "--deadwood", "0", "--opponent-deadwood", "90")
    running = Server(folder)
    yield running
    running.stop()


@pytest.fixture
def phone(browser: Any, server: Server) -> Iterator[Phone]:
    one = Phone(browser, server)
    yield one
    own = "blob:" + server.base + "/"  # the pictures the page made itself, read in the browser, never sent
    one.requests[:] = [url for url in one.requests if not url.startswith(own)]
    one.close()


def game_over(phone: Phone, name: str, init_script: str) -> Any:
    page = phone.page
    page.add_init_script(init_script)
    page.goto(f"{phone.server.base}/m/{name}")
    expect(page.get_by_role("button", name=SHARE)).to_be_visible()
    expect(page.get_by_role("link", name="The result as a picture")).to_be_hidden()
    return page


def png_picture(data: bytes) -> Any:
    """A PNG as Pillow reads it, held to the 8-bit RGB or RGBA picture a canvas makes."""
    from PIL import Image

    picture = Image.open(io.BytesIO(data))
    assert picture.format == "PNG" and picture.mode in ("RGB", "RGBA"), (picture.format, picture.mode)
    return picture.convert("RGB")


def dark_share(picture: Any) -> float:
    """The share of pixels that are ink (each channel under 100), not the white card."""
    from PIL import ImageChops

    red, green, blue = picture.split()
    brightest = ImageChops.lighter(ImageChops.lighter(red, green), blue)
    return sum(brightest.histogram()[:100]) / (picture.width * picture.height)


def test_without_web_share_the_tap_downloads_the_card_as_a_png_twice_its_size(phone: Phone, tmp_path: Path):
    page = game_over(phone, "standard.toml", NO_SHARE)
    picture = page.get_by_role("button", name=SHARE).get_attribute("data-share")
    with page.expect_download() as downloading:
        phone.tap("button", SHARE)
    download = downloading.value
    assert download.suggested_filename == "standard-result.png"
    path = tmp_path / "result.png"
    download.save_as(path)
    drawn = png_picture(path.read_bytes())
    svg = page.evaluate("url => fetch(url).then(answer => answer.text())", picture)
    card = read_card(svg)
    assert drawn.size == (2 * card.width, 2 * card.height)
    assert drawn.getpixel((0, 0)) == (255, 255, 255) and 0.01 < dark_share(drawn) < 0.5  # the card drawn, not a blank canvas
    # the picture's text is the game-over screen's
    block = page.locator(".result-block")
    assert [total for _, total, _, _ in card.players] == block.locator(".board-total").all_inner_texts()
    assert [name for name, _, _, _ in card.players] == block.locator(".board-name").all_inner_texts()
    shown = {row.locator("th").inner_text(): row.locator("td").all_inner_texts()
             for row in block.locator(".final-totals tbody tr").all()}
    assert card.rows == shown
    assert card.headline == block.locator(".result-title").inner_text()
    assert card.series == "Series: Maria 0 – Tom 1" and card.series in block.locator(".result-series").inner_text()
    expect(page.locator(".share-said")).to_have_text("")


def test_where_the_phone_shares_files_the_tap_shares_one_png(phone: Phone):
    page = game_over(phone, "game2.toml", STUB_SHARE)
    phone.tap("button", SHARE)
    page.wait_for_function("() => window.shared.length === 1")
    shared = page.evaluate("window.shared[0]")
    assert [(file["name"], file["type"]) for file in shared["files"]] == [("game2-result.png", "image/png")]
    assert shared["files"][0]["size"] > 1000
    assert shared["title"] == "Ann vs Bob" and shared["text"] == "Ann wins by 330. Series: Ann 1 – Bob 1"
    button = page.get_by_role("button", name=SHARE)
    expect(button).to_be_enabled()
    expect(page.locator(".share-said")).to_have_text("")

    page.evaluate("window.shareAnswer = 'abort'")  # the person closed the share sheet: nothing to say
    button.tap()
    page.wait_for_function("() => window.shared.length === 2")
    expect(button).to_be_enabled()
    expect(page.locator(".share-said")).to_have_text("")

    page.evaluate("window.shareAnswer = 'late'")  # the tap's moment had passed when the picture was ready
    with page.expect_download() as downloading:
        button.tap()
    assert downloading.value.suggested_filename == "game2-result.png"
    expect(button).to_be_enabled()
    expect(page.locator(".share-said")).to_have_text("")

    page.evaluate("window.shareAnswer = 'fail'")
    button.tap()
    expect(page.get_by_role("status").filter(has_text="picture")).to_have_text("The picture could not be made or shared. Try again.")
    expect(button).to_be_enabled()
    assert page.evaluate("window.shared.length") == 4


def test_the_game_over_screen_with_its_share_button_passes_axe_and_fits_320_px(browser: Any, phone: Phone, server: Server):
    page = game_over(phone, "standard.toml", NO_SHARE)
    check_page(page)
    narrow = browser.new_context(viewport={"width": 320, "height": 700}, has_touch=True, is_mobile=True)
    try:
        small = narrow.new_page()
        small.goto(server.url)
        small.goto(f"{server.base}/m/standard.toml")
        button = small.get_by_role("button", name=SHARE)
        expect(button).to_be_visible()
        assert_no_sideways_scroll(small, 320)
        for box in (button.bounding_box(), small.locator(".result-block").bounding_box()):
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 320, box
        assert button.bounding_box()["height"] >= 44
    finally:
        narrow.close()


def test_without_script_the_picture_is_a_link_to_the_svg(browser: Any, server: Server):
    context = browser.new_context(viewport=PHONE, java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto(server.url)
        page.goto(f"{server.base}/m/standard.toml")
        expect(page.get_by_role("button", name=SHARE)).to_be_hidden()
        link = page.get_by_role("link", name="The result as a picture")
        expect(link).to_be_visible()
        answer = page.request.get(server.base + link.get_attribute("href"))
        assert answer.status == 200 and answer.headers["content-type"] == "image/svg+xml"
        assert read_card(answer.text()).headline == "Tom wins by 139."
    finally:
        context.close()

"""The exported pages in a real browser: Playwright drives Debian's Chromium (tests/browsers.py).

Without Playwright or Chromium these tests are skipped, with the reason; under CI (CI=true) they fail instead.
With GINSCORE_PICTURES=FOLDER, the screenshots are saved there: `docs/make_pictures.sh` makes the README's
pictures this way.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import browsers
import pytest
from browsers import expect, require_browser
from pages import HOSTILE, QUOTED, SAMPLE_FILES, write_hostile_hollywood
from typer.testing import CliRunner

from ginscore.cli import app
from ginscore.files import storage
from ginscore.game.rulebook import preset
from ginscore.match.records import HandRecord, Match

PHONE, DESKTOP = 390, 1280


def ginscore(*args: object) -> str:
    result = CliRunner().invoke(app, [str(a) for a in args], env={"NO_COLOR": "1"})
    assert result.exit_code == 0 and result.stderr == "", (args, result.stdout, result.stderr)
    return result.stdout


def write_twenty_hands(path: Path) -> Path:
    """A long but normal match: 20 hands with notes, the last one ending the game."""
    winners = ["Ann", "Bob"] * 10
    records = tuple(
        HandRecord(knocker=who, deadwood=2, opponent_deadwood=14 if number < 20 else 60,
                   note="a long evening at the club" if number % 5 == 0 else "")
        for number, who in enumerate(winners, start=1)
    )
    match = Match(players=("Ann", "Bob"), rules=replace(preset("standard"), target=150), first_dealer="Ann",
                  hands=records, preset="standard")
    path.write_text(storage.dumps(match), encoding="utf-8")
    return path


@pytest.fixture(scope="session")
def exported(tmp_path_factory) -> dict[str, tuple[Path, dict]]:
    """Each sample, the hostile Hollywood match and a 20-hand match: the page and `show --json`."""
    folder = tmp_path_factory.mktemp("exports")
    sources = [*SAMPLE_FILES, write_hostile_hollywood(folder / "hostile.toml"), write_twenty_hands(folder / "twenty.toml")]
    pages = {}
    for source in sources:
        page = folder / f"{source.stem}.html"
        ginscore("show", source, "--export", page)
        pages[source.stem] = (page, json.loads(ginscore("show", "--json", source)))
    return pages


@pytest.fixture(scope="session")
def page(browser) -> Iterator[Any]:
    """One tab for the session; each test loads the page it reads."""
    context = browser.new_context(viewport={"width": DESKTOP, "height": 900})
    yield context.new_page()
    context.close()


SHOWN = ["standard", "oklahoma", "counts_only", "hostile"]


@pytest.mark.parametrize("name", SHOWN)
def test_one_row_a_hand_the_names_the_finals_and_one_line_a_player(page, exported, name):
    path, data = exported[name]
    page.set_viewport_size({"width": DESKTOP, "height": 900})
    page.goto(path.as_uri())
    rows = page.locator("table.hands tbody tr")
    assert rows.count() == len(data["hands"])
    numbers = page.locator("table.hands tbody th[scope=row]").all_inner_texts()
    assert numbers == [str(hand["derived"]["number"]) for hand in data["hands"]]
    headers = page.locator("table.hands thead th").all_inner_texts()
    for player in data["players"]:
        assert player in headers
    finals = {
        row.locator("th").inner_text(): int(row.locator("td.final").inner_text())
        for row in page.locator("table.result tbody tr").all()
    }
    assert finals == data["final"]
    where = " over the three games" if data["hollywood"] else ""
    expect(page.locator("p.verdict")).to_have_text(f"{data['winner']} wins by {data['margin']}{where}.", use_inner_text=True)
    lines = page.locator("figure svg polyline.series")
    assert [line.get_attribute("data-name") for line in lines.all()] == data["players"]
    assert page.locator("figure svg g.point").count() == 2 * len(data["hands"])
    for width in (DESKTOP, PHONE):
        page.set_viewport_size({"width": width, "height": 900})
        assert_no_sideways_scroll(page, width)


def assert_no_sideways_scroll(page: Any, width: int) -> None:
    """The page is no wider than the window; a wider table scrolls inside its own box."""
    widths = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    assert widths[0] <= widths[1] == width, (width, widths)
    for box in page.locator("div.scroll").all():
        inside = box.evaluate("b => [b.scrollWidth, b.clientWidth, getComputedStyle(b).overflowX]")
        assert inside[1] <= width and (inside[0] <= inside[1] or inside[2] == "auto"), (width, inside)


CONTRAST = """() => {
  const rgb = text => text.match(/[\\d.]+/g).map(Number);
  const luminance = ([r, g, b]) => {
    const [R, G, B] = [r, g, b].map(c => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; });
    return 0.2126 * R + 0.7152 * G + 0.0722 * B;
  };
  const background = element => {
    for (let e = element; e; e = e.parentElement) {
      const colour = rgb(getComputedStyle(e).backgroundColor);
      if (colour.length < 4 || colour[3] > 0) return colour.slice(0, 3);
    }
    return [255, 255, 255];
  };
  const worst = [];
  for (const element of document.querySelectorAll("body *")) {
    const own = [...element.childNodes].some(node => node.nodeType === 3 && node.textContent.trim());
    if (!own) continue;
    const style = getComputedStyle(element);
    const ink = rgb(element instanceof SVGElement ? style.fill : style.color).slice(0, 3);
    const [a, b] = [luminance(ink), luminance(background(element))].sort((x, y) => y - x);
    const ratio = (a + 0.05) / (b + 0.05);
    if (ratio < 4.5) worst.push([element.tagName, element.textContent.trim().slice(0, 30), ratio.toFixed(2)]);
  }
  return worst;
}"""


@pytest.mark.parametrize("name", ["standard", "hostile"])
def test_every_text_passes_wcag_aa_contrast(page, exported, name):
    page.set_viewport_size({"width": DESKTOP, "height": 900})
    page.goto(exported[name][0].as_uri())
    assert page.evaluate(CONTRAST) == []
    assert page.evaluate("document.documentElement.lang") == "en"
    scopes = page.evaluate("[...document.querySelectorAll('th')].map(th => th.scope)")
    assert scopes and all(scope in ("col", "colgroup", "row") for scope in scopes)


def test_the_contrast_check_can_fail(page):
    page.set_content('<p style="color: #aaa">pale</p>')
    assert page.evaluate(CONTRAST) == [["P", "pale", "2.32"]]


def test_the_scroll_check_can_fail(page):
    """A page with a 600 px wide block does scroll sideways at 390 px, and the check above says so."""
    page.set_viewport_size({"width": PHONE, "height": 900})
    page.set_content('<div style="width: 600px">wide</div>')
    with pytest.raises(AssertionError):
        assert_no_sideways_scroll(page, PHONE)


TOTALS_ON_SCREEN = """() => {
  const cells = [...document.querySelectorAll(
    "table.hands tbody tr:last-child td.num, table.hands tfoot td.num, table.result td.final")];
  return cells.map(cell => { const box = cell.getBoundingClientRect(); return [cell.textContent, box.left, box.right]; });
}"""


def assert_totals_on_screen(page: Any, width: int) -> None:
    """Every running total of the last hand and every end-of-game figure is inside the window, unscrolled."""
    cells = page.evaluate(TOTALS_ON_SCREEN)
    assert cells, "no totals found"
    off = [cell for cell in cells if not (0 <= cell[1] < cell[2] <= width)]
    assert off == [], (width, off)


@pytest.mark.parametrize("name", [*SHOWN, "twenty"])
def test_on_a_phone_every_players_total_is_on_screen(page, exported, name):
    """At 390 px the dealer and counts columns fold away (the counts go under the result) and notes follow the table."""
    page.set_viewport_size({"width": PHONE, "height": 900})
    page.goto(exported[name][0].as_uri())
    assert_totals_on_screen(page, PHONE)
    assert_no_sideways_scroll(page, PHONE)
    if name == "twenty":
        expect(page.locator("ul.phone-notes li").first).to_have_text("Hand 5: a long evening at the club", use_inner_text=True)
        result = page.locator("table.hands tbody tr").first.locator("td").nth(2)
        expect(result).to_have_text("knock", use_inner_text=True)
        assert result.evaluate("td => getComputedStyle(td, '::after').content") == '"Ann: 2 / 14\\a Ann 12"'
        expect(page.locator("table.hands tbody tr").first.locator("td.minor").first).to_be_hidden()
    page.set_viewport_size({"width": DESKTOP, "height": 900})
    expect(page.locator("ul.phone-notes")).to_be_hidden()


def test_the_totals_check_can_fail(page):
    """Totals pushed past the right edge of a 390 px window are caught."""
    page.set_viewport_size({"width": PHONE, "height": 900})
    page.set_content(
        '<div style="overflow-x: auto"><table class="hands" style="width: 700px"><tbody><tr><td>x</td>'
        '<td class="num" style="padding-left: 600px">12</td></tr></tbody></table></div>'
    )
    with pytest.raises(AssertionError):
        assert_totals_on_screen(page, PHONE)


def test_nothing_is_loaded_from_outside(page, exported):
    requests: list[str] = []

    def note(request: Any) -> None:
        requests.append(request.url)

    page.on("request", note)
    try:
        for name in SHOWN:
            url = exported[name][0].as_uri()
            page.goto(url)
            assert requests == [url], requests
            requests.clear()
        page.set_content('<img src="https://example.invalid/x.png">')  # the listener does see a load
        assert requests == ["https://example.invalid/x.png"]
    finally:
        page.remove_listener("request", note)


def test_a_hostile_name_is_text_and_nothing_runs(page, exported):
    dialogs: list[str] = []

    def note(dialog: Any) -> None:
        dialogs.append(dialog.message)
        dialog.dismiss()

    page.on("dialog", note)
    page.set_viewport_size({"width": DESKTOP, "height": 900})
    page.goto(exported["hostile"][0].as_uri())
    page.wait_for_load_state("load")
    assert page.evaluate("[document.scripts.length, document.images.length]") == [0, 0]
    assert dialogs == []
    expect(page.locator("h1")).to_have_text(f"{HOSTILE} vs {QUOTED}", use_inner_text=True)
    assert page.locator("table.hands thead tr").nth(1).locator("th").all_inner_texts() == [HOSTILE, QUOTED] * 3
    assert page.locator("table.result tbody th").all_inner_texts() == [HOSTILE, QUOTED]
    expect(page.locator("td.note").first).to_have_text('hand 1: <img src=x onerror=alert(2)> & "so"', use_inner_text=True)
    assert page.title().startswith(f"{HOSTILE} vs {QUOTED} (Hollywood")
    page.set_content("<script>alert('the listener works')</script>")
    assert dialogs == ["the listener works"]
    page.remove_listener("dialog", note)


def pdf_pages(pdf: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page(?![s\w])", pdf))


@pytest.mark.parametrize("name", ["standard", "twenty"])
def test_a_normal_match_prints_on_one_page(page, exported, name):
    path, data = exported[name]
    page.set_viewport_size({"width": DESKTOP, "height": 900})
    page.goto(path.as_uri())
    for paper in ("A4", "Letter"):
        pdf = page.pdf(format=paper)
        assert pdf.startswith(b"%PDF") and pdf_pages(pdf) == 1, paper
    page.emulate_media(media="print")
    try:
        assert page.evaluate("getComputedStyle(document.body).backgroundColor") == "rgba(0, 0, 0, 0)"
        assert page.locator("table.hands tbody tr").count() == len(data["hands"])
        expect(page.locator("figure svg")).to_be_visible()
    finally:
        page.emulate_media(media="null")  # no emulation: what page.pdf() expects


def test_pdf_page_count_sees_two_pages(page):
    """The counter above can fail: two forced pages count as two."""
    page.set_content('<p>one</p><p style="break-before: page">two</p>')
    assert pdf_pages(page.pdf(format="A4")) == 2


def test_screenshots_of_each_sample(page, exported, tmp_path):
    folder = Path(os.environ.get("GINSCORE_PICTURES") or tmp_path)
    for name in ("standard", "oklahoma", "counts_only"):
        page.set_viewport_size({"width": 900, "height": 600})
        page.goto(exported[name][0].as_uri())
        shot = page.screenshot(path=folder / f"{name}.png", full_page=True)
        assert shot[:8] == b"\x89PNG\r\n\x1a\n"
    page.set_viewport_size({"width": PHONE, "height": 800})
    page.goto(exported["standard"][0].as_uri())
    page.screenshot(path=folder / "standard-phone.png")
    svg = folder / "oklahoma-chart.svg"
    ginscore("show", SAMPLE_FILES[1], "--export", svg, "--force")
    page.set_viewport_size({"width": 900, "height": 600})
    page.set_content(f'<body style="margin: 0">{svg.read_text(encoding="utf-8")}</body>')
    page.locator("svg").first.evaluate("svg => svg.setAttribute('width', 780)")  # the viewBox scales it
    page.locator("svg").first.screenshot(path=folder / "oklahoma-chart.png")
    svg.unlink()
    assert {p.name for p in folder.glob("*.png")} >= {
        "standard.png", "oklahoma.png", "counts_only.png", "standard-phone.png", "oklahoma-chart.png"
    }



def test_without_chromium_the_tests_skip_and_say_why_except_under_ci(monkeypatch):
    monkeypatch.setattr(browsers, "CHROMIUM", "/nowhere/chromium")
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match=r"^browser tests skipped: no Chromium at /nowhere/chromium \(Debian: apt-get install chromium-headless-shell\)$"):
        require_browser()
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match=r"^CI runs browser tests, but no Chromium at /nowhere/chromium"):
        require_browser()


MARKUP_NAMES = ('<img src="x" onerror="alert(7)">', "*B* [m](javascript:alert(8))`x`&amp;_y|#")
"""Markdown and HTML in names of at most 40 characters, the longest a name may be."""


def test_the_markdown_export_rendered_with_html_on_runs_nothing_and_shows_the_names(page, tmp_path):
    """The `.md` rendered as a CommonMark renderer with HTML on renders it (markdown-it-py, tables on), then opened
    in Chromium: no script, no image, no link, and each name shown exactly as typed."""
    from markdown_it import MarkdownIt

    source = tmp_path / "m.toml"
    ginscore("new", source, *MARKUP_NAMES)
    ginscore("record", source, "--knocker", MARKUP_NAMES[0], "--deadwood", "3", "--opponent-deadwood", "20")
    ginscore("show", source, "--export", tmp_path / "sheet.md")
    body = MarkdownIt("commonmark", {"html": True}).enable("table").render((tmp_path / "sheet.md").read_text(encoding="utf-8"))
    html = tmp_path / "sheet.html"
    html.write_text(f'<!doctype html><meta charset="utf-8"><title>md</title>{body}', encoding="utf-8")
    dialogs: list[str] = []

    def note(dialog: Any) -> None:
        dialogs.append(dialog.message)
        dialog.dismiss()

    page.on("dialog", note)
    try:
        page.goto(html.as_uri())
        page.wait_for_load_state("load")
        assert page.evaluate("[document.scripts.length, document.images.length, document.links.length]") == [0, 0, 0]
        assert page.evaluate("document.querySelectorAll('em, strong, code, del, h2').length") == 0
        assert dialogs == []
        expect(page.locator("h1")).to_have_text(f"{MARKUP_NAMES[0]} vs {MARKUP_NAMES[1]}", use_inner_text=True)
        header = page.locator("table").first.locator("th").all_inner_texts()
        assert header[-2:] == list(MARKUP_NAMES) and header[4] == "knocker_deadwood"
        assert page.locator("table").first.locator("tbody td").all_inner_texts()[1:3] == [MARKUP_NAMES[0]] * 2  # dealer, knocker
        assert page.locator("table").nth(1).locator("tbody tr td:first-child").all_inner_texts() == list(MARKUP_NAMES)
    finally:
        page.remove_listener("dialog", note)


@pytest.mark.parametrize("name", ["standard", "oklahoma", "counts_only", "hostile"])
def test_the_final_result_needs_no_scroll_box_on_a_phone(page, exported, name):
    """At 390 px the final result fits its box: no sideways scrolling inside it (it was 6 px too wide)."""
    page.set_viewport_size({"width": PHONE, "height": 900})
    page.goto(exported[name][0].as_uri())
    box = page.locator("div.scroll:has(> table.result)")
    assert box.count() == 1
    scroll_width, client_width = box.evaluate("b => [b.scrollWidth, b.clientWidth]")
    assert scroll_width <= client_width, (scroll_width, client_width)

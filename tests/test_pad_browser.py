"""The match page as a score pad, in a real browser: the scoreboard first, the result block at the end of a game,
numbers that never break, Hollywood game by game, the Oklahoma up-card, the screen kept awake, the chart in dark mode.

A `ginscore serve` as a person starts it, driven with Playwright in Debian's Chromium on a 390 x 844 touch screen,
and at 320 px where widths matter (the helpers of tests/test_serve_browser.py). docs/serve.md's pictures are taken
by tests/test_first_screen_browser.py (docs/make_pictures.sh).
"""

from __future__ import annotations

import re
import shutil
import tomllib
from dataclasses import replace
from pathlib import Path
from typing import Any

import test_serve_browser
from browsers import expect
from pages import SAMPLES
from test_serve_browser import PHONE, Phone, check_page, record_counts, show_json

from ginscore.files import storage
from ginscore.game.rulebook import preset
from ginscore.match.records import HandRecord, Match

NARROW = {"width": 320, "height": 844}
WIDE = {"width": 430, "height": 844}

TWELVE = [("Ann", 2, 8), ("Bob", 3, 9), ("Ann", 1, 7), ("Bob", 4, 6), ("Ann", 5, 11), ("Ann", 2, 4),
          ("Bob", 0, 7), ("Ann", 3, 10), ("Bob", 6, 9), ("Ann", 2, 5), ("Bob", 1, 3), ("Ann", 4, 12)]
"""Twelve hands that leave a standard match in play: (knocker, knocker's count, opponent's count)."""


def write_match(path: Path, hands: list[tuple[str, int, int]], hollywood: bool = False, target: int = 100,
                players: tuple[str, str] = ("Ann", "Bob")) -> Path:
    """A standard match of hands given by counts, written as ginscore writes it."""
    records = tuple(HandRecord(knocker=who, deadwood=mine, opponent_deadwood=theirs) for who, mine, theirs in hands)
    match = Match(players=players, rules=replace(preset("standard"), target=target), first_dealer=players[1],
                  hands=records, hollywood=hollywood, preset="standard")
    path.write_text(storage.dumps(match), encoding="utf-8")
    return path


server = test_serve_browser.server  # the fixtures: a server of this file's own, and a phone on it
phone = test_serve_browser.phone


ON_SCREEN = """selector => [...document.querySelectorAll(selector)].map(e => {
  const box = e.getBoundingClientRect();
  return {text: e.textContent.trim(), top: box.top, bottom: box.bottom, left: box.left, right: box.right,
          size: parseFloat(getComputedStyle(e).fontSize)};
})"""
"""Each element's text, box in the viewport (unscrolled) and font size in CSS pixels."""


def in_first_screen(page: Any, selector: str, viewport: dict[str, int], least_size: float = 0) -> list[str]:
    """The texts of `selector`, after checking each is wholly inside the first screen, at least `least_size` px."""
    found = page.evaluate(ON_SCREEN, selector)
    assert found, f"nothing matches {selector}"
    for item in found:
        assert 0 <= item["top"] < item["bottom"] <= viewport["height"], (selector, item)
        assert 0 <= item["left"] < item["right"] <= viewport["width"], (selector, item)
        assert item["size"] >= least_size, (selector, item)
    return [item["text"] for item in found]


def test_the_scoreboard_shows_both_totals_and_the_dealer_in_the_first_screen_of_a_12_hand_match(phone, server):
    write_match(server.folder / "twelve.toml", TWELVE)
    data = show_json(server, "twelve.toml")
    assert len(data["hands"]) == 12 and not data["finished"]
    page = phone.page
    for viewport in (PHONE, NARROW, WIDE):
        page.set_viewport_size(viewport)
        page.goto(server.base + "/m/twelve.toml")
        totals = in_first_screen(page, ".board .board-total", viewport, least_size=32)
        assert [int(total) for total in totals] == [data["totals"][name] for name in data["players"]]
        boxes = in_first_screen(page, ".board .board-under", viewport)
        assert boxes == [f"{data['boxes'][name]} boxes" for name in data["players"]]
        assert in_first_screen(page, ".board .board-dealer", viewport) == [f"{data['next_dealer']} deals next"]
        leader = max(data["players"], key=lambda name: data["totals"][name])
        margin = abs(data["totals"]["Ann"] - data["totals"]["Bob"])
        assert in_first_screen(page, ".board-line li", viewport) == [
            f"{leader} is ahead by {margin}", f"{data['next_dealer']} deals next", "first to 100"]
        expect(page.locator(".board-player.ahead .board-name")).to_have_text(leader, use_inner_text=True)
        expect(page.locator("a.button.primary")).to_have_text("Record a hand", use_inner_text=True)
        # the ledger follows the scoreboard
        assert page.evaluate("document.querySelector('.board').getBoundingClientRect().bottom"
                             " <= document.querySelector('table.hands').getBoundingClientRect().top")
    page.set_viewport_size(PHONE)
    check_page(page)


def test_the_winning_hand_is_followed_by_the_result_block_in_the_first_screen(browser, phone, server):
    write_match(server.folder / "end.toml", [("Ann", 2, 40), ("Bob", 1, 30), ("Ann", 3, 45)])  # Ann 80, Bob 29
    page = phone.page
    page.goto(server.base + "/m/end.toml")
    assert page.locator(".result-block").count() == 0
    other = Phone(browser, server)  # the other player's phone, open on the match
    try:
        other.page.goto(server.base + "/m/end.toml")
        other.page.evaluate("window.notReloaded = true")
        record_counts(phone, "Ann", 2, 30)  # Ann reaches 108
        other.page.locator(".result-block").wait_for(timeout=5000)  # swapped in, no reload
        assert other.page.evaluate("window.notReloaded") is True
        assert other.page.locator(".board").count() == 0
        assert other.page.locator("main .primary").all_inner_texts() == ["Start the next game"]  # swapped in with it
    finally:
        other.close()
    data = show_json(server, "end.toml")
    assert data["finished"] and data["winner"] == "Ann"
    expect(page.locator("p.notice")).to_have_text("Recorded hand 4.", use_inner_text=True)
    for viewport in (PHONE, NARROW):
        page.set_viewport_size(viewport)
        assert in_first_screen(page, ".result-title", viewport) == [f"Ann wins by {data['margin']}."]
        finals = in_first_screen(page, ".result-block .board-total", viewport, least_size=32)
        assert [int(final) for final in finals] == [data["final"][name] for name in data["players"]]
        rows = page.locator(".final-totals tbody tr")
        table = {row.locator("th").inner_text(): [int(x) for x in row.locator("td").all_inner_texts()] for row in rows.all()}
        bonuses = data["bonuses"]
        assert table == {
            "points": [data["totals"][p] for p in data["players"]], "boxes": [data["boxes"][p] for p in data["players"]],
            "game bonus": [bonuses[p]["game"] for p in data["players"]],
            "box bonus": [bonuses[p]["boxes"] for p in data["players"]],
            "final": [data["final"][p] for p in data["players"]],
        }
        assert sum(table["final"]) == sum(sum(table[row]) for row in ("points", "game bonus", "box bonus"))
        in_first_screen(page, ".final-totals .end-final td", viewport)
    # the next game is the main action, in the result block, the winner chosen to deal first; recording is gone
    expect(page.locator(".result-block .next-game input[name=dealer]:checked")).to_have_attribute("value", "Ann")
    assert page.locator("main .primary").all_inner_texts() == ["Start the next game"]
    assert page.locator(".result-block .primary").count() == 1
    assert page.get_by_role("link", name="Record a hand").count() == 0
    assert page.locator(".board").count() == 0  # the result block replaces the running scoreboard
    page.set_viewport_size(PHONE)
    check_page(page)


LINE_BREAKS = """() => {
  // every run of digits in the page's text (charts aside), and how many lines it is drawn on
  const walker = document.createTreeWalker(document.querySelector("main"), NodeFilter.SHOW_TEXT);
  const broken = [];
  let count = 0;
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (node.parentElement.closest("svg, script, style, [hidden]")) continue;
    for (const found of node.textContent.matchAll(/\\d+(?: \\/ \\d+)?/g)) {
      const range = document.createRange();
      range.setStart(node, found.index);
      range.setEnd(node, found.index + found[0].length);
      const rects = [...range.getClientRects()].filter(r => r.width > 0);
      if (!rects.length) continue;
      count += 1;
      const lines = new Set(rects.map(r => Math.round(r.top)));
      if (lines.size > 1) broken.push([found[0], lines.size, node.parentElement.className]);
    }
  }
  return {count, broken};
}"""
"""Numbers drawn on more than one line: each digit run (and a count pair `2 / 30`) as a Range, its line boxes."""


def no_broken_numbers(page: Any) -> int:
    found = page.evaluate(LINE_BREAKS)
    assert found["broken"] == [], found["broken"]
    return int(found["count"])


def test_the_line_break_check_can_fail(phone):
    page = phone.page
    page.goto("about:blank")  # the server's pages allow no inline style
    page.set_content('<main><p style="width: 1.2em; overflow-wrap: anywhere; font: 16px monospace">173 and 2 / 30</p></main>')
    found = page.evaluate(LINE_BREAKS)
    assert [number for number, _, _ in found["broken"]] == ["173", "2 / 30"]


def test_no_total_count_or_score_wraps_at_320_or_390_px(phone, server):
    shutil.copy(SAMPLES / "oklahoma.toml", server.folder / "oklahoma.toml")
    shutil.copy(SAMPLES / "standard.toml", server.folder / "standard.toml")
    long = ("Maximiliane", "Bartholomew")  # long names take the room numbers need
    write_match(server.folder / "long.toml", [(long[0], 0, 90), (long[1], 0, 95), (long[0], 0, 98)] * 2, hollywood=True,
                target=150, players=long)
    page = phone.page
    for url in ("/m/oklahoma.toml", "/m/standard.toml", "/m/long.toml", "/"):
        for viewport in (NARROW, PHONE):
            page.set_viewport_size(viewport)
            page.goto(server.base + url)
            assert no_broken_numbers(page) > 10, url
            assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"], (url, viewport)


HOLLYWOOD = [("Ann", 0, 60), ("Bob", 2, 30), ("Ann", 1, 20), ("Bob", 0, 15), ("Ann", 3, 40)]
"""A Hollywood match, target 100, where game 1 is over and games 2 and 3 are in play."""


def test_hollywood_shows_each_games_totals_side_by_side_and_no_final_row_while_games_are_in_play(phone, server):
    write_match(server.folder / "hollywood.toml", HOLLYWOOD, hollywood=True)
    data = show_json(server, "hollywood.toml")
    games = data["columns"]
    assert [game["finished"] for game in games] == [True, False, False]
    page = phone.page
    for viewport in (NARROW, PHONE):
        page.set_viewport_size(viewport)
        page.goto(server.base + "/m/hollywood.toml")
        heads = in_first_screen(page, ".board-games thead th", viewport)
        assert heads == ["Game 1over", "Game 2in play", "Game 3in play"]
        for at, player in enumerate(data["players"]):
            row = page.locator(".board-games tbody tr").nth(at)
            expect(row.locator("th")).to_have_text(player, use_inner_text=True)
            shown = in_first_screen(page, f".board-games tbody tr:nth-child({at + 1}) .board-total", viewport, least_size=32)
            assert [int(x) for x in shown] == [game["final"][player] if game["finished"] else game["totals"][player]
                                              for game in games]
        leads = page.locator(".board-line li").all_inner_texts()
        game1 = games[0]
        assert leads[0] == f"Game 1: {game1['winner']} won by {game1['margin']}"
        assert leads[-2:] == [f"{data['next_dealer']} deals next", "first to 100 in each game"]
    # the ledger: a column a game, the two players' totals in each, nothing summed
    assert page.locator("table.hands thead th.total").all_inner_texts() == ["Game 1", "Game 2", "Game 3"]
    last = page.locator("table.hands tbody tr.hand").last
    cells = [cell.locator(".n").all_inner_texts() for cell in last.locator("td.stack").all()]
    assert [[int(x) for x in cell] for cell in cells] == [[game["totals"][p] for p in data["players"]] for game in games]
    assert page.locator("table.hands tfoot tr.end-final").count() == 0
    assert page.locator(".result-block").count() == 0
    check_page(page)


def test_each_oklahoma_hand_shows_its_up_card(phone, server):
    shutil.copy(SAMPLES / "oklahoma.toml", server.folder / "oklahoma.toml")
    hands = tomllib.loads((SAMPLES / "oklahoma.toml").read_text(encoding="utf-8"))["hands"]
    page = phone.page
    page.set_viewport_size(NARROW)
    page.goto(server.base + "/m/oklahoma.toml")
    rows = page.locator("table.hands tbody tr.hand")
    assert rows.count() == len(hands)
    for row, hand in zip(rows.all(), hands):
        bits = row.locator(".detail .bit").all_inner_texts()
        face = hand["upcard"][:-1] + {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}[hand["upcard"][-1]]
        assert f"up\u2011card\u00a0{face}" in bits, (hand, bits)  # a hyphen and a space that never break
        assert ("×2" in bits) == hand["upcard"].endswith("s")  # a spade up-card doubles the hand (spades_double)
    lines = page.evaluate("""[...document.querySelectorAll('.detail .bit')].filter(bit => bit.textContent.startsWith('up'))
        .map(bit => new Set([...bit.getClientRects()].map(rect => Math.round(rect.top))).size)""")
    assert lines == [1] * len(hands)  # each up-card on one line, at 320 px
    page.set_viewport_size(PHONE)


WAKE_LOCK_STUB = """(() => {
  window.wakeRequests = [];
  let visible = "visible";
  Object.defineProperty(document, "visibilityState", { get: () => visible });
  Object.defineProperty(document, "hidden", { get: () => visible !== "visible" });
  window.showPage = state => { visible = state; document.dispatchEvent(new Event("visibilitychange")); };
  const listeners = [];
  window.releaseLock = () => { window.lastLock.released = true; listeners.forEach(listener => listener()); };
  Object.defineProperty(navigator, "wakeLock", { value: { request(type) {
    window.wakeRequests.push(type);
    window.lastLock = { released: false, addEventListener: (name, listener) => name === "release" && listeners.push(listener) };
    return Promise.resolve(window.lastLock);
  } } });
})()"""
"""navigator.wakeLock as a browser with the Screen Wake Lock API has it, counting the requests; hiding the page
releases the lock, as a browser does."""


def test_a_match_page_keeps_the_screen_awake_and_asks_again_when_shown_again(browser, server):
    write_match(server.folder / "awake.toml", TWELVE[:3])
    phone = Phone(browser, server)
    try:
        page = phone.page
        page.add_init_script(WAKE_LOCK_STUB)
        page.goto(server.base + "/m/awake.toml")
        page.wait_for_function("window.wakeRequests.length === 1")
        assert page.evaluate("window.wakeRequests") == ["screen"]
        page.evaluate("() => { window.releaseLock(); window.showPage('hidden'); }")  # the phone locked, the tab hidden
        page.wait_for_timeout(100)
        assert page.evaluate("window.wakeRequests.length") == 1  # nothing asked while hidden
        page.evaluate("window.showPage('visible')")
        page.wait_for_function("window.wakeRequests.length === 2")
        page.evaluate("window.showPage('visible')")  # shown again while the lock is held: not asked twice
        page.wait_for_timeout(100)
        assert page.evaluate("window.wakeRequests.length") == 2
        page.goto(server.base + "/m/awake.toml/record")
        page.wait_for_function("window.wakeRequests.length === 1")  # a hand is entered at the table too
        assert page.evaluate("window.wakeRequests") == ["screen"]
        page.goto(server.base + "/")
        page.wait_for_timeout(100)
        assert page.evaluate("window.wakeRequests") == []
    finally:
        phone.close()


def test_without_the_wake_lock_api_or_when_it_is_refused_the_page_says_nothing(browser, server):
    write_match(server.folder / "asleep.toml", TWELVE[:3])
    for stub in ("Object.defineProperty(navigator, 'wakeLock', { value: undefined })",
                 "Object.defineProperty(navigator, 'wakeLock', { value: { request: () => Promise.reject(new DOMException('no', 'NotAllowedError')) } })",
                 "Object.defineProperty(navigator, 'wakeLock', { value: { request: () => { throw new TypeError('old'); } } })"):
        phone = Phone(browser, server)
        try:
            phone.page.add_init_script(stub)
            phone.page.goto(server.base + "/m/asleep.toml")
            phone.page.locator(".board").wait_for()
            phone.page.wait_for_timeout(150)
        finally:
            phone.close()  # no script error, nothing shown


BACKGROUND = """() => {
  const box = document.querySelector(".chart-box"), text = box.querySelector("svg text");
  const rgb = value => value.match(/[\\d.]+/g).slice(0, 3).map(Number);
  return {box: rgb(getComputedStyle(box).backgroundColor), text: rgb(getComputedStyle(text).fill),
          line: rgb(getComputedStyle(box.querySelector("svg polyline.series")).stroke)};
}"""


def test_the_chart_follows_dark_mode(phone, server):
    shutil.copy(SAMPLES / "standard.toml", server.folder / "standard.toml")
    page = phone.page
    page.goto(server.base + "/m/standard.toml")
    page.emulate_media(color_scheme="light")
    light = page.evaluate(BACKGROUND)
    assert min(light["box"]) > 200 and max(light["text"]) < 100  # dark ink on a light box
    page.emulate_media(color_scheme="dark")
    dark = page.evaluate(BACKGROUND)
    assert max(dark["box"]) < 60, dark  # not a white box
    assert min(dark["text"]) > 150, dark  # light ink on it
    assert dark["line"] != light["line"]
    check_page(page)  # contrast in both schemes, the chart's texts included
    page.emulate_media(color_scheme="dark")
    # a long match's chart is a picture the page's CSS cannot reach into: in dark mode it is drawn inverted
    write_match(server.folder / "long-evening.toml", [("Ann" if n % 2 else "Bob", 2, 3) for n in range(61)])
    page.goto(server.base + "/m/long-evening.toml")
    image = page.locator(".chart-box img")
    image.wait_for()
    assert image.evaluate("img => img.complete && img.naturalWidth > 0")
    dark_box = page.evaluate("getComputedStyle(document.querySelector('.chart-box')).backgroundColor")
    assert image.evaluate("img => getComputedStyle(img).filter") == "invert(1) hue-rotate(180deg)"
    assert max(int(x) for x in re.findall(r"\d+", dark_box)[:3]) < 60, dark_box
    page.emulate_media(color_scheme="light")
    assert image.evaluate("img => getComputedStyle(img).filter") == "none"

"""`ginscore serve` in a real browser: a server started as a person starts it, driven with Playwright in Debian's
Chromium on a phone-sized touch screen (390 x 844).

The browser is conftest.py's one Chromium (tests/browsers.py): these tests skip without Playwright or Chromium
but fail under CI (CI=true). Every request the pages make goes to the server on 127.0.0.1.
With GINSCORE_PICTURES=FOLDER, a phone screenshot of a match is saved there as serve-phone.png.
"""

from __future__ import annotations

import json
import os
import queue
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browsers import expect
from pages import HOSTILE, QUOTED, SAMPLES, write_hostile_hollywood
from test_export_browser import CONTRAST, assert_no_sideways_scroll

TOKEN = "browser-test-token"
PHONE = {"width": 390, "height": 844}
GINSCORE = str(Path(sys.executable).with_name("ginscore"))
KNOCK_K, KNOCK_O = "3h 4h 5h Ks Kc Kd 7c 8c 9c 2d", "Qh Qd 5s 6s 7s Jc 4d 8h 2c Ac"
SUITS = {"c": "clubs", "d": "diamonds", "h": "hearts", "s": "spades"}
RANKS = {"A": "ace", "J": "jack", "Q": "queen", "K": "king"}


def words(card: str) -> str:
    """`3h` as the picker's button is named: `3 of hearts`."""
    rank, suit = card[:-1], card[-1].lower()
    return f"{RANKS.get(rank.upper(), rank)} of {SUITS[suit]}"


class Server:
    """`ginscore serve DIR --port 0 --token T` in a subprocess, and the URL it printed."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.process = subprocess.Popen(
            [GINSCORE, "serve", str(folder), "--port", "0", "--token", TOKEN],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env={**os.environ, "NO_COLOR": "1"},
        )
        lines: queue.Queue[str] = queue.Queue()
        self.output: list[str] = []

        def read() -> None:
            assert self.process.stdout is not None
            for line in self.process.stdout:
                lines.put(line)

        threading.Thread(target=read, daemon=True).start()
        deadline = time.monotonic() + 20
        self.url = ""
        while not self.url and time.monotonic() < deadline:
            try:
                line = lines.get(timeout=max(0.05, deadline - time.monotonic()))
            except queue.Empty:
                break
            self.output.append(line)
            found = re.fullmatch(r"Open (http://127\.0\.0\.1:\d+/\?token=\S+)\s*", line)
            if found:
                self.url = found.group(1)
        if not self.url:
            self.stop()
            raise AssertionError(f"ginscore serve printed no URL: {''.join(self.output)!r}")
        self.base = self.url.split("/?", 1)[0]

    def stop(self) -> None:
        """Ctrl-C, as a person stops it; killed if it has not stopped within five seconds."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=5)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, browser: Any) -> Iterator[Server]:
    running = Server(tmp_path_factory.mktemp("served"))
    yield running
    running.stop()


class Phone:
    """One phone: a touch-screen browser context that has opened the token URL, and what it asked for."""

    def __init__(self, browser: Any, server: Server):
        self.context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True, device_scale_factor=2)
        self.page = self.context.new_page()
        self.requests: list[str] = []
        self.problems: list[str] = []
        self.page.on("request", lambda request: self.requests.append(request.url))
        self.page.on("console", lambda message: message.type == "error" and self.problems.append(message.text))
        self.page.on("pageerror", lambda error: self.problems.append(str(error)))
        self.page.set_default_timeout(5000)
        self.page.goto(server.url)
        self.server = server

    def tap(self, role: str, name: str | re.Pattern[str]) -> None:
        self.page.get_by_role(role, name=name, exact=True if isinstance(name, str) else None).tap()

    def close(self) -> None:
        outside = [url for url in self.requests if not url.startswith(self.server.base + "/")]
        self.context.close()
        assert outside == [], outside
        assert self.problems == [], self.problems  # no script error, no CSP refusal


@pytest.fixture
def phone(browser: Any, server: Server) -> Iterator[Phone]:
    one = Phone(browser, server)
    yield one
    one.close()


def show_json(server: Server, name: str) -> dict[str, Any]:
    """`ginscore show FILE --json` over what the server wrote, run in this process (as conftest's `run` runs it)."""
    from typer.testing import CliRunner

    from ginscore.cli import app

    result = CliRunner().invoke(app, ["show", str(server.folder / name), "--json"], env={"NO_COLOR": "1"})
    assert result.exit_code == 0, result.stderr
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def page_totals(page: Any) -> list[int]:
    """The running totals in the sheet's last row."""
    row = page.locator("table.hands tbody tr.hand").last
    return [int(text) for text in row.locator("td.total").all_inner_texts()]


SMALL_TARGETS = """[...document.querySelectorAll('main button:not([hidden]), main a.button, .big-choice label, .card')]
  .filter(e => e.getClientRects().length)
  .map(e => [e.textContent.trim().slice(0, 20), e.getBoundingClientRect()])
  .filter(([, r]) => r.width < 44 || r.height < 44).map(([text, r]) => [text, Math.round(r.width), Math.round(r.height)])"""
"""Buttons smaller than 44 x 44 px: every card, every choice and every button is a thumb's size (those of a part
not shown, such as the counts' Gin while cards are picked, have no box at all and are not targets)."""


def check_page(page: Any, width: int = PHONE["width"]) -> None:
    """Nothing scrolls sideways at `width` (390 px unless given), every text passes WCAG AA contrast in light and
    dark mode, and axe-core finds no serious or critical problem."""
    from axe_playwright_python.sync_playwright import Axe

    assert_no_sideways_scroll(page, width)
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        assert page.evaluate(CONTRAST) == [], scheme
    page.emulate_media(color_scheme="light")
    violations = Axe().run(page).response["violations"]
    bad = [(v["id"], v["impact"], [n["target"] for n in v["nodes"]][:3]) for v in violations if v["impact"] in ("serious", "critical")]
    assert bad == [], bad


def start_match(page: Any, file: str) -> None:
    page.locator("#player1").fill("Ann")
    page.locator("#player2").fill("Bob")
    page.get_by_label("File name").fill(file)
    page.get_by_role("button", name="Start the match", exact=True).tap()
    page.wait_for_url(f"**/m/{file}")


def record_counts(phone: Phone, knocker: str, deadwood: int, opponent: int) -> None:
    page = phone.page
    phone.tap("link", "Record a hand")
    page.wait_for_url("**/record")
    page.get_by_text(knocker, exact=True).tap()  # the big knocker button is the radio's label
    page.get_by_label("Knocker's count").fill(str(deadwood))
    page.get_by_label("Opponent's count").fill(str(opponent))
    page.locator(".preview-words").wait_for()
    phone.tap("button", "Save the hand")
    page.wait_for_url(re.compile(r"/m/[^/]+\?recorded=\d+$"))


def test_a_phone_starts_a_match_and_records_by_counts_and_by_tapping_cards(phone, server):
    page = phone.page
    expect(page.locator("h1")).to_have_text("Matches", use_inner_text=True)
    check_page(page)
    start_match(phone.page, "x.toml")
    record_counts(phone, "Ann", 4, 19)
    expect(page.locator("p.notice")).to_have_text("Recorded hand 1.", use_inner_text=True)

    phone.tap("link", "Record a hand")
    page.wait_for_url("**/record")
    check_page(page)
    page.get_by_text("Bob", exact=True).tap()
    page.get_by_text("Cards", exact=True).tap()
    page.evaluate("window.notReloaded = true")
    for card in KNOCK_K.split():
        button = page.get_by_role("button", name=words(card), exact=True)
        button.tap()
        expect(button).to_have_attribute("aria-pressed", "true")
    page.locator("#live-hand .knock-verdict").filter(has_text="You can knock: 2 deadwood, limit 10").wait_for()
    for width in (320, 390, 430):
        page.set_viewport_size({"width": width, "height": PHONE["height"]})
        assert page.evaluate(SMALL_TARGETS) == [], width
    page.set_viewport_size(PHONE)
    expect(page.locator("#live-hand .deadwood")).to_have_text("2♦ 2", use_inner_text=True)  # the card, then the count
    expect(page.locator("#live-hand .deadwood .card-chip.red")).to_have_text("2♦")
    phone.tap("button", re.compile(r"^Ann's cards"))  # named when Bob was chosen
    assert page.get_by_role("button", name="3 of hearts", exact=True).is_disabled()  # the knocker's card
    for card in KNOCK_O.split():
        page.get_by_role("button", name=words(card), exact=True).tap()
    page.locator(".preview-words").filter(has_text="Bob scores").wait_for()
    assert page.evaluate("window.notReloaded") is True  # with script, taps toggle in place
    check_page(page)
    phone.tap("button", "Save the hand")
    page.wait_for_url(re.compile(r"\?recorded=2$"))

    data = show_json(server, "x.toml")
    assert data["hands"][1]["knocker"] == "Bob" and data["hands"][1]["derived"]["deadwood"] == 2
    assert page_totals(page) == [data["totals"][name] for name in data["players"]]
    check_page(page)
    pictures = os.environ.get("GINSCORE_PICTURES")
    if pictures:  # the README's picture: the standard sample's sheet on a phone
        shutil.copy(SAMPLES / "standard.toml", server.folder / "standard.toml")
        page.goto(server.base + "/m/standard.toml")
        page.screenshot(path=str(Path(pictures) / "serve-phone.png"), scale="css")


def test_the_check_and_undo_pages_and_a_hostile_hollywood_sheet(phone, server):
    page = phone.page
    write_hostile_hollywood(server.folder / "hostile.toml")
    page.goto(server.base + "/m/hostile.toml")
    expect(page.locator("h1")).to_have_text(f"{HOSTILE} vs {QUOTED}", use_inner_text=True)
    check_page(page)
    page.goto(server.base + "/")
    start_match(phone.page, "u.toml")
    record_counts(phone, "Bob", 0, 25)
    phone.tap("link", "Can I knock?")
    page.wait_for_url("**/m/u.toml/check")
    for card in (*KNOCK_K.split(), "9h"):
        page.get_by_role("button", name=words(card), exact=True).tap()
    page.locator(".advice").filter(has_text="Discard 9♥.").wait_for(timeout=10_000)
    check_page(page)
    page.goto(server.base + "/m/u.toml")
    phone.tap("link", "Undo the last hand")
    page.wait_for_url("**/undo")
    expect(page.locator("p.question")).to_have_text(re.compile("^" + re.escape("Remove hand 1 (gin: Bob scores")), use_inner_text=True)
    check_page(page)
    phone.tap("button", "Remove hand 1")
    page.wait_for_url(re.compile(r"\?removed=1$"))
    assert show_json(server, "u.toml")["hands"] == []


def test_a_hand_recorded_elsewhere_shows_on_an_open_page_without_a_reload(browser, server, phone):
    page = phone.page
    start_match(phone.page, "live.toml")
    other = Phone(browser, server)
    try:
        other.page.goto(server.base + "/m/live.toml")
        page.evaluate("window.notReloaded = true")
        record_counts(other, "Bob", 3, 20)
        page.locator("#hand-1").wait_for(timeout=5000)
        assert page.evaluate("window.notReloaded") is True
        expect(page.locator("#live-status")).to_have_text("Sheet updated: knock: Bob scores 17", use_inner_text=True)
        assert page_totals(page) == [0, 17]
    finally:
        other.close()
    command = [GINSCORE, "record", str(server.folder / "live.toml"), "--knocker", "Ann", "--deadwood", "2", "--opponent-deadwood", "30"]
    assert subprocess.run(command, capture_output=True, timeout=30).returncode == 0
    page.locator("#hand-2").wait_for(timeout=5000)
    assert page.evaluate("window.notReloaded") is True
    data = show_json(server, "live.toml")
    assert page_totals(page) == [data["totals"][name] for name in data["players"]]


def test_without_script_every_tap_is_a_form_that_comes_back(browser, server):
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True, java_script_enabled=False)
    try:
        page = context.new_page()
        page.set_default_timeout(5000)
        page.goto(server.url)
        start_match(page, "plain.toml")
        page.get_by_role("link", name="Record a hand").tap()
        page.wait_for_url("**/record")
        page.get_by_text("Bob", exact=True).tap()
        page.get_by_text("Cards", exact=True).tap()
        for side, cards in (("", KNOCK_K), ("Ann's cards", KNOCK_O)):  # named once the knocker is chosen
            if side:
                with page.expect_navigation():
                    page.get_by_role("button", name=re.compile(f"^{side}")).tap()
            for card in cards.split():
                with page.expect_navigation():
                    page.get_by_role("button", name=words(card), exact=True).tap()
                expect(page.get_by_role("button", name=words(card), exact=True)).to_have_attribute("aria-pressed", "true")
        previewed = page.locator(".preview-words").inner_text()
        assert page.get_by_role("button", name="3 of hearts", exact=True).is_disabled()
        with page.expect_navigation():
            page.get_by_role("button", name="Save the hand").tap()
        page.wait_for_url(re.compile(r"\?recorded=1$"))
        hand = show_json(server, "plain.toml")["hands"][0]
        assert previewed == f"{hand['derived']['result']}: {hand['derived']['winner']} scores {hand['derived']['points']}" == "knock: Bob scores 43"
    finally:
        context.close()


BEST_K, BEST_O = "Ac 6c 6h 3c 2s 6d 3h 2c Ah 2h", "2d 5s As 5h 3d 4c 3s 4d 4s 4h"
"""The lowest count lets Bob lay off and undercut; a spread with more deadwood wins (tests/test_cli_score.py)."""


def test_the_spread_laid_down_is_chosen_in_the_preview(phone, server):
    page = phone.page
    start_match(page, "spread.toml")
    page.get_by_role("link", name="Record a hand").tap()
    page.wait_for_url("**/record")
    page.get_by_text("Cards", exact=True).tap()
    # the cards as the picker's hidden fields carry them (tapping them all is the first test's work)
    page.evaluate(f"""() => {{
        document.querySelector('[data-side=knocker]').value = {BEST_K!r};
        document.querySelector('[data-side=opponent]').value = {BEST_O!r}; }}""")
    page.get_by_text("Ann", exact=True).tap()
    page.locator(".spread-choice").wait_for()
    expect(page.locator(".preview-words")).to_have_text("knock: Ann scores 2", use_inner_text=True)
    page.get_by_text(re.compile(r"^Least deadwood: ")).tap()
    page.locator(".preview-words").filter(has_text="undercut: Bob scores 11").wait_for()
    assert page.get_by_role("radio", name=re.compile(r"^Least deadwood")).is_checked()
    page.evaluate("() => { const save = document.querySelector('button[value=save]'); save.click(); setTimeout(() => save.click(), 40); }")  # a double tap: one hand
    page.wait_for_url(re.compile(r"\?recorded=1$"))
    expect(page.locator("p.notice")).to_have_text("Recorded hand 1.", use_inner_text=True)
    hands = show_json(server, "spread.toml")["hands"]
    assert len(hands) == 1
    hand = hands[0]
    assert (hand["derived"]["result"], hand["derived"]["winner"], hand["derived"]["points"]) == ("undercut", "Bob", 11)

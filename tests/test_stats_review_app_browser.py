"""The app's Players page (Pyodide, no threads): a tap on Review their knocks reviews the stored matches in the
worker, a few seconds a visit, and shows each player's mean chance lost as `stats --json --review` gives it for
the same texts. Skips without Playwright, Chromium or npm, as test_app_browser.py does."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browsers import require_browser
from test_app_browser import Host, Phone, visit
from typer.testing import CliRunner

from ginscore.cli import app as cli

CALL = ("([method, path, body]) => window.ginscoreApp.call(method, path, JSON.stringify(body), 'application/json')"
        ".then(a => a.status, e => 'refused: ' + e.message)")


@pytest.fixture(scope="module")
def phone(browser: Any, app_build: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Phone]:
    require_browser()
    root = tmp_path_factory.mktemp("players-host")
    shutil.copytree(app_build / "pocket", root / "pocket", symlinks=True)
    host = Host(root)
    one = Phone(browser, host)
    one.main = one.open()
    host.stop()
    one.context.set_offline(True)
    yield one
    one.context.close()


def test_a_tap_reviews_the_stored_matches_in_the_worker(phone: Phone, tmp_path: Path) -> None:
    page = phone.main
    hand = {"knocker": "Ann", "cards": "4c 5c 6c 7c 9d 9h 9s Qd Qh Qs Kh", "discard": "4c",
            "opponent_cards": "2c 3d 5d 8h Js Ah 2h 3s 6s 10c"}
    assert page.evaluate(CALL, ["POST", "/api/matches", {"file": "night.toml", "players": ["Ann", "Bob"], "dealer": "Bob"}]) == 201
    assert page.evaluate(CALL, ["POST", "/api/matches/night.toml/hands", hand]) == 201
    visit(page, "/stats")
    main = page.locator("main")
    assert "1 knock recorded with cards, in 1 match, not reviewed as it stands now." in main.inner_text()
    page.get_by_role("link", name="Review their knocks").tap()
    entry = page.locator("li.lost-entry")
    entry.wait_for(timeout=60_000)
    for name, text in page.evaluate("import('./store.js').then(store => store.texts())").items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    result = CliRunner().invoke(cli, ["stats", str(tmp_path), "--json", "--review", "--no-cache"])
    assert result.exit_code == 0, result.stderr
    (ann,) = json.loads(result.stdout)["review"]
    assert entry.inner_text().split("\n") == [ann["player"], f"{ann['mean_lost']:.1f} points lost a knock", "1 knock reviewed"]
    assert phone.problems == []


OPEN = "([name, text]) => window.ginscoreApp.ask('open', {file: new File([text], name)}).then(a => a.name)"
REVIEW = ("(name) => window.ginscoreApp.call('GET', '/m/' + name + '/review')"
          ".then(a => [a.status, new TextDecoder().decode(a.body)])")


def test_the_review_page_shares_its_knocks_with_a_helper_and_gives_the_commands_figures(phone: Phone, tmp_path: Path) -> None:
    """The Review page of a match of 7 knocks, offline, in one visit. The first review wakes a helper (a Pyodide of
    its own, its files from the app's precache) where the browser lends a second core; another match's review then
    shares its knocks with it. The match page's line gives each player's chance lost as `review --json` gives it
    for the same texts."""
    page = phone.main
    text = (Path(__file__).resolve().parent.parent / "sample_matches" / "oklahoma.toml").read_text(encoding="utf-8")
    again = text.replace('created = "2026-11-30T23:11:00+00:00"', 'created = "2026-11-30T23:12:00+00:00"')  # another match
    for name, sheet in (("evening.toml", text), ("again.toml", again)):
        assert page.evaluate(OPEN, [name, sheet]) == name
        status, body = page.evaluate(REVIEW, name)
        assert status == 200 and "Go on with the review" not in body
    if page.evaluate("navigator.hardwareConcurrency") > 1:
        assert page.evaluate("window.ginscoreApp.ask('times').then(t => t.helped)") > 0
    for name, stored in page.evaluate("import('./store.js').then(store => store.texts())").items():
        (tmp_path / name).write_text(stored, encoding="utf-8")  # the model is the folder's: every match in it
    result = CliRunner().invoke(cli, ["review", str(tmp_path / "again.toml"), "--json"])
    assert result.exit_code == 0, result.stderr
    status, match_page = page.evaluate(REVIEW.replace("'/review'", "''"), "again.toml")
    players = [player for player in json.loads(result.stdout)["players"] if player["hands"]]
    assert status == 200 and players
    for player in players:
        assert f"{player['player']} lost {player['total_lost']:.1f} points of game chance" in match_page
    assert phone.problems == []

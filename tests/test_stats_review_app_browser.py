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

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


EVENING = (  # eight knocks, each with other cards (a repeated hand would be reviewed at once from the memos)
    ("Ad Ah As 4c 5c 6c 7c 8c 9c 10c Jc", "4c", "7d 5h 3c 10d Qs Jd Kc 6d 8d 9d"),
    ("Ah 2s 3d 4d 5d 5s 6d 9c 10c Jc Qc", "5s", "Ac 6h 8d 2h Ks 3h 5h Js Qs 6c"),
    ("As 2c 6c 6d 6h 6s 8c 8d 8h 8s Qc", "Qc", "4h 3d 5h 2d Qd 2s 7c 5d Ad 9c"),
    ("Ad As 2d 3d 3s 4d 4s 5d 5s 6d 8c", "8c", "Jh Jc 7s 9s 2c 10s Js 8s 6s Jd"),
    ("As 2h 3c 3d 3h 3s 4h 5h 6h 7h 8h", "As", "9d 8s 4s 4c 6s 5s 7s 2d 10d Jd"),
    ("Ac Ad As 7c 7d 7h 7s 9c 9d 9h 9s", "7c", "10s 3d 5c Ah Qs 2h 2c 3c 4c Js"),
    ("Ac 3c 3d 3h 3s 4s 5s 6s 8c 8d 8h", "Ac", "6h Jd 6d 10s 9s Jc 4d 8s 7s 2h"),
    ("Ad 2c 2h 3c 6d 7d 8d 9s 10c 10d 10h", "9s", "4h 5h 7s 4s 8s 4d 6h 3s 6s 4c"),
)
OPEN = "([name, text]) => window.ginscoreApp.ask('open', {file: new File([text], name)}).then(a => a.name)"
REVIEW = ("(name) => window.ginscoreApp.call('GET', '/m/' + name + '/review')"
          ".then(a => [a.status, new TextDecoder().decode(a.body)])")


def test_the_review_page_shares_its_knocks_with_a_helper_and_gives_the_commands_figures(phone: Phone, tmp_path: Path) -> None:
    """The Review page of a match of 8 knocks with cards, offline: where the browser lends a second core, the
    worker shares the knocks with a helper (a Pyodide of its own, its files from the app's precache), which starts
    while the worker solves the chance table and reviews the first knocks. The match page's line then gives each
    player's chance lost as `review --json` gives it for the same texts."""
    page = phone.main
    runner, path = CliRunner(), tmp_path / "long.toml"
    assert runner.invoke(cli, ["new", str(path), "Ann", "Bob", "--set", "target=400"]).exit_code == 0
    for number, (cards, discard, theirs) in enumerate(EVENING):
        hand = ["record", str(path), "--knocker", "Ann" if number % 2 == 0 else "Bob", "--cards", cards, "--discard",
                discard, "--opponent-cards", theirs]
        assert runner.invoke(cli, hand).exit_code == 0
    assert page.evaluate(OPEN, ["long.toml", path.read_text(encoding="utf-8")]) == "long.toml"
    for _ in range(8):  # a visit reviews for a turn (`TURN_S`) and offers to go on: as a person taps on, here at once
        status, body = page.evaluate(REVIEW, "long.toml")
        assert status == 200
        if "Go on with the review" not in body:
            break
    assert "Go on with the review" not in body and "Players" in body
    if page.evaluate("navigator.hardwareConcurrency") > 1:
        assert page.evaluate("window.ginscoreApp.ask('times').then(t => t.helped)") > 0
    folder = tmp_path / "stored"
    folder.mkdir()
    for name, stored in page.evaluate("import('./store.js').then(store => store.texts())").items():
        (folder / name).write_text(stored, encoding="utf-8")  # the model is the folder's: every match in it
    result = runner.invoke(cli, ["review", str(folder / "long.toml"), "--json"])
    assert result.exit_code == 0, result.stderr
    status, match_page = page.evaluate(REVIEW.replace("'/review'", "''"), "long.toml")
    players = [player for player in json.loads(result.stdout)["players"] if player["hands"]]
    assert status == 200 and len(players) == 2
    for player in players:
        assert f"{player['player']} lost {player['total_lost']:.1f} points of game chance" in match_page
    assert phone.problems == []

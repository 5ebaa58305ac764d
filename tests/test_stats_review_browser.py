"""The Players page's chance lost a knock on a phone: reviewed by a tap, the page saying how far it has got and
reloading itself, then each player's mean, the longest names fitting 390 x 844 with no sideways scroll."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from browsers import require_browser
from layout_content import MAYA, THEO
from pages import served_in_process
from test_export_browser import assert_no_sideways_scroll
from typer.testing import CliRunner

from ginscore.cli import app

TOKEN = "players-token"


def test_a_tap_reviews_the_folder_and_each_players_mean_fits_a_phone(browser: Any, tmp_path: Path) -> None:
    require_browser()
    path = tmp_path / "night.toml"
    runner = CliRunner()
    for args in (("new", path, MAYA, THEO, "--dealer", THEO),
                 ("record", path, "--knocker", MAYA, "--cards", "4c 5c 6c 7c 9d 9h 9s Qd Qh Qs Kh", "--discard", "4c",
                  "--opponent-cards", "2c 3d 5d 8h Js Ah 2h 3s 6s 10c")):
        result = runner.invoke(app, [str(arg) for arg in args])
        assert result.exit_code == 0, result.stderr
    with served_in_process(tmp_path, TOKEN) as port:
        context = browser.new_context(viewport={"width": 390, "height": 844})
        try:
            page = context.new_page()
            page.goto(f"http://127.0.0.1:{port}/?token={TOKEN}")
            page.goto(f"http://127.0.0.1:{port}/stats")
            assert "1 knock recorded with cards, in 1 match, not reviewed as it stands now." in page.locator("main").inner_text()
            assert_no_sideways_scroll(page, 390)
            page.get_by_role("link", name="Review their knocks").click()
            entry = page.locator("li.lost-entry")
            entry.wait_for(timeout=30_000)  # after the progress page, reloading itself, if it showed
            assert entry.locator("a.players").inner_text() == MAYA.strip()
            assert entry.locator(".status").inner_text() == "1 knock reviewed"
            assert entry.locator(".score").inner_text().endswith(" points lost a knock")
            assert page.locator("li.lost-entry").count() == 1  # the one knock was hers
            assert_no_sideways_scroll(page, 390)
        finally:
            context.close()

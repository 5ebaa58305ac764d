"""The standings in Chromium on a 320 px phone: from the header to the table, a season tapped, a player's chart and
a pair's odds, each page without sideways scroll, readable in light and dark, and clean under axe."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browsers import expect
from pages import served_in_process
from test_serve_browser import check_page
from test_standings import one_game, write_days
from typer.testing import CliRunner

from ginscore.cli import app as cli
from ginscore.files.storage import save

TOKEN = "standings-browser-token"
NARROW = {"width": 320, "height": 640}


def check_narrow_page(page: Any) -> None:
    """No sideways scroll at 320 px, AA contrast in both schemes, no serious or critical axe finding."""
    check_page(page, NARROW["width"])


@pytest.fixture
def club(tmp_path: Path) -> Path:
    write_days(tmp_path)
    # A long name, to be sure it wraps rather than widens the page.
    save(str(tmp_path / "long.toml"), one_game("Bartholomew-Maximilian Featherstonehaugh", "Ann", "2026-03-05"))
    return tmp_path


@pytest.fixture
def phone(browser: Any, club: Path) -> Iterator[tuple[Any, str]]:
    with served_in_process(club, TOKEN) as port:
        context = browser.new_context(viewport=NARROW, has_touch=True, is_mobile=True, device_scale_factor=2)
        page = context.new_page()
        base = f"http://127.0.0.1:{port}"
        page.goto(f"{base}/?token={TOKEN}")
        try:
            yield page, base
        finally:
            context.close()


def standings_json(folder: Path) -> dict:
    result = CliRunner().invoke(cli, ["standings", str(folder), "--json", "--no-cache"])
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


def test_the_standings_on_a_narrow_phone(phone: tuple[Any, str], club: Path):
    page, _ = phone
    data = standings_json(club)
    page.get_by_role("navigation", name="Site").get_by_role("link", name="Standings").tap()
    expect(page.get_by_role("heading", level=1)).to_have_text("Standings")
    listed = page.locator("li.standing a.players")
    expect(listed).to_have_text([player["player"] for player in data["players"]])
    first = data["players"][0]
    expect(page.locator("li.standing b.rating").first).to_have_text(f"{first['rating']:.0f}{'?' if first['provisional'] else ''} ± {2 * first['rd']:.0f}")
    expect(page.locator("p.prediction")).to_contain_text(f"of {data['prediction']['games']} games right")
    check_narrow_page(page)

    page.get_by_role("link", name="This year").tap()
    expect(page.get_by_role("link", name="This year")).to_have_attribute("aria-current", "page")
    check_narrow_page(page)

    page.get_by_role("link", name="All").tap()
    page.locator("li.standing a.players", has_text=first["player"]).tap()
    expect(page.get_by_role("heading", level=1)).to_have_text(first["player"])
    expect(page.locator("figure.chart-box svg circle")).to_have_count(len(first["history"]))
    check_narrow_page(page)


def test_two_players_odds_from_the_form(phone: tuple[Any, str], club: Path):
    page, base = phone
    page.goto(f"{base}/standings")
    page.get_by_label("First player").select_option("Bob")
    page.get_by_label("Second player").select_option("Dee")
    page.get_by_role("button", name="Show the odds").tap()
    expect(page.get_by_role("heading", level=1)).to_have_text("Bob vs Dee")
    expect(page.locator("section.pair-odds p").first).to_have_text("Bob and Dee have not played each other yet.")
    expect(page.locator("section.pair-odds p").nth(1)).to_have_text(re.compile(r"^By the ratings, Bob wins \d+% of their games against Dee\.$"))
    check_narrow_page(page)

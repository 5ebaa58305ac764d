"""The Review page on a phone: reached from the match page's one line, it fits 390 x 844 with no sideways scroll."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browsers import require_browser
from pages import served_in_process
from test_export_browser import assert_no_sideways_scroll

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def port(tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    folder = tmp_path_factory.mktemp("review")
    shutil.copy(ROOT / "sample_matches" / "oklahoma.toml", folder / "evening.toml")
    with served_in_process(folder, "review-token") as port:
        yield port


def test_the_review_is_reached_from_the_match_page_and_fits_a_phone(browser: Any, port: int) -> None:
    require_browser()
    context = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        page = context.new_page()
        page.goto(f"http://127.0.0.1:{port}/?token=review-token")
        page.goto(f"http://127.0.0.1:{port}/m/evening.toml")
        line = page.locator("p.review-line")
        assert "4 knocks with the knocker's eleven cards to judge" in line.inner_text()
        line.get_by_role("link", name="Review the knocks").click()
        page.wait_for_selector("h2:has-text('Players')", timeout=30_000)  # after the progress page, if it showed
        assert page.url.endswith("/m/evening.toml/review")
        text = page.locator("main").inner_text()
        assert "Worst: hand 6: knocking with 5 gave away 7 points of game chance; playing on, discarding the 8♣, was best." in text
        assert "Hand 3, Raj: not reviewed: the knocker's ten cards were recorded without the card discarded" in text
        assert "inaccuracy from 2, mistake from 5, blunder from 10" in text
        assert_no_sideways_scroll(page, 390)
    finally:
        context.close()

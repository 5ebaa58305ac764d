"""The longest names a match may hold (`NAME_MOST` characters of the widest letters) fit a phone: every page of
`serve` has no sideways scroll at 320 px, and the result picture keeps its size. A 10,000-character name made a
page 147,323 px wide and its picture 800 x 49,994 before the limit; longer names are refused (test_ranges.py)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from browsers import require_browser
from pages import served_in_process
from test_export_browser import assert_no_sideways_scroll

from ginscore.match.records import NAME_MOST

WIDE, ALSO_WIDE = "W" * NAME_MOST, "M" * NAME_MOST
PAGES = ["/", "/m/play.toml", "/m/play.toml/record", "/m/play.toml/edit/1", "/m/play.toml/undo", "/m/play.toml/check",
         "/m/over.toml", "/m/over.toml/record", "/stats"]


@pytest.fixture(scope="module")
def port(tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    from typer.testing import CliRunner

    from ginscore.cli import app

    folder = tmp_path_factory.mktemp("long-names")
    runner = CliRunner()
    for name, counts in (("play.toml", ["2", "12"]), ("over.toml", ["0", "30"])):  # 10 points a hand, or 50: over in two
        assert runner.invoke(app, ["new", str(folder / name), WIDE, ALSO_WIDE, "--note", "n" * 80]).exit_code == 0
        for _ in range(2):
            made = runner.invoke(app, ["record", str(folder / name), "--knocker", "1", "--deadwood", counts[0], "--opponent-deadwood", counts[1]])
            assert made.exit_code == 0, made.stderr
    with served_in_process(folder, "long-token") as port:
        yield port


@pytest.mark.parametrize("width", [320, 390])
def test_every_page_with_the_longest_names_fits_a_phone(browser: Any, port: int, width: int):
    require_browser()
    context = browser.new_context(viewport={"width": width, "height": 800})
    try:
        page = context.new_page()
        page.goto(f"http://127.0.0.1:{port}/?token=long-token")
        for path in PAGES:
            page.goto(f"http://127.0.0.1:{port}{path}")
            assert page.locator("main").count() == 1, path
            assert_no_sideways_scroll(page, width)
        picture = page.request.get(f"http://127.0.0.1:{port}/m/over.toml/result.svg").text()
        size = re.search(r'<svg[^>]* width="(\d+)" height="(\d+)"', picture)
        assert size and int(size.group(1)) <= 800 and int(size.group(2)) <= 1200, size
    finally:
        context.close()

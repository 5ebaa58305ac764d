"""`show`'s lines (`render.sheet_lines`) say the same words piped, written as plain text without rich's console,
as rich prints them to a pipe (`test_startup` holds a piped `show` to loading no rich console)."""

from __future__ import annotations

import io
from dataclasses import replace
from pathlib import Path

import pytest
from test_show_width import make_match

from ginscore.files.reading import load
from ginscore.match.records import Match
from ginscore.match.series import series_as_of
from ginscore.match.tally import Sheet, tally
from ginscore.render.console import _TrimmedLines, plain_console, print_lines
from ginscore.render.lines import PIPED_WIDTH, Line, tabs_as_spaces, write_plain
from ginscore.render.sheet_lines import series_lines, sheet_lines

SAMPLES = sorted((Path(__file__).resolve().parent.parent / "sample_matches").glob("*.toml"))
NOTES = {
    "match": "at\tthe lake, 湖\tby the pier",
    "hand3": "a\ttab, and words enough to wrap on a narrow terminal: " + "more words " * 12,
    "hand7": "trailing blanks   ",
}


def through_rich(lines: list[Line]) -> str:
    """What rich prints of the lines to a pipe, as `show` printed them before it wrote its own plain text."""
    stream = io.StringIO()
    print_lines(lines, plain_console(file=_TrimmedLines(stream), width=PIPED_WIDTH, soft_wrap=True))
    return stream.getvalue()


def written_plain(lines: list[Line]) -> str:
    stream = io.StringIO()
    write_plain(lines, stream)
    return stream.getvalue()


def sheets() -> list[Sheet]:
    found = [load(str(path))[1] for path in SAMPLES]
    for hollywood in (False, True):
        for players in (("Ann", "Bob"), ("Christopher-Alexander", "李小龍")):
            for hands in (1, 9, 40):
                found.append(tally(make_match(players, hands=hands, hollywood=hollywood, **NOTES)))
    for hollywood in (False, True):
        found.append(finished(make_match(("Ann", "Bob"), hands=60, hollywood=hollywood, **NOTES)))
    return found


def finished(match: Match) -> Sheet:
    """The match to a target of 100, its hands cut where it ends."""
    match = replace(match, rules=replace(match.rules, target=100))
    hands = 1
    while not (sheet := tally(match.with_hands(match.hands[:hands]))).finished:
        hands += 1
    return sheet


@pytest.mark.parametrize("sheet", sheets(), ids=lambda sheet: f"{sheet.match.players[0]}-{len(sheet.lines)}-{sheet.match.hollywood}")
def test_plain_lines_are_what_rich_prints_to_a_pipe(sheet):
    lines = sheet_lines(sheet, PIPED_WIDTH, terminal=False) + series_lines(series_as_of(sheet, (sheet,)))
    assert written_plain(lines) == through_rich(lines)


def test_the_comparison_can_fail():
    """A tab rich would draw as spaces, left in a styled line, is caught."""
    lines = [Line((("Note: ", "bold"), ("a\tb", "")), wrap=0)]
    assert written_plain(lines) != through_rich(lines)


@pytest.mark.parametrize(
    ("text", "column", "expected"),
    [
        ("a\tb", 0, "a       b"),
        ("a\tb", 6, "a b"),  # after `Note: `, the tab ends at cell 8
        ("abcdefg\tb", 0, "abcdefg b"),
        ("abcdefgh\tb", 0, "abcdefgh        b"),
        ("湖\tb", 0, "湖      b"),  # a wide character takes two cells
        ("no tab", 3, "no tab"),
    ],
)
def test_tabs_become_the_spaces_rich_draws(text, column, expected):
    assert tabs_as_spaces(text, column) == expected
    assert through_rich([Line(((" " * column, ""), (text, "bold")), wrap=0)]) == (" " * column + expected).rstrip() + "\n"

"""`show`'s lines (`render.sheet_lines`) say the same words piped, written as plain text without rich's console,
as rich prints them to a pipe (`test_startup` holds a piped `show` to loading no rich console)."""

from __future__ import annotations

import io
from dataclasses import replace
from pathlib import Path

import pytest
from test_show_width import make_match

from ginscore.files.reading import load
from ginscore.files.table import solvable
from ginscore.match.gives import match_gives
from ginscore.match.odds import MatchOdds, game_chances
from ginscore.match.records import Match
from ginscore.match.series import series_as_of
from ginscore.match.tally import Sheet, tally
from ginscore.render.console import _TrimmedLines, plain_console, print_lines
from ginscore.render.lines import PIPED_WIDTH, Line, tabs_as_spaces, write_plain
from ginscore.render.sheet_lines import odds_lines, series_lines, sheet_lines

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
    found.append(tally(replace(found[-1].match, hands=found[-1].match.hands[:7])))  # a game in play: its chance
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


def odds_of(sheet: Sheet) -> MatchOdds | None:
    """The chances `show` prints under an open game it can solve, from the built-in model and the sheet's hands."""
    from ginscore.files.builtin_model import model_from
    from ginscore.match.gives import TableGives

    if sheet.finished or not solvable(sheet):
        return None
    model = model_from(sheet.match.rules, TableGives.of([match_gives(sheet)]), 200)
    return MatchOdds(sheet, game_chances(sheet, model.outcomes), model)


@pytest.mark.parametrize("sheet", sheets(), ids=lambda sheet: f"{sheet.match.players[0]}-{len(sheet.lines)}-{sheet.match.hollywood}")
def test_plain_lines_are_what_rich_prints_to_a_pipe(sheet):
    lines = sheet_lines(sheet, PIPED_WIDTH, terminal=False) + odds_lines(odds_of(sheet)) + series_lines(series_as_of(match_gives(sheet), (match_gives(sheet),)))
    assert written_plain(lines) == through_rich(lines)


def test_an_open_game_s_chance_is_among_the_lines_compared():
    """The comparison above covers the chance's lines too: the sample cut after seven hands prints them."""
    sheet = sheets()[len(SAMPLES)]
    assert "Chances: Maria 54% to win this game, Tom 46%\n" in written_plain(odds_lines(odds_of(sheet)))


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

"""`play` takes both counts as the sheet and `show` write them: `6 18`, `6/18`, `6 / 18`, `6, 18`, and `gin 30`."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ginscore.files import reading
from ginscore.match.play import _counts


@pytest.fixture
def match_file(run, tmp_path) -> Path:
    path = tmp_path / "m.toml"
    assert run("new", path, "Ann", "Bob").exit_code == 0
    return path


def hands(path: Path) -> list[tuple[object, ...]]:
    match = reading.load_file(str(path)).match
    return [(hand.knocker, hand.deadwood, hand.opponent_deadwood) for hand in match.hands]


@pytest.mark.parametrize("typed", ["6 18", "6/18", "6 / 18", "6, 18", "  6 ,18 ", "6 /18"])
def test_each_notation_records_the_same_hand(run, match_file, typed):
    result = run("play", match_file, input=f"a\n{typed}\n")
    assert (result.exit_code, result.stderr) == (0, "")
    assert "Hand 1: knock: Ann scores 12" in result.stdout
    assert hands(match_file) == [("Ann", 6, 18)]


@pytest.mark.parametrize("typed", ["gin 30", "GIN/30", "gin, 30", "0 / 30"])
def test_gin_stands_for_the_knocker_s_count_of_0(run, match_file, typed):
    result = run("play", match_file, input=f"b\n{typed}\n")
    assert (result.exit_code, result.stderr) == (0, "")
    assert "Hand 1: gin: Bob scores 50" in result.stdout
    assert hands(match_file) == [("Bob", 0, 30)]


def test_the_counts_show_prints_are_taken_back_by_play(run, match_file, tmp_path):
    assert run("play", match_file, input="a\n6/18\n").exit_code == 0
    shown = run("show", match_file).stdout
    printed = re.search(r"\b6 / 18\b", shown)
    assert printed is not None, shown
    again = tmp_path / "again.toml"
    assert run("new", again, "Ann", "Bob").exit_code == 0
    assert run("play", again, input=f"a\n{printed[0]}\n").exit_code == 0
    assert hands(again) == hands(match_file)


@pytest.mark.parametrize("typed, counts", [("7", (7, None)), ("gin", (0, None)), ("10,0", (10, 0)), ("3h 4h 5h", None),
                                           ("Ks Kc", None)])
def test_what_is_counts_and_what_is_cards(typed, counts):
    assert _counts(typed) == counts


@pytest.mark.parametrize("typed, words", [("6//18", "is not counts"), ("/18", "is not counts"), ("6 18 ,", "is not counts"),
                                          ("1/2/3", "has 3 numbers")])
def test_counts_written_wrong_say_how_to_write_them(run, match_file, typed, words):
    result = run("play", match_file, input=f"a\n{typed}\n4 23\n")
    assert (result.exit_code, result.stderr) == (0, "")
    assert (f"'{typed}' {words}: type the knocker's count, or both counts like 4 23, 4/23 or gin 30. Try again."
            in result.stdout)
    assert hands(match_file) == [("Ann", 4, 23)]

"""The error ladder's own words: a match file's problems said on one line."""

from __future__ import annotations

import pytest

from ginscore.errors import DamagedText, MatchFileError


@pytest.mark.parametrize(("problems", "line"), [
    ([], "cannot be read"),
    (["hands[3].cards: 'Kx' is not a card"], "hands[3].cards: 'Kx' is not a card"),
    (["hands[3].cards: 'Kx' is not a card", "hands[4].note: bad"], "hands[3].cards: 'Kx' is not a card (and 1 more problem in the file)"),
    (["a", "b", "c"], "a (and 2 more problems in the file)"),
])
def test_a_files_problems_on_one_line(problems: list[str], line: str):
    assert MatchFileError("m.toml", problems).one_line() == line


def test_a_front_end_says_the_first_problem_in_its_own_words():
    error = MatchFileError("m.toml", [DamagedText("not valid TOML: Expected '='", 3)])
    assert error.one_line() == "not valid TOML: Expected '='"
    assert error.one_line("this file is damaged near line 3") == "this file is damaged near line 3"
    assert MatchFileError("m.toml", ["a", "b"]).one_line("A") == "A (and 1 more problem in the file)"

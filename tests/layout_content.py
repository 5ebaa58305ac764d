"""The longest content each page can hold, for the layout test: names of the longest length the pad takes,
a finished standard game with gin, an Oklahoma match in play, a Hollywood match, and a pair's series."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from ginscore.cli import app
from ginscore.match.records import NAME_MOST

LONGEST_NAME = NAME_MOST
"""A player's name has at most this many characters (`NAME_MOST` in match/records.py): the names here are that
long, in words of up to 12 letters (Featherstone), as long as a name's words run; a word no line can hold (40
W's, tests/test_long_names_browser.py) is broken where it must be, and only then."""


def _name(words: str) -> str:
    name = (words + " " * LONGEST_NAME)[:LONGEST_NAME]
    assert len(name.rstrip()) == LONGEST_NAME, (len(name.rstrip()), name)
    return name


MAYA = _name("Maximiliana Theodora Featherstone Quinns")
THEO = _name("Theodoricus Bartholomew Vanderbilt Yates")
CHECK_CARDS = "3h 4h 5h Ks Kc Kd 7c 8c 9c 2d Qs"
"""The 11 cards of the issue's check, with K♦ as Oklahoma's up-card."""


def _run(*args: str | Path) -> None:
    result = CliRunner().invoke(app, [str(arg) for arg in args], env={"NO_COLOR": "1"})
    assert result.exit_code == 0, (args, result.output)


def _hand(path: Path, knocker: str, deadwood: int, opponent: int, *extra: str) -> None:
    _run("record", path, "--knocker", knocker, "--deadwood", str(deadwood), "--opponent-deadwood", str(opponent), *extra)


def longest_folder(folder: Path) -> dict[str, str]:
    """Write the matches into `folder`; return each match file's name by what it shows."""
    standard, oklahoma, hollywood, second = (folder / name for name in ("finished.toml", "oklahoma.toml", "hollywood.toml", "second.toml"))
    _run("new", standard, MAYA, THEO)
    _run("record", standard, "--knocker", MAYA, "--cards", "3h 4h 5h Ks Kc Kd 7c 8c 9c 2d",
         "--opponent-cards", "Qh Qd 5s 6s 7s Jc 4d 8h 2c Ac", "--note", "A long note about this hand " * 4)
    _hand(standard, THEO, 0, 35)
    _hand(standard, MAYA, 0, 31)
    _hand(standard, THEO, 2, 25)
    _hand(standard, MAYA, 0, 12)
    _run("new", second, MAYA, THEO)
    _hand(second, THEO, 3, 20)
    _run("new", oklahoma, MAYA, THEO, "--rules", "oklahoma")
    _hand(oklahoma, MAYA, 0, 30, "--upcard", "As")
    _hand(oklahoma, THEO, 4, 30, "--upcard", "Kd")
    _hand(oklahoma, MAYA, 2, 11, "--upcard", "3s")
    _run("new", hollywood, MAYA, THEO, "--hollywood")
    for who, mine, theirs in ((MAYA, 1, 30), (THEO, 0, 40), (MAYA, 3, 22), (THEO, 2, 33)):
        _hand(hollywood, who, mine, theirs)
    return {"finished": standard.name, "oklahoma": oklahoma.name, "hollywood": hollywood.name, "second": second.name}

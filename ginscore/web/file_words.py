"""A match file that cannot be read, as the phone's pages say it: a damaged text in a player's words (`this file
is damaged: line 3 is not a score sheet line`), where the command line keeps the loader's (`not valid TOML: ...`).
Every page that shows a file's problem (the problem page, the folder's list, a file opened in the app) says it
through here."""

from __future__ import annotations

from ..errors import DamagedText, GinscoreError, MatchFileError, shown_path
from ..files.served import Summary


def damaged_words(damage: DamagedText) -> str:
    """A text that is not TOML, as a player reads it, with the line where it stopped when that is known."""
    if damage.line is None:
        return "this file is damaged: it cannot be read as a score sheet"
    return f"this file is damaged: line {damage.line} is not a score sheet line"


def problem_words(error: GinscoreError) -> str:
    """An error as a page shows it: a damaged file in a player's words, after the file's name; any other as said."""
    if isinstance(error, MatchFileError) and error.damage is not None:
        return f"{shown_path(error.path)}: {damaged_words(error.damage)}"
    return str(error)


def reason_words(summary: Summary) -> str | None:
    """Why the folder's list cannot open a file, as a player reads it; None for a file that can be used."""
    if summary.damage is not None:
        return damaged_words(summary.damage)
    return summary.reason

"""A table's history: the match files beside one match, read as sheets, for the figures drawn from them all (the
chance to win, the series)."""

from __future__ import annotations

import os

from ..errors import GinscoreError
from ..match.series import Series, series_as_of
from ..match.tally import Sheet
from .reading import load


def folder_of(path: str) -> str:
    """The folder a match file is in: its table's history."""
    return os.path.dirname(path) or "."


def folder_sheets(folder: str) -> list[Sheet]:
    """The sheets of every match file in a folder (not below it) that can be read, the first started first; a
    broken file is left out."""
    try:
        names = sorted(name for name in os.listdir(folder) if name.endswith(".toml"))
    except OSError:
        return []
    sheets = []
    for name in names:
        path = os.path.join(folder, name)
        if not os.path.isfile(path):
            continue
        try:
            sheets.append(load(path)[1])
        except (GinscoreError, OSError, UnicodeDecodeError):
            continue
    return sorted(sheets, key=lambda sheet: sheet.match.created)


def file_series(path: str, sheet: Sheet) -> Series:
    """The series of the players of the match file at `path` (read as `sheet`), over the matches of its folder."""
    return series_as_of(sheet, folder_sheets(folder_of(path)))

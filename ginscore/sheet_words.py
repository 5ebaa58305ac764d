"""The score sheet's words, shared by the terminal and the exports: each result's name and the sheet's title."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # `check` reads RESULT_WORDS; the match stays out of its start-up
    from .match import Sheet

RESULT_WORDS = {
    "knock": "knock",
    "undercut": "undercut",
    "gin": "gin",
    "big_gin": "big gin",
    "tie": "tie: equal counts, nobody scores",
    "cancelled": "cancelled",
}


def result_name(result: str) -> str:
    """A result's name alone, as a sheet's column gives it: `tie`, not the sentence after it."""
    return RESULT_WORDS[result].split(":")[0]


def sheet_title(sheet: Sheet) -> str:
    """`Ann vs Bob (Hollywood, standard rules with gin_bonus=25, target 100)`."""
    from .rules import changes_from

    match = sheet.match
    kind = "Hollywood, " if match.hollywood else ""
    preset, changes = changes_from(match.rules, match.preset)
    changes = [change for change in changes if not change.startswith("target=")]  # the target is named anyway
    changed = f" with {', '.join(changes)}" if changes else ""
    return f"{match.players[0]} vs {match.players[1]} ({kind}{preset} rules{changed}, target {match.rules.target})"

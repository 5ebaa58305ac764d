"""The changes a person makes to a match file: start it, record a hand, edit one, undo the last.

Each is read, checked and written under the one lock, so the command line, `play` and `serve` can work on one
file at once and lose nothing. The command line and the web app both call these, so they refuse with the same
words.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from ..errors import ExistsError, RefusedError, StaleError, quote, shown_path
from ..match.records import HandRecord, Match, make_record
from ..match.tally import Sheet, add_hand, remove_last_hand, replace_hand
from .folder import exists_for_write, locked
from .storage import MatchFile, load_file, save


class Change(NamedTuple):
    """A file before a change and the match and sheet written by it."""

    before: MatchFile
    match: Match
    sheet: Sheet


def already_exists(path: str) -> ExistsError:
    return ExistsError(f"{shown_path(path)} already exists: pick another name, or add --force to replace it")


def start(path: str, match: Match, *, force: bool = False) -> None:
    """Write a new match file; one that exists is replaced only with `force`.

    Whether it exists is asked of the file the write would replace (`folder.resolved`), never of the name as typed:
    `typo/../m.toml` with `typo` missing is refused for its folder, not taken for `m.toml`.
    """
    if not force and exists_for_write(path):
        raise already_exists(path)  # before the lock, so that the refusal creates nothing
    with locked(path):
        if not force and exists_for_write(path):
            raise already_exists(path)  # made by another writer while this one waited for the lock
        save(path, match)


def _check_expected(path: str, before: MatchFile, expected_hands: int | None) -> None:
    count = len(before.match.hands)
    if expected_hands is not None and count != expected_hands:
        raise StaleError(
            f"{quote(path)} now has {count} hand{'s' if count != 1 else ''}, not {expected_hands}: "
            "someone else changed it first; nothing was written (look again, then retry)"
        )


def record(path: str, typed: dict[str, Any], *, recorded: str, note: str = "", expected_hands: int | None = None) -> Change:
    """Add one hand, as typed (`make_record`'s fields), refused once the game is over."""
    with locked(path, existing=True):
        before = load_file(path)
        _check_expected(path, before, expected_hands)
        return _add(path, before, make_record(before.match, **typed, recorded=recorded, note=note))


def add(path: str, entry: HandRecord) -> Change:
    """Add one hand already made and checked against this match (as `play` makes it)."""
    with locked(path, existing=True):
        return _add(path, load_file(path), entry)


def _add(path: str, before: MatchFile, entry: HandRecord) -> Change:
    match, sheet = add_hand(before.match, entry, before.sheet)
    save(path, match, sheet, before)
    return Change(before, match, sheet)


def edit(
    path: str, number: int, typed: dict[str, Any], *, now: str, note: str | None = None, expected_hands: int | None = None
) -> Change:
    """Replace hand `number` (from 1); it keeps its time and, unless `note` is given, its note."""
    with locked(path, existing=True):
        before = load_file(path)
        _check_expected(path, before, expected_hands)
        hands = before.match.hands
        old = hands[number - 1] if 1 <= number <= len(hands) else None
        recorded = old.recorded if old else now
        kept_note = note if note is not None else (old.note if old else "")
        entry = make_record(before.match, **typed, recorded=recorded, note=kept_note)
        match, sheet = replace_hand(before.match, number, entry)
        save(path, match, sheet, before)
    return Change(before, match, sheet)


def undo(path: str, *, expected: tuple[HandRecord, ...] | None = None, expected_hands: int | None = None) -> Change:
    """Remove the last hand; refused when the hands are no longer those the person saw."""
    with locked(path, existing=True):
        before = load_file(path)
        _check_expected(path, before, expected_hands)
        if expected is not None and before.match.hands != expected:
            raise StaleError(
                f"{shown_path(path)} changed while the question waited (hand {len(expected)} is no longer the last, "
                "or not the one shown); nothing removed"
            )
        if not before.match.hands:
            raise RefusedError(f"{shown_path(path)} has no hands to undo")
        match, sheet = remove_last_hand(before.match)
        save(path, match, sheet, before)
    return Change(before, match, sheet)

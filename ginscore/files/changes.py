"""The one service for every change a person makes to a match file: start it, record a hand (or preview one),
edit a hand, undo the last.

The command line, `play` and `serve` all call these with typed inputs (`HandEntry`, `NewMatch`) and get typed
answers; none of them builds a `Match`, stamps a time or fills in a default itself. A change reads the file
once, scores the hand once (the tally takes the score the record was checked by) and writes the file once. Each
change is read, checked and written under the one lock, through the folder's storage where the caller has one
(`table_io.Storage`: the disk, or the app's store), so any number of writers can work on one file at once and lose nothing. A
refusal is one of ginscore's errors, naming its field; each front end says how to mend it in its own words.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime
from typing import TYPE_CHECKING

from ..errors import ExistsError, GinscoreError, RefusedError, StaleError
from ..match.entry import HandEntry, NewMatch
from ..match.moments import stamp
from ..match.records import HandRecord, Match, check_note, check_players, new_id, now
from ..match.scored import ScoredRecord, make_record
from ..match.tally import Sheet, add_hand, remove_last_hand, replace_hand
from .reading import MatchFile
from .storage import exists, lock, read, save

if TYPE_CHECKING:
    from .table_io import Storage


@dataclass(frozen=True)
class Change:
    """A file before a change, and the match and sheet the change made (written, unless it was a preview)."""

    before: MatchFile
    """The file as it was read under the lock, before the change."""
    match: Match
    sheet: Sheet


def new_match(new: NewMatch, at: datetime | None = None) -> Match:
    """The match `new` describes, checked: two different names, the dealer one of them, a plain note; started now,
    or `at` (a past night's moment, `moments.past_moment`), with an id of its own (`records.new_id`)."""
    try:
        players = check_players(new.players)
    except GinscoreError as error:
        raise error.about("players") from None
    try:
        note = check_note(new.note)
    except GinscoreError as error:
        raise error.about("note") from None
    match = Match(players, new.rules, players[0], hollywood=new.hollywood, created=_stamp(at), preset=new.preset.lower(), note=note,
                  id=new_id())
    if new.dealer:
        try:
            match = replace(match, first_dealer=match.player(new.dealer))
        except GinscoreError as error:
            raise error.about("dealer") from None
    return match


def _stamp(at: datetime | None) -> str:
    """The time stamp of a change made now, or of one entered for the past moment `at`."""
    return now() if at is None else stamp(at)


def already_exists(path: str) -> ExistsError:
    return ExistsError("already exists: pick another name", field="file", file=path)


def start(path: str, new: NewMatch, *, force: bool = False, storage: Storage | None = None, at: datetime | None = None) -> Sheet:
    """Write a new match file and return its (empty) sheet; one that exists is replaced only with `force`. `at` is
    the past moment it was started, for a paper sheet entered later (default: now).

    Whether it exists is asked of the file the write would replace (`folder.resolved`), never of the name as typed:
    `typo/../m.toml` with `typo` missing is refused for its folder, not taken for `m.toml`.
    """
    match = new_match(new, at)
    if not force and exists(path, storage):
        raise already_exists(path)  # before the lock, so that the refusal creates nothing
    with lock(path, storage):
        if not force and exists(path, storage):
            raise already_exists(path)  # made by another writer while this one waited for the lock
        return save(path, match, storage=storage).sheet


def next_game(finished: str, path: str, dealer: str | None = None, storage: Storage | None = None,
              at: datetime | None = None) -> Sheet:
    """Start the next match after the finished one at `finished`: the same players, rules and preset, in a new file
    at `path` (never replacing one), the finished file left exactly as it was. The first dealer is the one the
    finished match names as next dealer unless `dealer` names another. `at` is the past moment it was started (as `start`)."""
    before = read(finished, storage)
    if not before.sheet.finished:
        raise RefusedError("is still in play: finish it before the next game", field="file", file=finished)
    match = before.match
    chosen = dealer if dealer else before.sheet.next_dealer
    return start(path, NewMatch(list(match.players), match.rules, match.preset or "custom", chosen, match.hollywood),
                 storage=storage, at=at)


def _check_expected(path: str, before: MatchFile, expected_hands: int | None) -> None:
    count = len(before.match.hands)
    if expected_hands is not None and count != expected_hands:
        raise StaleError(
            f"now has {count} hand{'s' if count != 1 else ''}, not {expected_hands}: "
            "someone else changed it first; nothing was written",
            field="expected_hands",
            file=path,
        )


def preview(path: str, entry: HandEntry, storage: Storage | None = None) -> Change:
    """What `record` would make of `entry`, written nowhere: the same checks and the same answer."""
    before = read(path, storage)
    return _added(before, make_record(before.match, entry, recorded=now()))


def record(path: str, entry: HandEntry, *, expected_hands: int | None = None, storage: Storage | None = None,
           at: datetime | None = None) -> Change:
    """Add one hand, refused once the game is over, or (with `expected_hands`) when the file has another count; the
    hand is stamped now, or `at`, the past moment it was played (a paper sheet entered later)."""
    with lock(path, storage, existing=True):
        before = read(path, storage)
        _check_expected(path, before, expected_hands)
        change = _added(before, make_record(before.match, entry, recorded=_stamp(at)))
        save(path, change.match, change.sheet, before, storage)
    return change


def _added(before: MatchFile, made: ScoredRecord) -> Change:
    match, sheet = add_hand(before.match, made, before.sheet)
    return Change(before, match, sheet)


def edit(path: str, number: int, entry: HandEntry, *, expected_hands: int | None = None,
         storage: Storage | None = None) -> Change:
    """Replace hand `number` (from 1); it keeps its time and, unless the entry gives a note, its note."""
    with lock(path, storage, existing=True):
        before = read(path, storage)
        _check_expected(path, before, expected_hands)
        change = _replaced(before, number, entry)
        save(path, change.match, change.sheet, before, storage)
    return change


def preview_edit(path: str, number: int, entry: HandEntry, storage: Storage | None = None) -> Change:
    """What `edit` would make of hand `number`, written nowhere: the same checks and the same answer."""
    return _replaced(read(path, storage), number, entry)


def _replaced(before: MatchFile, number: int, entry: HandEntry) -> Change:
    hands = before.match.hands
    old = hands[number - 1] if 1 <= number <= len(hands) else None
    kept_note = entry.note if entry.note is not None else (old.note if old else "")
    made = make_record(before.match, entry, recorded=old.recorded if old else now(), note=kept_note)
    match, sheet = replace_hand(before.match, number, made)
    return Change(before, match, sheet)


def undo(path: str, *, expected: tuple[HandRecord, ...] | None = None, expected_hands: int | None = None,
         storage: Storage | None = None) -> Change:
    """Remove the last hand; refused when the hands are no longer those the person saw."""
    with lock(path, storage, existing=True):
        before = read(path, storage)
        _check_expected(path, before, expected_hands)
        if expected is not None and before.match.hands != expected:
            raise StaleError(
                f"changed while the question waited (hand {len(expected)} is no longer the last, "
                "or not the one shown); nothing removed",
                file=path,
            )
        if not before.match.hands:
            raise RefusedError("has no hands to undo", file=path)
        match, sheet = remove_last_hand(before.match)
        save(path, match, sheet, before, storage)
    return Change(before, match, sheet)


def put(path: str, match: Match, storage: Storage | None = None) -> None:
    """Write a whole match a program made (`ginscore.save_match`), under the file's lock. A file that is there must
    read as a match file (else `MatchFileError`, the file left as it was); when it holds this match with other
    hands, only the hand blocks that changed are rewritten, as `record` does, so comments elsewhere are kept."""
    for note in (match.note, *(hand.note for hand in match.hands)):
        check_note(note)  # a file holding it would not load
    with lock(path, storage):
        before = read(path, storage) if exists(path, storage) else None
        same_match = before is not None and before.match.with_hands(match.hands) == match
        save(path, match, before=before if same_match else None, storage=storage)

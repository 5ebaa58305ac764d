"""The served folder's match files and every read and write on them: the API and the pages both call this.

No web framework is in it, and it raises only ginscore's own errors.

A `Folder` names its match files by their plain names (`friday.toml`), never by a path: `resolve` turns a name
into the one file it may mean, directly inside the folder, or refuses with `NotFoundError`. Every change goes
through `files.changes` (the one lock and atomic write the command line uses), so the CLI, `play` and any
number of phones can work on one file at once.

Fields arrive as JSON values or form strings; `fields` reads both the same way, with the command line's
words. Errors are ginscore's own: `status_of` gives each its HTTP status, and its text is what
the CLI prints after `error: `, with the file named as the person named it.
"""

from __future__ import annotations

import contextlib
import os
import threading
import unicodedata
from collections.abc import Iterator, Mapping
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from ..errors import ExistsError, GinscoreError, InputError, MatchFileError, StaleError, quote
from .fields import flag_field, hand_fields, number_field, refuse_unknown, settings_field, text_field

if TYPE_CHECKING:
    from ..match.tally import Sheet

NEW_FIELDS = ("file", "players", "rules", "set", "note", "hollywood", "dealer")

EXPORT_TYPES = {
    "html": "text/html; charset=utf-8",
    "svg": "image/svg+xml",
    "csv": "text/csv; charset=utf-8",
    "md": "text/markdown; charset=utf-8",
}


class NotFoundError(GinscoreError):
    """A name that is not a match file directly inside the served folder: HTTP 404."""


def status_of(error: GinscoreError) -> int:
    """The HTTP status of one of ginscore's errors: 400 bad input, 404 no such file, 409 someone else wrote
    first or the file exists, 422 an action refused (an illegal knock, a finished game, a broken file)."""
    if isinstance(error, NotFoundError):
        return 404
    if isinstance(error, StaleError | ExistsError):
        return 409
    if isinstance(error, InputError):
        return 400
    return 422


# --- the folder ----------------------------------------------------------------------------------------


class Folder:
    """The served folder: its match files by name, and every operation on them."""

    def __init__(self, path: str):
        self.path = os.path.abspath(path)
        self._summaries: dict[str, tuple[tuple[int, ...], dict[str, Any]]] = {}
        self._lock = threading.Lock()

    # names

    def _checked_name(self, name: Any) -> str | None:
        """The name, when it can be a match file directly inside the folder; None otherwise."""
        if not isinstance(name, str) or not name.endswith(".toml") or name == ".toml":
            return None
        if name.startswith(".") or any(bad in name for bad in ("/", "\\", "\x00")) or len(name.encode("utf-8", "replace")) > 255:
            return None
        if any(not char.isprintable() or unicodedata.category(char) in ("Cf", "Cs") for char in name):
            return None  # a line break or a right-to-left mark would let a name pass for another in the listing
        return name

    def resolve(self, name: str) -> str:
        """The path of the match file `name` names, directly inside the folder (a link the user put there is
        followed, as the CLI follows it); `NotFoundError` for anything else."""
        checked = self._checked_name(name)
        path = os.path.join(self.path, checked) if checked else None
        if path is None or not os.path.isfile(path):
            raise NotFoundError(f"{quote(name)}: no such match file in this folder")
        return path

    def names(self) -> list[str]:
        """The match files' names, sorted: the folder's `*.toml` files, not hidden."""
        try:
            entries = sorted(os.listdir(self.path))
        except OSError as error:
            raise MatchFileError(self.path, [f"cannot list the folder: {error.strerror or 'refused'}"]) from None
        return [name for name in entries if self._checked_name(name) and os.path.isfile(os.path.join(self.path, name))]

    @contextlib.contextmanager
    def _named(self, name: str, path: str) -> Iterator[None]:
        """Errors about `path` said with the name the person gave, as the CLI run in the folder says them."""
        try:
            yield
        except MatchFileError as error:
            inside = os.path.dirname(path) + os.sep  # a lock file's path, say, is named inside the folder too
            raise MatchFileError(name, [problem.replace(inside, "") for problem in error.problems]) from None
        except GinscoreError as error:
            text = str(error).replace(quote(path), quote(name)).replace(path, name)  # quoted, a long path is cut short
            if text == str(error):
                raise
            renamed = type(error)(text)
            renamed.field = error.field
            raise renamed from None

    # reading

    def listing(self) -> list[dict[str, Any]]:
        """Every match file with its players, totals, status (`playing`, `finished`, `broken` or `not a match`),
        the reason when it cannot be used, its hand count and when it was last played; none is left out."""
        return [self.summary(name) for name in self.names()]

    def summary(self, name: str) -> dict[str, Any]:
        """One file's line in the listing, read again only when the file has changed."""
        path = os.path.join(self.path, name)
        try:
            status = os.stat(path)
        except OSError as error:
            return self._broken(name, None, f"cannot read: {error.strerror or 'refused'}")
        key = (status.st_mtime_ns, status.st_ctime_ns, status.st_size, status.st_ino)
        with self._lock:
            cached = self._summaries.get(name)
        if cached is not None and cached[0] == key:
            return cached[1]
        found = self._read_summary(name, path, status.st_mtime)
        with self._lock:
            self._summaries[name] = (key, found)
        return found

    def _read_summary(self, name: str, path: str, mtime: float) -> dict[str, Any]:
        from ..files.storage import load_file

        modified = datetime.fromtimestamp(mtime, UTC).replace(microsecond=0).isoformat()
        try:
            found = load_file(path)
        except MatchFileError as error:
            return self._broken(name, path, _one_line(error.problems), modified)
        sheet, hands = found.sheet, found.match.hands
        return {
            "name": name,
            "players": list(found.match.players),
            "totals": sheet.summed("totals"),
            "status": "finished" if sheet.finished else "playing",
            "reason": None,
            "hands": len(hands),
            "last_played": (hands[-1].recorded if hands and hands[-1].recorded else modified),
            "winner": sheet.winner,
            "hollywood": found.match.hollywood,
        }

    def _broken(self, name: str, path: str | None, reason: str, modified: str | None = None) -> dict[str, Any]:
        looks_like_a_match = False
        if path is not None:
            with contextlib.suppress(OSError, UnicodeDecodeError):
                with open(path, encoding="utf-8") as handle:
                    head = handle.read(4096)
                looks_like_a_match = "[match]" in head or head.startswith("# ginscore match file")
        return {
            "name": name,
            "players": [],
            "totals": {},
            "status": "broken" if looks_like_a_match else "not a match",
            "reason": reason,
            "hands": 0,
            "last_played": modified,
            "winner": None,
            "hollywood": False,
        }

    def sheet(self, name: str) -> Sheet:
        """The match's sheet, as `show` reads it; errors name the file as the person named it."""
        from ..files.storage import load

        path = self.resolve(name)
        with self._named(name, path):
            return load(path)[1]

    def show(self, name: str) -> dict[str, Any]:
        """Exactly what `ginscore show NAME --json` prints."""
        from ..match.tally import sheet_dict

        return sheet_dict(self.sheet(name))

    def version(self, name: str) -> str:
        """A text that changes whenever the file changes (each write renames a new file into place), for pages
        that poll for other people's hands."""
        path = self.resolve(name)
        try:
            status = os.stat(path)
        except OSError:
            raise NotFoundError(f"{quote(name)}: no such match file in this folder") from None
        # ctime too: a program can set a file's mtime back, but not its ctime
        return f"{status.st_mtime_ns:x}-{status.st_ctime_ns:x}-{status.st_size:x}-{status.st_ino:x}"

    def exports(self, name: str, kind: str) -> tuple[bytes, str]:
        """The sheet as `show --export` writes it (`html`, `svg`, `csv` or `md`), and its media type."""
        from ..sheets.export import export_text

        if kind not in EXPORT_TYPES:
            raise InputError(f"{quote(kind)} is not an export: use {', '.join(EXPORT_TYPES)}")
        return export_text(self.sheet(name), kind).encode("utf-8"), EXPORT_TYPES[kind]

    # changes

    def new(self, fields: Mapping[str, Any]) -> dict[str, Any]:
        """Start a match file with `new`'s fields; `ExistsError` when the file exists (never replaced)."""
        from ..files.changes import start
        from ..game.rulebook import rules_from
        from ..match.records import Match, check_note, check_players, now
        from ..match.tally import sheet_dict, tally

        refuse_unknown(fields, NEW_FIELDS, "a new match")
        file = text_field("file", fields.get("file"))
        if file is None:
            raise InputError("file: give the new match file's name, e.g. friday.toml")
        name = self._checked_name(file)
        if name is None:
            raise InputError(f"{quote(file)} is not a match file's name here: use a plain name ending in .toml, e.g. friday.toml")
        players = fields.get("players")
        names = check_players(players.split(",") if isinstance(players, str) else players)
        rules_name = text_field("rules", fields.get("rules")) or "standard"
        rules = rules_from(rules_name, settings_field(fields.get("set")))
        note = text_field("note", fields.get("note"), empty_is_missing=False) or ""
        hollywood = flag_field("hollywood", fields.get("hollywood"))
        match = Match(names, rules, names[0], hollywood=hollywood, created=now(), preset=rules_name.lower(), note=check_note(note))
        dealer = text_field("dealer", fields.get("dealer"))
        if dealer:
            from dataclasses import replace

            match = replace(match, first_dealer=match.player(dealer))
        path = os.path.join(self.path, name)
        with self._named(name, path):
            start(path, match)
        data = sheet_dict(tally(match))
        data["name"] = name
        return data

    def record(self, name: str, fields: Mapping[str, Any]) -> dict[str, Any]:
        """Record one hand with `record`'s fields; refused with `StaleError` when `expected_hands` is given and
        the file has another count. The new hand as `show --json` gives it."""
        from ..files import changes
        from ..match.records import now

        typed, note, expected = hand_fields(fields)
        path = self.resolve(name)
        with self._named(name, path):
            change = changes.record(path, typed, recorded=now(), note=note or "", expected_hands=expected)
        return hand_dict(change.sheet, len(change.match.hands))

    def edit(self, name: str, number: Any, fields: Mapping[str, Any]) -> dict[str, Any]:
        """Replace hand `number` (from 1) with `record`'s fields; it keeps its time, and its note unless one is given."""
        from ..files import changes
        from ..match.records import now

        typed, note, expected = hand_fields(fields)
        hand = number_field("number", number)
        if hand is None:
            raise InputError("number: say which hand to replace, numbered as `show` numbers them")
        path = self.resolve(name)
        with self._named(name, path):
            change = changes.edit(path, hand, typed, now=now(), note=note, expected_hands=expected)
        return hand_dict(change.sheet, hand)

    def undo(self, name: str, expected_hands: Any) -> dict[str, Any]:
        """Remove the last hand, only when the file still has `expected_hands` hands (required: an undo must
        remove the hand the person saw). The removed hand, the count left, the totals and the next dealer."""
        from ..files import changes

        expected = number_field("expected_hands", expected_hands)
        if expected is None:
            raise InputError("expected_hands: give the number of hands you saw, so that only that last hand is removed")
        path = self.resolve(name)
        with self._named(name, path):
            change = changes.undo(path, expected_hands=expected)
        return {
            "removed": hand_dict(change.before.sheet, len(change.before.match.hands)),
            "hands": len(change.match.hands),
            "totals": change.sheet.summed("totals"),
            "next_dealer": change.sheet.next_dealer,
        }

    def preview(self, name: str, fields: Mapping[str, Any]) -> dict[str, Any]:
        """Score a hand with `record`'s fields without writing anything: the hand as `record` would add it, and
        the knocker's spread. When the best spread for the knocker is not a lowest-deadwood one and scores
        differently, both are given, each as `cards` (grouped with `|`) and `discard` fields that `record`
        takes, so the player can say which one was laid down."""
        from ..files.storage import load_file
        from ..match.records import make_record, now
        from ..match.tally import add_hand

        typed, note, _ = hand_fields(fields)
        path = self.resolve(name)
        with self._named(name, path):
            before = load_file(path)
            entry = make_record(before.match, **typed, recorded=now(), note=note or "")
            match, sheet = add_hand(before.match, entry, before.sheet)
        scored = sheet.lines[-1].scored
        return {
            "hand": hand_dict(sheet, len(match.hands)),
            "expected_hands": len(before.match.hands),
            "spread": _spread_choice(scored) if scored is not None else None,
            "lowest": _spread_choice(scored.lowest) if scored is not None and scored.lowest is not None else None,
        }


def _spread_choice(scored: Any) -> dict[str, Any]:
    from ..match.records import spread_text

    result = scored.result
    cards = spread_text(scored.spread)
    return {
        # An 11-card hand's discard is its own group, named again by `discard`, as `record --discard` reads it.
        "cards": f"{cards} | {scored.discard}" if scored.discard else cards,
        "discard": str(scored.discard) if scored.discard else None,
        "result": result.result,
        "winner": result.winner,
        "points": result.points,
        "knocker_deadwood": result.knocker_deadwood,
        "opponent_deadwood": result.opponent_deadwood,
    }


def hand_dict(sheet: Sheet, number: int) -> dict[str, Any]:
    """Hand `number` (from 1) exactly as `show --json` gives it, without building the whole sheet's object."""
    from dataclasses import replace

    from ..match.tally import sheet_dict

    one = replace(sheet, lines=(sheet.lines[number - 1],), match=sheet.match.with_hands((sheet.match.hands[number - 1],)))
    return sheet_dict(one)["hands"][0]


def _one_line(problems: list[str]) -> str:
    first = problems[0] if problems else "cannot be read"
    more = len(problems) - 1
    return first + (f" (and {more} more problem{'s' if more > 1 else ''}: run `ginscore validate` on it)" if more else "")

"""The served folder: its match files by name, what they hold, and every change to them through the service.

`serve` and the phone app stand on it; no web framework is in it, and it raises only ginscore's own errors,
each naming its field.

A `Folder` names its match files by their plain names (`friday.toml`), never by a path: `resolve` turns a name
into the one file it may mean, directly inside the folder, or refuses with `NotFoundError`. Every change goes
through `files.changes` with a typed entry (the one lock and atomic write the command line uses, taken through
the table's storage), so the CLI,
`play` and any number of phones can work on one file at once. Errors name the file as the person named it.
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field, replace
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, cast

from ..errors import DamagedText, ExistsError, GinscoreError, InputError, MatchFileError, NotFoundError, quote
from .file_names import name_problem
from .table import Table, TableFile
from .table_io import Storage

if TYPE_CHECKING:
    from ..match.entry import HandEntry, NewMatch
    from ..match.tally import Sheet
    from .changes import Change
    from .merging import Merged
    from .reading import MatchFile


@dataclass(frozen=True)
class Summary:
    """One match file's line in the folder's listing."""

    name: str
    players: tuple[str, ...]
    totals: dict[str, int]
    status: str
    """`playing`, `finished`, `broken` or `not a match`."""
    reason: str | None
    """Why the file cannot be used; None when it can."""
    hands: int
    last_played: str | None
    """When its last hand was recorded, else when the file was last changed."""
    winner: str | None
    hollywood: bool
    final: dict[str, int] = field(default_factory=dict)
    """Each player's final total, every bonus included, once the match is over; empty while it is in play."""
    damage: DamagedText | None = None
    """When the file's text is not TOML at all, that problem as data (`reason` holds its words), for a phone to
    say in a player's words."""

    def as_json(self) -> dict[str, Any]:
        """The line as the API's listing gives it."""
        data = asdict(self)
        data["players"] = list(self.players)
        return data


# --- the folder ----------------------------------------------------------------------------------------


class Folder:
    """The served folder: its match files by name, and every operation on them."""

    def __init__(self, path: str, storage: Storage | None = None):
        self.path = os.path.abspath(path)
        self.table = Table(self.path, storage)
        """The folder's match files and every figure drawn from them: the one reader of the folder."""
        self._next_lock = threading.Lock()
        self.next_games: dict[tuple[str, str], str] = {}
        """The game started after each finished file, by its name and version."""
        self._summaries: dict[str, tuple[TableFile, Summary]] = {}
        """Each file's line in the listing, with the reading of it that it was made from."""

    # names

    def accepts(self, name: Any) -> str | None:
        """The name, when it can be a match file directly inside the folder; None otherwise."""
        return name if isinstance(name, str) and name_problem(name) is None else None

    def resolve(self, name: str) -> str:
        """The path of the match file `name` names, directly inside the folder (a link the user put there is
        followed, as the CLI follows it); `NotFoundError` for anything else."""
        checked = self.accepts(name)
        if not checked or not self.table.storage.is_file(checked):
            raise NotFoundError(f"{quote(name)}: no such match file in this folder", field="file")
        return os.path.join(self.path, checked)

    def names(self) -> list[str]:
        """The match files' names, sorted, as the table counts them (the damaged ones too)."""
        return self.table.names()

    @contextlib.contextmanager
    def _named(self, name: str, path: str) -> Iterator[None]:
        """Errors about `path` said with the name the person gave, as the CLI run in the folder says them: a path
        inside the folder that a problem names (the lock file, a link's target) by its name there too."""
        try:
            yield
        except GinscoreError as error:
            if error.file != path:
                raise
            if isinstance(error, MatchFileError):
                raise error.named(name, folder=os.path.realpath(self.path)) from None
            raise error.named(name) from None

    # reading

    def listing(self) -> list[Summary]:
        """Every match file with its players, totals, status (`playing`, `finished`, `broken` or `not a match`),
        the reason when it cannot be used, its hand count and when it was last played; none is left out."""
        names = self.names()
        for gone in set(self._summaries) - set(names):
            self._summaries.pop(gone, None)
        twinned = self.table.twins()
        return [self.summary(name, twinned) for name in names]

    def summary(self, name: str, twinned: dict[str, str] | None = None) -> Summary:
        """One file's line in the listing, as the table read it (`twinned`: see `Table.file`): made once for each
        reading of the file the table holds."""
        found = self.table.file(name, twinned)
        known = self._summaries.get(name)
        if known is not None and known[0] is found:
            return known[1]
        made = self._summary_of(found)
        self._summaries[name] = (found, made)
        return made

    def _summary_of(self, found: TableFile) -> Summary:
        name = found.name
        path = os.path.join(self.path, name)
        stamp = self.table.storage.modified(name)
        if stamp is None:
            return self._broken(name, False, "cannot read: no such file")
        modified = datetime.fromtimestamp(stamp, UTC).replace(microsecond=0).isoformat()
        if found.read is None:
            problem = found.problem or MatchFileError(path, ["cannot be read"])
            return self._broken(name, True, problem.one_line(), modified, problem.damage)
        sheet, hands = found.read.sheet, found.read.match.hands
        last = hands[-1].recorded if hands and hands[-1].recorded else modified
        status = "finished" if sheet.finished else "playing"
        final = sheet.summed("final") if sheet.finished else {}
        return Summary(name, found.read.match.players, sheet.summed("totals"), status, None, len(hands), last, sheet.winner,
                       found.read.match.hollywood, final)

    def _broken(self, name: str, there: bool, reason: str, modified: str | None = None,
                damage: DamagedText | None = None) -> Summary:
        looks_like_a_match = False
        if there:
            with contextlib.suppress(GinscoreError, UnicodeDecodeError):
                head = self.table.storage.data(name)[:4096].decode("utf-8", "ignore")
                looks_like_a_match = "[match]" in head or head.startswith("# ginscore match file")
        return Summary(name, (), {}, "broken" if looks_like_a_match else "not a match", reason, 0, modified, None, False,
                       damage=damage)

    def sheet(self, name: str) -> Sheet:
        """The match's sheet, as `show` reads it; errors name the file as the person named it."""
        path = self.resolve(name)
        found = self.table.file(name)
        with self._named(name, path):
            return found.sheet()

    def sheets(self) -> tuple[Sheet, ...]:
        """Every readable match's sheet, the first started first, as the table has them."""
        return self.table.sheets()

    def named_sheets(self) -> tuple[tuple[str, Sheet], ...]:
        """`sheets()`, each with its file's name."""
        return self.table.named_sheets()

    def show(self, name: str) -> dict[str, Any]:
        """Exactly what `ginscore show NAME --json` prints."""
        return self.table.show(self.sheet(name))

    def version(self, name: str) -> str:
        """A text that changes whenever the file changes, for pages that poll for other people's hands."""
        self.resolve(name)
        version = self.table.storage.version(name)
        if version is None:
            raise NotFoundError(f"{quote(name)}: no such match file in this folder", field="file")
        return version

    # changes

    def new(self, file: str | None, new: NewMatch) -> tuple[str, Sheet]:
        """Start a match file (named for its players when `file` is None, never replacing one): its name and sheet."""
        from .changes import start

        name = self.new_name(file)
        path = os.path.join(self.path, name)
        with self._named(name, path):
            return name, start(path, new, storage=self.table.storage)

    def new_name(self, file: str | None) -> str:
        """The name a new match file may take, as given: refused with the reason and a name to type instead."""
        if file is None:
            raise InputError("give the new match file's name, e.g. friday.toml", field="file")
        problem = name_problem(file)
        if problem is not None:
            raise InputError(f"{quote(file)} cannot be a match file's name: {problem}, like {_plain_name(file)}", field="file")
        from .folder import check_portable_name

        check_portable_name(os.path.join(self.path, file))  # as `new` refuses it: the app's files are opened here too
        return file

    def fresh_name(self, players: list[str]) -> str:
        """A name for a new match of these players that no file in the folder has: `ann-bob.toml`, else with
        today's date, `ann-bob-2026-12-01.toml`, else with a number after it, `ann-bob-2026-12-01-2.toml`."""
        from ..match.records import now
        from .folder import check_portable_name

        words = ["".join(ch.lower() if ch.isalnum() else "-" for ch in player).strip("-") for player in players]
        stem = "-".join(word for word in words if word)[:60] or "match"
        try:
            check_portable_name(os.path.join(self.path, f"{stem}.toml"))
        except GinscoreError:
            stem = "match"  # a name such as `con` that no phone or Windows machine can hold
        try:
            taken = set(self.table.storage.listed())
        except MatchFileError:  # no folder yet: every name is free
            taken = set()
        day = now()[:10]
        for name in (f"{stem}.toml", f"{stem}-{day}.toml", *(f"{stem}-{day}-{n}.toml" for n in range(2, 1000))):
            if name not in taken:
                return name
        raise ExistsError(f"every name for a match of {stem} today is taken: give the file a name", field="file")

    def next_game(self, name: str, dealer: str | None = None) -> tuple[str, Sheet]:
        """Start the next match after the finished match `name`, in a file named for its players and today: its
        new name and sheet. The finished file is left exactly as it was."""
        with self._next_lock:  # one at a time: a second tap, or the other phone's, goes to the game the first started
            return self._next_game(name, dealer)

    def started_after(self, name: str) -> str | None:
        """The game Next game started after the finished match `name` as it stands, while its file is there; else
        None."""
        started = self.next_games.get((name, self.version(name)))
        return started if started is not None and self.table.storage.is_file(started) else None

    def _next_game(self, name: str, dealer: str | None) -> tuple[str, Sheet]:
        from .changes import next_game

        path = self.resolve(name)
        finished = (name, self.version(name))
        started = self.next_games.get(finished)
        if started is not None and self.table.storage.is_file(started):
            return started, self.sheet(started)
        with self._named(name, path):
            players = list(self.sheet(name).match.players)
        for _ in range(3):  # another program may take the name first: then the next one
            new = self.fresh_name(players)
            try:
                with self._named(name, path), self._named(new, os.path.join(self.path, new)):
                    sheet = next_game(path, os.path.join(self.path, new), dealer, self.table.storage)
            except ExistsError:
                continue
            self.next_games[finished] = new
            return new, sheet
        raise ExistsError("another program keeps starting matches with these names: try again", field="file")

    def record(self, name: str, entry: HandEntry, expected_hands: int | None = None) -> Change:
        """Record one hand; refused with `StaleError` when `expected_hands` is given and the file has another count."""
        from . import changes

        path = self.resolve(name)
        with self._named(name, path):
            return changes.record(path, entry, expected_hands=expected_hands, storage=self.table.storage)

    def preview(self, name: str, entry: HandEntry, number: int | None = None) -> Change:
        """What `record` would make of the hand, or `edit` of hand `number` when given, written nowhere."""
        from . import changes

        path = self.resolve(name)
        with self._named(name, path):
            storage = self.table.storage
            return changes.preview(path, entry, storage) if number is None else changes.preview_edit(path, number, entry, storage)

    def edit(self, name: str, number: int, entry: HandEntry, expected_hands: int | None = None) -> Change:
        """Replace hand `number` (from 1); it keeps its time, and its note unless the entry gives one."""
        from . import changes

        path = self.resolve(name)
        with self._named(name, path):
            return changes.edit(path, number, entry, expected_hands=expected_hands, storage=self.table.storage)

    def undo(self, name: str, expected_hands: int) -> Change:
        """Remove the last hand, only when the file still has `expected_hands` hands."""
        from . import changes

        path = self.resolve(name)
        with self._named(name, path):
            return changes.undo(path, expected_hands=expected_hands, storage=self.table.storage)

    # copies

    def merge(self, text: str, name: str | None = None, choice: str = "", expected_hands: int | None = None, *,
              restoring: bool = False) -> Merged:
        """A copy of a match file (its whole text) merged into the folder by the rule (`files.merging`): into the
        folder's copy of the same match, else kept as a new file, named `name` where that name is free and
        acceptable, else for its players. A conflict writes nothing unless `choice` is `mine`, `theirs` (while the
        folder's copy has `expected_hands` hands) or `both` (the copy kept as a new file too).

        `restoring`: the copy is a backup's file `name`, whose name says which file it was: it is in conflict
        only with the file of that name, and is kept as a new file beside another of the same match."""
        from . import merging

        if choice not in merging.CHOICES:
            raise InputError(f"{quote(choice)} is not a choice: keep mine, take theirs or keep both", field="choice")
        theirs = merging.read_copy(self.accepts(name) or "the copy", text)
        found = self._same_match(theirs, name, restoring)
        if found is None or choice == "both":
            new = self._free_name(None if choice == "both" else name, list(theirs.match.players))
            path = os.path.join(self.path, new)
            with self._named(new, path):
                merging.keep_copy(path, theirs, self.table.storage)
            return merging.Merged("both" if choice == "both" else "new", new)
        mine = os.path.join(self.path, found)
        with self._named(found, mine):
            done = merging.merge_file(mine, theirs, cast("merging.Choice", choice), expected_hands=expected_hands,
                                      storage=self.table.storage)
        return replace(done, name=found)

    def _same_match(self, theirs: MatchFile, name: str | None, restoring: bool) -> str | None:
        """The folder's file to merge a copy into: one holding the same match whole or in part first (the file
        named `name` before others), else one it is in conflict with (when `restoring`, only the file `name`)."""
        from ..match.merge import compare, not_the_same

        conflicting = []
        for found in sorted(self.table.files(), key=lambda found: found.name != name):
            if found.read is None or not_the_same(found.read.match, theirs.match) is not None:
                continue
            if compare(found.read.match, theirs.match).kind != "conflict":
                return found.name
            conflicting.append(found.name)
        if restoring:
            return name if name in conflicting else None
        return conflicting[0] if conflicting else None

    def _free_name(self, name: str | None, players: list[str]) -> str:
        if name is not None and self.accepts(name) and not self.table.storage.exists(name):
            try:
                return self.new_name(name)
            except GinscoreError:
                pass
        return self.fresh_name(players)

    def backup(self) -> bytes:
        """A zip of every match file of the folder, byte for byte, the damaged ones too (but one that cannot be
        read at all, which no command could ever open)."""
        from .merging import backup_zip

        files = []
        for name in self.names():
            with contextlib.suppress(MatchFileError):
                files.append((name, self.table.storage.data(name)))
        return backup_zip(files)

    def restore(self, data: bytes, label: str = "the backup") -> list[Merged]:
        """Each match file of a backup back in the folder: under its own name, byte for byte, where that name is free,
        else merged by the rule into the file of that name; a conflict (a damaged file of that name too) is listed,
        never settled."""
        from .merging import backup_members

        return self.restore_members(backup_members(data, label))

    def restore_members(self, members: list[tuple[str, str | MatchFileError]]) -> list[Merged]:
        """`restore` of a backup already read (`merging.backup_members`), for a caller that shows its texts too: each
        file back under its own name (`merging.restore_member`)."""
        from .merging import each_member, restore_member

        return each_member(members, lambda name, text: restore_member(self, name, text))


def _plain_name(typed: str) -> str:
    """A name to type instead of a refused one, made of what was typed where that can be: `.hidden.toml` gives
    `hidden.toml`; else `friday.toml`."""
    stem = typed[:-5] if typed.lower().endswith(".toml") else typed
    words = "".join(char if char.isascii() and (char.isalnum() or char in "-_") else " " for char in stem).split()
    plain = "-".join(words)[:60].strip("-_")
    return f"{plain}.toml" if plain else "friday.toml"

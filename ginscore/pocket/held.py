"""The app's matches as its Python holds them: the in-memory folder the worker fills from the browser's storage
(`Held`, the table's storage there), serve's folder over it (`PocketFolder`), and a stored summary read back
only when it has every field of a `Summary`, each of its type."""

from __future__ import annotations

import contextlib
import hashlib
import os
from typing import TYPE_CHECKING, Any

from ..errors import DamagedText, GinscoreError
from ..files.disk import Disk
from ..files.served import Folder, Summary

if TYPE_CHECKING:
    from ..match.gives import MatchGives, TableGives


class Held(Disk):
    """The in-memory folder as the table's storage, holding only the stored texts a request has needed.

    Every stored name has a file here, so that a new match never takes a stored name and `fresh_name` sees them
    all; a match not loaded is an empty placeholder, listed from its stored summary and never written back. Reading
    one marks that the request needs every text (`wanted`): the worker then loads them and asks again, and the
    answer made without them is thrown away. So whatever a page needs is loaded because the Python asked for it.

    Nothing but this class changes a match file here (the worker's Python alone uses the folder, and the service
    writes through `write`), so it counts its changes (`settled`): the table then asks the folder (`PocketFolder`)
    for its names' twins and listing rather than listing it, and a Save lists no name.
    """

    def __init__(self, folder: str):
        super().__init__(folder)
        self.texts: dict[str, str] = {}
        """Each loaded match's text, as the storage holds it."""
        self.written: set[str] = set()
        """The names the service has written since the worker last took the changes (`write`)."""
        self.placeholders: set[str] = set()
        """The stored names whose texts are not loaded."""
        self.links: dict[tuple[str, str], str] = {}
        """The next games known to the storage, as the folder keys them (`Folder.next_games`)."""
        self.wanted = False
        self.files: set[str] = set()
        """The names of the files this folder holds, each made by `_place` and gone by `drop`."""
        self.changes = 0
        """Raised by every change of a file here."""
        self.renames = 0
        """Raised by every change of the names here: a file made under a new name, or one gone."""

    def settled(self) -> str:
        """A text that changes with every change of a file here (`table_io.Storage.settled`): never None, as nothing
        else changes them (see the class)."""
        return f"held-{self.renames:x}-{self.changes:x}"

    def _place(self, name: str, data: bytes) -> None:
        """The file `name` replaced by `data` at once: written beside it, then renamed into place. In memory there
        are no stale temporaries of killed writers to look for, as the disk's `write_atomic` does."""
        temporary = self.path(f".{name}.incoming")
        with open(temporary, "wb") as handle:
            handle.write(data)
        os.replace(temporary, self.path(name))
        self._changed(name)

    def _changed(self, name: str) -> None:
        self.changes += 1
        if name not in self.files:
            self.files.add(name)
            self.renames += 1

    def text(self, name: str) -> str:
        if name in self.placeholders:
            self.wanted = True
        return super().text(name)

    def data(self, name: str) -> bytes:
        if name in self.placeholders:
            self.wanted = True
        return super().data(name)

    def write(self, name: str, data: bytes) -> None:
        """A change the service makes (proven by it before, as on the disk), noted for the worker to store
        (`worker.changes`)."""
        self._place(name, data)
        self.written.add(name)

    def put(self, name: str, text: str) -> None:
        self._place(name, text.encode("utf-8"))

    def read(self, name: str) -> str:
        with open(self.path(name), encoding="utf-8", newline="") as handle:
            return handle.read()

    def hold(self, name: str, text: str) -> None:
        """Load a stored text."""
        self.put(name, text)
        self.placeholders.discard(name)
        self.texts[name] = text

    def hold_place(self, name: str) -> None:
        """Take a stored name whose text is not loaded."""
        if not os.path.exists(self.path(name)):
            open(self.path(name), "w").close()
            self._changed(name)
            self.placeholders.add(name)

    def drop(self, name: str) -> None:
        self.texts.pop(name, None)
        self.written.discard(name)
        self.placeholders.discard(name)
        with contextlib.suppress(OSError):
            os.remove(self.path(name))
        if name in self.files:
            self.files.discard(name)
            self.renames += 1
        self.changes += 1


class PocketFolder(Folder):
    """serve's folder over the in-memory one (`Held`), with the stored summaries and the records set aside. It is
    its table's layer (`table_io.Layer`): what each stored match gives the table comes from its stored summary, so a
    page that draws on the whole table (a series, a chance) reads no text but its own."""

    def __init__(self, path: str):
        self.held = Held(path)
        super().__init__(path, self.held)
        self.stored: dict[str, Summary] = {}
        """The stored summaries that are for the stored texts (their generation), as the last list read them."""
        self.given: dict[str, tuple[object, MatchGives]] = {}
        """What each of those matches gives the table, as its stored summary holds it, with the generation of the
        text it was made from."""
        self.generations: dict[str, object] = {}
        """Each stored text's generation, as the storage last said it."""
        self.damaged: dict[str, str] = {}
        """Stored names set aside, with the reason."""
        self._table: tuple[object, TableGives] | None = None
        """The table's whole as last made, with all it was made from (`_made_from`)."""
        self._twins: tuple[int, dict[str, str]] | None = None
        """The table's twins, with the count of the held folder's changes of names they were found at."""
        self.table.layer = self

    def known(self, folder: str, versions: dict[str, str]) -> dict[str, MatchGives]:
        """What the stored summaries say each match gives, for the texts stored now: not for a match stored again
        since (by another tab), nor one this request has written."""
        return {name: gives for name, (generation, gives) in self.given.items()
                if name in versions and generation == self.generations.get(name) and name not in self.held.written}

    def remember(self, folder: str, name: str, version: str, digest: bytes, gives: MatchGives) -> None:
        """Nothing: a match's summary, with what it gives, is stored by the worker beside its text."""

    def table_gives(self, folder: str, listing: bytes) -> TableGives | None:
        """The table's whole as last made, while all it was made from stands: the listing, every stored text's
        generation, the names this request wrote and those set aside."""
        kept = self._table
        return kept[1] if kept is not None and kept[0] == self._made_from(listing) else None

    def remember_table(self, folder: str, listing: bytes, table: TableGives) -> None:
        self._table = (self._made_from(listing), table)

    def _made_from(self, listing: bytes) -> tuple[bytes, dict[str, object], frozenset[str], frozenset[str]]:
        return listing, dict(self.generations), frozenset(self.held.written), frozenset(self.damaged)

    def settled_listing(self, folder: str, settled: str) -> tuple[bytes, dict[str, str]] | None:
        """The folder's listing and twins, without a look at its files: the held folder counts its changes
        (`Held.settled`), so `settled` itself stands for its names and versions, and the twins are found again only
        when a name came or went. So a Save, which changes one file, lists no name (twins are asked of every file
        the table reads)."""
        from ..files.file_names import twins_among

        if settled != self.held.settled():
            return None
        if self._twins is None or self._twins[0] != self.held.renames:
            self._twins = (self.held.renames, twins_among(self.table.names()))
        return hashlib.sha256(f"{self.path}\0{settled}".encode("utf-8", "surrogateescape")).digest(), self._twins[1]

    def remember_settled(self, folder: str, settled: str, listing: bytes, twins: dict[str, str]) -> None:
        """Nothing: see `settled_listing`, which always answers for the folder as it stands."""

    def flush(self) -> None:
        """Nothing to write: the worker stores what a request changed."""

    def names(self) -> list[str]:
        """The match files' names, without the damaged ones."""
        return [name for name in super().names() if name not in self.damaged]

    def summary(self, name: str, twinned: dict[str, str] | None = None) -> Summary:
        """The match's line as stored for its stored text, else computed by serve's folder from the loaded text."""
        if name in self.stored:
            return self.stored[name]
        return super().summary(name, twinned)

    def refusal(self, name: str) -> str | None:
        """Why a file opened on the phone cannot be kept under `name` (the folder's own words), or None."""
        try:
            self.new_name(name)
        except GinscoreError as error:
            return str(error)
        return None


_SUMMARY_TYPES: dict[str, Any] = {"name": str, "players": list, "totals": dict, "status": str, "hands": int, "final": dict,
                                   "hollywood": bool, "reason": (str, type(None)), "last_played": (str, type(None)),
                                   "winner": (str, type(None))}


def shaped(name: str, line: Any, generation: Any) -> bool:
    """Whether a stored summary can be shown for the match's text at `generation`: every field of a `Summary`,
    each of its type (one stored by an older build, without `final` or `damage`, is computed again)."""
    if not isinstance(line, dict) or line.get("generation") != generation or line.get("name") != name:
        return False
    if not all(isinstance(line.get(key), kind) for key, kind in _SUMMARY_TYPES.items()):
        return False
    players = line["players"]
    damage = line.get("damage", False)  # none at all: stored by an older build, which said a damaged text otherwise
    if damage is not None and not (isinstance(damage, dict) and isinstance(damage.get("words"), str)
                                   and isinstance(damage.get("line"), int | type(None))):
        return False
    if not (all(isinstance(player, str) for player in players) and all(isinstance(line["totals"].get(player), int) for player in players)):
        return False
    return line["last_played"] is None or _in_range(line["last_played"])


def _in_range(stamp: str) -> bool:
    """Whether a stored summary's time is one every reader can show (`check_stamp`): else it is computed again."""
    from ..match.records import check_stamp

    try:
        check_stamp(stamp)
    except GinscoreError:
        return False
    return True


def summary_of(line: dict[str, Any]) -> Summary:
    """A stored summary, shaped as `shaped` checked, as the folder's own type."""
    damage = line.get("damage")
    return Summary(line["name"], tuple(line["players"]), line["totals"], line["status"], line["reason"], line["hands"],
                   line["last_played"], line["winner"], line["hollywood"], line["final"],
                   None if damage is None else DamagedText(damage["words"], damage["line"]))

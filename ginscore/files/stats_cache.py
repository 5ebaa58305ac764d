"""What each match file gives `ginscore stats` (its figures), `ginscore standings` (its games) and its table (the
series' and the chance's part, `match.gives`), remembered by the file's exact bytes: the one cache on disk, one
row a file and kind. Beside them, for a table (`table_io.Layer`): the digest each name had at a version, a folder's
whole for one listing of its names and versions, and what a review gave each player (`review_source`).

Reading a match checks every hand again (a card hand's best spread is searched anew), which is what makes its
totals derived rather than trusted. So a file is read in full the first time its exact bytes are seen. What it
gives is then kept in a small SQLite database under the user's cache folder (`$GINSCORE_CACHE_DIR`, else
`$XDG_CACHE_HOME/ginscore`, else `~/.cache/ginscore`), looked up by a SHA-256 of the bytes and by ginscore's
version, both of which decide them. A row is never believed blindly: it carries a checksum of its record,
version and digest, and its record is type-checked when read; a row failing either is recomputed from the
match file and replaced, so `stats` and `standings` print only what `--no-cache` would. The cache is safe to
delete, lives outside the match folders and never writes a match file. If it cannot be used (unwritable,
locked too long, corrupt), files are read without it; a corrupt one is removed.
"""
from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sqlite3
import stat
from collections.abc import Callable
from types import TracebackType
from typing import Any, TypeVar

from ..errors import GinscoreError, MatchFileError
from ..match.gives import MatchGives, TableGives
from ..match.standings import SheetGames
from ..match.stats import PairStats
from ..match.tally import Sheet
from ..version import __version__
from .cache_kinds import FIGURES, GAMES, GIVES, KINDS, REVIEWS, Kind
from .reading import load, loads

CACHE_NAME = "stats.sqlite3"
LARGEST_READ = 64 * 1024 * 1024
"""Bigger files, and anything not a regular file, are left to `storage.load` to judge."""
_BATCH = 500
_SCHEMA = "CREATE TABLE IF NOT EXISTS {} (version TEXT, digest BLOB, record TEXT, PRIMARY KEY (version, digest)) WITHOUT ROWID"
_SEEN = ("CREATE TABLE IF NOT EXISTS seen (folder TEXT, name TEXT, version TEXT, digest BLOB, seal TEXT, "
         "PRIMARY KEY (folder, name)) WITHOUT ROWID")
"""The digest each file of a table had at a version its storage gave (`table_io.Layer`): a file whose version is
unchanged is not read again."""
_TABLES = "CREATE TABLE IF NOT EXISTS tables (folder TEXT PRIMARY KEY, version TEXT, listing BLOB, record TEXT) WITHOUT ROWID"
_TABLE_PAIRS = ("CREATE TABLE IF NOT EXISTS table_pairs (folder TEXT, pair TEXT, version TEXT, listing BLOB, record TEXT, "
                "PRIMARY KEY (folder, pair)) WITHOUT ROWID")
"""What a folder's matches give together (`gives.TableGives`), for one listing of its names and versions: the whole
in `tables`, each pair's matches in a row of `table_pairs`, read only when asked."""
_LISTINGS = ("CREATE TABLE IF NOT EXISTS listings (folder TEXT PRIMARY KEY, version TEXT, settled TEXT, listing BLOB, twins TEXT, "
             "seal TEXT) WITHOUT ROWID")
"""A folder's listing digest and twins (`table.Table._listing_and_twins`) while the folder stands as its storage
said (`Storage.settled`)."""
T = TypeVar("T")


def cache_folder() -> str:
    """Where the cache lives: `$GINSCORE_CACHE_DIR`, else `$XDG_CACHE_HOME/ginscore`, else `~/.cache/ginscore`."""
    chosen = os.environ.get("GINSCORE_CACHE_DIR")
    if chosen:
        return chosen
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "ginscore")


class StatsCache:
    """What files give, by their bytes, kind and ginscore's version; `StatsCache(None)` remembers nothing. Use it
    in a `with` block."""

    def __init__(self, folder: str | None):
        self.version = __version__
        self.path = os.path.join(folder, CACHE_NAME) if folder is not None else None
        self._connection: sqlite3.Connection | None = None
        self._pending: dict[str, list[tuple[str, bytes, str]]] = {}
        self._seen: list[tuple[str, str, str, bytes, str]] = []
        self._table: tuple[tuple[str, str, bytes, str], list[tuple[str, str, str, bytes, str]]] | None = None
        self._purged: set[str] = set()
        if folder is not None:
            self._open(folder)

    def _open(self, folder: str) -> None:
        try:
            os.makedirs(folder, mode=0o700, exist_ok=True)
            self._connection = sqlite3.connect(self.path or "", timeout=5, isolation_level=None)
            self._connection.execute("PRAGMA journal_mode=WAL")
            for kind in KINDS:
                self._connection.execute(_SCHEMA.format(kind.table))
            self._connection.execute(_SEEN)
            self._connection.execute(_TABLES)
            self._connection.execute(_TABLE_PAIRS)
            self._connection.execute(_LISTINGS)
        except (OSError, sqlite3.Error) as error:
            self._give_up(error)

    def figures(self, path: str) -> PairStats:
        """The match file's contribution to the statistics; `MatchFileError` when it cannot be used."""
        return self.given(path, FIGURES)

    def games(self, path: str) -> SheetGames:
        """The match file's finished games, gins and undercuts, for the standings; `MatchFileError` when it cannot
        be used."""
        return self.given(path, GAMES)

    def given(self, path: str, kind: Kind[T]) -> T:
        """What the match file gives of `kind`: remembered by its bytes, else read and remembered."""
        value: T = self.given_all(path, (kind,))[0]
        return value

    def given_all(self, path: str, kinds: tuple[Kind[Any], ...]) -> list[Any]:
        """What the match file gives of each of `kinds`, the file read in full at most once for them all."""
        data = _read_regular_file(path)
        if data is None:
            sheet = _sheet_from_load(path)
            return [kind.make(sheet) if kind.make is not None else None for kind in kinds]
        digest = hashlib.sha256(data).digest()
        found = [self._get(digest, kind) for kind in kinds]
        if all(value is not None for value in found):
            return found
        sheet = _sheet_from_bytes(data) or _sheet_from_load(path)
        for index, kind in enumerate(kinds):
            if found[index] is None and kind.make is not None:
                found[index] = kind.make(sheet)
                self._put(digest, kind, found[index])
        return found

    def reviewed(self, key: bytes) -> list[tuple[str, int, float]] | None:
        """What a review gave each player (`review_source`), remembered by `key`: a digest of the match and the
        model it was reviewed by."""
        return self._get(key, REVIEWS)

    def remember_review(self, key: bytes, rows: list[tuple[str, int, float]]) -> None:
        self._put(key, REVIEWS, rows)
        self._flush()

    def known(self, folder: str, versions: dict[str, str]) -> dict[str, MatchGives]:
        """What each file of the table at `folder` gives, for those whose version is the one remembered (a
        `table_io.Layer`): one query for the folder, every row's seal and types checked."""
        if self._connection is None or not versions or not _storable(folder):
            return {}
        try:
            rows = self._connection.execute(
                "SELECT s.name, s.version, s.digest, s.seal, g.record FROM seen s JOIN gives g "
                "ON g.version = ? AND g.digest = s.digest WHERE s.folder = ?", (self.version, folder)).fetchall()
        except sqlite3.Error as error:
            self._give_up(error)
            return {}
        found = {}
        for name, version, digest, seal, record in rows:
            if versions.get(name) != version or seal != _seen_seal(folder, name, version, digest):
                continue
            gives = _unsealed(record, self.version, digest, GIVES.salt, GIVES.read)
            if gives is not None:
                found[name] = gives
        return found

    def remember(self, folder: str, name: str, version: str, digest: bytes, gives: MatchGives) -> None:
        """That the file `name` of the table at `folder` had `digest` at `version` and gives `gives`."""
        if self._connection is None or not _storable(folder):
            return
        self._seen.append((folder, name, version, digest, _seen_seal(folder, name, version, digest)))
        self._put(digest, GIVES, gives)

    def table_gives(self, folder: str, listing: bytes) -> TableGives | None:
        """What the folder's matches give together, when remembered for this listing of it; its seal checked, and
        each pair's when it is asked."""
        row = self._row("SELECT record FROM tables WHERE folder = ? AND version = ? AND listing = ?", (folder, listing))
        if row is None:
            return None

        def fetch(pair: str) -> list[Any] | None:
            found = self._row("SELECT record FROM table_pairs WHERE folder = ? AND pair = ? AND version = ? AND listing = ?",
                              (folder, pair, listing))
            return None if found is None else _unsealed(found, self.version, listing + pair.encode(), _TABLE_SALT, _records)

        return _unsealed(row, self.version, listing, _TABLE_SALT, lambda record: TableGives.from_record(record, fetch))

    def _row(self, query: str, keys: tuple[str, bytes] | tuple[str, str, bytes]) -> object:
        """The one value a query over a folder's rows finds (its keys, this version inserted before the listing)."""
        if self._connection is None or not _storable(str(keys[0])):
            return None
        try:
            row = self._connection.execute(query, (*keys[:-1], self.version, keys[-1])).fetchone()
        except sqlite3.Error as error:
            self._give_up(error)
            return None
        return None if row is None else row[0]

    def remember_table(self, folder: str, listing: bytes, table: TableGives) -> None:
        """What the folder's matches give together at this listing of it, in place of what was kept for another."""
        if self._connection is None or not _storable(folder):
            return
        pairs = [(folder, key, self.version, listing, _sealed(table.pair_record(key), self.version, listing + key.encode(), _TABLE_SALT))
                 for key in table.pair_texts]
        self._table = ((folder, self.version, listing, _sealed(table.as_record(), self.version, listing, _TABLE_SALT)), pairs)

    def settled_listing(self, folder: str, settled: str) -> tuple[bytes, dict[str, str]] | None:
        """The folder's listing digest and twins (`table.Table._listing_and_twins`), as remembered while it stands
        as `settled` says; the row's seal and types checked."""
        if self._connection is None or not _storable(folder):
            return None
        try:
            row = self._connection.execute("SELECT listing, twins, seal FROM listings WHERE folder = ? AND version = ? AND settled = ?",
                                           (folder, self.version, settled)).fetchone()
        except sqlite3.Error as error:
            self._give_up(error)
            return None
        if row is None or not isinstance(row[0], bytes) or not isinstance(row[1], str):
            return None
        listing, twins, seal = row
        if seal != _listing_seal(folder, settled, listing, twins, self.version):
            return None
        try:
            named = json.loads(twins)
        except ValueError:
            return None
        if not isinstance(named, dict) or not all(isinstance(part, str) for pair in named.items() for part in pair):
            return None
        return listing, named

    def remember_settled(self, folder: str, settled: str, listing: bytes, twins: dict[str, str]) -> None:
        """The folder's listing digest and twins while it stands as `settled` says, written at once: they are asked
        before anything else is pending."""
        if self._connection is None or not _storable(folder):
            return
        text = json.dumps(twins, ensure_ascii=False, sort_keys=True)
        try:
            with self._connection:
                self._connection.execute("INSERT OR REPLACE INTO listings VALUES (?, ?, ?, ?, ?, ?)",
                                         (folder, self.version, settled, listing, text,
                                          _listing_seal(folder, settled, listing, text, self.version)))
        except sqlite3.Error as error:
            self._give_up(error)

    def flush(self) -> None:
        """Write what is pending now."""
        self._flush()

    def _get(self, digest: bytes, kind: Kind[T]) -> T | None:
        """What is remembered for these bytes, or None: a row whose checksum or types are wrong is never
        believed (the file is read again and the row replaced)."""
        if self._connection is None:
            return None
        try:
            row = self._connection.execute(f"SELECT record FROM {kind.table} WHERE version = ? AND digest = ?",
                                           (self.version, digest)).fetchone()
        except sqlite3.Error as error:
            self._give_up(error)
            return None
        if row is None:
            return None
        return _unsealed(row[0], self.version, digest, kind.salt, kind.read)

    def _put(self, digest: bytes, kind: Kind[T], value: T) -> None:
        if self._connection is None:
            return
        pending = self._pending.setdefault(kind.table, [])
        pending.append((self.version, digest, _sealed(kind.record(value), self.version, digest, kind.salt)))
        if len(pending) >= _BATCH:
            self._flush()

    def _flush(self) -> None:
        if self._connection is None or not (any(self._pending.values()) or self._seen or self._table):
            return
        try:
            with self._connection:
                self._connection.execute("BEGIN IMMEDIATE")
                for table, rows in self._pending.items():
                    if table not in self._purged:
                        # Rows written by another version can never be read again.
                        self._connection.execute(f"DELETE FROM {table} WHERE version != ?", (self.version,))
                        self._purged.add(table)
                    self._connection.executemany(f"INSERT OR REPLACE INTO {table} VALUES (?, ?, ?)", rows)
                self._connection.executemany("INSERT OR REPLACE INTO seen VALUES (?, ?, ?, ?, ?)", self._seen)
                if self._table is not None:
                    whole, pairs = self._table
                    self._connection.execute("INSERT OR REPLACE INTO tables VALUES (?, ?, ?, ?)", whole)
                    self._connection.execute("DELETE FROM table_pairs WHERE folder = ?", (whole[0],))
                    self._connection.executemany("INSERT INTO table_pairs VALUES (?, ?, ?, ?, ?)", pairs)
        except sqlite3.Error as error:
            self._give_up(error)
        self._pending.clear()
        self._seen.clear()
        self._table = None

    def _give_up(self, error: OSError | sqlite3.Error) -> None:
        """Carry on without the cache; remove it if SQLite says it is corrupt, so the next run starts afresh."""
        if self._connection is not None:
            with contextlib.suppress(sqlite3.Error):
                self._connection.close()
        self._connection = None
        if self.path is not None and getattr(error, "sqlite_errorname", "").startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB")):
            for leftover in (self.path, self.path + "-wal", self.path + "-shm"):
                with contextlib.suppress(OSError):
                    os.unlink(leftover)

    def close(self) -> None:
        """Write what is still pending and let the database go."""
        self._flush()
        if self._connection is not None:
            with contextlib.suppress(sqlite3.Error):
                self._connection.close()
            self._connection = None

    def __enter__(self) -> StatsCache:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None) -> None:
        self.close()


def _sealed(record: dict[str, Any] | list[Any], version: str, digest: bytes, salt: bytes = b"") -> str:
    """A row's text: the record as JSON after a checksum of it, the version and the file's digest."""
    text = json.dumps(record, ensure_ascii=False, sort_keys=True)
    return _checksum(text, version, digest, salt) + " " + text


def _records(record: object) -> list[Any] | None:
    """A pair's records, as a list; each is type-checked when it is read (`gives.MatchGives.from_record`)."""
    return record if isinstance(record, list) else None


def _storable(folder: str) -> bool:
    """Whether SQLite can hold the folder's path: one named in bytes that are not UTF-8 is read without the cache."""
    try:
        folder.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _seen_seal(folder: str, name: str, version: str, digest: bytes) -> str:
    return hashlib.sha256(b"seen\0%s\0%s\0%s\0%s" % (folder.encode(), name.encode(), version.encode(), digest)).hexdigest()


def _listing_seal(folder: str, settled: str, listing: bytes, twins: str, version: str) -> str:
    return hashlib.sha256(b"listing\0%s\0%s\0%s\0%s\0%s" % (folder.encode(), settled.encode(), version.encode(), twins.encode(),
                                                              listing)).hexdigest()


def _checksum(text: str, version: str, digest: bytes, salt: bytes = b"") -> str:
    return hashlib.sha256(salt + b"%s\0%s\0%s" % (version.encode(), digest, text.encode("utf-8"))).hexdigest()


def _unsealed(row: object, version: str, digest: bytes, salt: bytes, read: Callable[[object], T | None]) -> T | None:
    """The value in a row, or None when its checksum does not match its content or a part has the wrong type."""
    if not isinstance(row, str):
        return None
    checksum, _, text = row.partition(" ")
    if checksum != _checksum(text, version, digest, salt):
        return None
    try:
        record = json.loads(text)
    except ValueError:
        return None
    return read(record)


def _read_regular_file(path: str) -> bytes | None:
    """The bytes of a regular file of a sane size; None for anything else, or when it cannot be read."""
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        status = os.fstat(descriptor)
        if not stat.S_ISREG(status.st_mode) or status.st_size > LARGEST_READ:
            return None
        with os.fdopen(descriptor, "rb", closefd=False) as handle:
            data = handle.read(LARGEST_READ + 1)
        return data if len(data) <= LARGEST_READ else None
    except OSError:
        return None
    finally:
        os.close(descriptor)


def _sheet_from_bytes(data: bytes) -> Sheet | None:
    """The sheet of a match file read without a problem, decoded as `storage.load` decodes; else None."""
    try:
        match, sheet, problems = loads(data.decode("utf-8"))
    except (UnicodeDecodeError, RecursionError):
        return None
    return sheet if match is not None and not problems else None


def _sheet_from_load(path: str) -> Sheet:
    """`load` judges the file and words its problems, as `validate` does; it is not cached."""
    try:
        _, sheet = load(path)
    except RecursionError:
        raise MatchFileError(path, ["nested too deeply to read"]) from None
    except GinscoreError as error:
        if isinstance(error, MatchFileError):
            raise
        raise MatchFileError(path, [error.message]) from None
    return sheet


_TABLE_SALT = b"tables\0"

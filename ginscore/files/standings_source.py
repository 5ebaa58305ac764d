"""The standings' reading of a folder: each match file's finished games, gins and undercuts (`SheetGames`),
remembered by the file's exact bytes as `stats` remembers its figures.

Which files count is the table's rule (`table.Table`: the folder's own match files, not those below it, a name
that is another's on a phone counted once), so that `standings`, `ginscore.standings`, the API and the pages count
the same files. What each file gives is kept across runs in a small SQLite table beside the statistics cache,
looked up by a SHA-256 of the bytes and ginscore's version, each row sealed by a checksum and type-checked when
read (see `stats_cache`): the table's own cache lives as long as one process, and a command starts afresh each
time. If the cache cannot be used, files are read without it.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass

from ..errors import GinscoreError, MatchFileError, quote
from ..match.standings import SheetGames, sheet_games
from ..match.tally import Sheet
from ..version import __version__
from .reading import load, loads
from .stats_cache import _read_regular_file
from .table import Table, _twins

CACHE_NAME = "standings.sqlite3"
_SCHEMA = "CREATE TABLE IF NOT EXISTS games (version TEXT, digest BLOB, record TEXT, PRIMARY KEY (version, digest)) WITHOUT ROWID"


@dataclass(frozen=True)
class FolderGames:
    """What the standings read from the match files named."""

    sheets: tuple[SheetGames, ...]
    files: int
    """Match files read."""
    skipped: tuple[MatchFileError, ...]
    """Files that could not be read, each with its problems."""


def folder_games(folder: str, cache_folder: str | None) -> FolderGames:
    """The match files of the table at `folder`, as the standings see them; a file that cannot be read, or whose
    name another's already is on a phone, is skipped with its error. `cache_folder` None reads every file in full
    and remembers nothing."""
    table = Table(folder)
    names = table.names()
    twins = _twins(names)
    paths: list[str | MatchFileError] = []
    for name in names:
        path = table.storage.path(name)
        twin = twins.get(name)
        problem = f"its name is {quote(twin)}'s on a phone (the same letters in another case or form): rename one"
        paths.append(path if twin is None else MatchFileError(path, [problem]))
    return files_games(paths, cache_folder)


def files_games(paths: Iterable[str | MatchFileError], cache_folder: str | None) -> FolderGames:
    """The match files at `paths` (an error stands for a file already refused), as the standings see them."""
    found: list[SheetGames] = []
    skipped: list[MatchFileError] = []
    with _GamesCache(cache_folder) as cache:
        for path in paths:
            try:
                if isinstance(path, MatchFileError):
                    raise path
                found.append(cache.games(path))
            except MatchFileError as error:
                skipped.append(error)
    return FolderGames(tuple(found), len(found), tuple(skipped))


class _GamesCache:
    """Each file's `SheetGames` by its bytes; `_GamesCache(None)` remembers nothing."""

    def __init__(self, folder: str | None):
        self.version = __version__
        self._connection: sqlite3.Connection | None = None
        self._pending: list[tuple[str, bytes, str]] = []
        self._path = os.path.join(folder, CACHE_NAME) if folder is not None else None
        if self._path is not None and folder is not None:
            try:
                os.makedirs(folder, mode=0o700, exist_ok=True)
                self._connection = sqlite3.connect(self._path, timeout=5, isolation_level=None)
                self._connection.execute("PRAGMA journal_mode=WAL")
                self._connection.execute(_SCHEMA)
            except (OSError, sqlite3.Error) as error:
                self._give_up(error)

    def games(self, path: str) -> SheetGames:
        data = _read_regular_file(path)
        if data is None:
            return _games_from_load(path)
        digest = hashlib.sha256(data).digest()
        remembered = self._get(digest)
        if remembered is not None:
            return remembered
        sheet = _sheet_from_bytes(data)
        if sheet is None:
            return _games_from_load(path)
        games = sheet_games(sheet)
        if self._connection is not None:
            self._pending.append((self.version, digest, _sealed(games, self.version, digest)))
        return games

    def _get(self, digest: bytes) -> SheetGames | None:
        if self._connection is None:
            return None
        try:
            row = self._connection.execute("SELECT record FROM games WHERE version = ? AND digest = ?", (self.version, digest)).fetchone()
        except sqlite3.Error as error:
            self._give_up(error)
            return None
        if row is None or not isinstance(row[0], str):
            return None
        checksum, _, text = row[0].partition(" ")
        if checksum != _checksum(text, self.version, digest):
            return None
        try:
            return SheetGames.from_record(json.loads(text))
        except ValueError:
            return None

    def _give_up(self, error: OSError | sqlite3.Error) -> None:
        """Carry on without the cache; remove it if SQLite says it is corrupt, so the next run starts afresh."""
        if self._connection is not None:
            with contextlib.suppress(sqlite3.Error):
                self._connection.close()
        self._connection = None
        if self._path is not None and getattr(error, "sqlite_errorname", "").startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB")):
            for leftover in (self._path, self._path + "-wal", self._path + "-shm"):
                with contextlib.suppress(OSError):
                    os.unlink(leftover)

    def __enter__(self) -> _GamesCache:
        return self

    def __exit__(self, *exc: object) -> None:
        if self._connection is not None and self._pending:
            try:
                with self._connection:
                    self._connection.execute("BEGIN IMMEDIATE")
                    self._connection.execute("DELETE FROM games WHERE version != ?", (self.version,))
                    self._connection.executemany("INSERT OR REPLACE INTO games VALUES (?, ?, ?)", self._pending)
            except sqlite3.Error as error:
                self._give_up(error)
        self._pending.clear()
        if self._connection is not None:
            with contextlib.suppress(sqlite3.Error):
                self._connection.close()
            self._connection = None


def _sealed(games: SheetGames, version: str, digest: bytes) -> str:
    text = json.dumps(games.as_record(), ensure_ascii=False, sort_keys=True)
    return _checksum(text, version, digest) + " " + text


def _checksum(text: str, version: str, digest: bytes) -> str:
    return hashlib.sha256(b"standings\0%s\0%s\0%s" % (version.encode(), digest, text.encode("utf-8"))).hexdigest()


def _sheet_from_bytes(data: bytes) -> Sheet | None:
    """The sheet of a match file read without a problem, decoded as `load` decodes; else None (then `load`
    judges the file and words its problems)."""
    try:
        match, sheet, problems = loads(data.decode("utf-8"))
    except (UnicodeDecodeError, RecursionError):
        return None
    return sheet if match is not None and not problems else None


def _games_from_load(path: str) -> SheetGames:
    """`load` judges the file and words its problems, as `stats` does; it is not cached."""
    try:
        _, sheet = load(path)
    except RecursionError:
        raise MatchFileError(path, ["nested too deeply to read"]) from None
    except GinscoreError as error:
        if isinstance(error, MatchFileError):
            raise
        raise MatchFileError(path, [error.message]) from None
    return sheet_games(sheet)

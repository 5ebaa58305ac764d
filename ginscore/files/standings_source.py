"""The standings' reading of a folder: each match file's finished games, gins and undercuts (`SheetGames`),
remembered by the file's exact bytes in the one cache `stats` keeps its figures in (`stats_cache`).

Which files count is the table's rule (`table.Table`: the folder's own match files, not those below it, a name
that is another's on a phone counted once), so that `standings`, `ginscore.standings`, the API and the pages count
the same files. What each file gives is kept across runs beside its statistics, looked up by a SHA-256 of the
bytes and ginscore's version, each row sealed by a checksum and type-checked when read: the table's own cache
lives as long as one process, and a command starts afresh each time. If the cache cannot be used, files are read
without it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ..errors import MatchFileError
from ..match.gives import MatchGives
from ..match.standings import SheetGames
from .cache_kinds import GAMES, GIVES
from .copies import path_copies
from .stats_cache import StatsCache
from .table import Table, named_paths


@dataclass(frozen=True)
class FolderGames:
    """What the standings read from the match files named."""

    sheets: tuple[SheetGames, ...]
    files: int
    """Match files read."""
    skipped: tuple[MatchFileError, ...]
    """Files that could not be read, each with its problems."""
    paths: tuple[str, ...] = ()
    """Each of `sheets`' files, in their order."""
    copies: tuple[tuple[str, str], ...] = ()
    """Each file left out as a copy of another file's match (`copies.path_copies`), with the file that counts for it."""


def folder_games(folder: str, cache_folder: str | None) -> FolderGames:
    """The match files of the table at `folder`, as the standings see them; a file that cannot be read, or whose
    name another's already is on a phone, is skipped with its error; a copy of another file's match counts once
    (`FolderGames.copies`). `cache_folder` None reads every file in full and remembers nothing."""
    return files_games(named_paths([Table(folder).folder]), cache_folder)


def files_games(paths: Iterable[str | MatchFileError], cache_folder: str | None) -> FolderGames:
    """The match files at `paths` (an error stands for a file already refused), as the standings see them; what
    each gives the table (`GIVES`, from the cache too) tells the copies of one match, counted once."""
    given: dict[str, tuple[SheetGames, MatchGives]] = {}
    skipped: list[MatchFileError] = []
    with StatsCache(cache_folder) as cache:
        for path in paths:
            try:
                if isinstance(path, MatchFileError):
                    raise path
                games, gives = cache.given_all(path, (GAMES, GIVES))
                given[path] = (games, gives)
            except MatchFileError as error:
                skipped.append(error)
    copies = path_copies({path: gives for path, (_, gives) in given.items()})
    read = [path for path in given if path not in copies]
    return FolderGames(tuple(given[path][0] for path in read), len(read), tuple(skipped), tuple(read), tuple(copies.items()))

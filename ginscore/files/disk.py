"""A folder on the disk as a table's storage (`table_io.Storage`): its names, each file's version, its text, and the
one way the service changes a file there, under its lock and renamed into place whole."""

from __future__ import annotations

import os
import time
from typing import TYPE_CHECKING

from ..errors import MatchFileError
from .copies import file_identity

if TYPE_CHECKING:
    from contextlib import AbstractContextManager


SETTLED_NS = 2_000_000_000
"""How long the folder must have stood unchanged before its own times are trusted to tell its next change: a change
within the same tick of the file system's clock would leave them as they were."""


class Disk:
    """A folder on the disk as a table's storage."""

    def __init__(self, folder: str):
        self.folder = os.path.abspath(folder)

    def listed(self) -> list[str]:
        """Every name in the folder (not below it), sorted; `MatchFileError` when the folder cannot be listed."""
        return sorted(entry.name for entry in self._entries())

    def listed_files(self) -> list[str]:
        """The names in the folder that lead to a regular file, links followed, sorted: from one listing, with no
        `stat` for a name that is no link."""
        found = []
        for entry in self._entries():
            try:
                if entry.is_file():
                    found.append(entry.name)
            except OSError:
                continue
        return sorted(found)

    def _entries(self) -> list[os.DirEntry[str]]:
        try:
            with os.scandir(self.folder) as entries:
                return list(entries)
        except OSError as error:
            raise MatchFileError(self.folder, [f"cannot list the folder: {error.strerror or 'refused'}"]) from None

    def settled(self) -> str | None:
        """A text that changes whenever a name in the folder comes, goes or is renamed into place, as every write of
        the service is (not when a file is rewritten in place by another program); given once the folder has stood
        unchanged for `SETTLED_NS`, else None, as when it cannot be read."""
        try:
            status = os.stat(self.folder)
        except OSError:
            return None
        if time.time_ns() - max(status.st_mtime_ns, status.st_ctime_ns) < SETTLED_NS:
            return None
        return f"{status.st_mtime_ns:x}-{status.st_ctime_ns:x}-{status.st_ino:x}"

    def version(self, name: str) -> str | None:
        """A text that changes whenever the file does (ctime too: a program can set a file's mtime back, but not
        its ctime); None when there is no such file."""
        try:
            status = os.stat(self.path(name))
        except OSError:
            return None
        return f"{status.st_mtime_ns:x}-{status.st_ctime_ns:x}-{status.st_size:x}-{status.st_ino:x}"

    def modified(self, name: str) -> float | None:
        """When the file was last written, in seconds since 1970; None when there is no such file."""
        try:
            return os.stat(self.path(name)).st_mtime
        except OSError:
            return None

    def path(self, name: str) -> str:
        return os.path.join(self.folder, name)

    def is_file(self, name: str) -> bool:
        """Whether `name` leads to a regular file, its links followed."""
        return os.path.isfile(self.path(name))

    def exists(self, name: str) -> bool:
        """Whether a write to `name` would replace something: the name (a dangling link too) or the file it leads to."""
        from .folder import exists_for_write

        return exists_for_write(self.path(name))

    def identity(self, name: str) -> object:
        """What makes two names one file (`copies.file_identity`): its device and inode; None when not told."""
        return file_identity(self.path(name))

    def text(self, name: str) -> str:
        """The file's text, as `validate` reads one; `MatchFileError` when it cannot be read."""
        from .folder import read_text

        return read_text(self.path(name))

    def data(self, name: str) -> bytes:
        """The file's bytes, as they are; `MatchFileError` when it cannot be read."""
        from .folder import read_bytes

        return read_bytes(self.path(name))

    def lock(self, name: str, *, existing: bool = False) -> AbstractContextManager[None]:
        """The file's lock, for writers to take turns (`folder.locked`)."""
        from .folder import locked

        return locked(self.path(name), existing=existing)

    def write(self, name: str, data: bytes) -> None:
        """The file replaced by `data` at once (`folder.write_atomic`): a crash leaves the old file or the new."""
        from .folder import write_atomic

        write_atomic(self.path(name), data)

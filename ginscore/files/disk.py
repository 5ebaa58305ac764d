"""A folder on the disk as a table's storage (`table.Storage`): its names, each file's version, its text, and the
one way the service changes a file there, under its lock and renamed into place whole."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from ..errors import MatchFileError
from .copies import file_identity

if TYPE_CHECKING:
    from contextlib import AbstractContextManager


class Disk:
    """A folder on the disk as a table's storage."""

    def __init__(self, folder: str):
        self.folder = os.path.abspath(folder)
        self._kinds: dict[str, os.DirEntry[str]] = {}
        """The entries of the last listing not yet asked whether they are files: asked once, without a stat for
        a name that is no link."""
        self._paths: dict[str, str] = {}
        """The path of each name of the last listing, made once."""

    def listed(self) -> list[str]:
        """Every name in the folder (not below it), sorted; `MatchFileError` when the folder cannot be listed."""
        try:
            with os.scandir(self.folder) as entries:
                self._kinds = {entry.name: entry for entry in entries}
            self._paths = {name: entry.path for name, entry in self._kinds.items()}
        except OSError as error:
            raise MatchFileError(self.folder, [f"cannot list the folder: {error.strerror or 'refused'}"]) from None
        return sorted(self._kinds)

    def version(self, name: str) -> str | None:
        """A text that changes whenever the file does (ctime too: a program can set a file's mtime back, but not
        its ctime); None when there is no such file."""
        try:
            status = os.stat(self.path(name))
        except OSError:
            return None
        return f"{status.st_mtime_ns:x}-{status.st_ctime_ns:x}-{status.st_size:x}-{status.st_ino:x}"

    def path(self, name: str) -> str:
        return self._paths.get(name) or os.path.join(self.folder, name)

    def is_file(self, name: str) -> bool:
        """Whether `name` leads to a regular file, its links followed."""
        entry = self._kinds.pop(name, None)
        if entry is not None and not entry.is_symlink():
            try:
                return entry.is_file()
            except OSError:
                return False
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

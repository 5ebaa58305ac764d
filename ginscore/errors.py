"""The errors ginscore reports; the CLI prints each as one line and exits with its `exit_code`."""

from __future__ import annotations

import errno
import os
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Self


class GinscoreError(Exception):
    """Base of every error ginscore reports to a person: a refused action, exit status 1, HTTP 422.

    Its kind decides, in one place, both how the command line exits (`exit_code`) and how the web answers
    (`http_status`). `field` names what it is about as data (`cards`, `opponent_deadwood`, `file`, ...): the
    CLI names the option that mends it, a page shows the message beside that field, the API returns it.
    """

    exit_code = 1
    http_status = 422

    def __init__(self, message: str = "", *, field: str | None = None, file: str | None = None):
        super().__init__(message)
        self.field = field
        """The field the error is about: a `HandEntry` or `NewMatch` field, or a record's key in a file."""
        self.file = file
        """The match file the error is about, named before the message when the error is said (`m.toml has no
        hands to undo`); a front end names it otherwise (as the person named it) with `named`, never by rewriting
        the words."""

    @property
    def message(self) -> str:
        """The words, without the file they are about."""
        return str(self.args[0]) if self.args else ""

    def __str__(self) -> str:
        return f"{shown_path(self.file)} {self.message}" if self.file is not None else self.message

    def one_line(self, first: str | None = None) -> str:
        """The error on one line, as a list of outcomes says it (`MatchFileError` says its file's first problem);
        `first` is a front end's own words for it, when it has them."""
        return first or str(self)

    def named(self, file: str | None, **more: object) -> Self:
        """This error about `file` (and with `more` set, such as a `MatchFileError`'s folder), as a new error: one
        a cache holds is shared, and is never changed."""
        made = type(self).__new__(type(self))
        made.__dict__.update(self.__dict__, file=file, **more)
        made.args = self.args
        return made

    def about(self, field: str) -> GinscoreError:
        """This error, said to be about `field` unless it already names one; returned for `raise ... from`."""
        if self.field is None:
            self.field = field
        return self


class InputError(GinscoreError, ValueError):
    """Input that cannot be read or is the wrong shape for the command: exit status 2, HTTP 400."""

    exit_code = 2
    http_status = 400


class CardNotationError(InputError):
    """Text that is not a card."""


class CardListError(InputError):
    """Cards that do not make the hand asked for: a card given twice, or the wrong number of cards."""


class IllegalHandError(GinscoreError):
    """Well-written cards that cannot be played so: a card in both hands, a knock over the limit,
    a spread group that is not a meld, a discard not in the hand."""


class RefusedError(GinscoreError):
    """An action the match's state refuses: a finished game, a file that exists."""


class GameOverError(RefusedError):
    """A hand offered to a finished match. It carries the match, so that a front end can offer the next game."""

    def __init__(self, message: str, match: object):
        super().__init__(message)
        self.match = match
        """The finished match (a `match.records.Match`)."""


class StaleError(RefusedError):
    """A change refused because the file changed since the person looked: someone else wrote first. HTTP 409."""

    http_status = 409


class ExistsError(RefusedError):
    """A file that would be replaced without being asked to: refused, and the file left as it was. HTTP 409."""

    http_status = 409


class NotFoundError(RefusedError):
    """A match file that is not there (for the web, not directly inside the served folder): HTTP 404."""

    http_status = 404


@dataclass(frozen=True)
class PathWords:
    """A problem's words about a path other than its file (a lock file, a link's target, a folder), the path kept
    as data: the words are made when the problem is said, with the path as the person knows it."""

    before: str
    """The words before the path: `the lock file `."""
    path: str
    """The path, absolute as the operating system found it."""
    after: str = ""
    """The words after it: ` is a symbolic link, ...`."""


@dataclass(frozen=True)
class DamagedText:
    """A problem: the file's text is not a TOML document at all, kept as data, so that a phone can say it in a
    player's words while the command line says the loader's."""

    words: str
    """The loader's words: `not valid TOML: Expected '=' after a key in a key/value pair (at line 3, column 5)`."""
    line: int | None = None
    """The line where the reading stopped (from 1), when the parser says (Python 3.14's `tomllib` does)."""


class MatchFileError(GinscoreError):
    """A match file that cannot be used, with every problem and its place."""

    def __init__(self, path: str, problems: Sequence[str | PathWords | DamagedText]):
        super().__init__("", field="file", file=path)
        self.parts = tuple(problems)
        """Each problem after the file's name, a path inside it (`PathWords`) or a text that is not TOML
        (`DamagedText`) kept as data."""
        self.folder: str | None = None
        """The folder the person named the file in (`serve`'s, with its links followed, as the paths in the
        problems are), when a front end sets it: a path inside it is said by its name there (`.m.toml.lock`)."""

    @property
    def path(self) -> str:
        """The file, as `file` names it."""
        return self.file or ""

    @property
    def problems(self) -> list[str]:
        """Each problem after the file's name, in words: `hands[3].opponent_cards: 'Kx' is not a card`."""
        return [part if isinstance(part, str) else part.words if isinstance(part, DamagedText)
                else f"{part.before}{self._said(part.path)}{part.after}" for part in self.parts]

    @property
    def damage(self) -> DamagedText | None:
        """The problem that the text is not TOML at all, when it is the file's."""
        return next((part for part in self.parts if isinstance(part, DamagedText)), None)

    def one_line(self, first: str | None = None) -> str:
        """The first problem, and how many more the file has, on one line: `hands[3].cards: ... (and 2 more
        problems in the file)`. `first` is a front end's own words for the first problem, when it has them."""
        problems = self.problems or ["cannot be read"]
        more = len(problems) - 1
        return (first or problems[0]) + (f" (and {more} more problem{'s' if more > 1 else ''} in the file)" if more else "")

    def _said(self, path: str) -> str:
        inside = os.path.join(self.folder, "") if self.folder is not None else None
        return shown_path(path[len(inside):] if inside and path.startswith(inside) else path)

    def __str__(self) -> str:
        return "\n".join(f"{shown_path(self.path)}: {problem}" for problem in self.problems)


class MissingFileError(MatchFileError):
    """A match file that does not exist."""

    http_status = 404

    def __init__(self, path: str):
        super().__init__(path, ["no such file"])


def shown_path(path: str) -> str:
    """A file's name as a message shows it: as typed, or quoted (`'a\\nb.toml'`) when it holds a line break
    or another character that cannot be printed, so that every message stays one line."""
    return path if path.isprintable() else repr(path)


def quote(value: object, limit: int = 40) -> str:
    """`value` as an error message shows it, cut to `limit` characters with an ellipsis: a 10 MB token
    gives a short line. Text is quoted (`'4x'`); any other value is shown as Python writes it
    (`[[[[…`), so a value read from a file that has the wrong type is shown short too."""
    if isinstance(value, str):
        return repr(cut(value, limit))
    return cut(repr(value), limit)


def cut(text: str, limit: int = 40) -> str:
    """`text` cut to `limit` characters with an ellipsis: the one rule for a long value in a message."""
    return text if len(text) <= limit else text[:limit] + "…"


_OS_REASONS = {
    errno.EISDIR: "is a folder, not a file",
    errno.ENOTDIR: "a part of that path is a file, not a folder",
    errno.ENOENT: "does not exist",
    errno.EACCES: "permission denied",
    errno.EPERM: "the system does not allow this",
    errno.ENOSPC: "the disk is full",
    errno.EROFS: "is on a read-only file system",
    errno.ENAMETOOLONG: "the name is too long",
    errno.ELOOP: "too many symbolic links (a loop?)",
}
_PREDICATES = ("is ", "does ")
"""Reasons that follow a file's name as it is said: `'adir' is a folder`; the others follow a colon."""


def os_error_reason(error: OSError) -> str:
    """Why the operating system refused, in words: `permission denied`, `is a folder, not a file`."""
    reason = _OS_REASONS.get(error.errno or 0)
    if reason is None:
        reason = (error.strerror or "the operating system refused").rstrip(".")
        reason = reason[:1].lower() + reason[1:]
    return reason


def os_error_text(error: OSError, name: str | None = None) -> str:
    """An operating-system error as a sentence about `name` (by default the error's file, quoted):
    `'adir' is a folder, not a file`, `'m.toml': permission denied`, never `[Errno 21] ...`."""
    if name is None:
        name = quote(str(error.filename)) if error.filename is not None else "the file"
    reason = os_error_reason(error)
    return f"{name} {reason}" if reason.startswith(_PREDICATES) else f"{name}: {reason}"


def os_error_problem(doing: str, error: OSError) -> str:
    """A match-file problem from an operating-system error, after the file's name: `cannot read: the name is too long`."""
    return f"cannot {doing}: {os_error_because(error)}"


def os_error_because(error: OSError) -> str:
    """Why, after a colon: `it is a folder, not a file`, `permission denied`."""
    reason = os_error_reason(error)
    return f"it {reason}" if reason.startswith(_PREDICATES) else reason

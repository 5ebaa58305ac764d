"""Merging a copy of a match into a file, by the one rule (`match.merge`), for the command line, `serve` and the
app alike: a copy with more hands adds them after the file's own, keeping every byte a person typed; an equal or
shorter copy changes nothing; a conflict writes nothing until the person chooses: keep mine, take theirs, or
keep both. A backup is a zip of a folder's match files, byte for byte; restoring one puts each back under its own
name, byte for byte, when the folder has no file of that name, and merges it by the rule into the file of that
name when it has one (`restore_member`).
"""

from __future__ import annotations

import io
import os
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Literal, Protocol

from ..errors import ExistsError, GinscoreError, InputError, MatchFileError, StaleError
from ..match.merge import compare, merged
from ..match.tally import Sheet, tally
from .folder import MAX_BYTES
from .reading import MatchFile, match_file
from .storage import exists, lock, read, readable_bytes, save, write

if TYPE_CHECKING:
    from .table import Table
    from .table_io import Storage

Outcome = Literal["new", "unchanged", "added", "conflict", "replaced", "both", "refused"]
Choice = Literal["", "mine", "theirs", "both"]
CHOICES: tuple[Choice, ...] = ("", "mine", "theirs", "both")

MOST_MEMBERS = 10_000
"""The most match files a backup may hold: more is not a backup ginscore made."""


@dataclass(frozen=True)
class Merged:
    """What merging one copy did."""

    outcome: Outcome
    name: str
    """The file it concerns: the one merged into, the one kept as new, or for `both` the copy's new file."""
    added: int = 0
    """How many hands the copy added."""
    differing: tuple[int, ...] = ()
    """For a conflict, the hands that differ (see `Comparison.differing`)."""
    mine: Sheet | None = None
    """For a conflict, the file's sheet, and the copy's: the differing hands side by side."""
    theirs: Sheet | None = None
    hands: int = 0
    """For a conflict, the hands the file had when it was compared: a choice is taken only while it has them."""
    reason: str = ""
    """For a member of a backup that could not be merged, why, in one line."""


def read_copy(label: str, text: str) -> MatchFile:
    """A copy's text read as `validate` reads a file, named `label` in what it says; `MatchFileError` otherwise."""
    return match_file(label, text)


def copy_at(path: str) -> MatchFile:
    """The copy in the file at `path`, from any folder, read through that folder's table as every command reads a
    file (`table.file_at`: once a version, named as typed); `MatchFileError` when it is no match file."""
    from .table import file_at

    return file_at(path)


def merge_file(path: str, theirs: MatchFile, choice: Choice = "", *, expected_hands: int | None = None,
               out: str | None = None, storage: Storage | None = None) -> Merged:
    """Merge the copy `theirs` into the match file at `path`, or with `out` into a new file there (the merged
    copy, `path` left as it was). A conflict writes nothing unless `choice` says which to keep: `theirs` replaces
    the file with the copy's bytes, only while it still has `expected_hands` hands (when given); `both` is the
    caller's to write (`keep_copy`); `mine` changes nothing. Not one match: `RefusedError`, naming the field.
    With `storage` (the file's folder), the file is locked and written through it."""
    with lock(path, storage, existing=True):
        before = read(path, storage)
        comparison = compare(before.match, theirs.match)
        if comparison.kind == "conflict":
            if choice == "theirs":
                _check_hands(path, before, expected_hands)
                if out:
                    _write_new(out, theirs.text, "out")
                else:
                    write(path, readable_bytes(path, theirs.text), storage)
                return Merged("replaced", out or path)
            if choice == "mine":
                return _kept(before, out)
            return Merged("conflict", path, differing=comparison.differing, mine=before.sheet, theirs=theirs.sheet,
                          hands=len(before.match.hands))
        if comparison.kind != "theirs_longer":
            return _kept(before, out)
        match = merged(before.match, theirs.match)
        target = out or path
        if out:
            _refuse_existing(out, "out")
            with lock(out):
                _refuse_existing(out, "out")
                save(out, match, tally(match), before)
        else:
            save(path, match, tally(match), before, storage)
        return Merged("added", target, added=len(match.hands) - len(before.match.hands))


def _kept(before: MatchFile, out: str | None) -> Merged:
    if out:
        _write_new(out, before.text, "out")
    return Merged("unchanged", out or before.path)


def _check_hands(path: str, before: MatchFile, expected_hands: int | None) -> None:
    count = len(before.match.hands)
    if expected_hands is not None and count != expected_hands:
        raise StaleError(f"now has {count} hand{'s' if count != 1 else ''}, not {expected_hands}: someone changed it "
                         "while the choice waited; nothing was written", field="expected_hands", file=path)


def _refuse_existing(path: str, field: str = "file", storage: Storage | None = None) -> None:
    """Refuse a new file where one is (asked of the folder's `storage` when given, else of the disk)."""
    if exists(path, storage):
        raise ExistsError("already exists: pick another name", field=field, file=path)


def _write_new(path: str, text: str, field: str = "file", storage: Storage | None = None) -> None:
    """A new file holding exactly `text`, never replacing one; through the folder's `storage` when given."""
    data = readable_bytes(path, text)
    _refuse_existing(path, field, storage)
    with lock(path, storage):
        _refuse_existing(path, field, storage)
        write(path, data, storage)


def keep_copy(path: str, theirs: MatchFile, storage: Storage | None = None) -> None:
    """The copy kept as a new file at `path` holding its bytes: a match the folder lacks, or one kept beside the
    folder's copy (keep both)."""
    _write_new(path, theirs.text, storage=storage)


# --- backups ----------------------------------------------------------------------------------------------


def backup_zip(files: list[tuple[str, bytes]]) -> bytes:
    """A zip of these files, each under its name, byte for byte."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in files:
            archive.writestr(zipfile.ZipInfo(name, date_time=(2000, 1, 1, 0, 0, 0)), data, zipfile.ZIP_DEFLATED)
    return buffer.getvalue()


def backup_members(data: bytes, label: str) -> list[tuple[str, str | MatchFileError]]:
    """The match files a backup holds, by name, each text or why it cannot be read; `InputError` (field
    `file`) when `data` is not a backup at all."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        infos = archive.infolist()
    except (zipfile.BadZipFile, OSError, ValueError, EOFError):
        raise InputError("is not a backup: it is not a zip file", field="file", file=label) from None
    files = [info for info in infos if not info.is_dir()]
    if len(files) > MOST_MEMBERS:
        raise InputError(f"holds {len(files):,} files, more than any backup ({MOST_MEMBERS:,})", field="file", file=label)
    members: list[tuple[str, str | MatchFileError]] = []
    for info in files:
        name = info.filename.replace("\\", "/").rsplit("/", 1)[-1]
        members.append((name, _member_text(archive, info, name)))
    return members


def _member_text(archive: zipfile.ZipFile, info: zipfile.ZipInfo, name: str) -> str | MatchFileError:
    if info.file_size > MAX_BYTES:
        return MatchFileError(name, [f"is {info.file_size / 2**20:.0f} MB, more than any match file; nothing was read"])
    try:
        with archive.open(info) as member:
            data = member.read(MAX_BYTES + 1)
    except (zipfile.BadZipFile, OSError, ValueError, EOFError, NotImplementedError, RuntimeError):
        return MatchFileError(name, ["is damaged in the backup and cannot be read"])
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return MatchFileError(name, ["is not text (UTF-8)"])


def each_member(members: list[tuple[str, str | MatchFileError]], merge: Callable[[str, str], Merged]) -> list[Merged]:
    """Every match file of a backup (`backup_members`) merged by `merge(name, text)`; one that cannot be is listed
    as refused, with why, and the rest go on."""
    done: list[Merged] = []
    for name, text in members:
        if isinstance(text, MatchFileError):
            done.append(Merged("refused", name, reason=text.one_line()))
            continue
        try:
            done.append(merge(name, text))
        except GinscoreError as error:
            done.append(Merged("refused", name, reason=error.one_line()))
    return done


class Restoring(Protocol):
    """What a restore needs of the folder it restores into (`served.Folder`)."""

    path: str
    table: Table

    def accepts(self, name: object) -> str | None: ...

    def new_name(self, file: str | None) -> str: ...

    def merge(self, text: str, name: str | None = None, choice: str = "", expected_hands: int | None = None, *,
              restoring: bool = False) -> Merged: ...


def restore_member(folder: Restoring, name: str, text: str) -> Merged:
    """A backup's match file `name` holding `text` brought back into `folder`: under its own name, byte for byte,
    whenever the folder has no file of that name (whatever the other files hold: five games started in one second
    come back as five files); into the file of that name by the rule when it holds the same match; beside it, under
    a name of its own, when it holds another match (merged into the folder's copy of the backup's match when there
    is one). When the file of that name is damaged (it cannot be read, or its totals do not add up), it is a
    conflict with `reason` saying what to do: nothing is written, the damaged file is left as it was."""
    from ..match.merge import not_the_same

    theirs = read_copy(folder.accepts(name) or "the copy", text)
    if folder.accepts(name) is None:
        return folder.merge(text, name, restoring=True)  # a name no match file may have here: one of its own
    path = os.path.join(folder.path, name)
    if not folder.table.storage.exists(name):
        try:
            folder.new_name(name)  # a name another system cannot hold (`con.toml`) takes one of its own
        except GinscoreError:
            return folder.merge(text, name, restoring=True)
        keep_copy(path, theirs, folder.table.storage)
        return Merged("new", name)
    found = folder.table.file(name)
    if found.read is None:
        problem = found.problem.one_line() if found.problem is not None else "it cannot be read"
        return Merged("conflict", name, reason=f"the folder's {name} is damaged ({problem}); it was left as it was: mend it "
                      f"(`ginscore validate {name}` lists its problems) and restore again, or move it aside "
                      f"(`mv {name} {name}.damaged`) and restore again to take the backup's")
    if not_the_same(found.read.match, theirs.match) is not None:
        return folder.merge(text, name, restoring=True)
    return replace(merge_file(path, theirs, storage=folder.table.storage), name=name)

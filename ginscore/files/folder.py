"""The folder around a match file: what is read, what may be replaced, and how writers take turns.

A match file is read only when it is a regular file of sane size (never a FIFO or a device, which
would hang or never end), as UTF-8. A write goes to a temporary file beside the real one (links
followed), is flushed and renamed over it, keeping its mode and owner: a crash leaves the old file
or the new one, whole. Read-only files and files with other hard links are refused. Writers take
turns through a `.NAME.lock` beside the real file, and a write clears the temporaries that killed
writers left. Exports are written the same way.

Whether a file exists and which file a write replaces are decided from one resolved path (`resolved`): the
folder as the system finds it, then links followed, so a name like `typo/../m.toml` never checks one file and
writes another. A lock file that is a link, a FIFO or anything but a regular file is refused with one line
naming it, never waited on.
"""

from __future__ import annotations

import contextlib
import os
import re
import stat
from collections.abc import Iterator

from ..errors import InputError, MatchFileError, MissingFileError, PathWords, os_error_because, os_error_problem, quote

MAX_BYTES = 64 * 1024 * 1024
"""No real match comes near this; a bigger file is refused before it is read."""
_TEMPORARY = r"\.{name}\.([a-z0-9_]{{8}}|[0-9a-f]{{16}})\.tmp"
"""Our temporary files beside a match file: 16 hex digits; 8 from `tempfile`, as older versions named them."""


def read_text(path: str) -> str:
    """A match file's text, refused at once when it is not a regular file, too big, or not UTF-8.

    A byte-order mark at the start is kept in the text (and written back), and skipped when parsing.
    """
    data = read_bytes(path)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise MatchFileError(
            path, [f"cannot read byte 0x{data[error.start]:02x} at offset {error.start}: not UTF-8 text; save the file as UTF-8"]
        ) from None


def read_bytes(path: str) -> bytes:
    """A match file's bytes, refused at once when it is not a regular file or too big."""
    _refuse_special(path, "nothing was read")
    try:
        # O_NONBLOCK: a FIFO put in the file's place after the check above must not hang the read.
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError as error:
        raise MatchFileError(path, [os_error_problem("read", error)]) from None
    with os.fdopen(descriptor, "rb") as handle:
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):
            raise MatchFileError(path, ["is not a regular file, not a match file; nothing was read"])
        data = handle.read(MAX_BYTES + 1)
    check_size(path, len(data))
    return data


def check_size(path: str, size: int, *, writing: bool = False) -> None:
    """Refuse a match file of `size` bytes when that is more than any is read (`MAX_BYTES`): the reader's limit,
    which a write applies to its new bytes too, so that no write leaves a file a later load refuses."""
    if size <= MAX_BYTES:
        return
    if writing:
        raise MatchFileError(path, [
            f"cannot write: the file would be {size:,} bytes, more than the {MAX_BYTES:,} a match file may have, so no "
            "later command could read it; nothing was changed: start a new match file"
        ])
    raise MatchFileError(path, [f"is {size / 2**20:.0f} MB, far more than any match file (at most {MAX_BYTES // 2**20} MB are read); nothing was read"])


def _refuse_special(path: str, outcome: str) -> None:
    """Refuse a missing file, one that is not a regular file, or one far too big (following links)."""
    try:
        status = os.stat(path)
    except FileNotFoundError:
        if os.path.lexists(path):
            raise MatchFileError(path, [PathWords("is a link to ", os.path.realpath(path), ", which does not exist")]) from None
        raise MissingFileError(path) from None
    except OSError as error:
        raise MatchFileError(path, [os_error_problem("read", error)]) from None
    if not stat.S_ISREG(status.st_mode):
        raise MatchFileError(path, [f"is {_kind(status.st_mode)}, not a match file; {outcome}"])
    check_size(path, status.st_size)


def _kind(mode: int) -> str:
    kinds = [
        (stat.S_ISDIR, "a folder"),
        (stat.S_ISFIFO, "a named pipe (FIFO)"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISSOCK, "a socket"),
    ]
    return next((name for test, name in kinds if test(mode)), "a special file")


def write_atomic(path: str, data: bytes) -> None:
    """Write a temporary file beside the file `path` leads to, flush and fsync it, then rename it
    over that file, keeping its mode and (where allowed) its owner and group.

    A crash or a full disk at any point leaves either the old file or the new one, whole. A link
    stays a link: the file it points to is the one replaced. A file with other hard links is
    refused, since the rename would split them. Temporary files of the same target left by killed
    writers are removed first; a writer's own is safe from that while it lives (see
    `_remove_stale_temporaries`), so this needs no lock and serves exports too.
    """
    real = resolved(path)
    status = _writable_status(path, real)
    try:
        _replace_with(real, data, status)
    except FileNotFoundError:
        raise _no_folder(path, os.path.dirname(real)) from None
    except OSError as error:
        raise MatchFileError(path, [os_error_problem("write", error) + "; nothing was changed"]) from None


def resolved(path: str) -> str:
    """The file a write to `path` would replace, found once for the existence check and the write alike: the
    folder as the system finds it (so `typo/../m.toml` is not `m.toml` when `typo` is missing), then links
    followed. A missing folder, the link's target's too, is refused and named."""
    _refuse_missing_folder(path, os.path.dirname(path))
    real = os.path.realpath(path)
    _refuse_missing_folder(path, os.path.dirname(real))
    return real


RESERVED_NAMES = frozenset(
    ["CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$"] + [f"{device}{number}" for device in ("COM", "LPT") for number in "0123456789\u00b9\u00b2\u00b3"]
)
"""Windows' device names: no file there may be called so, whatever follows the name's first dot (`nul.tar.gz`)."""
NOT_IN_NAMES = '<>:"|?*\\'
"""The characters Windows refuses in a file's name, besides the control characters (and `/`, never in one)."""


def check_portable_name(path: str) -> None:
    """Refuse, with one line saying why, a new file's name that Windows (or a phone's storage, formatted FAT or
    exFAT) could not hold: a device name such as `CON` or `com1.toml`, a character of `NOT_IN_NAMES` or a control
    character, a byte that is not UTF-8, or a name ending with a space or a dot. Files already there are never asked: they keep working."""
    name = os.path.basename(path)
    stem = name.split(".", 1)[0].rstrip(" ")
    if stem.upper() in RESERVED_NAMES:
        why = f"{stem} is a device's name on Windows (whatever follows its first dot)"
    elif bad := next((char for char in name if char in NOT_IN_NAMES or ord(char) < 32 or ord(char) == 127), None):
        why = f"Windows does not allow {quote(bad)} in a file's name" if bad in NOT_IN_NAMES else f"it holds the control character {quote(bad)}"
    elif any("\ud800" <= char <= "\udfff" for char in name):
        why = "it holds a byte that is not UTF-8 (typed in another encoding?)"
    elif name.endswith((" ", ".")):
        why = "Windows drops a space or a dot at the end of a name"
    else:
        return
    raise InputError(f"{quote(name)} cannot be a new match file's name: {why}, so the file could not be copied to "
                     "Windows or to many phones; pick another name", field="file")


def exists_for_write(path: str) -> bool:
    """Whether a write to `path` would replace something: the name as typed (a dangling link too) or the file it resolves to."""
    return os.path.lexists(path) or os.path.lexists(resolved(path))


def _refuse_missing_folder(path: str, folder: str) -> None:
    if os.path.isdir(folder or "."):
        return
    parts = folder.split(os.sep)
    for end in range(1, len(parts) + 1):
        prefix = os.sep.join(parts[:end]) or os.sep
        if not os.path.isdir(prefix):
            raise _no_folder(path, prefix)
    raise _no_folder(path, folder)


def _no_folder(path: str, folder: str) -> MatchFileError:
    return MatchFileError(path, [PathWords("cannot write: the folder ", folder or ".", " does not exist; nothing was changed")])


def check_writable(path: str) -> None:
    """Refuse an existing match file that a write would refuse (see `_writable_status`), before
    anything is asked or created: a missing file too, and one that is not a regular file."""
    _refuse_special(path, "nothing was changed")
    _writable_status(path, resolved(path))


def _writable_status(path: str, real: str) -> os.stat_result | None:
    """The status of the file to replace (a match file or an export), or None when there is none;
    refused when it is read-only (by its mode bits, which hold for root too), not a regular file,
    or one of several hard links (the rename that makes a write atomic would split them)."""
    try:
        status = os.stat(real)
    except FileNotFoundError:
        return None
    except OSError as error:
        raise MatchFileError(path, [os_error_problem("write", error) + "; nothing was changed"]) from None
    if not stat.S_ISREG(status.st_mode):
        raise MatchFileError(path, [f"is {_kind(status.st_mode)}, not a regular file; nothing was changed"])
    if not status.st_mode & 0o222 or not os.access(real, os.W_OK):
        raise MatchFileError(path, ["is read-only (no write permission); nothing was changed"])
    if status.st_nlink > 1:
        raise MatchFileError(
            path,
            [
                f"is one of {status.st_nlink} hard links to the same file: a rewrite would split them; "
                "use a symbolic link instead; nothing was changed"
            ],
        )
    return status


def _replace_with(real: str, data: bytes, status: os.stat_result | None) -> None:
    folder, name = os.path.split(real)
    _remove_stale_temporaries(folder, name)
    temporary, handle = _own_temporary(folder, name)
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
            if status is None:
                os.chmod(temporary, 0o644)
            else:
                with contextlib.suppress(OSError):
                    os.chown(temporary, status.st_uid, status.st_gid)
                os.chmod(temporary, stat.S_IMODE(status.st_mode))
            # Renamed while its lock is held (closing the file releases it), so no cleaner takes it for stale.
            os.replace(temporary, real)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    with contextlib.suppress(OSError):
        directory = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(directory)
        finally:
            os.close(directory)


def _own_temporary(folder: str, name: str) -> tuple[str, int]:
    """A new temporary file for `name`, open and locked (flock) for as long as this writer lives.

    A cleaner could lock it in the moment between its creation and the writer's lock, and remove
    it: the writer then finds its name gone (or another file there) and makes a new one.
    """
    import fcntl

    while True:
        temporary = os.path.join(folder, f".{name}.{os.urandom(8).hex()}.tmp")
        handle = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            fcntl.flock(handle, fcntl.LOCK_EX)
        except OSError:
            return temporary, handle  # a file system without locks: no cleaner can lock it either
        if _same_file(handle, temporary):
            return temporary, handle
        os.close(handle)


def _same_file(descriptor: int, path: str) -> bool:
    """Whether `path` still names the file open as `descriptor` (not removed, nor replaced)."""
    try:
        found = os.stat(path, follow_symlinks=False)
    except OSError:
        return False
    held = os.fstat(descriptor)
    return (found.st_dev, found.st_ino) == (held.st_dev, held.st_ino)


def _remove_stale_temporaries(folder: str, name: str) -> None:
    """Remove temporary files of `name` that killed writers left behind.

    A live writer holds a lock (flock) on its temporary file until it has renamed it; the system
    drops that lock when a writer dies, however it dies. So a temporary file whose lock can be taken
    at once is stale. It is removed while that lock is held, and only if its name still leads to it.
    """
    import fcntl

    pattern = re.compile(_TEMPORARY.format(name=re.escape(name)))
    with contextlib.suppress(OSError):
        for entry in os.scandir(folder):
            if not (pattern.fullmatch(entry.name) and entry.is_file(follow_symlinks=False)):
                continue
            with contextlib.suppress(OSError):
                descriptor = os.open(entry.path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
                try:
                    fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    if _same_file(descriptor, entry.path):
                        os.unlink(entry.path)
                finally:
                    os.close(descriptor)


@contextlib.contextmanager
def locked(path: str, *, existing: bool = False) -> Iterator[None]:
    """Hold the match file's lock so that writers take turns.

    The lock is a hidden `.NAME.lock` beside the real file, so names that lead to one file share
    it. With `existing`, the file must exist and be writable, or the command is refused before
    anything, a lock file included, is created; otherwise it may be missing (a new match, whose name must be
    portable: `check_portable_name`). A
    command refused while it holds a lock file it created itself removes that file: a refusal
    leaves nothing behind.
    """
    if existing:
        check_writable(path)
    real = resolved(path)
    if not existing and os.path.exists(real):
        _writable_status(path, real)
    elif not existing:
        check_portable_name(real)  # a new file: the one place a match file is created
    folder, name = os.path.split(real)
    lock_path = os.path.join(folder, f".{name}.lock")
    descriptor, created = _take_lock(path, lock_path)
    try:
        yield
    except BaseException:
        if created:
            with contextlib.suppress(OSError):
                os.unlink(lock_path)
        raise
    finally:
        os.close(descriptor)


def _take_lock(path: str, lock_path: str) -> tuple[int, bool]:
    """Open and lock the lock file (creating it if needed); returns its descriptor and whether this
    call created it.

    A writer that removes a lock file it created does so while holding its lock; one that was
    waiting on that removed file then finds the name gone (or leading to a new file), and tries again.
    A lock file that is not a regular file (a link, a FIFO, a device) is refused at once, never waited on.
    """
    import fcntl

    while True:
        try:
            try:
                descriptor = os.open(lock_path, _LOCK_FLAGS | os.O_CREAT | os.O_EXCL, 0o644)
                created = True
            except FileExistsError:
                descriptor, created = os.open(lock_path, _LOCK_FLAGS), False
        except FileNotFoundError:
            if not os.path.isdir(os.path.dirname(lock_path)):
                raise _no_folder(path, os.path.dirname(lock_path)) from None
            continue  # the lock file was removed between the two opens
        except OSError as error:
            if os.path.islink(lock_path) or (os.path.lexists(lock_path) and not os.path.isfile(lock_path)):
                raise _strange_lock(path, lock_path) from None
            raise MatchFileError(path, [PathWords("cannot create the lock file ", lock_path, f": {os_error_because(error)}")]) from None
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):
            os.close(descriptor)
            raise _strange_lock(path, lock_path)
        fcntl.flock(descriptor, fcntl.LOCK_EX)
        if _same_file(descriptor, lock_path):
            return descriptor, created
        os.close(descriptor)


_LOCK_FLAGS = os.O_RDWR | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
"""No link is followed to a lock file, and opening one that is a FIFO never waits."""


def _strange_lock(path: str, lock_path: str) -> MatchFileError:
    kind = "a symbolic link" if os.path.islink(lock_path) else "not a regular file"
    return MatchFileError(
        path, [PathWords("the lock file ", lock_path, f" is {kind}, not one ginscore made: remove it if no ginscore is running; nothing was changed")]
    )

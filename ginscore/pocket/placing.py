"""The folder a build goes into: what an earlier build wrote there, what else it holds, and the moves that put
the new build in place while keeping everything ginscore did not write.

Whose a file is comes from the earlier build's `build.json`: its `written` list names every file that build
wrote, and its `sha256` what each held. A file is ginscore's only while it holds what ginscore wrote there: then
it is replaced or, when the new build no longer writes it, removed. One changed since (a person's own edit of
`index.html`) is theirs: a name the new build writes is refused, naming it, unless `--force` replaces it, and a
file no longer written is kept. Nothing else is touched. A name the new build writes that holds something no
build of ginscore wrote is refused unless `--force`, and so is a
non-empty folder that was never a build (hidden entries such as `.git` aside), so that `ginscore app ~` is not
spread over a home folder.

A build is made whole in memory first, then written into a hidden staging folder inside the target (the same
file system, so that each file lands with one rename), then moved into place a file at a time. A failure before
the moves leaves the folder as it was (a folder the build created is removed again). While the files move,
`build.json` lists the earlier build's files and the new one's, so that a build stopped part way is still known
as ginscore's own by the next one, which finishes the job.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import stat
import tempfile
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from ..errors import InputError, RefusedError

MARK = "ginscore app"
"""`build.json`'s `made_by`: a folder holding it is an earlier build, whose listed files are ginscore's."""
RECORD = "build.json"
STAGING = ".ginscore-building-"
"""The prefix of the hidden staging folder a build writes its files into before moving them into place."""
SHOWN = 5
"""The most names a refusal lists before it says how many more."""


@dataclass(frozen=True)
class Plan:
    """What a build into a folder will do there, known before anything is written."""

    folder: str
    """The real folder written into (through a link, when the target is one)."""
    earlier: Mapping[str, object] | None
    """The earlier build's `build.json`, when the folder holds one."""
    ours: frozenset[str]
    """The files the earlier build wrote, as listed in its `build.json`, that still hold what it wrote."""
    hashes: Mapping[str, tuple[str, ...]]
    """What each of `ours` may hold, by sha256 (two while a build stopped part way had moved some files)."""
    replaced: tuple[str, ...]
    """Things no build of ginscore wrote, at names the new build writes: replaced, as `--force` allows."""
    stale: tuple[str, ...]
    """Files the earlier build wrote and the new one does not: removed."""
    kept: tuple[str, ...]
    """The folder's own entries that the build leaves alone (`CNAME`, `.git`, ...)."""
    changed: tuple[str, ...] = ()
    """Files the earlier build wrote, changed since, that the new build no longer writes: kept as they are."""


def real_folder(target: str) -> str:
    """The folder a build into `target` writes: `target` itself, or the folder it links to (the link stays)."""
    if os.path.islink(target) and not os.path.exists(target):
        raise InputError(f"{target} is a link to {os.readlink(target)}, which does not exist: create that folder, or remove the link")
    if os.path.exists(target) and not os.path.isdir(target):
        raise InputError(f"{target}: not a folder")
    return os.path.realpath(target)


def plan(target: str, writes: Iterable[str], force: bool) -> Plan:
    """The plan for writing the files `writes` (paths inside the folder) into `target`, or the refusal."""
    folder = real_folder(target)
    writes = sorted(writes)
    earlier = _earlier(folder)
    hashes = _listed(earlier)
    ours = frozenset(path for path in hashes if _as_written(folder, path, hashes[path]))
    blocked = sorted({spot for path in writes for spot in _blocking(folder, path, ours)})
    edited = [spot for spot in blocked if spot in hashes]
    folders = [spot for spot in blocked if os.path.isdir(os.path.join(folder, spot)) and not os.path.islink(os.path.join(folder, spot))]
    if folders:
        raise RefusedError(f"{_shown(target, folders)}: a folder where the app writes a file: move it away, then build again")
    if edited and not force:
        raise RefusedError(f"{_shown(target, edited)}: an earlier build wrote {'this file' if len(edited) == 1 else 'these files'}, "
                           f"and {'it was' if len(edited) == 1 else 'they were'} changed since: move {'it' if len(edited) == 1 else 'them'} "
                           "away to keep the change, or pass --force to replace it with the app's")
    if blocked and not force:
        raise RefusedError(f"{_shown(target, blocked)}: the app writes {'this name' if len(blocked) == 1 else 'these names'}, "
                           "and no earlier ginscore build wrote what is there: move it away, or pass --force to replace it")
    entries = sorted(os.listdir(folder)) if os.path.isdir(folder) else []
    visible = [name for name in entries if not name.startswith(".")]
    if earlier is None and visible and not force:
        raise RefusedError(f"{target} is not empty and holds no earlier app build ({_few(visible)}): pass --force to "
                           "add the app beside what it holds (which is kept), or give an empty folder")
    tops = {path.split("/")[0] for path in [*writes, *ours]}
    stale = tuple(path for path in sorted(ours - set(writes)) if _removable(folder, path))
    changed = tuple(path for path in sorted(set(hashes) - ours - set(writes)) if os.path.lexists(os.path.join(folder, path)))
    kept = tuple(name for name in entries if name not in tops and name not in changed and not name.startswith(STAGING))
    return Plan(folder, earlier, ours, {path: hashes[path] for path in ours}, tuple(blocked), stale, kept, changed)


def put(plan: Plan, files: Mapping[str, bytes], record: Mapping[str, object]) -> None:
    """Write `files` and `build.json` (`record`, whose `written` lists them all) into the plan's folder."""
    folder = plan.folder
    created = not os.path.isdir(folder)
    os.makedirs(folder, exist_ok=True)
    staging = ""
    try:
        _clear_leftovers(folder)
        staging = tempfile.mkdtemp(prefix=STAGING, dir=folder)
        staged = {}
        for number, (path, data) in enumerate(sorted(files.items())):
            staged[path] = os.path.join(staging, str(number))
            with open(staged[path], "wb") as handle:
                handle.write(data)
        written = record.get("written")
        assert isinstance(written, list)  # the build lists what it writes
        made = record.get("sha256")
        assert isinstance(made, dict)  # and what each file holds
        # while the files move, each may hold the earlier build's bytes or the new; one whose earlier bytes are not
        # known (a build before hashes) stays known by its name alone
        both = {path: [] if path in plan.ours and not plan.hashes.get(path) else
                sorted({*plan.hashes.get(path, ()), *([made[path]] if path in made else [])}) for path in plan.ours | set(made)}
        pending = dict(plan.earlier or record, written=sorted(plan.ours | set(written)), sha256=both)
        _land(folder, staging, RECORD, _json(pending))
        for path in sorted(staged, key=lambda path: (path == "sw.js", path)):  # sw.js last: browsers look at it for a new version
            _clear_way(folder, path)
            os.replace(staged[path], os.path.join(folder, path))
        for path in plan.stale:
            os.unlink(os.path.join(folder, path))
            _remove_empty_parents(folder, path)
        _land(folder, staging, RECORD, _json(record))
    except BaseException:
        if created:
            shutil.rmtree(folder, ignore_errors=True)
        raise
    finally:
        if staging:
            shutil.rmtree(staging, ignore_errors=True)


def _earlier(folder: str) -> Mapping[str, object] | None:
    try:
        with open(os.path.join(folder, RECORD), encoding="utf-8") as handle:
            info = json.load(handle)
    except (OSError, ValueError):
        return None
    return info if isinstance(info, dict) and info.get("made_by") == MARK else None


def _listed(earlier: Mapping[str, object] | None) -> dict[str, tuple[str, ...]]:
    """The files an earlier build's record says it wrote, each with the sha256 of what it may hold (none known for
    a build before `sha256`, and for `build.json` itself); a name that could reach outside the folder is not one."""
    if earlier is None:
        return {}
    listed = earlier.get("written")
    if not isinstance(listed, list):  # a build before `written`: its precache list, and the service worker
        files = earlier.get("files")
        listed = [*files, "sw.js", RECORD] if isinstance(files, list) else [RECORD]
    hashes = earlier.get("sha256")
    hashes = hashes if isinstance(hashes, dict) else {}

    def held(path: str) -> tuple[str, ...]:
        digests = hashes.get(path, ())
        digests = [digests] if isinstance(digests, str) else digests if isinstance(digests, list) else []
        return tuple(digest for digest in digests if isinstance(digest, str))

    return {path: held(path) for path in listed if isinstance(path, str) and _inside(path)}


def digest(data: bytes) -> str:
    """A file's sha256, as `build.json` keeps it."""
    return hashlib.sha256(data).hexdigest()


def _as_written(folder: str, path: str, digests: tuple[str, ...]) -> bool:
    """Whether the earlier build's file at `path` still holds what it wrote: any file when no hash is known (a
    build before hashes, `build.json`), else one of `digests`; anything but a regular file (a link, a folder) is
    judged by `_blocking`."""
    full = os.path.join(folder, path)
    if not digests or os.path.islink(full) or not os.path.isfile(full):
        return True
    hashed = hashlib.sha256()
    try:
        with open(full, "rb") as handle:
            for chunk in iter(lambda: handle.read(1 << 20), b""):
                hashed.update(chunk)
    except OSError:
        return False
    return hashed.hexdigest() in digests


def _inside(path: str) -> bool:
    parts = path.split("/")
    return "\\" not in path and "\0" not in path and all(part not in ("", ".", "..") for part in parts)


def _blocking(folder: str, path: str, ours: frozenset[str]) -> list[str]:
    """What stands where `path` must go and is not ginscore's: a file or link at one of its parent folders, or
    anything at the path itself but an earlier build's file."""
    parts = path.split("/")
    for depth in range(1, len(parts) + 1):
        spot = "/".join(parts[:depth])
        try:
            mode = os.lstat(os.path.join(folder, spot)).st_mode
        except FileNotFoundError:
            return []
        last = depth == len(parts)
        if not last and stat.S_ISDIR(mode):
            continue
        if spot in ours and not stat.S_ISDIR(mode):
            return []
        return [spot]
    return []


def _removable(folder: str, path: str) -> bool:
    """An earlier build's file still there as a file or link, under real folders: one the build may remove."""
    parts = path.split("/")
    for depth in range(1, len(parts)):
        spot = os.path.join(folder, *parts[:depth])
        if os.path.islink(spot) or not os.path.isdir(spot):
            return False
    try:
        mode = os.lstat(os.path.join(folder, path)).st_mode
    except FileNotFoundError:
        return False
    return stat.S_ISREG(mode) or stat.S_ISLNK(mode)


def _clear_way(folder: str, path: str) -> None:
    """Parent folders for `path`, made real: a file or link in their place (ours, or allowed by --force) removed."""
    parts = path.split("/")
    for depth in range(1, len(parts)):
        spot = os.path.join(folder, *parts[:depth])
        if os.path.islink(spot) or (os.path.exists(spot) and not os.path.isdir(spot)):
            os.unlink(spot)
        if not os.path.isdir(spot):
            os.mkdir(spot)


def _remove_empty_parents(folder: str, path: str) -> None:
    parts = path.split("/")[:-1]
    while parts:
        try:
            os.rmdir(os.path.join(folder, *parts))
        except OSError:
            return
        parts.pop()


def _clear_leftovers(folder: str) -> None:
    """Staging folders a build stopped part way left behind (one build at a time writes a folder)."""
    for name in os.listdir(folder):
        path = os.path.join(folder, name)
        if name.startswith(STAGING) and os.path.isdir(path) and not os.path.islink(path):
            shutil.rmtree(path, ignore_errors=True)


def _land(folder: str, staging: str, path: str, data: bytes) -> None:
    """`data` into `folder/path` with one rename, by way of the staging folder."""
    staged = os.path.join(staging, "landing")
    with open(staged, "wb") as handle:
        handle.write(data)
    os.replace(staged, os.path.join(folder, path))


def _json(info: Mapping[str, object]) -> bytes:
    return (json.dumps(info, indent=1) + "\n").encode()


def _few(names: list[str]) -> str:
    """`a, b, c`, or the first few and how many more."""
    more = f" and {len(names) - SHOWN} more" if len(names) > SHOWN else ""
    return ", ".join(names[:SHOWN]) + more


def _shown(target: str, paths: list[str]) -> str:
    return _few([os.path.join(target, path) for path in paths])

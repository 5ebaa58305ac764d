"""Copies of one match among a folder's files: which file counts, and the command that settles a copy.

Two files are of one match when their ids are equal, or by the rule for files without one
(`match.merge.not_the_same`), or when they are one file reached through two names, such as a link. Of the files of
one match, the one whose hands include the others' counts (else the first by name); each other is a copy of it,
counted in no figure and listed with `ginscore merge COUNTED COPY`.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING

from ..errors import MatchFileError, RefusedError

if TYPE_CHECKING:
    from ..match.gives import MatchGives
    from ..match.records import Match


def copies_among(files: list[tuple[str, object, Match]]) -> dict[str, str]:
    """Among `files` (each a name, what makes two names one file, such as its device and inode, or None, and its
    match), each file that is a copy of another's match, with the file that counts for it: of the files of one
    match, the first by name whose hands include every other's, else the first by name. Files of one match share
    their start (`created`): two files with one id whose start was edited apart are not found; a file with neither
    an id nor a start (written by hand) is a copy only of itself under another name."""
    from ..match.merge import not_the_same
    from ..match.records import pair_key

    groups: list[list[tuple[str, object, Match]]] = []
    buckets: dict[tuple[str, str, str], list[list[tuple[str, object, Match]]]] = {}
    for entry in sorted(files, key=lambda entry: entry[0]):
        _, identity, match = entry
        bucket = buckets.setdefault((*pair_key(match.players), match.created), [])  # one match has one start
        dated = match.id is not None or bool(match.created)  # a file with neither says nothing of when it started
        for group in bucket:
            if (identity is not None and any(identity == other[1] for other in group)) or (
                    dated and not_the_same(group[0][2], match) is None):
                group.append(entry)
                break
        else:
            bucket.append([entry])
            groups.append(bucket[-1])
    copies: dict[str, str] = {}
    for group in groups:
        if len(group) < 2:
            continue
        counted = next((entry for entry in group if all(_includes(entry[2], other[2]) for other in group)), group[0])
        copies.update({entry[0]: counted[0] for entry in group if entry is not counted})
    return copies


def copies_listed(copies: Iterable[tuple[str, str]]) -> list[dict[str, str]]:
    """Copies (each file with the one that counts for it) as the JSON of `stats`, `standings` and the API lists
    them, the first copy first: `file`, `copy_of` and `settle`, the command that brings the copy's hands over."""
    return [{"file": copy, "copy_of": counted, "settle": settle_command(copy, counted)} for copy, counted in sorted(copies)]


def settle_command(copy: str, counted: str) -> str:
    """The command that brings a copy's hands into the file that counts for it."""
    import shlex

    return f"ginscore merge {shlex.quote(counted)} {shlex.quote(copy)}"


def _includes(match: Match, other: Match) -> bool:
    """Whether `match`'s hands include `other`'s: the same hands, or `other`'s its first ones."""
    from ..match.merge import compare

    try:
        return compare(other, match).kind in ("same", "theirs_longer")
    except RefusedError:
        return False


def copies_given(given: Mapping[str, MatchGives], read: Callable[[str], tuple[object, Match] | None]) -> dict[str, str]:
    """`copies_among` for files known by what each gives (`match.gives`): only those that may be of one match (the
    same players, start, rules and id) are read in full (`read`: a file's identity and match; None when it cannot
    be read, and it is then no one's copy)."""
    from ..match.records import pair_key

    buckets: dict[tuple[object, ...], list[str]] = {}
    for name, gives in given.items():
        match_id = gives.id.lower() if gives.id is not None else None  # an id in capitals is the same id
        buckets.setdefault((*pair_key(gives.players), gives.created, gives.rules, match_id), []).append(name)
    entries = []
    for group in buckets.values():
        for name in group if len(group) > 1 else ():
            found = read(name)
            if found is not None:
                entries.append((name, *found))
    return copies_among(entries)


def path_copies(given: Mapping[str, MatchGives]) -> dict[str, str]:
    """`copies_given` for match files named by their paths (those `stats`, `standings` and `validate` read), each
    with what it gives: each copy's path with the path that counts for it."""
    return copies_given(given, _read_path)


def _read_path(path: str) -> tuple[object, Match] | None:
    from .reading import load_file

    try:
        return file_identity(path), load_file(path).match
    except MatchFileError:
        return None


def file_identity(path: str) -> object:
    """What makes two names one file on the disk (its device and inode, links followed); None when it cannot be
    told."""
    try:
        status = os.stat(path)
    except OSError:
        return None
    return (status.st_dev, status.st_ino)

"""`ginscore merge`, `backup` and `restore`: two copies of a match made one by the rule every front end merges by,
and a folder's matches kept in one zip and brought back."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

import typer

from .command import command

if TYPE_CHECKING:
    from ..files.merging import Merged, Outcome


@command(short_help="Add the hands of another copy of a match.")
def merge(
    mine: str = typer.Argument(..., help="Your match file: the copy's later hands are added to it."),
    theirs: str = typer.Argument(..., help="Another copy of the same match, e.g. from the other phone."),
    out: str | None = typer.Option(None, "-o", "--out", metavar="FILE", help="Write the merged match to this new file; MINE stays as it is."),
) -> None:
    """Merge two copies of one match (the same players, rules and start): when one copy's hands are the first hands
    of the other, the longer is kept, its later hands added after MINE's own, every comment and line of MINE kept.
    The same hands change nothing.

    Copies whose hands differ are a conflict: the differing hands are listed side by side, nothing is written and
    the exit status is 1. Keep the one you want; both files are as they were. Another match is refused (1).

    \b
    Examples:
      ginscore merge friday.toml friday-from-bob.toml
      ginscore merge friday.toml friday-from-bob.toml -o friday-merged.toml
    """
    from ..errors import RefusedError
    from ..files.merging import copy_at, merge_file
    from ..sheets.words import hand_count, hand_numbers

    copy = copy_at(theirs)
    try:
        done = merge_file(mine, copy, out=out)
    except RefusedError as error:
        if error.file is None:
            raise error.named(theirs) from None
        raise
    if done.outcome == "conflict":
        _print_conflict(done, mine, theirs)
        _refuse(f"{mine} and {theirs} differ at {hand_numbers(done.differing)}: nothing was written; keep the copy you want "
                "(both files are as they were)")
    said = {"added": f"added {hand_count(done.added)} from {theirs} to {out or mine}",
            "unchanged": f"{mine} already has every hand of {theirs}: nothing changed"}[done.outcome]
    if out:
        said = f"wrote {out}: " + (said if done.outcome == "added" else f"{mine} as it is, which has every hand of {theirs}")
    sys.stdout.write((said[0].upper() + said[1:] if said.startswith(("added", "wrote")) else said) + ".\n")


@command(short_help="Keep every match of a folder in one zip.")
def backup(
    folder: str = typer.Argument(..., help="The folder of match files (those directly in it, as serve counts them)."),
    out: str = typer.Option(..., "-o", "--out", metavar="FILE.zip", help="The zip to write."),
    force: bool = typer.Option(False, "--force", help="Replace an existing zip."),
) -> None:
    """Write one zip holding every match file of FOLDER, byte for byte, the damaged ones too. `restore` brings
    it back, here or on another computer; the phone app opens it too.

    \b
    Examples:
      ginscore backup ~/gin -o gin-backup.zip
      ginscore backup . -o /media/stick/gin.zip --force
    """
    import zipfile

    from ..errors import ExistsError
    from ..files.folder import exists_for_write, write_atomic
    from ..files.served import Folder

    data = Folder(folder).backup()
    if not force and exists_for_write(out):
        raise ExistsError("already exists: pick another name", field="out", file=out)
    write_atomic(out, data)
    with zipfile.ZipFile(out) as written:
        count = len(written.namelist())
    sys.stdout.write(f"Backed up {count} match file{'s' if count != 1 else ''} of {folder} to {out}.\n")


@command(short_help="Bring back a backup, merging each match.")
def restore(
    backup: str = typer.Argument(..., help="A zip made by `ginscore backup` or the phone app's Back up."),
    folder: str = typer.Argument(..., help="The folder to restore into (made when missing)."),
) -> None:
    """Bring each match file of a backup back into FOLDER: a file whose name FOLDER lacks is written under that
    name, byte for byte, as it was backed up; where FOLDER has a file of that name holding the same match (by
    `merge`'s rule), fewer hands here get the backup's later hands. A conflict is listed and left as it was,
    never overwritten (exit status 1); so is a file of that name that is damaged (it cannot be read, or its totals
    do not add up). Restoring into an empty folder gives the backed-up folder back byte for byte; restoring a
    backup twice changes nothing.

    \b
    Examples:
      ginscore restore gin-backup.zip ~/gin
    """
    import os
    from collections import Counter

    from ..errors import InputError
    from ..files.folder import read_bytes
    from ..files.served import Folder
    from ..sheets.words import merged_words

    if os.path.exists(folder) and not os.path.isdir(folder):
        raise InputError("is not a folder", field="folder", file=folder)
    data = read_bytes(backup)
    os.makedirs(folder, exist_ok=True)
    done = Folder(folder).restore(data, backup)
    for merged in done:
        lines = RESTORED_LINES if not (merged.outcome == "conflict" and merged.reason) else DAMAGED_LINES
        sys.stdout.write(merged_words(merged, lines) + "\n")
    counts = Counter(merged.outcome for merged in done)
    said = ", ".join(f"{counts[outcome]} {RESTORED[outcome]}" for outcome in RESTORED if counts[outcome])
    sys.stdout.write(f"Restored {backup} into {folder}: {said or 'no match files'}.\n")
    troubled = [merged for merged in done if merged.outcome in ("conflict", "refused")]
    if troubled:
        _refuse(f"{len(troubled)} of the backup's {len(done)} files could not be merged (listed above); the folder's "
                "copies of them are as they were")


RESTORED: dict[Outcome, str] = {"new": "new", "added": "with hands added", "unchanged": "unchanged",
                                "conflict": "in conflict", "refused": "refused"}
"""What `restore` says of each outcome, in the order it counts them."""

RESTORED_LINES: dict[Outcome, str] = {
    "new": "new       {name}", "added": "added     {name}: {hands} more", "unchanged": "unchanged {name}",
    "conflict": "conflict  {name}: differs at {differ}; left as it was (`ginscore merge` shows them)",
    "refused": "refused   {name}: {reason}"}
"""The line `restore` prints for each file of the backup."""

DAMAGED_LINES: dict[Outcome, str] = {**RESTORED_LINES, "conflict": "conflict  {name}: {reason}"}
"""`RESTORED_LINES`, for a conflict with the folder's damaged file of that name, which says what to do."""


def copies_json(copies: list[tuple[str, str]] | tuple[tuple[str, str], ...]) -> list[dict[str, str]]:
    """Copies of one match (each file with the one that counts for it) as `stats`, `standings` and `validate` give
    them in JSON: `file`, `copy_of` and `settle`, the command that makes them one."""
    from ..files.copies import copies_listed

    return copies_listed(_shown(copies))


def copy_lines(copies: list[tuple[str, str]] | tuple[tuple[str, str], ...]) -> str:
    """Each copy of one match on a line of its own (for stderr): which file counts, and the command that settles it."""
    from ..files.copies import settle_command

    return "".join(f"{copy}: a copy of {counted}'s match, counted once; `{settle_command(copy, counted)}` makes them "
                   f"one, then remove {copy}\n" for copy, counted in _shown(copies))


def _shown(copies: list[tuple[str, str]] | tuple[tuple[str, str], ...]) -> list[tuple[str, str]]:
    """Copies by their paths as typed from here (relative when below the working folder), the first copy first."""
    import os

    def shown(path: str) -> str:
        relative = os.path.relpath(path) if os.path.isabs(path) else os.path.normpath(path)
        return relative if not relative.startswith("..") else path

    return sorted((shown(copy), shown(counted)) for copy, counted in copies)


def _print_conflict(done: Merged, mine: str, theirs: str) -> None:
    from rich.table import Table

    from ..render.console import console
    from ..sheets.words import told_hand

    table = Table(box=None, pad_edge=False)
    for heading in ("hand", mine, theirs):
        table.add_column(heading, overflow="fold")
    for number in done.differing:
        table.add_row(str(number), *(told_hand(sheet, number) for sheet in (done.mine, done.theirs) if sheet is not None))
    console().print(table)


def _refuse(message: str) -> None:
    sys.stderr.write(f"error: {message}\n")
    raise typer.Exit(1)

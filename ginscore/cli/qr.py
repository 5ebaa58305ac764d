"""`ginscore qr`: a match file as QR codes, for another phone's camera to take with no network."""

from __future__ import annotations

import os
import sys

import typer

from ..errors import InputError
from .command import command


@command(short_help="Show a match as QR codes for a phone to scan.")
def qr(
    file: str = typer.Argument(..., help="The match file."),
    output: str | None = typer.Option(
        None, "--output", "-o", metavar="FILE", help="Write the codes as .svg or .png pictures instead (several: FILE-1.svg, FILE-2.svg, ...)."
    ),
    force: bool = typer.Option(False, "--force", help="With --output: replace existing files."),
) -> None:
    """Show a match file as QR codes, for the app or serve's "Scan a match" page on another phone.

    The file is compressed into one code when it fits, else several, each labelled "2 of 5"; scan them all, in
    any order. The phone that scans adds the hands its own copy lacks; a copy that differs is never overwritten.

    \b
    Examples:
      ginscore qr friday.toml
      ginscore qr friday.toml -o friday-codes.png
    """
    from ..files.reading import load_file
    from ..sheets.qr_codes import codes, terminal

    text = load_file(file).text
    try:
        drawn = codes(text.encode("utf-8"))
    except InputError as error:  # too large for codes: said of the file as typed
        error.file = file
        raise
    if output is not None:
        _write(drawn, output, force, file)
        return
    for number, code in enumerate(drawn, 1):
        if len(drawn) > 1:
            sys.stdout.write(f"{number} of {len(drawn)}\n")
        sys.stdout.write(terminal(code))


def _write(drawn: list[object], output: str, force: bool, file: str) -> None:
    """Every code into its file, each checked for being free (unless `force`) before any is written."""
    from ..files.changes import already_exists
    from ..files.folder import exists_for_write, write_atomic
    from ..sheets.qr_codes import KINDS, written

    stem, dot, kind = output.rpartition(".")
    kind = kind.lower()
    if not dot or not stem or kind not in KINDS or os.path.basename(output).startswith("."):
        raise InputError(f"cannot tell the format of {output!r}: end the name in {' or '.join('.' + k for k in KINDS)}", field="output")
    paths = [output] if len(drawn) == 1 else [f"{stem}-{number}.{output.rpartition('.')[2]}" for number in range(1, len(drawn) + 1)]
    for path in paths:
        if not force and exists_for_write(path):
            raise already_exists(path)
    for code, path in zip(drawn, paths):
        write_atomic(path, written(code, kind))
    if len(paths) == 1:
        sys.stdout.write(f"Wrote the code of {file} to {paths[0]}\n")
    else:
        sys.stdout.write(f"Wrote the {len(paths)} codes of {file}, to scan in any order: {', '.join(paths)}\n")

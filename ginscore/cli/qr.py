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

    Each code fits the terminal (80 columns and 24 lines when the output is not one): the file is compressed into
    one code when it fits, else several, each labelled "2 of 5" under it; scan them all, in any order. On a
    terminal, Enter shows the next. The phone that scans adds the hands its own copy lacks; a copy that differs
    is never overwritten.

    \b
    Examples:
      ginscore qr friday.toml
      ginscore qr friday.toml -o friday-codes.png
    """
    from ..files.table import file_at
    from ..sheets.qr_codes import codes, fitted, terminal

    data = file_at(file).text.encode("utf-8")
    try:
        drawn = codes(data) if output is not None else fitted(data, *_terminal_size())
    except InputError as error:  # too large for codes: said of the file as typed
        raise error.named(file) from None
    if output is not None:
        _write(drawn, output, force, file)
        return
    if len(drawn) == 1:
        sys.stdout.write(terminal(drawn[0]))
        return
    turns = sys.stdin.isatty() and sys.stdout.isatty()
    sys.stdout.write(f"{len(drawn)} codes: show them in turn; the phone takes them in any order.\n")
    for number, code in enumerate(drawn, 1):
        sys.stdout.write(terminal(code))
        if turns and number < len(drawn):
            sys.stdout.write(f"{number} of {len(drawn)}: press Enter for the next ")
            sys.stdout.flush()
            if not sys.stdin.readline():  # the input closed: no more turns
                sys.stdout.write("\n")
                return
        else:
            sys.stdout.write(f"{number} of {len(drawn)}\n")


def _terminal_size() -> tuple[int, int]:
    """The columns and lines of the terminal the codes are drawn on; 80 by 24 when the output is not a terminal."""
    if sys.stdout.isatty():
        try:
            size = os.get_terminal_size(sys.stdout.fileno())
        except OSError:  # a terminal that does not say its size
            return 80, 24
        if size.columns and size.lines:
            return size.columns, size.lines
    return 80, 24


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

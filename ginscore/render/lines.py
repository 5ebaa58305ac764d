"""A view as lines of styled text: built once, drawn by rich on a terminal, written as plain text when piped.

`show` builds its sheet, chance and series as `Line`s (`sheet_lines`); `console.print_lines` draws them with
rich, and `write_plain` writes their text alone, so that a piped `show` never imports rich's console and text,
a fifth of its start-up (docs/speed.md). Both printers take the same lines, so they print the same words.
"""

from __future__ import annotations

import os
import sys
from typing import NamedTuple, TextIO

PIPED_WIDTH = 160
"""The width a piped view is laid out for: wide enough that a score sheet stays one line a hand."""

Span = tuple[str, str]
"""Some text and its style on a terminal, in rich's words ("" for none)."""


class Line(NamedTuple):
    """One line of a view."""

    spans: tuple[Span, ...]
    wrap: int | None = None
    """None: never wrapped. Else prose, wrapped at words to a terminal's width, its later lines indented by this
    many cells (a note's under its text, past its number); never wrapped when piped."""

    @property
    def text(self) -> str:
        return "".join(text for text, _ in self.spans)

    @property
    def styled(self) -> bool:
        return any(style for _, style in self.spans)


def text_line(*spans: str | Span, wrap: int | None = None) -> Line:
    """A line from its pieces: a plain string, or a (text, style) pair."""
    return Line(tuple((span, "") if isinstance(span, str) else span for span in spans), wrap)


def prose(*spans: str | Span) -> Line:
    """A line of prose: wrapped at words on a terminal."""
    return text_line(*spans, wrap=0)


def write_plain(lines: list[Line], stream: TextIO) -> None:
    """The lines' text, one a line, as rich prints them when piped: no style, no wrapping, no trailing blanks."""
    stream.write("".join(each.text.rstrip(" \t") + "\n" for each in lines))
    stream.flush()


def piped() -> bool:
    """Whether standard output is plain text for another program: not a terminal, and no variable that
    tells rich to treat it as one (where one is set, rich decides, as it always did)."""
    if "FORCE_COLOR" in os.environ or "TTY_COMPATIBLE" in os.environ:
        return False
    isatty = getattr(sys.stdout, "isatty", None)
    try:
        return isatty is not None and not isatty()
    except ValueError:  # a closed stream
        return False


def standard_output() -> TextIO:
    """Standard output, set to write `?` for a symbol its encoding lacks rather than fail with a traceback."""
    stream = sys.stdout
    if hasattr(stream, "reconfigure") and not speaks_utf8(stream):
        stream.reconfigure(errors="replace")
    return stream


def speaks_utf8(stream: object) -> bool:
    return "utf" in (getattr(stream, "encoding", None) or "").lower()


def tabs_as_spaces(text: str, column: int = 0) -> str:
    """Each tab as the spaces to the next multiple of 8 cells, `text` starting at cell `column`, as rich draws a tab
    (it then counts the tab as a space first): the plain lines then say what the terminal's do."""
    if "\t" not in text:
        return text
    from rich.cells import cell_len

    parts = text.split("\t")
    out = []
    for part in parts[:-1]:
        column += cell_len(part) + 1
        spaces = 1 + (-column % 8)
        column += spaces - 1
        out.append(part + " " * spaces)
    return "".join(out) + parts[-1]

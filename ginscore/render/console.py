"""The terminal's building blocks: a console that colours only a terminal, cards as text, labelled rows, tables."""

from __future__ import annotations

import itertools
import os
import re
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions
from rich.text import Text

from ..game.cards import Card
from ..game.melds import Arrangement
from .lines import PIPED_WIDTH, Line, speaks_utf8, standard_output

if TYPE_CHECKING:
    from rich.table import Table

def console() -> Console:
    """A console that colours only a terminal, and never when NO_COLOR is set to anything but "" (no-color.org).

    Piped output is not squeezed into 80 columns: a wide score sheet stays one line a hand.
    """
    stream = standard_output()
    no_color = bool(os.environ.get("NO_COLOR"))
    out = plain_console(no_color=no_color, soft_wrap=True)
    if not out.is_terminal:
        out = plain_console(file=_TrimmedLines(stream), width=PIPED_WIDTH, no_color=no_color, soft_wrap=True)
    return out


def plain_console(**options: Any) -> Console:
    """A rich console that reads no markup and highlights nothing: names and typed cards print as typed."""
    return Console(markup=False, highlight=False, **options)


class _TrimmedLines:
    """A stream that drops the spaces rich pads table rows with, so piped text has no trailing blanks."""

    def __init__(self, stream: Any):
        self.stream = stream

    def write(self, text: str) -> int:
        self.stream.write(re.sub(r"[ \t]+(?=\n)", "", text))
        return len(text)

    def flush(self) -> None:
        self.stream.flush()

    def isatty(self) -> bool:
        return False

    @property
    def encoding(self) -> str:
        return getattr(self.stream, "encoding", None) or "utf-8"


def is_fancy(out: Console) -> bool:
    """Suit symbols and colour: only on a terminal that can show them."""
    return out.is_terminal and speaks_utf8(out.file)


def card_text(card: Card, fancy: bool) -> Text:
    """A card as `10♣` in colour on a terminal, as canonical `10c` otherwise."""
    if not fancy:
        return Text(str(card))
    return Text(card.symbol_text, style="bold red" if card.suit.is_red else "bold")


def cards_text(cards: Iterable[Card], fancy: bool, sep: str = " ") -> Text:
    """Cards in the order given, each as `card_text` draws it."""
    return Text(sep).join(card_text(card, fancy) for card in cards)


def spread_text(spread: Arrangement, fancy: bool) -> Text:
    """Melds then deadwood, separated by `|` as a person would type them."""
    groups = [cards_text(meld, fancy) for meld in spread.meld_cards()]
    if spread.deadwood_cards:
        groups.append(Text.assemble("(", cards_text(spread.deadwood_cards.sorted(), fancy), ")", style="dim"))
    return Text(" | ").join(groups) if groups else Text("-")


def print_lines(lines: list[Line], out: Console) -> None:
    """Lines (`lines.Line`) drawn by rich: prose wrapped at words on a terminal, styled lines in their styles, and
    lines with no style written as they are, many at once (a sheet of thousands of hands prints at once)."""
    for kind, run in itertools.groupby(lines, key=_kind):
        if kind == "prose":
            for each in run:
                print_wrapped(out, Text.assemble(*each.spans))
        elif kind == "styled":
            out.print(Text("\n").join(Text.assemble(*each.spans) for each in run))
        else:
            write_plain_text(out, "\n".join(part for each in run for part in _hung(each, out)))


def print_wrapped(out: Console, text: Text | str) -> None:
    """A long line of prose: wrapped at words to a terminal's width, never inside parentheses while the words
    in them fit a line (`wrap_spans`), kept on one line when piped."""
    if not out.is_terminal:
        out.print(text, soft_wrap=True)
        return
    styled = Text(text) if isinstance(text, str) else text
    for paragraph in styled.split("\n", allow_blank=True):
        spans = wrap_spans(paragraph.plain, out.width)
        for start, end in spans or [(0, 0)]:
            out.print(paragraph[start:end], soft_wrap=True)


def wrap_spans(text: str, width: int) -> list[tuple[int, int]]:
    """Where to cut `text` into lines of at most `width` cells: at spaces, and not at a space inside parentheses
    (`(RD 110 or more)` stays on one line) unless the parenthesis alone is wider than a line; a word wider than a
    line is cut at the width. Each span is a line's start and end, its spaces at the cut left out."""
    units: list[tuple[int, int]] = []  # what may not be cut: a word, or a parenthesis with the words it holds
    depth, start = 0, None
    indent = len(text) - len(text.lstrip(" "))  # a line's own indent goes with its first word
    for index, character in enumerate(text):
        if character == " " and depth == 0 and index >= indent:
            if start is not None:
                units.append((start, index))
                start = None
            continue
        if start is None:
            start = index
        depth = depth + 1 if character == "(" else max(0, depth - 1) if character == ")" else depth
    if start is not None:
        units.append((start, len(text)))
    pieces: list[tuple[int, int]] = []
    for begin, end in units:  # a unit wider than a line: at its own spaces, then at the width
        if cell_len(text[begin:end]) <= width:
            pieces.append((begin, end))
            continue
        for word in re.finditer(r"\S+", text[begin:end]):
            left = begin + word.start()
            while cell_len(text[left:begin + word.end()]) > width:
                cut = left + max(1, _fitting(text[left:begin + word.end()], width))
                pieces.append((left, cut))
                left = cut
            pieces.append((left, begin + word.end()))
    lines: list[tuple[int, int]] = []
    for begin, end in pieces:
        if lines and cell_len(text[lines[-1][0]:end]) <= width:
            lines[-1] = (lines[-1][0], end)
        else:
            lines.append((begin, end))
    return lines


def _fitting(text: str, width: int) -> int:
    """How many of `text`'s characters fit in `width` cells."""
    total = 0
    for index, character in enumerate(text):
        total += cell_len(character)
        if total > width:
            return index
    return len(text)


def _kind(line: Line) -> str:
    if line.wrap == 0:
        return "prose"
    return "styled" if line.wrap is None and line.styled else "plain"


def _hung(line: Line, out: Console) -> list[str]:
    """A line with no style, wrapped at words on a terminal when it may be, its later lines indented `wrap`
    cells, under its text."""
    text, hang = line.text, line.wrap or 0
    if not hang or not out.is_terminal or cell_len(text[hang:]) <= out.width - hang:
        return [text]
    rest = text[hang:]
    parts = [rest[start:end] for start, end in wrap_spans(rest, max(out.width - hang, 10))] or [""]
    return [text[:hang] + parts[0], *(" " * hang + part for part in parts[1:])]


def write_plain_text(out: Console, text: str) -> None:
    """Lines that need no styling, written straight to the stream unless the console records for an export."""
    if out.record:
        out.out(text)
    else:
        out.file.write(text + "\n")
        out.file.flush()


def labelled_rows(table_rows: list[tuple[str, Text | str]]) -> LabelledRows:
    """Labelled lines: on a terminal a long value wraps at words under itself; piped, each row is one line."""
    return LabelledRows(table_rows)


class LabelledRows:
    """Rows of `label  value`; built by hand so that piped output has no trailing spaces."""

    def __init__(self, table_rows: list[tuple[str, Text | str]]):
        self.rows = [(label, Text(value) if isinstance(value, str) else value) for label, value in table_rows]
        self.width = max(len(label) for label, _ in self.rows) + 2

    def __rich_console__(self, out: Console, options: ConsoleOptions) -> Iterator[Text]:
        lines = []
        for label, value in self.rows:
            pieces = [value]
            if out.is_terminal:
                pieces = list(value.wrap(out, max(options.max_width - self.width, 20)))
                for piece in pieces:
                    piece.rstrip()
            lines += [Text.assemble((label.ljust(self.width), "bold"), pieces[0])]
            lines += [Text.assemble(" " * self.width, piece) for piece in pieces[1:]]
        yield Text("\n").join(lines)


def new_table(out: Console, **kwargs: Any) -> Table:
    """A table with lines on a terminal and none when piped."""
    from rich import box
    from rich.table import Table

    return Table(
        show_edge=False, header_style="bold", box=box.SIMPLE_HEAD if out.is_terminal else None,
        collapse_padding=out.is_terminal, **kwargs
    )


def count(number: int, one: str, many: str) -> str:
    """A number with its noun: `1 hand`, `3 hands`."""
    return f"{number} {one if number == 1 else many}"

"""The score sheet's table of hands, laid out to fit a width: which columns show, and names cut to fit."""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from rich.cells import cell_len, set_cell_size

from ..sheets.words import counts_words, points_words, result_name
from .lines import Line, Span, text_line

if TYPE_CHECKING:
    from ..match.tally import HandLine, Sheet

RESULT_STYLES = {"gin": "bold green", "big_gin": "bold green", "undercut": "bold magenta", "cancelled": "dim", "tie": "dim"}
"""How a sheet marks each result, beside its word: colour never carries the meaning alone."""

_STYLED_ROWS = 1000
"""Up to this many hands a terminal gets colours; a longer sheet is plain text, many times faster to print."""


class _Layout(NamedTuple):
    """Which columns a sheet shows and how they are spaced; the first of `_LAYOUTS` that fits is used."""

    dealer: bool
    knocker: bool
    stacked: bool
    """Hollywood: `game 1` on a line above the two names, rather than `G1 Ann` in each heading."""
    gap: int
    shortest: int | None
    """The fewest cells a player's name may be cut to in this layout; None: names are never cut."""


_LAYOUTS = (
    _Layout(dealer=True, knocker=True, stacked=False, gap=2, shortest=None),
    _Layout(dealer=True, knocker=True, stacked=True, gap=2, shortest=6),
    _Layout(dealer=False, knocker=True, stacked=True, gap=2, shortest=5),
    _Layout(dealer=False, knocker=False, stacked=True, gap=2, shortest=4),
    _Layout(dealer=False, knocker=False, stacked=True, gap=1, shortest=3),
)


def short_names(players: tuple[str, str], cells: int) -> dict[str, str]:
    """Each player's name cut to at most `cells` cells, ending in `…` when cut; the two always differ."""
    labels = {name: _cut(name, cells) for name in players}
    a, b = players
    if labels[a].casefold() == labels[b].casefold():  # cut where they were alike: number them
        labels = {name: _cut(name, cells - 1) + str(index) for index, name in enumerate(players, start=1)}
    return labels


def _cut(name: str, cells: int) -> str:
    if cell_len(name) <= cells:
        return name
    return set_cell_size(name, max(cells - 1, 1)).rstrip() + "…"


class _Measure(NamedTuple):
    """The widths of a sheet's cells, taken once; those that hold a name are kept apart per player."""

    number: int
    result: int
    counts: int
    dealers: frozenset[str]
    knockers: frozenset[str]
    tails: dict[str, int]
    """Per winner: the widest ` 22 ×2` after their name in the points column."""
    digits: tuple[dict[str, int], ...]
    """Per game and player: the widest running total."""


def _measure(sheet: Sheet) -> _Measure:
    lines = sheet.lines
    tails: dict[str, int] = {}
    for line in lines:
        if line.winner:
            tails[line.winner] = max(tails.get(line.winner, 0), len(points_words(line, "")))  # what follows the name
    players = sheet.match.players
    digits = tuple(
        {name: max((len(str(line.column_totals[index][name])) for line in lines), default=1) for name in players}
        for index in range(len(sheet.games))
    )
    return _Measure(
        number=len(str(len(lines))),
        result=max((len(result_name(line.result)) for line in lines), default=0),
        counts=max((len(counts_words(line)) for line in lines), default=0),
        dealers=frozenset(line.dealer for line in lines),
        knockers=frozenset(line.knocker for line in lines if line.knocker),
        tails=tails,
        digits=digits,
    )


class _Column(NamedTuple):
    heading: str
    width: int
    right: bool = False


class FittedTable(NamedTuple):
    """The sheet's table laid out for one width: its columns, the players' labels, and how to draw it."""

    layout: _Layout
    labels: dict[str, str]
    columns: tuple[_Column, ...]
    groups: tuple[str, ...]
    """Hollywood with stacked headings: each game's label, centred over its two columns."""

    @property
    def width(self) -> int:
        """Cells the widest line takes: the columns, the gaps between them and the lead space."""
        return self._lead + sum(c.width for c in self.columns) + self.layout.gap * (len(self.columns) - 1)

    @property
    def _lead(self) -> int:
        return 1 if self.layout.gap > 1 else 0

    def heading_lines(self) -> list[str]:
        """The column headings, under a line of game labels when Hollywood headings are stacked."""
        lines = [self._join([_pad(c.heading, c.width, c.right) for c in self.columns])]
        if self.groups:
            first = len(self.columns) - 2 * len(self.groups)
            cells = [" " * c.width for c in self.columns[:first]]
            for index, group in enumerate(self.groups):
                a, b = self.columns[first + 2 * index : first + 2 * index + 2]
                cells.append(group.center(a.width + self.layout.gap + b.width))
            lines.insert(0, self._join(cells))
        return lines

    def cells(self, line: HandLine, hollywood: bool) -> list[tuple[str, str]]:
        """One row's cells, each with its style on a terminal."""
        labels = self.labels
        cells = [(str(line.number), "")]
        if self.layout.dealer:
            cells.append((labels[line.dealer], ""))
        if self.layout.knocker:
            cells.append((labels[line.knocker] if line.knocker else "", ""))
        cells.append((result_name(line.result), RESULT_STYLES.get(line.result, "")))
        cells.append((counts_words(line), ""))
        cells.append((points_words(line, labels[line.winner]) if line.winner else "", ""))
        for index, column in enumerate(line.column_totals):
            entered = index in line.columns
            for name in labels:
                shown = str(column[name]) if entered or not hollywood else ""
                cells.append((shown, "bold" if entered and name == line.winner else ""))
        return cells

    def lines(self, sheet: Sheet, terminal: bool) -> list[Line]:
        """The table, one line a hand, with no trailing spaces. On a terminal: a rule under the headings and, up
        to `_STYLED_ROWS` hands, bold headings, results in colour and each winner's total in bold."""
        styled = terminal and len(sheet.lines) <= _STYLED_ROWS
        lines = [text_line((heading, "bold" if styled else "")) for heading in self.heading_lines()]
        if terminal:
            lines.append(text_line("─" * self.width))
        hollywood = sheet.match.hollywood
        lead, gap = " " * self._lead, " " * self.layout.gap
        for hand in sheet.lines:
            cells = [(_pad(text, column.width, column.right), style) for (text, style), column in zip(self.cells(hand, hollywood), self.columns)]
            if not styled:  # one string a row: spans for every row made a 6,500-hand `show` a tenth slower
                lines.append(text_line(self._join([text for text, _ in cells])))
                continue
            spans: list[Span] = [(lead + cells[0][0], cells[0][1])]
            for text, style in cells[1:]:
                spans += [(gap, ""), (text, style)]
            lines.append(Line(_trimmed(spans)))
        return lines

    def _join(self, cells: list[str]) -> str:
        return (" " * self._lead + (" " * self.layout.gap).join(cells)).rstrip()


def _pad(text: str, width: int, right: bool) -> str:
    room = width - (len(text) if text.isascii() else cell_len(text))
    if room <= 0:
        return text
    return " " * room + text if right else text + " " * room


def fitted_table(sheet: Sheet, width: int) -> FittedTable:
    """The sheet's table in the most informative layout that fits `width` cells.

    Past the narrowest layout the table may still be wider than `width`; it is never cut.
    """
    measure = _measure(sheet)
    players = sheet.match.players
    longest = min(max(cell_len(name) for name in players), max(width, 3))
    for layout in _LAYOUTS:
        shortest = longest if layout.shortest is None else min(layout.shortest, longest)
        for cells in range(longest, shortest - 1, -1):
            table = _table(sheet, measure, layout, short_names(players, cells))
            if table.width <= width:
                return table
    return table


def _table(sheet: Sheet, measure: _Measure, layout: _Layout, labels: dict[str, str]) -> FittedTable:
    def widest(names: frozenset[str], heading: str) -> int:
        return max([len(heading), *(cell_len(labels[name]) for name in names)])

    columns = [_Column("#", max(1, measure.number), right=True)]
    if layout.dealer:
        columns.append(_Column("dealer", widest(measure.dealers, "dealer")))
    if layout.knocker:
        columns.append(_Column("knocker", widest(measure.knockers, "knocker")))
    columns.append(_Column("result", max(6, measure.result)))
    columns.append(_Column("counts", max(6, measure.counts)))
    points = max([6, *(cell_len(labels[name]) + tail for name, tail in measure.tails.items())])
    columns.append(_Column("points", points, right=True))
    hollywood = sheet.match.hollywood
    groups: list[str] = []
    for index, digits in enumerate(measure.digits):
        pair = []
        for name, label in labels.items():
            heading = f"G{index + 1} {label}" if hollywood and not layout.stacked else label
            pair.append(_Column(heading, max(cell_len(heading), digits[name]), right=True))
        columns += pair
        if hollywood and layout.stacked:
            span = pair[0].width + layout.gap + pair[1].width
            groups.append(f"game {index + 1}" if span >= len("game 1") else f"G{index + 1}")
    return FittedTable(layout, labels, tuple(columns), tuple(groups))


def _trimmed(spans: list[Span]) -> tuple[Span, ...]:
    """The spans without the blanks that end the last of them, as a row ends at its last figure."""
    while spans and not spans[-1][0].strip():
        spans.pop()
    if spans:
        text, style = spans[-1]
        spans[-1] = (text.rstrip(), style)
    return tuple(spans)

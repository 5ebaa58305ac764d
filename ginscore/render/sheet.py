"""The score sheet on a terminal: the table of hands, each game's summary, one hand's result, an edit's change."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, NamedTuple

from rich.cells import cell_len, set_cell_size
from rich.console import Console
from rich.text import Text

from ..sheets.words import (
    counts_words,
    flat_shutout,
    late_winner_note,
    points_words,
    result_name,
    sheet_title,
    win_words,
)
from .console import RESULT_STYLES, labelled_rows, plain_console
from .hand import outcome, print_prose, print_wrapped, score_report

if TYPE_CHECKING:
    from ..game.rulebook import Rules
    from ..match.tally import Game, HandLine, Sheet



def sheet_view(sheet: Sheet, out: Console) -> None:
    """The score sheet: one row a hand, the running totals of each game, boxes, bonuses and who deals next.

    The table fits the console's width: long names are cut in headings and cells (the title keeps them whole),
    and the dealer, then the knocker, give way before a hand number, a result, a count or points would.
    """
    match = sheet.match
    print_wrapped(out, Text(sheet_title(sheet), style="italic"))
    if match.note:
        print_wrapped(out, Text.assemble(("Note: ", "bold"), match.note))
    table = fitted_table(sheet, out.width)
    if out.is_terminal and len(sheet.lines) <= _STYLED_ROWS:
        out.print(table.styled(sheet))
    else:
        _write_plain(out, table.plain(sheet, rule=out.is_terminal))
    _hand_notes(sheet, out)
    for index, game in enumerate(sheet.games):
        label = f"Game {index + 1}: " if match.hollywood else ""
        print_wrapped(out, Text.assemble((label, "bold"), _game_summary(game, match.rules)))
    if sheet.finished:
        if match.hollywood:
            final = sheet.summed("final")
            print_wrapped(out, _verdict(sheet.winner, final, sheet.margin, "over the three games"))
    else:
        out.print(Text.assemble(("Next dealer: ", "bold"), sheet.next_dealer))


_STYLED_ROWS = 1000
"""Up to this many hands a terminal gets colours; a longer sheet is plain text, many times faster to print."""


def _write_plain(out: Console, text: str) -> None:
    """Lines that need no styling, written straight to the stream unless the console records for an export."""
    if out.record:
        out.out(text)
    else:
        out.file.write(text + "\n")
        out.file.flush()


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

    def plain(self, sheet: Sheet, rule: bool = False) -> str:
        """The table as plain text, one line a hand, with no trailing spaces."""
        lines = self.heading_lines()
        if rule:
            lines.append("─" * self.width)
        hollywood = sheet.match.hollywood
        columns = self.columns
        for line in sheet.lines:
            cells = self.cells(line, hollywood)
            lines.append(self._join([_pad(text, c.width, c.right) for (text, _), c in zip(cells, columns)]))
        return "\n".join(lines)

    def styled(self, sheet: Sheet) -> Text:
        """The table for a terminal: bold headings, a rule under them, results in colour, each winner's total bold."""
        rows = [Text(line, style="bold") for line in self.heading_lines()]
        rows.append(Text("─" * self.width))
        gap = " " * self.layout.gap
        for line in sheet.lines:
            row = Text(" " * self._lead)
            for index, ((text, style), column) in enumerate(zip(self.cells(line, sheet.match.hollywood), self.columns)):
                if index:
                    row.append(gap)
                row.append(_pad(text, column.width, column.right), style=style)
            row.rstrip()
            rows.append(row)
        return Text("\n").join(rows)

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


def _hand_notes(sheet: Sheet, out: Console) -> None:
    """Each hand's note under the table, by hand number; on a terminal a long one wraps under itself."""
    noted = [(line.number, sheet.match.hands[line.number - 1].note) for line in sheet.lines]
    noted = [(number, note) for number, note in noted if note]
    if not noted:
        return
    width = len(str(noted[-1][0]))
    indent = 2 + width + 2
    lines = ["Notes:"]
    for number, note in noted:
        prefix = f"  {number:>{width}}  "
        for paragraph in note.splitlines() or [""]:
            wrapped = [paragraph]
            if out.is_terminal and cell_len(paragraph) > out.width - indent:
                wrapped = [str(part).rstrip() for part in Text(paragraph).wrap(out, max(out.width - indent, 10))]
            for part in wrapped:
                lines.append(prefix + part)
                prefix = " " * indent
    _write_plain(out, "\n".join(lines))


def _game_summary(game: Game, rules: Rules) -> Text:
    a, b = game.players
    boxes = f"boxes {a} {game.boxes[a]}, {b} {game.boxes[b]}"
    if not game.finished:
        return Text(f"{a} {game.totals[a]}, {b} {game.totals[b]} ({boxes}); first to {rules.target}")
    lines = [Text(f"{game.reached} reached {rules.target}. {boxes[0].upper()}{boxes[1:]}.")]
    for name in game.players:
        bonus = game.bonuses[name]
        parts = [f"{game.totals[name]} points"]
        if bonus["game"]:
            kind = "shutout bonus (the other player scored nothing)" if flat_shutout(game, rules) else "game bonus"
            parts.append(f"{bonus['game']} {kind}")
        if bonus["boxes"]:
            parts.append(f"{bonus['boxes']} for boxes")
        if bonus["shutout"]:
            parts.append(f"{bonus['shutout']} for the shutout (total doubled)")
        lines.append(Text(f"  {name}: {' + '.join(parts)} = {game.final[name]}"))
    lines.append(_verdict(game.winner, game.final, game.margin, level_note=f"({game.reached} reached the target)"))
    note = late_winner_note(game)
    if note:
        lines.append(Text(f"  {note}", style="yellow"))
    return Text("\n").join(lines)


def _verdict(winner: str | None, final: dict[str, int], margin: int, where: str = "", level_note: str = "") -> Text:
    """The verdict in `win_words`, indented, with who won by how much in bold green."""
    text = Text(f"  {win_words(winner, final, margin, where, level_note)}")
    if winner is not None:
        text.stylize("bold green", 2, 2 + len(f"{winner} wins by {margin}"))
    return text


def hand_view(line: HandLine, sheet: Sheet, out: Console) -> None:
    """What `record` prints: the hand's result, its cards when known, and the running score."""
    out.print(Text.assemble((f"Hand {line.number}: ", "bold"), _line_result(line)))
    if line.scored is not None and line.knocker is not None:
        opponent = sheet.match.other(line.knocker)
        score_report(line.scored, out, line.knocker, opponent, with_result=False, explain_lowest=False)
        from ..match.spread_choice import other_spread_note  # only `record` and `play` print a hand

        note = other_spread_note(line.scored, line.knocker, opponent)
        if note is not None:
            print_prose(out, note)
    elif line.knocker is not None:
        out.print(labelled_rows([("counts", f"{line.knocker} {line.knocker_deadwood}, {sheet.match.other(line.knocker)} {line.opponent_deadwood}")]))
    out.print(Text.assemble(("Score: ", "bold"), sheet.score_text()))
    for index, game in enumerate(sheet.games):
        if game.finished and line.number == game.hands[-1]:
            label = f"Game {index + 1} is over: " if sheet.match.hollywood else "The game is over: "
            print_wrapped(out, Text.assemble((label, "bold"), _game_summary(game, sheet.match.rules)))
    if not sheet.finished:
        out.print(Text.assemble(("Next dealer: ", "bold"), sheet.next_dealer))


def describe_line(line: HandLine) -> str:
    """A hand in a few words, e.g. `Bob knocked, knock: Bob scores 22`."""
    if line.result == "cancelled":
        return "cancelled"
    return f"{line.knocker} knocked, {_line_result(line).plain}"


def totals_change(before: Sheet, after: Sheet, number: int, out: Console) -> None:
    """What `edit` prints: the hand as it now stands, and the totals before and after."""
    out.print(Text.assemble((f"Hand {number} is now: ", "bold"), describe_line(after.lines[number - 1])))
    for label, sheet in (("before", before), ("after", after)):
        out.print(Text.assemble((f"Totals {label}: ", "bold"), sheet.score_text()))
    if not after.finished:
        out.print(Text.assemble(("Next dealer: ", "bold"), after.next_dealer))


def _line_result(line: HandLine) -> Text:
    if line.result == "cancelled":
        return Text("cancelled: nobody scores, the same dealer deals again")
    columns = f" (games {', '.join(str(i + 1) for i in line.columns)})" if len(line.columns) > 1 else ""
    return outcome(line.result, line.winner, line.points, line.multiplier, columns)


TERMINAL_KINDS = ("svg", "html")


def terminal_capture(sheet: Sheet, kind: str, chart: bool = False) -> str:
    """`show --export-terminal`: what `show` prints (and the text chart) captured by rich as SVG or HTML."""
    import io

    out = plain_console(record=True, width=120, force_terminal=True, color_system="truecolor", file=io.StringIO())
    sheet_view(sheet, out)
    if chart:
        out.print()
        from .chart import chart_view

        chart_view(sheet, out)
    if kind == "svg":
        # rich's picture would fetch its font from a CDN; the local font or any monospace one will do.
        return re.sub(r"\s*@font-face \{[^}]*\}", "", out.export_svg(title=sheet_title(sheet)))
    return out.export_html(inline_styles=True)

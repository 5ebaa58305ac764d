"""The score sheet as plain tables: CSV and Markdown, each safe to open.

A name is whatever a player typed, so both escape it. In Markdown, every character a renderer could take as
markup is backslash-escaped (CommonMark lets any ASCII punctuation be), so `<img onerror=...>` is text, not HTML.
In CSV, a cell that a spreadsheet would run as a formula (starting with `=`, `+`, `-` or `@`, a tab or a carriage
return, but not a plain number) gets a leading `'`, as OWASP's advice on CSV injection says.
"""

from __future__ import annotations

import csv
import io
import re

from ..match.tally import Sheet
from .words import summary_rows


def sheet_rows(sheet: Sheet) -> tuple[list[str], list[list[str]]]:
    """The header and one row a hand, with running totals (per game on a Hollywood sheet)."""
    match = sheet.match
    header = ["hand", "dealer", "knocker", "result", "knocker_deadwood", "opponent_deadwood", "winner", "points"]
    if match.hollywood:
        header += ["games"] + [f"game{index + 1}_{name}" for index in range(len(sheet.games)) for name in match.players]
    else:
        header += list(match.players)
    rows = []
    for line in sheet.lines:
        row = [
            str(line.number),
            line.dealer,
            line.knocker or "",
            line.result,
            "" if line.knocker_deadwood is None else str(line.knocker_deadwood),
            "" if line.opponent_deadwood is None else str(line.opponent_deadwood),
            line.winner or "",
            str(line.points),
        ]
        if match.hollywood:
            row.append(" ".join(str(index + 1) for index in line.columns))
        row += [str(column[name]) for column in line.column_totals for name in match.players]
        rows.append(row)
    return header, rows


SUMMARY_HEADER = ["player", "points", "boxes", "game_bonus", "box_bonus", "shutout_bonus", "final"]


def to_csv(sheet: Sheet) -> str:
    """One row a hand with the running totals, as `sheet_rows` gives them."""
    header, rows = sheet_rows(sheet)
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow([csv_cell(cell) for cell in header])
    writer.writerows([csv_cell(cell) for cell in row] for row in rows)
    return buffer.getvalue()


_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
_NUMBER = re.compile(r"[+-]?[0-9]+(\.[0-9]+)?")


def csv_cell(text: str) -> str:
    """A CSV cell that no spreadsheet runs: one starting as a formula does, unless it is a number, gets a `'` first."""
    if text.startswith(_FORMULA_STARTS) and not _NUMBER.fullmatch(text):
        return "'" + text
    return text


_MARKUP = re.compile(r"[\\`*\[\]<>&#|~$]|(?<![^\W_])_|_(?![^\W_])")
"""What a Markdown renderer could take as markup: code, emphasis, links, HTML and entities, headings' closing
`#`, table pipes, strike-through, math; `_` only where it does not join two letters or digits (`knocker_deadwood`
is never emphasis)."""


def markdown_text(text: str) -> str:
    """`text` as Markdown that renders as exactly that text."""
    return _MARKUP.sub(lambda found: "\\" + found.group(), text)


def to_markdown(sheet: Sheet) -> str:
    """A title, the match's note, the table of hands (with a note column when a hand has one, as the HTML sheet
    has), each player's summary and the outcome."""
    match = sheet.match
    header, rows = sheet_rows(sheet)
    notes = [record.note for record in match.hands]
    if any(notes):
        header = [*header, "note"]
        rows = [[*row, notes[line.number - 1]] for row, line in zip(rows, sheet.lines)]
    title = f"# {markdown_text(match.players[0])} vs {markdown_text(match.players[1])}\n\n"
    if match.note:
        title += f"{markdown_text(match.note)}\n\n"
    status = f"Winner: {sheet.winner}, by {sheet.margin}." if sheet.finished else f"In play; {sheet.next_dealer} deals next."
    status = markdown_text(status)
    return (
        title
        + _markdown_table(header, rows)
        + "\n"
        + _markdown_table(SUMMARY_HEADER, summary_rows(sheet))
        + f"\n{status}\n"
    )


def _markdown_table(header: list[str], rows: list[list[str]]) -> str:
    lines = [_markdown_row(header), "|" + "---|" * len(header)] + [_markdown_row(row) for row in rows]
    return "\n".join(lines) + "\n"


def _markdown_row(cells: list[str]) -> str:
    return "| " + " | ".join(markdown_text(cell) for cell in cells) + " |"

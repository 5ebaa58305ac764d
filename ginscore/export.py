"""The score sheet to share: plain tables (CSV and Markdown) here, the HTML page and the SVG chart beside."""

from __future__ import annotations

import csv
import io

from .match import Sheet
from .sheet_words import BONUS_WORDS, bonus_columns

EXPORT_KINDS = ("svg", "html", "csv", "md")


def export_text(sheet: Sheet, kind: str) -> str:
    """The sheet as one of EXPORT_KINDS, all built from the same `Sheet` as the terminal's."""
    if kind == "html":
        from .export_html import sheet_page

        return sheet_page(sheet)
    if kind == "svg":
        from .export_svg import sheet_svg

        return sheet_svg(sheet)
    return to_csv(sheet) if kind == "csv" else to_markdown(sheet)


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


def summary_rows(sheet: Sheet) -> list[list[str]]:
    """Per player: points, boxes, the bonuses of `bonus_columns` and the final total, summed over the games."""
    totals, boxes, final = sheet.summed("totals"), sheet.summed("boxes"), sheet.summed("final")
    rows = []
    for name in sheet.match.players:
        columns = [bonus_columns(game, name, sheet.match.rules) for game in sheet.games if game.finished]
        bonuses = [sum(column[kind] for column in columns) for kind in BONUS_WORDS]
        rows.append([name, str(totals[name]), str(boxes[name]), *map(str, bonuses), str(final[name])])
    return rows


SUMMARY_HEADER = ["player", "points", "boxes", "game_bonus", "box_bonus", "shutout_bonus", "final"]


def to_csv(sheet: Sheet) -> str:
    """One row a hand with the running totals, as `sheet_rows` gives them."""
    header, rows = sheet_rows(sheet)
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    return buffer.getvalue()


def to_markdown(sheet: Sheet) -> str:
    """A title, the table of hands, each player's summary and the outcome."""
    match = sheet.match
    header, rows = sheet_rows(sheet)
    title = f"# {match.players[0]} vs {match.players[1]}\n\n"
    status = f"Winner: {sheet.winner}, by {sheet.margin}." if sheet.finished else f"In play; {sheet.next_dealer} deals next."
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
    return "| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |"

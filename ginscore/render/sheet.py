"""The score sheet on a terminal: the sheet as `show` prints it, one hand's result, an edit's change, a capture."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from rich.console import Console
from rich.text import Text

from ..sheets.words import sheet_title
from .console import labelled_rows, plain_console, print_lines
from .hand import outcome, print_prose, score_report
from .sheet_lines import sheet_lines, summary_lines

if TYPE_CHECKING:
    from ..match.tally import HandLine, Sheet


def sheet_view(sheet: Sheet, out: Console) -> None:
    """The score sheet (`sheet_lines`) on a console."""
    print_lines(sheet_lines(sheet, out.width, out.is_terminal), out)


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
            print_lines(summary_lines(game, sheet.match.rules, label), out)
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

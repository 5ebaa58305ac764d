"""The score sheet on a terminal: the table of hands, each game's summary, one hand's result, an edit's change."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.console import Console
from rich.text import Text

from ..sheet_words import result_name, sheet_title
from .console import labelled_rows, new_table, plain_console
from .hand import outcome, score_report

if TYPE_CHECKING:
    from ..match import Game, HandLine, Sheet
    from ..rules import Rules

RESULT_STYLES = {"gin": "bold green", "big_gin": "bold green", "undercut": "bold magenta", "cancelled": "dim", "tie": "dim"}


def sheet_view(sheet: Sheet, out: Console) -> None:
    """The score sheet: one row a hand, the running totals of each game, boxes, bonuses and who deals next."""
    match = sheet.match
    a, b = match.players
    table = new_table(out, title=sheet_title(sheet), title_justify="left")
    # Six game columns do not fit a narrow terminal beside the rest: the dealer and counts give way.
    narrow = match.hollywood and out.width < 110
    headings = ("#", "knocker", "result", "points") if narrow else ("#", "dealer", "knocker", "result", "counts", "points")
    for heading in headings:
        table.add_column(heading, justify="right" if heading in ("#", "points") else "left", no_wrap=True)
    for index in range(len(sheet.games)):
        prefix = f"G{index + 1} " if match.hollywood else ""
        table.add_column(f"{prefix}{a}", justify="right", no_wrap=True)
        table.add_column(f"{prefix}{b}", justify="right", no_wrap=True)
    for line in sheet.lines:
        counts = "" if line.knocker_deadwood is None else f"{line.knocker_deadwood} / {line.opponent_deadwood}"
        points = f"{line.winner} {line.points}" if line.winner else ""
        if line.multiplier > 1 and line.winner:
            points += " ×2"
        cells = []
        for index, column in enumerate(line.column_totals):
            entered = index in line.columns
            for name in (a, b):
                shown = str(column[name]) if entered or not match.hollywood else ""
                cells.append(Text(shown, style="bold" if entered and name == line.winner else ""))
        result = Text(result_name(line.result), style=RESULT_STYLES.get(line.result, ""))
        if narrow:
            table.add_row(str(line.number), line.knocker or "", result, points, *cells)
        else:
            table.add_row(str(line.number), line.dealer, line.knocker or "", result, counts, points, *cells)
    out.print(table)
    for index, game in enumerate(sheet.games):
        label = f"Game {index + 1}: " if match.hollywood else ""
        out.print(Text.assemble((label, "bold"), _game_summary(game, match.rules)))
    if sheet.finished:
        if match.hollywood:
            final = sheet.summed("final")
            out.print(_verdict(sheet.winner, final, sheet.margin, "over the three games"))
    else:
        out.print(Text.assemble(("Next dealer: ", "bold"), sheet.next_dealer))


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
            kind = "shutout bonus (the other player scored nothing)" if game.shutout and rules.shutout == "flat" else "game bonus"
            parts.append(f"{bonus['game']} {kind}")
        if bonus["boxes"]:
            parts.append(f"{bonus['boxes']} for boxes")
        if bonus["shutout"]:
            parts.append(f"{bonus['shutout']} for the shutout (total doubled)")
        lines.append(Text(f"  {name}: {' + '.join(parts)} = {game.final[name]}"))
    lines.append(_verdict(game.winner, game.final, game.margin, level_note=f"({game.reached} reached the target)"))
    if game.winner != game.reached and game.final[a] != game.final[b]:
        lines.append(
            Text(
                f"  Note: {game.reached} reached the target first, but {game.winner} has the higher final total "
                "after the bonuses.",
                style="yellow",
            )
        )
    return Text("\n").join(lines)


def _verdict(winner: str | None, final: dict[str, int], margin: int, where: str = "", level_note: str = "") -> Text:
    """`Ann wins by 12.`, or the level totals when neither final total is higher."""
    where = f" {where}" if where else ""
    if winner is None:
        totals = ", ".join(f"{name} {total}" for name, total in final.items())
        note = f" {level_note}" if level_note else ""
        return Text(f"  Final totals are level{where}: {totals}{note}.")
    return Text.assemble("  ", (f"{winner} wins by {margin}", "bold green"), f"{where}.")


def hand_view(line: HandLine, sheet: Sheet, out: Console) -> None:
    """What `record` prints: the hand's result, its cards when known, and the running score."""
    out.print(Text.assemble((f"Hand {line.number}: ", "bold"), _line_result(line)))
    if line.scored is not None and line.knocker is not None:
        score_report(line.scored, out, line.knocker, sheet.match.other(line.knocker), with_result=False)
    elif line.knocker is not None:
        out.print(labelled_rows([("counts", f"{line.knocker} {line.knocker_deadwood}, {sheet.match.other(line.knocker)} {line.opponent_deadwood}")]))
    out.print(Text.assemble(("Score: ", "bold"), sheet.score_text()))
    for index, game in enumerate(sheet.games):
        if game.finished and line.number == game.hands[-1]:
            label = f"Game {index + 1} is over: " if sheet.match.hollywood else "The game is over: "
            out.print(Text.assemble((label, "bold"), _game_summary(game, sheet.match.rules)))
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
        from .chart import chart_view

        out.print()
        chart_view(sheet, out)
    if kind == "svg":
        return out.export_svg(title=sheet_title(sheet))
    return out.export_html(inline_styles=True)

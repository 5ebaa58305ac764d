"""`show --chart`: both players' running totals, hand by hand, drawn in text."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.console import Console
from rich.text import Text

from .sheet import RESULT_STYLES

if TYPE_CHECKING:
    from ..match import Sheet

_KIND_MARKS = {"knock": "K", "undercut": "U", "gin": "G", "big_gin": "B", "tie": "T", "cancelled": "×"}
_PLAYER_MARKS = (("●", "bold cyan"), ("▲", "bold yellow"))


def chart_view(sheet: Sheet, out: Console, height: int = 12) -> None:
    """Both players' running totals hand by hand, with each hand's kind marked under it."""
    match = sheet.match
    lines = sheet.lines
    out.print(Text.assemble(("Running totals: ", "bold"), *_chart_legend(match.players), f"; target {match.rules.target}"))
    if not lines:
        out.print("No hands yet.")
        return
    top = max(max(max(line.totals.values()) for line in lines), 1)
    step = 3
    label_width = len(str(top))
    rows = [[(" ", "")] * (len(lines) * step) for _ in range(height)]
    for index, line in enumerate(lines):
        column = index * step + 1
        levels = [round(line.totals[name] / top * (height - 1)) for name in match.players]
        for player, level in enumerate(levels):
            mark, style = _PLAYER_MARKS[player]
            if levels[0] == levels[1]:
                mark, style = "◆", "bold"
            rows[height - 1 - level][column] = (mark, style)
    for row_index, cells in enumerate(rows):
        level = height - 1 - row_index
        value = round(level / (height - 1) * top)
        label = str(value) if row_index % 3 == 0 or level == 0 else ""
        text = Text(f"{label:>{label_width}} ┤")
        for mark, style in cells:
            text.append(mark, style=style)
        out.print(text)
    axis = "─┬─" * len(lines)
    out.print(" " * label_width + " └" + axis)
    numbers = "".join(f"{line.number:^{step}}"[:step] for line in lines)
    out.print(" " * (label_width + 2) + numbers + "  hand")
    kinds = Text(" " * (label_width + 2))
    for line in lines:
        mark = _KIND_MARKS[line.result]
        kinds.append(f" {mark} ", style=RESULT_STYLES.get(line.result, ""))
    kinds.append("  kind")
    out.print(kinds)
    out.print(Text("K knock, U undercut, G gin, B big gin, T tie, × cancelled", style="dim"))


def _chart_legend(players: tuple[str, str]) -> list[Text]:
    parts = []
    for name, (mark, style) in zip(players, _PLAYER_MARKS):
        parts += [Text(mark, style=style), Text(f" {name}   ")]
    parts.append(Text("◆ both"))
    return parts

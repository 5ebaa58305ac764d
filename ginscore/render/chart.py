"""`show --chart`: both players' running totals, hand by hand, drawn in text to fit the console's width."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from rich.console import Console
from rich.text import Text

from ..sheets.words import RESULT_LETTERS, letters_key
from .console import print_wrapped
from .sheet_table import RESULT_STYLES

if TYPE_CHECKING:
    from ..match.tally import HandLine, Sheet

_PLAYER_MARKS = (("●", "bold cyan"), ("▲", "bold yellow"))
_BOTH = ("◆", "bold")
"""The mark of two totals that fall on one row: the key names both players."""
_TARGET_MARK = "┈"
_SUFFIX = "  hand"
_NICE = (1, 2, 5)


@dataclass(frozen=True)
class HandAxis:
    """How the hands are spread along the chart's width."""

    hands: int
    per_column: int
    """Hands a column stands for: more than 1 when there are more hands than columns."""
    step: int
    """Cells a column takes: 3 when there is room for a number under each hand, else 2 or 1."""

    @property
    def columns(self) -> int:
        """How many columns the hands take."""
        return -(-self.hands // self.per_column)

    def last_hand(self, column: int) -> int:
        """The index of the last hand a column stands for; its totals are the ones drawn."""
        return min((column + 1) * self.per_column, self.hands) - 1

    def centre(self, column: int) -> int:
        """The cell, counted from the axis, where a column's marks are drawn."""
        return column * self.step + self.step // 2


def nice_numbers() -> list[int]:
    """1, 2, 5, 10, 20, 50, ... up to a billion: steps that read well on an axis."""
    return [base * 10**power for power in range(10) for base in _NICE]


def hand_axis(hands: int, room: int) -> HandAxis:
    """A column a hand while they fit in `room` cells (three cells a hand when there is room); else the fewest
    hands a column, from 1, 2, 5, 10, 20, ..., that fit."""
    room = max(room, 1)
    if hands <= room:
        return HandAxis(hands, 1, min(3, room // max(hands, 1)))
    per_column = next(k for k in nice_numbers() if -(-hands // k) <= room)
    return HandAxis(hands, per_column, 1)


@dataclass(frozen=True)
class TotalAxis:
    """The points axis: from 0 to `top` in round steps, each `rows_per_step` rows apart."""

    step: int
    steps: int
    rows_per_step: int

    @property
    def top(self) -> int:
        return self.step * self.steps

    @property
    def height(self) -> int:
        """Rows from 0 to the top, both included."""
        return self.steps * self.rows_per_step + 1

    def level(self, total: int) -> int:
        """The row a total is drawn on, counted from 0 at the bottom."""
        return round(total / self.top * (self.height - 1))

    def label(self, level: int) -> str:
        """The number beside a row: a multiple of the step, or nothing between them."""
        return str(level // self.rows_per_step * self.step) if level % self.rows_per_step == 0 else ""


def total_axis(highest: int, height: int, most_steps: int = 4) -> TotalAxis:
    """An axis from 0 past `highest` in the fewest round steps (1, 2, 2.5 or 5 times a power of ten, whole
    numbers only) that number at most `most_steps`, with about `height` rows."""
    highest = max(highest, 1)
    candidates = sorted({base * 10**power // 2 for power in range(10) for base in (2, 4, 5, 10)} - {0})
    step = next(c for c in candidates if -(-highest // c) <= most_steps)
    steps = -(-highest // step)
    return TotalAxis(step, steps, max(1, round((height - 1) / steps)))


def chart_view(sheet: Sheet, out: Console, height: int = 12) -> None:
    """Both players' running totals, with the target drawn across and each hand's kind marked under it; never
    wider than the console. The points axis is labelled in round steps.

    With more hands than fit, each column stands for several hands (the totals after the last of them), and a
    line under the chart says so.
    """
    match = sheet.match
    lines = sheet.lines
    target = match.rules.target
    legend = Text.assemble(("Running totals: ", "bold"), *_chart_legend(match.players), f"; {_TARGET_MARK} target {target}")
    print_wrapped(out, legend)
    if not lines:
        out.print("No hands yet.")
        return
    scale = total_axis(max(max(max(line.totals.values()) for line in lines), target), height)
    label_width = len(str(scale.top))
    axis = hand_axis(len(lines), out.width - label_width - 2 - len(_SUFFIX))
    shown = [lines[axis.last_hand(column)] for column in range(axis.columns)]
    width = axis.columns * axis.step
    rows = [[(" ", "")] * width for _ in range(scale.height)]
    rows[scale.height - 1 - scale.level(target)] = [(_TARGET_MARK, "dim")] * width
    for column, line in enumerate(shown):
        levels = [scale.level(line.totals[name]) for name in match.players]
        for player, level in enumerate(levels):
            mark, style = _BOTH if levels[0] == levels[1] else _PLAYER_MARKS[player]
            rows[scale.height - 1 - level][axis.centre(column)] = (mark, style)
    for row_index, cells in enumerate(rows):
        label = scale.label(scale.height - 1 - row_index)
        out.print(_cells_text(f"{label:>{label_width}} ┤", cells))
    margin = " " * (label_width + 2)
    ticks, numbers = _hand_labels(axis, shown)
    out.print(" " * label_width + " └" + ticks)
    out.print(margin + numbers + _SUFFIX)
    if axis.per_column == 1:
        kinds = [(" ", "")] * width
        for column, line in enumerate(shown):
            kinds[axis.centre(column)] = (RESULT_LETTERS[line.result], RESULT_STYLES.get(line.result, ""))
        out.print(_cells_text(margin, kinds).append("  kind"))
        out.print(Text(letters_key(RESULT_LETTERS, ", "), style="dim"))
    else:
        print_wrapped(
            out,
            Text(
                f"{len(lines)} hands, {axis.per_column} to a column: each column shows the totals after its last hand. "
                "Each hand's kind is marked when every hand has a column.",
                style="dim",
            ),
        )


def _hand_labels(axis: HandAxis, shown: list[HandLine]) -> tuple[str, str]:
    """The axis line with its ticks, and the hand numbers under them."""
    if axis.step == 3:
        return "─┬─" * axis.columns, "".join(f"{line.number:^3}"[:3] for line in shown)
    digits = len(str(shown[-1].number))
    every = next(k for k in nice_numbers() if k * axis.step >= digits + 2)
    ticks = ["─"] * (axis.columns * axis.step)
    numbers = [" "] * len(ticks)
    for column, line in enumerate(shown):
        if (column + 1) % every:
            continue
        at = axis.centre(column)
        ticks[at] = "┬"
        label = str(line.number)
        numbers[at - len(label) + 1 : at + 1] = label
    return "".join(ticks), "".join(numbers)


def _cells_text(start: str, cells: list[tuple[str, str]]) -> Text:
    text = Text(start)
    for mark, style in cells:
        text.append(mark, style=style)
    return text


def _chart_legend(players: tuple[str, str]) -> list[Text]:
    parts = []
    for name, (mark, style) in zip(players, _PLAYER_MARKS):
        parts += [Text(mark, style=style), Text(f" {name}   ")]
    parts += [Text(_BOTH[0], style=_BOTH[1]), Text(f" {players[0]} and {players[1]} on one mark")]
    return parts

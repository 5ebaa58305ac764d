"""Charts drawn as SVG: the running totals of a match, a pair's margin match by match, and the standalone
`show --export FILE.svg` picture (the chart with a compact table of the final result).

Pure string building, no I/O. Every piece of text goes through the standard library's `html.escape`, which
makes it safe as element text and inside a double-quoted attribute, in HTML and XML alike.
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

from ..match.tally import Sheet
from .words import BONUS_WORDS, RESULT_LETTERS, hand_words, letters_key, sheet_title, summary_rows, verdict

WIDTH = 520
CHART_HEIGHT = 280
_LEFT, _RIGHT, _TOP, _BOTTOM = 44, 80, 40, 40
_LETTER = 7.5
"""A generous width of one letter at 12 px, to keep texts apart."""
FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif"
INK, MUTED, GRID = "#1a1a1a", "#595959", "#d9d4ca"
# Each line differs by dash and marker as well as colour, so that the chart reads in black and white.
# Both colours keep more than 4.5:1 against white.
STYLES = (("#1f5fa8", "", "circle"), ("#a8420b", "7 4", "square"))
MARKED = ("gin", "undercut", "big_gin")
"""The results a chart marks with their letter, at the winner's point."""


@dataclass(frozen=True)
class Series:
    """One line of a chart: its name and a value at each step, with the words each point's `<title>` gives."""

    name: str
    values: Sequence[int]
    titles: Sequence[str]
    marks: Sequence[str] = ()
    """A letter to print above the point at each step ('' for none), such as G for a gin."""


@dataclass(frozen=True)
class Chart:
    """What a line chart shows: its lines, the label of each step on the x axis, and guides to read it by."""

    title: str
    series: Sequence[Series]
    steps: Sequence[str]
    """The x axis label of each step; step 0 is the start, before anything happened."""
    x_label: str
    level: tuple[int, str] | None = None
    """A horizontal guide line and its label, such as the target."""
    ends: Sequence[tuple[int, str]] = ()
    """Vertical guides at a step, such as the hand where a game ended."""
    key: str = ""


def chart_svg(chart: Chart, ident: str = "chart") -> str:
    """The chart as an `<svg>` element with a `viewBox`, to inline in a page or wrap in a document."""
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {CHART_HEIGHT}" role="img" '
        f'aria-labelledby="{ident}-title" class="chart" font-family="{escape(FONT)}" font-size="12">'
        f'<title id="{ident}-title">{escape(chart.title)}</title>'
        + chart_body(chart)
        + "</svg>"
    )


def chart_body(chart: Chart) -> str:
    """The chart's shapes in a WIDTH x CHART_HEIGHT box, without the enclosing `<svg>`."""
    parts = [_legend(chart)]
    if len(chart.steps) < 2:
        parts.append(_text(WIDTH / 2, CHART_HEIGHT / 2, "Nothing to draw yet.", anchor="middle", fill=MUTED))
        return "".join(parts)
    values = [v for series in chart.series for v in series.values] + [0]
    if chart.level is not None:
        values.append(chart.level[0])
    low, high, tick = _scale(min(values), max(values))
    plot_w, plot_h = WIDTH - _LEFT - _RIGHT, CHART_HEIGHT - _TOP - _BOTTOM
    count = len(chart.steps) - 1

    def x(step: int) -> float:
        return _LEFT + step * plot_w / count

    def y(value: float) -> float:
        return _TOP + (high - value) * plot_h / (high - low)

    for value in range(low, high + 1, tick):
        parts.append(_line(_LEFT, y(value), WIDTH - _RIGHT, y(value), GRID if value else MUTED))
        parts.append(_text(_LEFT - 6, y(value) + 4, str(value), anchor="end", fill=MUTED))
    label_every = max(1, math.ceil(count / 20))
    for step, label in enumerate(chart.steps):
        if step % label_every == 0 or step == count:
            parts.append(_text(x(step), CHART_HEIGHT - _BOTTOM + 16, label, anchor="middle", fill=MUTED))
    parts.append(_text(_LEFT, CHART_HEIGHT - 6, chart.x_label, fill=MUTED))
    if chart.key:
        parts.append(_text(WIDTH - 4, CHART_HEIGHT - 6, chart.key, anchor="end", fill=MUTED))
    if chart.level is not None:
        value, label = chart.level
        parts.append(_line(_LEFT, y(value), WIDTH - _RIGHT, y(value), INK, dash="2 3", css="level"))
        parts.append(_text(WIDTH - _RIGHT + 4, y(value) + 4, label, fill=INK))
    # Boxes (left, top, right, bottom) already drawn on: each gin or undercut mark above its point.
    boxes = [(x(step) - 6, y(value) - 20, x(step) + 6, y(value) - 4)
             for series in chart.series for step, value in enumerate(series.values)
             if step and step < len(series.marks) and series.marks[step]]
    for step, label in chart.ends:
        parts.append(_line(x(step), _TOP, x(step), CHART_HEIGHT - _BOTTOM, INK, dash="1 3", css="end"))
        # A label ends at its line; one that would run into an earlier label or a mark goes to the first free line
        # below.
        left, right = x(step) - _LETTER * len(label) - 5, x(step) - 1
        row = 0
        while any(a < right and left < c and b < _TOP + 13 * row + 13 and _TOP + 13 * row < d for a, b, c, d in boxes):
            row += 1
        parts.append(_text(x(step) - 3, _TOP + 10 + 13 * row, label, anchor="end", fill=INK))
        boxes.append((left, _TOP + 13 * row, right, _TOP + 13 * row + 13))
    for index, series in enumerate(chart.series):
        colour, dash, shape = STYLES[index % len(STYLES)]
        points = " ".join(f"{x(step):.1f},{y(value):.1f}" for step, value in enumerate(series.values))
        dashed = f' stroke-dasharray="{dash}"' if dash else ""
        parts.append(
            f'<polyline class="series" data-name="{escape(series.name)}" points="{points}" fill="none" '
            f'stroke="{colour}" stroke-width="2.5"{dashed}/>'
        )
        for step, value in enumerate(series.values):
            if step == 0:
                continue
            title = f"<title>{escape(series.titles[step])}</title>"
            parts.append(f'<g class="point">{title}{_marker(shape, x(step), y(value), colour)}</g>')
            mark = series.marks[step] if step < len(series.marks) else ""
            if mark:
                parts.append(_text(x(step), y(value) - 8, mark, anchor="middle", fill=INK, weight="bold", css="mark"))
    return "".join(parts)


def _legend(chart: Chart) -> str:
    parts, left = [], float(_LEFT)
    for index, series in enumerate(chart.series):
        colour, dash, shape = STYLES[index % len(STYLES)]
        dashed = f' stroke-dasharray="{dash}"' if dash else ""
        parts.append(f'<line x1="{left:.1f}" y1="14" x2="{left + 26:.1f}" y2="14" stroke="{colour}" stroke-width="2.5"{dashed}/>')
        parts.append(_marker(shape, left + 13, 14, colour))
        name = _shorten(series.name, 24)
        parts.append(_text(left + 32, 18, name, fill=INK))
        left += 40 + _LETTER * len(name)
    return "".join(parts)


def _scale(low: int, high: int) -> tuple[int, int, int]:
    """Round axis ends and a tick of 1, 2 or 5 times a power of ten, for about five lines.

    The ends always differ, so that a flat line (every value 0) still has an axis to sit on.
    """
    span = max(high - low, 1)
    tick = 1
    for power in range(0, 12):
        tick = next((m * 10**power for m in (1, 2, 5) if span / (m * 10**power) <= 6), 0)
        if tick:
            break
    bottom, top = math.floor(low / tick) * tick, math.ceil(high / tick) * tick
    return bottom, max(top, bottom + tick), tick


def _wrap(words: str) -> list[str]:
    """Bold words broken into lines that fit across the picture."""
    return textwrap.wrap(words, int((WIDTH - 32) / _LETTER)) or [""]


def _shorten(words: str, most: int) -> str:
    return words if len(words) <= most else words[: most - 1] + "…"


def _marker(shape: str, cx: float, cy: float, colour: str) -> str:
    if shape == "circle":
        return f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="4" fill="{colour}"/>'
    return f'<rect x="{cx - 4:.1f}" y="{cy - 4:.1f}" width="8" height="8" fill="#fff" stroke="{colour}" stroke-width="2"/>'


def _line(x1: float, y1: float, x2: float, y2: float, colour: str, dash: str = "", css: str = "") -> str:
    dashed = f' stroke-dasharray="{dash}"' if dash else ""
    kind = f' class="{css}"' if css else ""
    return f'<line{kind} x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="{colour}"{dashed}/>'


def _text(x: float, y: float, words: str, anchor: str = "start", fill: str = INK, weight: str = "", css: str = "") -> str:
    bold = f' font-weight="{weight}"' if weight else ""
    kind = f' class="{css}"' if css else ""
    return f'<text{kind} x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}" fill="{fill}"{bold}>{escape(words)}</text>'


def sheet_chart(sheet: Sheet) -> Chart:
    """The running totals of a match, hand by hand, with the target, where games ended, gins and undercuts."""
    match = sheet.match
    steps = ["0"] + [str(line.number) for line in sheet.lines]
    series = []
    for name in match.players:
        titles, marks, values = [f"{name}: 0 at the start"], [""], [0]
        for line in sheet.lines:
            values.append(line.totals[name])
            titles.append(f"{name} {line.totals[name]} after hand {line.number} ({hand_words(line.result, line.winner, line.points)})")
            marks.append(RESULT_LETTERS[line.result] if line.winner == name and line.result in MARKED else "")
        series.append(Series(name, values, titles, marks))
    ends = []
    for index, game in enumerate(sheet.games):
        if game.finished:
            label = f"game {index + 1} over" if match.hollywood else "game over"
            ends.append((game.hands[-1], label))
    # Summed over three games, the totals have no target to cross: each game's own target is in the title.
    level = None if match.hollywood else (match.rules.target, f"target {match.rules.target}")
    sums = f" (summed over the three games, each played to {match.rules.target})" if match.hollywood else ""
    return Chart(
        title=f"Running totals{sums}, hand by hand: {' and '.join(match.players)}",
        series=series,
        steps=steps,
        x_label="hand",
        level=level,
        ends=ends,
        key=letters_key(MARKED, " · "),
    )


def sheet_svg(sheet: Sheet) -> str:
    """`show --export FILE.svg`: the title, the running-totals chart and a compact table of the final result."""
    title = sheet_title(sheet)
    header = ["", "points", "boxes", *BONUS_WORDS.values(), "final"]
    rows = summary_rows(sheet)
    shown = [c for c in range(len(header)) if c in (0, 1, len(header) - 1) or any(row[c] != "0" for row in rows)]
    header, rows = [header[c] for c in shown], [[row[c] for c in shown] for row in rows]
    title_lines, verdict_lines = _wrap(title), _wrap(verdict(sheet))
    chart_top = 28 + 16 * len(title_lines)
    row_height, table_top = 20, chart_top + CHART_HEIGHT + 16
    table_bottom = table_top + row_height * (len(rows) + 1)
    height = table_bottom + 16 * len(verdict_lines) + 20
    right_edges: list[float] = [16]
    edge: float = WIDTH - 16
    for label in reversed(header[1:]):
        right_edges.insert(1, edge)
        edge -= max(7.5 * len(label), 48) + 18  # a column as wide as its heading, at 12 px
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height}" role="img" aria-labelledby="sheet-title" '
        f'font-family="{escape(FONT)}" font-size="12">',
        f'<title id="sheet-title">{escape(title)}</title>',
        f'<rect width="{WIDTH}" height="{height}" fill="#fff"/>',
        *(_text(16, 26 + 16 * index, line, fill=INK, weight="bold") for index, line in enumerate(title_lines)),
        f'<g transform="translate(0 {chart_top})">{chart_body(sheet_chart(sheet))}</g>',
        '<g class="result">',
    ]
    for row_index, cells in enumerate([header, *rows]):
        top = table_top + row_index * row_height
        for column, cell in enumerate(cells):
            anchor = "start" if column == 0 else "end"
            left = right_edges[column]
            words = _shorten(cell, 20)
            bold = "bold" if row_index == 0 or column == len(cells) - 1 else ""
            parts.append(_text(left, top + 14, words, anchor=anchor, fill=INK if row_index else MUTED, weight=bold))
        parts.append(_line(16, top + row_height, WIDTH - 16, top + row_height, GRID))
    parts.append("</g>")
    verdict_text = "".join(
        f'<tspan x="16" y="{table_bottom + 24 + 16 * index}">{escape(line)}</tspan>' for index, line in enumerate(verdict_lines)
    )
    parts.append(f'<text class="verdict" fill="{INK}" font-weight="bold">{verdict_text}</text>')
    parts.append("</svg>")
    return "".join(parts) + "\n"

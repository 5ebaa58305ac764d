"""The chart's SVG: where a game ended, its label is kept clear of the gin and undercut marks, at any height the
winning point is drawn ("game over" running into a gin's G read "game overG" on a phone)."""

from __future__ import annotations

import re

import pytest

from ginscore.sheets.svg_chart import Chart, Series, chart_svg

LETTER = 7.5
"""About the width of one of the chart's 12-pixel letters, as the chart itself reckons it."""

TEXT = re.compile(r'<text(?: class="(\w+)")? x="([\d.]+)" y="([\d.]+)" text-anchor="(\w+)"[^>]*>([^<]*)</text>')


def boxes(svg: str) -> list[tuple[str, str, float, float, float, float]]:
    """Each text's kind (`mark` or none), words and box (left, top, right, bottom)."""
    found = []
    for kind, x, y, anchor, words in TEXT.findall(svg):
        left, top, width = float(x), float(y) - 10, LETTER * len(words)
        if anchor == "end":
            left -= width
        elif anchor == "middle":
            left -= width / 2
        found.append((kind, words, left, top, left + width, float(y) + 3))
    return found


@pytest.mark.parametrize("last", range(100, 161, 3))
def test_the_game_over_label_never_touches_a_mark(last: int):
    values = [0, 20, 40, 60, 80, last]
    chart = Chart(
        title="Running totals", steps=[str(step) for step in range(len(values))], x_label="hand",
        series=[Series("Ann", values, ["x"] * len(values), ["", "", "", "", "", "G"]),
                Series("Bob", [0, 10, 20, 25, 30, 30], ["x"] * len(values), ["", "G", "", "", "", ""])],
        level=(100, "target 100"), ends=[(5, "game over")],
    )
    drawn = boxes(chart_svg(chart))
    label = next(box for box in drawn if box[1] == "game over")
    for kind, words, left, top, right, bottom in drawn:
        if kind == "mark":
            apart = right + 1 < label[2] or label[4] + 1 < left or bottom < label[3] or label[5] < top
            assert apart, (words, (left, top, right, bottom), label)

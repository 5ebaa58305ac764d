"""A player's rating over time as a small SVG chart: the rating after each day they played, with the band of
± 2 RD around it. Pure string building, every text escaped (as `svg_chart`), in its colours and font."""

from __future__ import annotations

import math
from collections.abc import Sequence
from html import escape

from ..match.ratings import Rating
from .svg_chart import FONT, GRID, INK, MUTED, STYLES

WIDTH, HEIGHT = 320, 180
_LEFT, _RIGHT, _TOP, _BOTTOM = 40, 12, 14, 30


def rating_svg(name: str, history: Sequence[tuple[str, Rating]], ident: str = "rating-chart") -> str:
    """`name`'s rating after each day in `history` (oldest first) as an inline `<svg>`; each point's `<title>` says
    the day and the rating."""
    title = f"{name}'s rating after each day played"
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-labelledby="{ident}-title" '
        f'class="chart" font-family="{escape(FONT)}" font-size="11">',
        f'<title id="{ident}-title">{escape(title)}</title>',
    ]
    if not history:
        parts.append(f'<text x="{WIDTH / 2}" y="{HEIGHT / 2}" text-anchor="middle" fill="{MUTED}">No game yet.</text></svg>')
        return "".join(parts)
    lows = [r.rating - 2 * r.rd for _, r in history]
    highs = [r.rating + 2 * r.rd for _, r in history]
    low, high, step = _nice(min(lows), max(highs))
    inner_w, inner_h = WIDTH - _LEFT - _RIGHT, HEIGHT - _TOP - _BOTTOM
    count = len(history)

    def x(i: int) -> float:
        return _LEFT + (inner_w * i / (count - 1) if count > 1 else inner_w / 2)

    def y(value: float) -> float:
        return _TOP + inner_h * (high - value) / (high - low)

    for k in range(round((high - low) / step) + 1):
        value = low + k * step
        parts.append(f'<line x1="{_LEFT}" y1="{y(value):.1f}" x2="{WIDTH - _RIGHT}" y2="{y(value):.1f}" stroke="{GRID}" stroke-width="1"/>')
        parts.append(f'<text x="{_LEFT - 4}" y="{y(value) + 4:.1f}" text-anchor="end" fill="{MUTED}">{value:.0f}</text>')
    colour = STYLES[0][0]
    band = [f"{x(i):.1f},{y(h):.1f}" for i, h in enumerate(highs)] + [f"{x(i):.1f},{y(lo):.1f}" for i, lo in reversed(list(enumerate(lows)))]
    parts.append(f'<polygon points="{" ".join(band)}" fill="{colour}" fill-opacity="0.15" stroke="none"/>')
    line = " ".join(f"{x(i):.1f},{y(r.rating):.1f}" for i, (_, r) in enumerate(history))
    parts.append(f'<polyline points="{line}" fill="none" stroke="{colour}" stroke-width="2"/>')
    for i, (day, r) in enumerate(history):
        parts.append(
            f'<circle cx="{x(i):.1f}" cy="{y(r.rating):.1f}" r="3" fill="{colour}">'
            f"<title>{escape(day)}: {r.rating:.0f} ± {2 * r.rd:.0f}</title></circle>"
        )
    parts.append(f'<text x="{_LEFT}" y="{HEIGHT - 8}" fill="{INK}">{escape(history[0][0])}</text>')
    if count > 1:
        parts.append(f'<text x="{WIDTH - _RIGHT}" y="{HEIGHT - 8}" text-anchor="end" fill="{INK}">{escape(history[-1][0])}</text>')
    parts.append("</svg>")
    return "".join(parts)


def _nice(low: float, high: float) -> tuple[float, float, float]:
    """The axis' ends and the step between its guides: round numbers, at most five steps, never an empty range."""
    for step in (50, 100, 200, 250, 500, 1000, 2000, 5000):
        bottom, top = step * math.floor(low / step), step * math.ceil(high / step)
        if top - bottom <= 5 * step:
            break
    return float(bottom), float(max(top, bottom + step)), float(step)

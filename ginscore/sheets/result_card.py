"""A finished match's result as a card to share: the players, the final totals with every bonus, the winner and
the series after the game, drawn as a small SVG picture that a phone turns into a PNG.

Pure string building, no I/O, the way `svg_chart` draws: every text is a real `<text>` element (a test reads
them), escaped with `html.escape`. The lines of the final totals are the ones the game-over screen shows
(`final_rows`), so the picture and the page cannot say different things.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass
from html import escape

from ..match.series import Series
from ..match.tally import Sheet
from .svg_chart import FONT, GRID, INK, MUTED, STYLES
from .words import BONUS_WORDS, game_end, series_words, sheet_title, summary_rows, verdict

CARD_WIDTH = 400
"""The card's width in CSS pixels; the page draws it at twice that."""
_PAD = 20
_ACCENT = STYLES[0][0]
_COLUMN = 110
"""The width of a player's column of figures."""


@dataclass(frozen=True)
class FinalRow:
    """One line of the final totals, `points` to `final`."""

    label: str
    """As the sheet names it: `points`, `boxes`, `game bonus`, `box bonus`, `shutout bonus`, `final`."""
    kind: str
    """Its short name for styles: `points`, `boxes`, `game`, `shutout`, `final`."""
    cells: tuple[str, ...]
    """One figure a player, in the players' order."""


@dataclass(frozen=True)
class ResultCard:
    """What the result card shows, in the game-over screen's words."""

    title: str
    """`Ann vs Bob (standard rules, target 100)`."""
    headline: str
    """`Ann wins by 183.`, or the level finals."""
    players: tuple[str, str]
    finals: tuple[int, int]
    """Each player's final total over the games, bonuses included, in the players' order."""
    winner: str | None
    rows: tuple[FinalRow, ...]
    caption: str
    """What the rows are: `Final totals, with every bonus` (`... over the three games, ...` on a Hollywood sheet)."""
    notes: tuple[str, ...]
    """How each game ended: `Bob reached 100.`, with a note when the other has the higher final total."""
    series: str = ""
    """`Series: Ann 3 – Bob 2` after this game; empty when there is none to say."""


def final_rows(sheet: Sheet) -> list[FinalRow]:
    """The final totals' lines, summed over the games: points and boxes, and once the match is over its bonuses
    and its final. A shutout bonus line only where someone has one."""
    summary = {row[0]: row[1:] for row in summary_rows(sheet)}
    kinds = ["points", "boxes", *BONUS_WORDS, "final"]
    labels = ["points", "boxes", *BONUS_WORDS.values(), "final"]
    rows = []
    for index, (kind, label) in enumerate(zip(kinds, labels)):
        cells = tuple(summary[player][index] for player in sheet.match.players)
        if index >= 2 and not sheet.finished or (kind == "shutout" and all(cell == "0" for cell in cells)):
            continue
        rows.append(FinalRow(label, kind, cells))
    return rows


def game_end_lines(sheet: Sheet) -> list[str]:
    """How each finished game ended, `Bob reached 100.` (`Game 2: ...` on a Hollywood sheet)."""
    match = sheet.match
    return [(f"Game {index + 1}: " if match.hollywood else "") + game_end(game, match.rules)
            for index, game in enumerate(sheet.games) if game.finished]


def result_card(sheet: Sheet, series: Series | None = None) -> ResultCard | None:
    """The card of a finished match, with the series after it when `series` has a game; None while in play."""
    if not sheet.finished:
        return None
    match = sheet.match
    final = sheet.summed("final")
    a, b = match.players
    return ResultCard(
        title=sheet_title(sheet, spoken=True), headline=verdict(sheet), players=(a, b), finals=(final[a], final[b]),
        winner=sheet.winner, rows=tuple(final_rows(sheet)),
        caption=f"Final totals{' over the three games' if match.hollywood else ''}, with every bonus", notes=tuple(game_end_lines(sheet)),
        series=series_words(series) if series is not None and series.games else "",
    )


def card_svg(card: ResultCard) -> str:
    """The card as a standalone SVG document, `CARD_WIDTH` wide, with `width` and `height` set so that a page
    can draw it onto a canvas at any scale."""
    parts: list[str] = []
    y = float(_PAD)
    for line in _wrap(card.title, 12):
        y += 16
        parts.append(_text(_PAD, y, line, 12, MUTED, css="title"))
    for line in _wrap(card.headline, 22):
        y += 30
        parts.append(_text(_PAD, y, line, 22, INK, bold=True, css="headline"))
    y += 14
    half = (CARD_WIDTH - 2 * _PAD - 12) / 2
    for index, (player, final) in enumerate(zip(card.players, card.finals)):
        left = _PAD + index * (half + 12)
        won = player == card.winner
        parts.append(f'<rect x="{left:.1f}" y="{y:.1f}" width="{half:.1f}" height="92" rx="10" fill="#fff" '
                     f'stroke="{_ACCENT if won else GRID}" stroke-width="{3 if won else 2}"/>')
        middle = left + half / 2
        parts.append(f'<g class="player" data-winner="{"yes" if won else "no"}">'
                     + _text(middle, y + 24, _shorten(player, half, 14), 14, INK, "middle", True, "name")
                     + _text(middle, y + 64, str(final), 36, INK, "middle", True, "total")
                     + _text(middle, y + 83, "winner" if won else "final total", 12, MUTED, "middle", css="under")
                     + "</g>")
    y += 92 + 16
    right = (CARD_WIDTH - _PAD - _COLUMN, CARD_WIDTH - _PAD)
    y += 16
    parts.append(_text(_PAD, y, card.caption, 12, MUTED, css="caption"))
    y += 18
    for index, player in enumerate(card.players):
        parts.append(_text(right[index], y, _shorten(player, _COLUMN - 10, 12), 12, MUTED, "end", True, "column"))
    for row in card.rows:
        final = row.kind == "final"
        y += 22
        parts.append(f'<line x1="{_PAD}" y1="{y - 15:.1f}" x2="{CARD_WIDTH - _PAD}" y2="{y - 15:.1f}" '
                     f'stroke="{INK if final else GRID}" stroke-width="{2 if final else 1}"/>')
        parts.append(f'<g class="row" data-kind="{escape(row.kind)}">' + _text(_PAD, y, row.label, 14, INK, bold=final, css="label")
                     + "".join(_text(right[index], y, cell, 14, INK, "end", final, "cell") for index, cell in enumerate(row.cells))
                     + "</g>")
    y += 8
    for note in card.notes:
        for line in _wrap(note, 12):
            y += 17
            parts.append(_text(_PAD, y, line, 12, MUTED, css="note"))
    if card.series:
        y += 8
        for line in _wrap(card.series, 16):
            y += 22
            parts.append(_text(_PAD, y, line, 16, INK, bold=True, css="series"))
    y += 22
    parts.append(_text(CARD_WIDTH - _PAD, y, "ginscore", 11, MUTED, "end", css="made-by"))
    height = round(y + _PAD)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{CARD_WIDTH}" height="{height}" '
        f'viewBox="0 0 {CARD_WIDTH} {height}" role="img" aria-labelledby="card-title" font-family="{escape(FONT)}">'
        f'<title id="card-title">{escape(card.headline)}</title>'
        f'<rect width="{CARD_WIDTH}" height="{height}" fill="#fff"/>' + "".join(parts) + "</svg>\n"
    )


def _letters(size: int) -> float:
    """A generous width of one letter at `size` px (svg_chart's 7.5 at 12), to keep a line inside the card."""
    return 7.5 * size / 12


def _wrap(words: str, size: int) -> list[str]:
    return textwrap.wrap(words, int((CARD_WIDTH - 2 * _PAD) / _letters(size))) or [""]


def _shorten(words: str, width: float, size: int) -> str:
    most = max(4, int(width / _letters(size)))
    return words if len(words) <= most else words[: most - 1] + "…"


def _text(x: float, y: float, words: str, size: int, fill: str, anchor: str = "start", bold: bool = False, css: str = "") -> str:
    weight = ' font-weight="bold"' if bold else ""
    kind = f' class="{css}"' if css else ""
    return (f'<text{kind} x="{x:.1f}" y="{y:.1f}" font-size="{size}" text-anchor="{anchor}" fill="{fill}"{weight}>'
            f"{escape(words)}</text>")

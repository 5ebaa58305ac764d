"""Standalone HTML pages to print or send: the score sheet of a match, and head-to-head figures over many.

One file each, with the CSS and the charts (SVG) inline: nothing is loaded from elsewhere and no script runs.
Pure string building, no I/O. Every name, note and word from a match goes through the standard library's
`html.escape`, which is safe both as element text and inside a double-quoted attribute.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from html import escape

from ..game.rulebook import Rules
from ..match.stats import STAT_ROWS, PairStats, stat_text
from ..match.tally import Game, HandLine, Sheet
from ..version import __version__
from .svg_chart import Chart, Series, chart_svg, sheet_chart
from .words import (
    BONUS_WORDS,
    bonus_columns,
    counts_words,
    game_end,
    hand_words,
    points_words,
    result_name,
    sheet_title,
    summary_rows,
    verdict,
)

CSS = """
:root { color-scheme: light; }
* { box-sizing: border-box; }
body { margin: 0; background: #efebe3; color: #1a1a1a;
  font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
main { max-width: 64rem; margin: 0 auto; padding: 1rem; background: #fff; }
h1 { font-size: 1.35rem; margin: 0 0 .5rem; overflow-wrap: anywhere; }
h2 { font-size: 1.1rem; margin: 1.2rem 0 .4rem; overflow-wrap: anywhere; }
p { margin: .35rem 0; overflow-wrap: anywhere; }
.scroll { max-width: 100%; overflow-x: auto; margin: .5rem 0; }
table { border-collapse: collapse; font-variant-numeric: tabular-nums; }
caption { text-align: left; font-weight: 600; padding: .25rem 0; }
th, td { padding: .2rem .5rem; border-bottom: 1px solid #d0cabe; text-align: left; white-space: nowrap; }
thead th { border-bottom: 2px solid #1a1a1a; vertical-align: bottom; }
.num { text-align: right; }
.hands tbody th, .hands thead tr:first-child th:first-child { position: sticky; left: 0; background: #fff; }
.game { border-left: 2px solid #1a1a1a; }
td.note { white-space: normal; min-width: 12rem; }
tfoot th, tfoot td { border-bottom: 1px solid #d0cabe; }
tfoot tr:first-child > * { border-top: 2px solid #1a1a1a; }
.r-gin, .r-big_gin { font-weight: 700; }
.r-undercut { font-weight: 700; font-style: italic; }
.r-cancelled, .r-tie { color: #595959; }
.won { font-weight: 700; }
.entry::before { content: "\\25B8\\00A0"; }
.verdict { font-weight: 700; font-size: 1.1rem; }
.muted { color: #595959; font-size: .9em; }
figure { margin: .75rem 0; }
figure svg { display: block; width: 100%; max-width: 40rem; height: auto; }
figcaption { color: #595959; font-size: .9em; }
.phone-only { display: none; }
@media (max-width: 36rem) {
  body { font-size: 13px; }
  main { padding: .5rem; }
  th, td { padding: .15rem .3rem; }
  .hands { width: 100%; }
  .result th, .result td { padding: .15rem .2rem; }
  .hands .minor, .hands .note, .wide-only { display: none; }
  .hands th.phone-only { display: table-cell; }
  th, td:not(.num) { white-space: normal; overflow-wrap: break-word; }
  .name { overflow-wrap: anywhere; }
  .hands td[data-more]::after { content: attr(data-more); display: block; white-space: pre-line; color: #595959;
    font-weight: normal; font-style: normal; }
  ul.phone-only { display: block; padding-left: 1.2rem; }
}
@media print {
  @page { margin: 12mm; }
  body { background: none; font-size: 9pt; line-height: 1.2; }
  main { max-width: none; padding: 0; }
  h1 { font-size: 13pt; margin: 0 0 2pt; }
  p { margin: 2pt 0; }
  .scroll { overflow: visible; margin: 3pt 0; }
  .phone-only { display: none !important; }
  th, td { padding: 0 5px; }
  figure { margin: 4pt 0 0; break-inside: avoid; }
  figure svg { width: auto; max-width: 100%; height: 6cm; }
}
"""


def page(title: str, body: Iterable[str]) -> str:
    """A whole standalone document around `body`."""
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f'<meta name="generator" content="ginscore {__version__}">\n'
        f"<title>{escape(title)}</title>\n<style>{CSS}</style>\n</head>\n<body>\n<main>\n"
        + "\n".join(body)
        + "\n</main>\n</body>\n</html>\n"
    )


def sheet_page(sheet: Sheet) -> str:
    """`show --export FILE.html`: the sheet as a table, each game's end, the final result and the chart."""
    match = sheet.match
    body = [f"<h1>{escape(match.players[0])} vs {escape(match.players[1])}</h1>"]
    if match.note:
        body.append(f'<p class="match-note">{escape(match.note)}</p>')
    body.append(_scroll(_hands_table(sheet)))
    if match.hollywood:
        body.append('<p class="muted"><span class="entry"></span>marks the hand where a player entered that game. '
                    "A hand's totals are written in the games it went into.</p>")
    for index, game in enumerate(sheet.games):
        label = f"Game {index + 1}: " if match.hollywood else ""
        if game.finished:
            body.append(f"<p>{escape(label + game_end(game, match.rules))}</p>")
    body.append(_scroll(_result_table(sheet)))
    body.append(f'<p class="verdict">{escape(verdict(sheet))}</p>')
    chart = sheet_chart(sheet)
    body.append(f"<figure>{chart_svg(chart)}<figcaption>{escape(chart.title)}.</figcaption></figure>")
    return page(sheet_title(sheet), body)


def _scroll(table: str) -> str:
    """A wide table scrolls inside its own box, so that the page itself never scrolls sideways."""
    return f'<div class="scroll">{table}</div>'


def _hands_table(sheet: Sheet) -> str:
    match = sheet.match
    notes = [record.note for record in match.hands]
    with_notes = any(notes)
    lead = ["#", "dealer", "knocker", "result", "counts", "points"]
    minor = {"dealer": "minor", "knocker": "minor", "counts": "minor", "points": "minor"}
    games = len(sheet.games)
    rows = []
    if match.hollywood:
        first = [_th(heading, "col", css=minor.get(heading, ""), rowspan=2) for heading in lead]
        first += [_th(f"Game {index + 1}", "colgroup", colspan=2, css="game") for index in range(games)]
        if with_notes:
            first.append(_th("note", "col", css="note", rowspan=2))
        rows.append("<tr>" + "".join(first) + "</tr>")
        rows.append("<tr>" + "".join(_th(name, "col", css=_game_css(side, "num name")) for _ in range(games)
                                     for side, name in enumerate(match.players)) + "</tr>")
    else:
        heads = [_th(heading, "col", css="num" if heading == "#" else minor.get(heading, "")) for heading in lead]
        heads += [_th(name, "col", css="num name") for name in match.players]
        if with_notes:
            heads.append(_th("note", "col", css="note"))
        rows.append("<tr>" + "".join(heads) + "</tr>")
    head = "<thead>" + "".join(rows) + "</thead>"
    entered: set[tuple[int, str]] = set()
    body = [_hand_row(sheet, line, notes[line.number - 1], with_notes, entered) for line in sheet.lines]
    foot = _end_rows(sheet, len(lead), with_notes)
    return (
        f"<table class=\"hands\"><caption>{escape(sheet_title(sheet))}</caption>{head}"
        f"<tbody>{''.join(body)}</tbody>{foot}</table>"
    ) + _phone_notes(notes)


def _phone_notes(notes: list[str]) -> str:
    """On a phone the notes column folds away, and the notes follow the table instead."""
    items = [f"<li>Hand {number}: {escape(note)}</li>" for number, note in enumerate(notes, start=1) if note]
    return f'<ul class="phone-only phone-notes">{"".join(items)}</ul>' if items else ""


def _hand_row(sheet: Sheet, line: HandLine, note: str, with_notes: bool, entered: set[tuple[int, str]]) -> str:
    match = sheet.match
    cells = [
        _th(str(line.number), "row", css="num"),
        _td(line.dealer, "minor"),
        _td(line.knocker or "", "minor"),
        _result_cell(line),
        _td(counts_words(line), "minor"),
        _td(points_words(line), "minor"),
    ]
    for index, column in enumerate(line.column_totals):
        went_in = index in line.columns
        for side, name in enumerate(match.players):
            shown = str(column[name]) if went_in or not match.hollywood else ""
            css = [_game_css(side, "num")]
            title = ""
            if went_in and name == line.winner:
                css.append("won")
                if match.hollywood and (index, name) not in entered:
                    entered.add((index, name))
                    css.append("entry")
                    title = f"{name} enters game {index + 1}"
            cells.append(_td(shown, " ".join(c for c in css if c), title=title))
    if with_notes:
        cells.append(_td(note, "note"))
    return f'<tr class="hand" id="hand-{line.number}">' + "".join(cells) + "</tr>"


def _result_cell(line: HandLine) -> str:
    """The result; on a phone, where the other lead columns fold away, the knocker, counts and points under it."""
    title = escape(hand_words(line.result, line.winner, line.points))
    folded = "\n".join(words for words in (_knock_words(line), points_words(line)) if words)
    under = f' data-more="{escape(folded)}"' if folded else ""
    return f'<td class="r-{line.result}" title="{title}"{under}>{escape(result_name(line.result))}</td>'


def _knock_words(line: HandLine) -> str:
    return f"{line.knocker}: {counts_words(line)}" if line.knocker and line.knocker_deadwood is not None else ""


def _end_rows(sheet: Sheet, lead: int, with_notes: bool) -> str:
    """After the hands: points, boxes, bonuses and finals of each game, under its players' columns."""
    rows: list[tuple[str, list[str]]] = [
        ("points", [str(game.totals[name]) for game in sheet.games for name in sheet.match.players]),
        ("boxes", [str(game.boxes[name]) for game in sheet.games for name in sheet.match.players]),
    ]
    if any(game.finished for game in sheet.games):
        for kind in ("boxes", "game", "shutout"):
            values = [_bonus(game, name, kind, sheet.match.rules) for game in sheet.games for name in sheet.match.players]
            if kind != "shutout" or any(values):
                rows.append((BONUS_WORDS[kind], values))
        rows.append(("final", [str(game.final[name]) if game.finished else "" for game in sheet.games
                               for name in sheet.match.players]))
        rows.append(("margin", [str(game.margin) if game.finished and name == game.winner else ""
                                for game in sheet.games for name in sheet.match.players]))
    lines = []
    for label, values in rows:
        # On a phone four of the lead columns fold away, so a second label spans the two that stay.
        cells = [_th(label, "row", css="wide-only", colspan=lead), _th(label, "row", css="phone-only", colspan=2)]
        cells += [_td(value, _game_css(index % 2, "num")) for index, value in enumerate(values)]
        if with_notes:
            cells.append(_td("", "note"))
        lines.append(f'<tr class="end end-{label.split()[0]}">' + "".join(cells) + "</tr>")
    return "<tfoot>" + "".join(lines) + "</tfoot>"


def _bonus(game: Game, name: str, kind: str, rules: Rules) -> str:
    value = bonus_columns(game, name, rules)[kind] if game.finished else 0
    return str(value) if value else ""


def _result_table(sheet: Sheet) -> str:
    """Per player, summed over the games: points, boxes, bonuses and the final total."""
    caption = "Final result" if sheet.finished else "Score so far"
    if sheet.match.hollywood:
        caption += ", over the three games"
    header = ["points", "boxes", *BONUS_WORDS.values(), "final"]
    head = "<tr>" + _th("player", "col") + "".join(_th(h, "col", css="num") for h in header) + "</tr>"
    rows = []
    for row in summary_rows(sheet):
        name, values = row[0], row[1:]
        css = ' class="winner"' if name == sheet.winner else ""
        cells = [_th(name, "row", css="name")] + [_td(value, "num final" if index == len(values) - 1 else "num")
                                      for index, value in enumerate(values)]
        rows.append(f"<tr{css}>" + "".join(cells) + "</tr>")
    return (f'<table class="result"><caption>{caption}</caption><thead>{head}</thead>'
            f"<tbody>{''.join(rows)}</tbody></table>")


def stats_page(pairs: Sequence[PairStats], margins: dict[tuple[str, str], list[int]], files: int) -> str:
    """`stats --export FILE.html`: each pair's head-to-head table, and a chart of their margin match by match."""
    body = ["<h1>Head to head</h1>", f'<p class="muted">{files} {"file" if files == 1 else "files"} read.</p>']
    if not pairs:
        body.append("<p>No matches found.</p>")
    for number, pair in enumerate(pairs, start=1):
        a, b = pair.players
        data = pair.as_dict()
        body.append(f"<h2>{escape(a)} vs {escape(b)}</h2>")
        head = "<tr>" + _th("", "col") + "".join(_th(name, "col", css="num") for name in pair.players) + "</tr>"
        rows = [
            "<tr>" + _th(label, "row") + "".join(_td(stat_text(key, data["by_player"][name][key]), "num")
                                               for name in pair.players) + "</tr>"
            for label, key in STAT_ROWS
        ]
        caption = (f"{pair.matches} {'match' if pair.matches == 1 else 'matches'}, {pair.games} "
                   f"{'game' if pair.games == 1 else 'games'} finished, {pair.hands} {'hand' if pair.hands == 1 else 'hands'}")
        body.append(_scroll(f'<table class="pair"><caption>{escape(caption)}</caption><thead>{head}</thead>'
                            f"<tbody>{''.join(rows)}</tbody></table>"))
        chart = margin_chart(pair, margins.get(pair.players, []))
        body.append(f"<figure>{chart_svg(chart, f'pair-{number}')}<figcaption>{escape(chart.title)}.</figcaption></figure>")
    body.append('<p class="muted">* hands recorded with cards only.</p>')
    return page("Head to head", body)


def margin_chart(pair: PairStats, margins: Sequence[int]) -> Chart:
    """The first player's net margin over the second, added up match by match (finished games only)."""
    a, b = pair.players
    values, titles, total = [0], [f"{a} level with {b} at the start"], 0
    for number, margin in enumerate(margins, start=1):
        total += margin
        values.append(total)
        titles.append(f"after match {number}: {a} {total:+d} against {b} (this match {margin:+d})")
    return Chart(
        title=f"{a}'s net margin over {b}, match by match",
        series=[Series(f"{a} − {b}", values, titles)],
        steps=[str(step) for step in range(len(values))],
        x_label="match",
    )


def _th(words: str, scope: str, css: str = "", colspan: int = 1, rowspan: int = 1) -> str:
    return f"<th scope=\"{scope}\"{_attributes(css, colspan, rowspan)}>{escape(words)}</th>"


def _td(words: str, css: str = "", title: str = "") -> str:
    titled = f' title="{escape(title)}"' if title else ""
    return f"<td{_attributes(css, 1, 1)}{titled}>{escape(words)}</td>"


def _attributes(css: str, colspan: int, rowspan: int) -> str:
    return (
        (f' class="{css}"' if css else "")
        + (f' colspan="{colspan}"' if colspan > 1 else "")
        + (f' rowspan="{rowspan}"' if rowspan > 1 else "")
    )


def _game_css(side: int, css: str) -> str:
    """A game's first column draws the line that sets it apart from the one before."""
    return f"{css} game" if side == 0 else css


"""The match pages: a match's live sheet (its scoreboard, result and ledger), chart, downloads, the next game, undo."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

from markupsafe import Markup
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response

from ..errors import GinscoreError, InputError
from ..files.served import Folder
from ..game.numbers import read_whole
from ..match.odds import MatchOdds
from ..match.series import Series
from ..match.tally import Sheet
from ..sheets.odds_words import both_chances
from ..sheets.result_card import FinalRow, card_svg, final_rows, game_end_lines, result_card
from ..sheets.svg_chart import chart_svg, sheet_chart
from ..sheets.words import (
    counts_words,
    hand_words,
    lead_words,
    series_words,
    sheet_title,
    sides_words,
    target_words,
    upcard_words,
    won_words,
)
from .answers import error_dict
from .exports import export_of
from .fields import number_field
from .file_words import problem_words
from .merge_pages import merged_words
from .page_helpers import (
    MatchInfo,
    escaped,
    folder_of,
    load_sheet,
    match_info,
    next_game_view,
    redirect,
    render,
    url_path,
)
from .picker import card_face

EXPORTS = (("html", "The sheet to print"), ("svg", "The chart as a picture"), ("csv", "The hands for a spreadsheet"),
           ("md", "The hands as text"), ("toml", "The match file (.toml)"))
"""The downloads a match page offers, each said by what it is for."""
SHOWN_HANDS = 40
"""The hands a long match's table shows, its last ones, unless every hand is asked for."""
INLINE_CHART_HANDS = 60
"""Up to this many hands the chart is inline SVG (a few kilobytes); beyond, a picture the browser keeps."""


# --- the sheet -------------------------------------------------------------------------------------------


@dataclass
class BoardCell:
    """One player's figure on the scoreboard: a game's total (its final once over) and the words under it."""

    total: int
    under: str
    ahead: bool = False


@dataclass
class BoardGame:
    """One game's column on the scoreboard: a plain match has one, a Hollywood match three."""

    label: str
    over: bool
    cells: list[BoardCell]
    """One a player, in the players' order."""
    lead: str
    """`Ann is ahead by 12`, `Ann won by 12` or `level`."""


@dataclass
class Board:
    """The top of a match page: the totals in big type, the boxes, the target, who deals next and who is ahead."""

    games: list[BoardGame]
    target: str
    next_dealer: str
    chances: list[str] = field(default_factory=list)
    """`Ann 73% to win this game`, a line a game in play: the likelier player's chance."""
    odds_source: str = ""
    """Where the chances' model came from, one tap away on the page."""


@dataclass
class Result:
    """A finished match's result block: the winner, the margin, the final totals with every bonus."""

    headline: str
    winner: str | None
    finals: list[int]
    """Each player's final total over the games, in the players' order."""
    rows: list[dict[str, Any]]
    """The final totals' lines, `points` to `final`: label, css and one value a player."""
    notes: list[str]
    """How each game ended: `Bob reached 100.`, with a note when the other has the higher final total."""


@dataclass
class SheetView:
    """What the sheet fragment shows, in the words `show` uses."""

    title: str
    players: list[str]
    note: str
    hollywood: bool
    columns: int
    """The ledger's figure columns: a player each, or on a Hollywood sheet a game each."""
    rows: list[dict[str, Any]]
    ends: list[dict[str, Any]]
    game_ends: list[str]
    chart: Markup | None
    """The chart inline, or None when it is a picture at `chart_url`."""
    chart_title: str
    chart_url: str
    hands: int
    not_shown: int
    """How many of the first hands the table leaves out (a long match shows its last `SHOWN_HANDS`)."""
    version: str = ""
    board: Board | None = None
    result: Result | None = None
    """Set once the match is over: the page leads with it instead of the scoreboard's running totals."""
    next_dealer: str = ""
    """Who deals next: between hands, and after the match, the first dealer of the next one."""
    series: str = ""
    """The players' series over the folder's finished games, `Series: Ann 3 – Bob 2`; empty before the first."""
    series_last: str = ""
    """The series' latest game in a line, `Ann won 301 – 118`, and the streak when there is one."""


def sheet_view(
    sheet: Sheet, version: str = "", every_hand: bool = False, chart_url: str = "", odds: MatchOdds | None = None,
    series: Series | None = None,
) -> SheetView:
    """The sheet as the page shows it: the scoreboard (or the result once over), each hand's result in words and
    the running totals, the ends and the chart.

    A Hollywood sheet's ledger has a column a game, each cell the two players' totals in that game, one above
    the other; nothing is summed over the games until all three are over.
    A long match shows its last `SHOWN_HANDS` hands unless `every_hand`, and its chart as a picture from
    `chart_url` rather than inline, so that a phone is not sent a megabyte at every hand.
    """
    match = sheet.match
    rows = []
    first = 0 if every_hand else max(0, len(sheet.lines) - SHOWN_HANDS)
    cells: list[dict[str, Any]]
    for line, record in list(zip(sheet.lines, match.hands))[first:]:
        if match.hollywood:
            cells = [{"stack": [{"text": str(column[player]), "won": player == line.winner and index in line.columns}
                                for player in match.players]} for index, column in enumerate(line.column_totals)]
        else:
            cells = [{"text": str(line.totals[player]), "won": player == line.winner} for player in match.players]
        detail = [f"{line.dealer} dealt"]
        if line.knocker:
            detail.append(f"{line.knocker} knocked")
        if counts_words(line):
            detail.append(counts_words(line).replace(" ", "\u00a0"))  # `2 / 30` never splits
        if match.rules.oklahoma and record.upcard:
            detail.append(upcard_words(record.upcard, card_face).replace(" ", "\u00a0").replace("-", "\u2011"))  # one piece
        if line.multiplier > 1:
            detail.append(f"×{line.multiplier}")
        if match.hollywood and line.columns:  # the games the points went into; their totals are the columns
            games = ", ".join(str(index + 1) for index in line.columns)
            detail.append(f"in game{'s' if len(line.columns) > 1 else ''} {games}")
        if line.knocker is not None:
            detail += sides_words(line.scored, line.knocker, match.other(line.knocker), card_face)
        rows.append({"number": line.number, "result": line.result, "words": hand_words(line.result, line.winner, line.points),
                     "detail": detail, "note": record.note, "cells": cells})
    ends = _hollywood_ends(sheet) if match.hollywood else _ends(sheet)
    game_ends = game_end_lines(sheet)
    chart = sheet_chart(sheet)
    inline = len(sheet.lines) <= INLINE_CHART_HANDS or not chart_url
    return SheetView(
        title=sheet_title(sheet, spoken=True), players=list(match.players), note=match.note, hollywood=match.hollywood,
        columns=len(sheet.games) if match.hollywood else 2, rows=rows, ends=ends, game_ends=game_ends,
        chart=Markup(chart_svg(chart)) if inline else None, chart_title=chart.title,
        chart_url=f"{chart_url}?v={quote(version)}" if not inline else "", hands=len(match.hands), not_shown=first,
        version=version, board=board(sheet, odds), result=result(sheet), next_dealer=sheet.next_dealer,
        **_series_lines(series),
    )


def _series_lines(series: Series | None) -> dict[str, str]:
    if series is None or series.last is None:
        return {}
    last = won_words(series.last.winner, dict(series.last.final))
    streak = series.streak
    if streak is not None and streak[1] > 1:
        last += f"; {streak[0]} has won {streak[1]} in a row"
    return {"series": series_words(series), "series_last": last}


def _ends(sheet: Sheet) -> list[dict[str, Any]]:
    """The ledger's foot, summed over the games: points and boxes, and once the match is over its bonuses and final."""
    return _row_dicts(final_rows(sheet))


def _row_dicts(rows: Iterable[FinalRow]) -> list[dict[str, Any]]:
    return [{"label": row.label, "css": row.kind, "cells": list(row.cells)} for row in rows]


def _hollywood_ends(sheet: Sheet) -> list[dict[str, Any]]:
    """A Hollywood ledger's foot, a column a game: the boxes, and each game's final once all three are over."""
    players = sheet.match.players
    ends = [{"label": "boxes", "css": "boxes", "cells": [{"stack": [{"text": str(game.boxes[p])} for p in players]}
                                                        for game in sheet.games]}]
    if sheet.finished:
        ends.append({"label": "final", "css": "final", "cells": [{"stack": [{"text": str(game.final[p])} for p in players]}
                                                                for game in sheet.games]})
    return ends


def board(sheet: Sheet, odds: MatchOdds | None = None) -> Board:
    """The scoreboard: each game's totals (its finals once over), the boxes, who is ahead, the target, the dealer,
    and with `odds` each game in play's chance."""
    match = sheet.match
    games = []
    for index, game in enumerate(sheet.games):
        figures = game.final if game.finished else game.totals
        level = len(set(figures.values())) == 1
        cells = [BoardCell(figures[p], "final" if game.finished else _boxes(game.boxes[p]),
                           not level and figures[p] == max(figures.values())) for p in match.players]
        label = f"Game {index + 1}" if match.hollywood else "Score"
        games.append(BoardGame(label, game.finished, cells, lead_words(figures, game.finished)))
    chances, source = [], ""
    if odds is not None and not sheet.finished:
        for in_play in odds.games:
            if not in_play.finished:
                label = f"Game {in_play.number}: " if match.hollywood else ""
                chances.append(label + both_chances(in_play.chance))
        source = odds.model.source
    return Board(games, target_words(match.rules, match.hollywood), sheet.next_dealer, chances, source)


def _boxes(count: int) -> str:
    return f"{count} box" if count == 1 else f"{count} boxes"


def result(sheet: Sheet) -> Result | None:
    """The result block of a finished match, from the card "Share the result" draws, so that the two cannot say
    different things; None while it is in play."""
    card = result_card(sheet)
    if card is None:
        return None
    return Result(headline=card.headline, winner=card.winner, finals=list(card.finals), rows=_row_dicts(card.rows),
                  notes=list(card.notes))


def next_game_post(request: Request, form: dict[str, str]) -> Response:
    """Next game: a new match of the finished one's players and rules, in a file named for them, and on to it."""
    folder, finished = folder_of(request), request.path_params["name"]
    already = folder.started_after(finished)  # a page opened before another phone started it
    name, _ = folder.next_game(finished, form.get("dealer") or None)
    return redirect(request, "match", "started=earlier", name=name) if already else redirect(request, "match", name=name)


def next_game_refused(request: Request, form: dict[str, str], error: GinscoreError) -> Response:
    """The finished match's page again, with why the next game did not start."""
    name = request.path_params["name"]
    folder = folder_of(request)
    sheet = load_sheet(folder, name)
    view = sheet_view(sheet, folder.version(name), False, url_path(request.app, "chart", name=name))
    shown = next_game_view(sheet, folder, name)  # back in play (a hand undone meanwhile): the reason goes where the notices go
    return render(request, "match.html", {"name": name, "view": view, "exports": EXPORTS, "message": "" if shown else str(error),
                                          "errors": {"next": str(error)}, "next_game": shown, **_sheet_links(request, name)},
                  error.http_status)


def match_page(request: Request, form: dict[str, str]) -> Response:
    """A match: the sheet with every running total, the verdict, the chart, notes and the downloads."""
    name = request.path_params["name"]
    folder = folder_of(request)
    version = folder.version(name)
    sheet = load_sheet(folder, name)
    view = _view(folder, name, sheet, version, request)
    message = ""
    if request.query_params.get("started") == "earlier" and not sheet.lines:
        message = f"This game was started already, on this phone or another; {sheet.next_dealer} deals first."
    for key, words in (("recorded", "Recorded"), ("removed", "Removed"), ("edited", "Replaced")):
        number = _linked_number(request.query_params.get(key, ""))
        if number is not None:  # a link says only which hand, nothing else
            message = f"{words} hand {number}."
            break
    message = merged_words(request.query_params) or message
    from .review_pages import match_review_line

    return render(request, "match.html", {"name": name, "view": view, "exports": EXPORTS, "message": message,
                                          "next_game": next_game_view(sheet, folder, name), **_sheet_links(request, name),
                                          "review_line": match_review_line(folder, name, version, sheet)})


def _linked_number(text: str) -> int | None:
    """A hand's number as a link after a change gives it; None for anything else, a number of thousands of digits too."""
    try:
        return read_whole(text)
    except InputError:
        return None


def _view(folder: Folder, name: str, sheet: Sheet, version: str, request: Request) -> SheetView:
    """A match page's sheet, with its chances and its series, both drawn from the folder's matches read once."""
    odds, series = folder.table.beside(sheet)
    return sheet_view(sheet, version, _every_hand(request), url_path(request.app, "chart", name=name), odds, series)


def sheet_fragment(request: Request, form: dict[str, str]) -> Response:
    """The sheet alone, for the live page to swap in."""
    name = request.path_params["name"]
    folder = folder_of(request)
    sheet = load_sheet(folder, name)
    view = _view(folder, name, sheet, folder.version(name), request)
    return render(request, "_sheet.html", {"view": view, "next_game": next_game_view(sheet, folder, name), **_sheet_links(request, name)})


def _every_hand(request: Request) -> bool:
    return request.query_params.get("all") == "1"


def _sheet_links(request: Request, name: str) -> dict[str, str]:
    """The sheet's links: a hand to edit, every hand, and the fragment the live page fetches (same choice), and
    the match's `name` for its buttons."""
    every = "?all=1" if _every_hand(request) else ""
    return {"name": name, "edit_url": url_path(request.app, "edit_pick", name=name), "all_url": url_path(request.app, "match", name=name) + "?all=1",
            "sheet_url": url_path(request.app, "sheet", name=name) + every}


def chart(request: Request, form: dict[str, str]) -> Response:
    """A long match's chart as an SVG picture, kept by the browser until the file changes (`?v=`)."""
    name = request.path_params["name"]
    sheet = load_sheet(folder_of(request), name)
    return Response(chart_svg(sheet_chart(sheet)), media_type="image/svg+xml",
                    headers={"Cache-Control": "private, max-age=31536000, immutable"})


def result_picture(request: Request, form: dict[str, str]) -> Response:
    """A finished match's result card as SVG, the picture "Share the result" draws; a page saying so while the
    match is in play."""
    name = request.path_params["name"]
    folder = folder_of(request)
    sheet = load_sheet(folder, name)
    card = result_card(sheet, folder.table.series(sheet))
    if card is None:
        over = "the three games are over" if sheet.match.hollywood else "the game is won"
        return render(request, "problem.html", {"heading": "No result yet",
                                                "message": f"This match is still in play: its result can be shared once {over}."}, 404)
    return Response(card_svg(card), media_type="image/svg+xml", headers={"Cache-Control": "no-store"})


def version(request: Request, form: dict[str, str]) -> Response:
    """The match file's version, polled by open pages to see other people's hands."""
    return JSONResponse({"version": folder_of(request).version(request.path_params["name"])}, headers={"Cache-Control": "no-store"})


def export(request: Request, form: dict[str, str]) -> Response:
    """One of `show --export`'s files, as a download."""
    name, kind = request.path_params["name"], request.path_params["kind"]
    body, media = export_of(folder_of(request), name, kind)
    stem = name[:-5] if name.endswith(".toml") else name
    ascii_stem = "".join(ch if ch.isascii() and (ch.isalnum() or ch in "-_.") else "_" for ch in stem) or "match"
    return Response(body, media_type=media, headers={"Content-Disposition": f'attachment; filename="{ascii_stem}.{kind}"'})


# --- undo ---------------------------------------------------------------------------------------------------


def undo_page(request: Request, form: dict[str, str]) -> Response:
    """Undo, step one: which hand would go, and a button to confirm."""
    name = request.path_params["name"]
    info = match_info(folder_of(request), name)
    return render(request, "undo.html", _undo_context(info))


def _undo_context(info: MatchInfo) -> dict[str, Any]:
    last = ""
    if info.sheet.lines:
        line = info.sheet.lines[-1]
        last = hand_words(line.result, line.winner, line.points)
    return {"name": info.name, "players": info.players, "hands": info.hands, "last": last}


def undo_post(request: Request, form: dict[str, str]) -> Response:
    """Undo, step two: remove the last hand, only if it is still the one the page showed."""
    name = request.path_params["name"]
    expected = number_field("expected_hands", form.get("expected_hands", ""))
    if expected is None:
        raise InputError("the page did not say which hand it showed: reload it and try again", field="expected_hands")
    change = folder_of(request).undo(name, expected)
    return redirect(request, "match", f"removed={len(change.before.match.hands)}", name=name)


def undo_refused(request: Request, form: dict[str, str], error: GinscoreError) -> Response:
    """The undo page again, with why nothing was removed."""
    info = match_info(folder_of(request), request.path_params["name"])
    return render(request, "undo.html", {**_undo_context(info), "errors": {"": str(error)}}, error.http_status)


def fragment_refused(request: Request, form: dict[str, str], error: GinscoreError) -> Response:
    """A part of a page the script swaps in, refused: the message where the part would be."""
    return HTMLResponse(f'<p class="error">{escaped(problem_words(error))}</p>', error.http_status)


def json_refused(request: Request, form: dict[str, str], error: GinscoreError) -> Response:
    """The version a page polls for, refused: the API's shape of a refusal."""
    return JSONResponse(error_dict(error, str(error)), error.http_status)

"""The phone pages of `ginscore serve`: the folder, a match, record, edit, undo and check.

Server-rendered Jinja2 templates (`templates/`, autoescaped) that work with plain forms and links; the one static
script (`static/pages.js`) makes the card picker toggle in place and keeps a match's sheet live. Every answer
about cards comes from the server (`hands.check`, `Folder.preview`, `hands.advise`): the script never solves
a hand itself. The card picker keeps its picked cards in hidden inputs, so without script each card is a submit
button (`name="toggle" value="3h"`) that re-renders the form with the card toggled.

Routes are short: they read the form, call `service`, and render. A refusal is shown next to the field it is
about, in the CLI's words, with everything the person typed or picked kept.
"""

from __future__ import annotations

import functools
import logging
import os
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from markupsafe import Markup
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Route
from starlette.templating import Jinja2Templates

from ..errors import GinscoreError, InputError, StaleError
from ..game.cards import DECK, Card, Rank, Suit, parse_card
from ..game.check import verdict as knock_verdict
from ..game.rulebook import PRESETS
from ..match.tally import Sheet
from ..sheets.svg_chart import chart_svg, sheet_chart
from ..sheets.words import BONUS_WORDS, counts_words, game_end, hand_words, sheet_title, summary_rows, verdict
from . import hands
from .security import CSRF_FIELD, check_csrf, csrf_token
from .service import Folder, NotFoundError, status_of

log = logging.getLogger("ginscore.web")

HERE = os.path.dirname(os.path.abspath(__file__))
TEMPLATES = Jinja2Templates(directory=os.path.join(HERE, "templates"))
EXPORTS = (("html", "Sheet (HTML)"), ("svg", "Chart (SVG)"), ("csv", "Table (CSV)"), ("md", "Table (Markdown)"))
RANK_WORDS = {Rank.ACE: "ace", Rank.JACK: "jack", Rank.QUEEN: "queen", Rank.KING: "king"}
SUIT_WORDS = {Suit.CLUBS: "clubs", Suit.DIAMONDS: "diamonds", Suit.HEARTS: "hearts", Suit.SPADES: "spades"}
SHOWN_SUITS = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
"""The picker's rows, top to bottom: black and red alternate, and the symbol and word say the suit anyway."""
FALLBACK_500 = ('<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>ginscore</title>'
                '<meta name="viewport" content="width=device-width, initial-scale=1"></head><body><main>'
                "<h1>Something went wrong</h1><p>Something went wrong; nothing was written.</p></main></body></html>")
SHOWN_HANDS = 40
"""The hands a long match's table shows, its last ones, unless every hand is asked for."""
INLINE_CHART_HANDS = 60
"""Up to this many hands the chart is inline SVG (a few kilobytes); beyond, a picture the browser keeps."""
KEPT = ("knocker", "how", "deadwood", "opponent_deadwood", "big_gin", "discard", "upcard", "note", "expected_hands", "spread")
"""A hand form's fields that are re-rendered as they were typed."""


def card_words(card: Card) -> str:
    """A card in words, as a screen reader says the picker's button: `3 of hearts`, `ace of spades`."""
    return f"{RANK_WORDS.get(card.rank, str(int(card.rank)))} of {SUIT_WORDS[card.suit]}"


DECK_CHOICES = [(str(card), card_words(card)) for suit in SHOWN_SUITS for card in DECK if card.suit == suit]


# --- plumbing --------------------------------------------------------------------------------------------


def _folder(request: Request) -> Folder:
    folder: Folder = request.app.state.folder
    return folder


def url_path(app: Any, route: str, **params: Any) -> str:
    """A route's path, each parameter quoted: a file named `a b#1.toml` links as `/m/a%20b%231.toml`."""
    return str(app.url_path_for(route, **{key: quote(str(value), safe="") for key, value in params.items()}))


def render(request: Request, template: str, context: dict[str, Any], status: int = 200) -> HTMLResponse:
    """A template with the helpers every page uses: `path`, `static` and the CSRF field."""
    app = request.app

    def path(route: str, **params: Any) -> str:
        return url_path(app, route, **params)

    def static(file: str) -> str:
        return str(app.url_path_for("static", path=file))

    context = {"path": path, "static": static, "csrf_name": CSRF_FIELD, "csrf_token": csrf_token(request),
               "errors": {}, **context}
    response: HTMLResponse = TEMPLATES.TemplateResponse(request, template, context, status_code=status)
    return response


def _redirect(request: Request, route: str, query: str = "", **params: Any) -> RedirectResponse:
    path = url_path(request.app, route, **params)
    return RedirectResponse(path + (f"?{query}" if query else ""), status_code=303)


def _problem(request: Request, error: GinscoreError) -> HTMLResponse:
    """A page of its own for an error with nothing to keep: a missing or broken match file."""
    heading = "No such match" if status_of(error) == 404 else "This match cannot be shown"
    return render(request, "problem.html", {"heading": heading, "message": str(error)}, status_of(error))


class CsrfRefused(Exception):
    """A posted form without this server's CSRF token: answered with a page saying to reload, status 403."""


async def _form(request: Request) -> dict[str, str]:
    """The posted form, text fields only (the last of a repeated one), after the CSRF check."""
    form: FormData = await request.form()
    if not check_csrf(request, form):
        raise CsrfRefused()
    return {key: value for key, value in form.multi_items() if isinstance(value, str)}


def _error_place(error: GinscoreError, fields: tuple[str, ...]) -> str:
    """Where on the form an error belongs: its field when the form has one, else the top."""
    if isinstance(error, StaleError):
        return "stale"
    name = error.field or ""
    if name in fields:
        return name
    text = str(error)
    for candidate in fields:
        if text.startswith(f"{candidate}:") or text.startswith(f"--{candidate.replace('_', '-')}"):
            return candidate
    return ""


def load_sheet(folder: Folder, name: str) -> Sheet:
    """The match's sheet; a broken file's problems name the file as the person named it."""
    return folder.sheet(name)


# --- the sheet -------------------------------------------------------------------------------------------


@dataclass
class SheetView:
    """What the sheet fragment shows, in the words `show` uses."""

    title: str
    players: list[str]
    note: str
    hollywood: bool
    games: list[dict[str, Any]]
    columns: int
    rows: list[dict[str, Any]]
    ends: list[dict[str, Any]]
    game_ends: list[str]
    verdict: str
    chart: Markup | None
    """The chart inline, or None when it is a picture at `chart_url`."""
    chart_title: str
    chart_url: str
    hands: int
    not_shown: int
    """How many of the first hands the table leaves out (a long match shows its last `SHOWN_HANDS`)."""
    version: str = ""


def sheet_view(sheet: Sheet, version: str = "", every_hand: bool = False, chart_url: str = "") -> SheetView:
    """The sheet as the page shows it: each hand's result in words and the running totals, the ends and the chart.

    A phone has room for two totals beside the words, so a Hollywood sheet shows the totals summed over the
    three games (as the chart does), each hand's games under its words, and each game's totals in a table below.
    A long match shows its last `SHOWN_HANDS` hands unless `every_hand`, and its chart as a picture from
    `chart_url` rather than inline, so that a phone is not sent a megabyte at every hand.
    """
    match = sheet.match
    rows = []
    first = 0 if every_hand else max(0, len(sheet.lines) - SHOWN_HANDS)
    for line, record in list(zip(sheet.lines, match.hands))[first:]:
        cells = [{"text": str(line.totals[player]), "won": player == line.winner} for player in match.players]
        detail = [f"{line.dealer} dealt"]
        if line.knocker:
            detail.append(f"{line.knocker} knocked")
        if counts_words(line):
            detail.append(counts_words(line).replace(" ", "\u00a0"))  # `2 / 30` never splits
        if line.multiplier > 1:
            detail.append(f"×{line.multiplier}")
        if match.hollywood:
            for index in line.columns:
                column = line.column_totals[index]
                detail.append(f"game {index + 1}: " + ", ".join(f"{player} {column[player]}" for player in match.players))
        rows.append({"number": line.number, "result": line.result, "words": hand_words(line.result, line.winner, line.points),
                     "detail": detail, "note": record.note, "cells": cells})
    summary = {row[0]: row[1:] for row in summary_rows(sheet)}
    labels = ["points", "boxes", *BONUS_WORDS.values(), "final"]
    finished = any(game.finished for game in sheet.games)
    ends = []
    for index, label in enumerate(labels):
        values = [summary[player][index] for player in match.players]
        if index >= 2 and not finished or (label == BONUS_WORDS["shutout"] and not any(v != "0" for v in values)):
            continue
        ends.append({"label": label, "css": label.split()[0] if index < 2 or label == "final" else list(BONUS_WORDS)[index - 2],
                     "cells": values})
    games = [{"label": f"Game {index + 1}", "over": game.finished,
              "cells": [game.final[p] if game.finished else game.totals[p] for p in match.players]}
             for index, game in enumerate(sheet.games)] if match.hollywood else []
    game_ends = [(f"Game {index + 1}: " if match.hollywood else "") + game_end(game, match.rules)
                 for index, game in enumerate(sheet.games) if game.finished]
    chart = sheet_chart(sheet)
    inline = len(sheet.lines) <= INLINE_CHART_HANDS or not chart_url
    return SheetView(
        title=sheet_title(sheet), players=list(match.players), note=match.note, hollywood=match.hollywood,
        games=games, columns=2, rows=rows, ends=ends, game_ends=game_ends,
        verdict=verdict(sheet), chart=Markup(chart_svg(chart)) if inline else None, chart_title=chart.title,
        chart_url=f"{chart_url}?v={quote(version)}" if not inline else "", hands=len(match.hands), not_shown=first,
        version=version,
    )


def folder_page(request: Request, form: dict[str, str]) -> Response:
    """The folder: every match file with its score, and the form that starts a new match."""
    return _folder_page(request, {"rules": "standard"})


def _folder_page(request: Request, form: Mapping[str, str], errors: dict[str, str] | None = None, status: int = 200) -> Response:
    entries = sorted(_folder(request).listing(), key=lambda entry: entry.get("last_played") or "", reverse=True)
    entries.sort(key=_folder_order)  # stable: the latest played first within each kind
    return render(request, "folder.html", {"entries": entries, "when": when, "form": _Form(form), "presets": list(PRESETS),
                                           "errors": errors or {}}, status)


def new_match(request: Request, form: dict[str, str]) -> Response:
    """Start a match from the folder page's form; a refusal re-renders the form with what was typed."""
    players = [form.get("player1", "").strip(), form.get("player2", "").strip()]
    file = form.get("file", "").strip() or _file_name(players)
    settings = [line.strip() for line in form.get("settings", "").splitlines() if line.strip()]
    if form.get("target", "").strip():
        settings.append(f"target={form['target'].strip()}")
    fields = {"file": file, "players": players, "rules": form.get("rules", "standard"), "set": settings,
              "note": form.get("note", ""), "hollywood": form.get("hollywood", "")}
    try:
        made = _folder(request).new(fields)
    except GinscoreError as error:
        place = _error_place(error, ("file", "players", "rules", "settings", "target", "note"))
        knobs = [line.partition("=")[0].strip() for line in settings]
        if place == "" and any(knob and str(error).startswith(knob) for knob in knobs):
            place = "target" if str(error).startswith("target") and form.get("target", "").strip() else "settings"
        return _folder_page(request, form, {place: str(error)}, status_of(error))
    return _redirect(request, "match", name=made["name"])


def _folder_order(entry: dict[str, Any]) -> int:
    """Matches in play first, then finished ones, then files that cannot be used."""
    return {"playing": 0, "finished": 1}.get(entry["status"], 2)


def when(stamp: str | None) -> str:
    """An ISO 8601 time as a person reads it on a phone: `2026-11-30 23:11 UTC`."""
    if not stamp:
        return ""
    from datetime import UTC, datetime

    try:
        moment = datetime.fromisoformat(stamp)
    except ValueError:
        return stamp
    if moment.tzinfo is not None:
        moment = moment.astimezone(UTC)
        return moment.strftime("%Y-%m-%d %H:%M UTC")
    return moment.strftime("%Y-%m-%d %H:%M")


def _file_name(players: list[str]) -> str:
    """A file name made from the players' names when the form leaves it empty: `ann-bob.toml`."""
    words = ["".join(ch.lower() if ch.isalnum() else "-" for ch in player).strip("-") for player in players]
    base = "-".join(word for word in words if word) or "match"
    return base[:60] + ".toml"


def match_page(request: Request, form: dict[str, str]) -> Response:
    """A match: the sheet with every running total, the verdict, the chart, notes and the downloads."""
    name = request.path_params["name"]
    folder = _folder(request)
    try:
        version = folder.version(name)
        view = sheet_view(load_sheet(folder, name), version, _every_hand(request), url_path(request.app, "chart", name=name))
    except GinscoreError as error:
        return _problem(request, error)
    message = ""
    for key, words in (("recorded", "Recorded"), ("removed", "Removed"), ("edited", "Replaced")):
        number = request.query_params.get(key, "")
        if number.isascii() and number.isdigit() and len(number) < 7:  # a link says only which hand, nothing else
            message = f"{words} hand {number}."
            break
    return render(request, "match.html", {"name": name, "view": view, "exports": EXPORTS, "message": message,
                                          **_sheet_links(request, name)})


def sheet_fragment(request: Request, form: dict[str, str]) -> Response:
    """The sheet alone, for the live page to swap in."""
    name = request.path_params["name"]
    folder = _folder(request)
    try:
        view = sheet_view(load_sheet(folder, name), folder.version(name), _every_hand(request),
                          url_path(request.app, "chart", name=name))
    except GinscoreError as error:
        return HTMLResponse(f'<p class="error">{_escape(str(error))}</p>', status_of(error))
    return render(request, "_sheet.html", {"view": view, **_sheet_links(request, name)})


def _every_hand(request: Request) -> bool:
    return request.query_params.get("all") == "1"


def _sheet_links(request: Request, name: str) -> dict[str, str]:
    """The sheet's links: a hand to edit, every hand, and the fragment the live page fetches (same choice)."""
    every = "?all=1" if _every_hand(request) else ""
    return {"edit_url": url_path(request.app, "edit_pick", name=name), "all_url": url_path(request.app, "match", name=name) + "?all=1",
            "sheet_url": url_path(request.app, "sheet", name=name) + every}


def chart(request: Request, form: dict[str, str]) -> Response:
    """A long match's chart as an SVG picture, kept by the browser until the file changes (`?v=`)."""
    name = request.path_params["name"]
    try:
        sheet = load_sheet(_folder(request), name)
    except GinscoreError as error:
        return _problem(request, error)
    return Response(chart_svg(sheet_chart(sheet)), media_type="image/svg+xml",
                    headers={"Cache-Control": "private, max-age=31536000, immutable"})


def version(request: Request, form: dict[str, str]) -> Response:
    """The match file's version, polled by open pages to see other people's hands."""
    try:
        return JSONResponse({"version": _folder(request).version(request.path_params["name"])},
                            headers={"Cache-Control": "no-store"})
    except GinscoreError as error:
        return JSONResponse({"error": str(error)}, status_of(error))


def export(request: Request, form: dict[str, str]) -> Response:
    """One of `show --export`'s files, as a download."""
    name, kind = request.path_params["name"], request.path_params["kind"]
    try:
        body, media = _folder(request).exports(name, kind)
    except GinscoreError as error:
        return _problem(request, error)
    stem = name[:-5] if name.endswith(".toml") else name
    ascii_stem = "".join(ch if ch.isascii() and (ch.isalnum() or ch in "-_.") else "_" for ch in stem) or "match"
    return Response(body, media_type=media, headers={"Content-Disposition": f'attachment; filename="{ascii_stem}.{kind}"'})


def _escape(text: str) -> str:
    from html import escape

    return escape(text)


# --- the card picker --------------------------------------------------------------------------------------


def split_cards(text: str) -> list[str]:
    """Card codes from a hidden field or a stored spread (`|` groups ignored), each in canonical notation
    when it is a card; anything else is kept as typed, for the solver to refuse in its words."""
    codes: list[str] = []
    for word in text.replace("|", " ").replace(",", " ").split():
        try:
            code = str(parse_card(word))
        except GinscoreError:
            code = word
        if code not in codes:
            codes.append(code)
    return codes


@dataclass
class Picker:
    """The picker's state: whose cards are being picked, and each side's cards."""

    sides: list[dict[str, Any]]
    picking: str
    legend: str = "Cards"

    def cards(self, key: str) -> list[str]:
        return next(side["codes"] for side in self.sides if side["key"] == key)

    @property
    def suits(self) -> list[dict[str, Any]]:
        mine = set(self.cards(self.picking))
        others = {code for side in self.sides if side["key"] != self.picking for code in side["codes"]}
        rows = []
        for suit in SHOWN_SUITS:
            cards = [{"code": str(card), "rank": card.rank.label, "words": card_words(card),
                      "pressed": str(card) in mine, "other": str(card) in others}
                     for card in DECK if card.suit == suit]
            rows.append({"word": SUIT_WORDS[suit], "symbol": suit.symbol, "cards": cards})
        return rows


def picker_from(form: Mapping[str, str], sides: list[tuple[str, str, str]], legend: str) -> Picker:
    """The picker as the form left it, with the pressed button applied: `side` switches whose cards are
    picked, `toggle` adds or removes a card, `clear` empties the side being picked."""
    keys = [key for key, _, _ in sides]
    picking = form.get("side") or form.get("picking") or keys[0]
    if picking not in keys:
        picking = keys[0]
    state: list[dict[str, Any]] = [{"key": key, "field": name, "label": label, "codes": split_cards(form.get(name, ""))}
                                   for key, name, label in sides]
    current = next(side for side in state if side["key"] == picking)
    toggle = form.get("toggle")
    if toggle:
        code = split_cards(toggle)[0] if split_cards(toggle) else toggle
        taken = any(code in side["codes"] for side in state if side is not current)
        if code in current["codes"]:
            current["codes"].remove(code)
        elif not taken:
            current["codes"].append(code)
    if form.get("clear"):
        current["codes"] = []
    for side in state:
        side["value"] = " ".join(side["codes"])
        side["count"] = len(side["codes"])
    return Picker(state, picking, legend)


UPCARD_FIRST = "pick the up-card: its value is the knock limit"
"""The verdict on an Oklahoma hand before its up-card is picked."""


def _judge(cards: list[str], judged_by: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """What `check` says about the picked cards, or what is still missing; None when none are picked.
    `judged_by` is None for an Oklahoma match whose up-card is not picked yet: the melds, and no verdict."""
    if not cards:
        return None
    if len(cards) < 10:
        missing = 10 - len(cards)
        return {"waiting": f"{len(cards)} picked: {missing} more card{'s' if missing > 1 else ''} for a hand."}
    try:
        answer = hands.check({"cards": " ".join(cards), **(judged_by or {})})
    except GinscoreError as error:
        return {"error": str(error)}
    if judged_by is None:
        answer["verdict"] = UPCARD_FIRST
    else:
        answer["verdict"] = knock_verdict(answer["deadwood"], answer["big_gin"], answer["knock_limit"])
    return answer


# --- record and edit --------------------------------------------------------------------------------------


class _Form(dict[str, str]):
    """The form's values for a template: a missing field reads as empty."""

    def __getattr__(self, name: str) -> str:
        return self.get(name, "")


@dataclass
class MatchInfo:
    name: str
    players: list[str]
    hands: int
    rules: dict[str, Any]
    sheet: Sheet | None = None

    def judged_by(self, upcard: str = "") -> dict[str, Any] | None:
        """The fields `check` and `advise` judge this match's hands by: every knob of its rules, and under
        Oklahoma the up-card, whose value is the knock limit (None until one is picked)."""
        knobs = dict(self.rules)
        if not knobs.get("oklahoma"):
            return {"set": knobs}
        if not upcard:
            return None
        knobs.pop("knock_limit", None)  # the up-card sets it
        return {"set": knobs, "upcard": upcard}


def _match_info(folder: Folder, name: str) -> MatchInfo:
    sheet = load_sheet(folder, name)
    from ..match.tally import sheet_dict

    rules = sheet_dict(sheet)["rules"]
    return MatchInfo(name, list(sheet.match.players), len(sheet.match.hands), rules, sheet)


def _hand_sides(players: list[str], knocker: str) -> list[tuple[str, str, str]]:
    """The picker's two sides, named after the players when the knocker is chosen."""
    opponent = next((p for p in players if p != knocker), "") if knocker in players else ""
    return [("knocker", "cards", f"{knocker}'s cards" if knocker in players else "Knocker's cards"),
            ("opponent", "opponent_cards", f"{opponent}'s cards" if opponent else "Opponent's cards")]


def hand_fields(form: Mapping[str, str], picker: Picker, choice: dict[str, Any] | None = None) -> dict[str, str]:
    """The service's hand fields from the form: only those of the way the hand is entered."""
    how = form.get("how") or ("cards" if picker.cards("knocker") else "counts")
    fields = {"note": form.get("note", ""), "expected_hands": form.get("expected_hands", "")}
    if how == "cancelled":
        return {**fields, "cancelled": "on"}
    fields.update(knocker=form.get("knocker", ""), upcard=form.get("upcard", ""))
    if how == "cards":
        fields.update(cards=" ".join(picker.cards("knocker")), opponent_cards=" ".join(picker.cards("opponent")),
                      discard=form.get("discard", ""))
        if choice is not None:
            fields.update(cards=choice["cards"], discard=choice.get("discard") or "")
    else:
        fields.update(deadwood=form.get("deadwood", ""), opponent_deadwood=form.get("opponent_deadwood", ""),
                      big_gin=form.get("big_gin", ""))
    return fields


def _complete(form: Mapping[str, str], picker: Picker) -> bool:
    """Whether the form says enough for a preview worth showing while the person is still picking."""
    how = form.get("how") or ("cards" if picker.cards("knocker") else "counts")
    if how == "cancelled":
        return True
    if not form.get("knocker"):
        return False
    if how == "cards":
        return len(picker.cards("knocker")) in (10, 11) and len(picker.cards("opponent")) == 10
    return bool(form.get("deadwood", "").strip() and form.get("opponent_deadwood", "").strip())


def _choice_words(choice: dict[str, Any], knocker: str, opponent: str) -> str:
    """A spread's result in the sheet's words, with the players' names for `knocker` and `opponent`."""
    winner = {"knocker": knocker, "opponent": opponent}.get(choice["winner"], choice["winner"])
    return hand_words(choice["result"], winner, choice["points"])


def preview_view(folder: Folder, name: str, fields: Mapping[str, str], chosen: str) -> dict[str, Any]:
    """The preview box: the score the hand will get and the spread used; both spreads when they differ."""
    try:
        found = folder.preview(name, {k: v for k, v in fields.items() if k != "expected_hands"})
    except GinscoreError as error:
        return {"error": str(error)}
    hand = found["hand"]
    view: dict[str, Any] = {"words": hand_words(hand["result"], hand["winner"], hand["points"]), "choices": []}
    best, lowest = found.get("spread"), found.get("lowest")
    if best:
        view["spread"] = best["cards"]
    knocker = hand["knocker"] or ""
    opponent = next((name for name in hand["totals"] if name != knocker), "")
    if best and lowest and (lowest["points"], lowest["winner"]) != (best["points"], best["winner"]):
        view["choice_question"] = "Which spread was laid down? They score differently."
        view["choices"] = [
            {"value": "best", "label": f"Best for {knocker}: {best['cards']} ({_choice_words(best, knocker, opponent)})",
             "checked": chosen != "lowest"},
            {"value": "lowest", "label": f"Least deadwood: {lowest['cards']} ({_choice_words(lowest, knocker, opponent)})",
             "checked": chosen == "lowest"},
        ]
        if chosen == "lowest":
            view["words"], view["spread"] = _choice_words(lowest, knocker, opponent), lowest["cards"]
    return view


def _record_context(request: Request, info: MatchInfo, form: Mapping[str, str], picker: Picker, *,
                    heading: str, action: str, live_url: str, save_label: str, preview: bool) -> dict[str, Any]:
    kept = _Form({key: form.get(key, "") for key in KEPT})
    if not kept.get("how"):
        kept["how"] = "cards" if picker.cards("knocker") or picker.cards("opponent") else "counts"
    context: dict[str, Any] = {
        "name": info.name, "players": info.players, "hands_seen": info.hands, "form": kept,
        "score": info.sheet.score_text() if info.sheet is not None else "", "picker": picker,
        "heading": heading, "action": action, "live_url": live_url, "save_label": save_label,
        "oklahoma": bool(info.rules.get("oklahoma")), "deck": DECK_CHOICES,
        "discard_choices": [(code, code) for code in picker.cards("knocker")] if len(picker.cards("knocker")) > 10 else [],
        "check": _judge(picker.cards("knocker"), info.judged_by(form.get("upcard", ""))) if kept["how"] == "cards" else None,
        "preview": None,
    }
    if preview:
        context["preview"] = preview_view(_folder(request), info.name, hand_fields(form, picker), form.get("spread", ""))
    return context


HAND_PLACES = ("knocker", "deadwood", "opponent_deadwood", "big_gin", "cards", "opponent_cards", "discard", "upcard", "note")
"""The hand form's fields an error can be shown beside."""


def _hand_error_place(message: str, fields: Mapping[str, str]) -> str:
    """Which field a hand's refusal is about, from its words, when the error does not name its field: the
    knocker's cards or count for an illegal knock, the up-card, the knocker, the discard, the opponent's side."""
    by_cards = "cards" in fields
    lowered = message.lower()
    if "upcard" in lowered or "up-card" in lowered or "knock card" in lowered:
        return "upcard"
    if "--knocker" in lowered or "who knocked" in lowered or "not a player" in lowered:
        return "knocker"
    if "discard" in lowered and by_cards:
        return "discard"
    if "big gin" in lowered and not by_cards:
        return "big_gin"
    if "opponent" in lowered:
        return "opponent_cards" if by_cards else "opponent_deadwood"
    if "knock" in lowered or "deadwood" in lowered or "hand needs" in lowered:
        return "cards" if by_cards else "deadwood"
    return ""


def record_page(request: Request, form: dict[str, str]) -> Response:
    """Record a hand: the knocker, then counts or cards, a preview of the score, and save."""
    name = request.path_params["name"]
    try:
        info = _match_info(_folder(request), name)
    except GinscoreError as error:
        return _problem(request, error)
    form = {"expected_hands": str(info.hands)}
    picker = picker_from(form, _hand_sides(info.players, ""), "The cards")
    return render(request, "record.html", _record_context(
        request, info, form, picker, heading="Record a hand", action=_path(request, "record", name=name),
        live_url=_path(request, "record_live", name=name), save_label="Save the hand", preview=False))


def _path(request: Request, route: str, **params: Any) -> str:
    return url_path(request.app, route, **params)


def record_post(request: Request, form: dict[str, str]) -> Response:
    """The record form posted: a card toggled, a preview asked for, or the hand saved."""
    name = request.path_params["name"]
    return _hand_post(request, name, form, number=None)


def _hand_post(request: Request, name: str, form: dict[str, str], number: int | None) -> Response:
    folder = _folder(request)
    try:
        info = _match_info(folder, name)
    except GinscoreError as error:
        return _problem(request, error)
    if not form.get("expected_hands"):
        form["expected_hands"] = str(info.hands)
    picker = picker_from(form, _hand_sides(info.players, form.get("knocker", "")), "The cards")
    if number is None:
        labels = {"heading": "Record a hand", "action": _path(request, "record", name=name),
                  "live_url": _path(request, "record_live", name=name), "save_label": "Save the hand"}
    else:
        labels = {"heading": f"Edit hand {number}", "action": _path(request, "edit", name=name, number=number),
                  "live_url": _path(request, "edit_live", name=name, number=number), "save_label": f"Replace hand {number}"}
    if form.get("action") == "save":
        choice = None
        fields = hand_fields(form, picker)
        try:
            if form.get("spread") == "lowest" and fields.get("cards"):
                choice = folder.preview(name, {k: v for k, v in fields.items() if k != "expected_hands"}).get("lowest")
                fields = hand_fields(form, picker, choice)
            if number is None:
                folder.record(name, fields)
                return _redirect(request, "match", f"recorded={int(form['expected_hands'] or 0) + 1}", name=name)
            folder.edit(name, number, fields)
            return _redirect(request, "match", f"edited={number}", name=name)
        except GinscoreError as error:
            place = _error_place(error, HAND_PLACES) or _hand_error_place(str(error), fields)
            message = str(error)
            if isinstance(error, StaleError):
                message = f"Someone recorded first: {message}"
                form["expected_hands"] = str(len(load_sheet(folder, name).match.hands))  # a retry, once seen, may go
            context = _record_context(request, info, form, picker, preview=False, **labels)
            context["errors"] = {place: message}
            return render(request, "record.html", context, status_of(error))
    preview = form.get("action") == "preview" or _complete(form, picker)
    return render(request, "record.html", _record_context(request, info, form, picker, preview=preview, **labels))


def record_live(request: Request, form: dict[str, str]) -> Response:
    """The record form's live part: the picked cards judged, and the preview once the hand is complete."""
    return _live(request, request.path_params["name"], form)


def _live(request: Request, name: str, form: dict[str, str]) -> Response:
    folder = _folder(request)
    try:
        info = _match_info(folder, name)
    except GinscoreError as error:
        return HTMLResponse(f'<p class="error">{_escape(str(error))}</p>', status_of(error))
    picker = picker_from(form, _hand_sides(info.players, form.get("knocker", "")), "The cards")
    how = form.get("how") or ("cards" if picker.cards("knocker") else "counts")
    context = {
        "check": _judge(picker.cards("knocker"), info.judged_by(form.get("upcard", ""))) if how == "cards" else None,
        "preview": preview_view(folder, name, hand_fields(form, picker), form.get("spread", "")) if _complete(form, picker) else None,
    }
    return render(request, "_live_hand.html", context)


def edit_pick(request: Request, form: dict[str, str]) -> Response:
    """The match page's 'edit hand N' box, without script: on to that hand's form."""
    name = request.path_params["name"]
    number = request.query_params.get("number", "").strip()
    if not number.isdigit() or int(number) < 1:
        return _problem(request, InputError(f"number: {number!r} is not a hand number: write it with the digits 0-9"))
    return _redirect(request, "edit", name=name, number=int(number))


def _record_form(info: MatchInfo, number: int) -> dict[str, str]:
    """Hand `number`'s record as the form's fields, as it was entered."""
    assert info.sheet is not None
    record = info.sheet.match.hands[number - 1]
    form = {"expected_hands": str(info.hands), "note": record.note, "upcard": record.upcard or ""}
    if record.cancelled:
        return {**form, "how": "cancelled"}
    form["knocker"] = record.knocker or ""
    if record.knocker_cards:
        return {**form, "how": "cards", "cards": record.knocker_cards, "opponent_cards": record.opponent_cards or "",
                "discard": record.discard or ""}
    return {**form, "how": "counts", "deadwood": _text(record.knocker_deadwood),
            "opponent_deadwood": _text(record.opponent_deadwood), "big_gin": "on" if record.big_gin else ""}


def _text(value: int | None) -> str:
    return "" if value is None else str(value)


def edit_page(request: Request, form: dict[str, str]) -> Response:
    """Edit a past hand: its form filled with what was entered."""
    name, number = request.path_params["name"], request.path_params["number"]
    try:
        info = _match_info(_folder(request), name)
        if not 1 <= number <= info.hands:
            raise NotFoundError(f"{name} has no hand {number} (it has {info.hands})")
    except GinscoreError as error:
        return _problem(request, error)
    form = _record_form(info, number)
    picker = picker_from(form, _hand_sides(info.players, form.get("knocker", "")), "The cards")
    return render(request, "record.html", _record_context(
        request, info, form, picker, heading=f"Edit hand {number}", action=_path(request, "edit", name=name, number=number),
        live_url=_path(request, "edit_live", name=name, number=number), save_label=f"Replace hand {number}", preview=False))


def edit_post(request: Request, form: dict[str, str]) -> Response:
    return _hand_post(request, request.path_params["name"], form, number=request.path_params["number"])


def edit_live(request: Request, form: dict[str, str]) -> Response:
    return _live(request, request.path_params["name"], form)


# --- undo ---------------------------------------------------------------------------------------------------


def undo_page(request: Request, form: dict[str, str]) -> Response:
    """Undo, step one: which hand would go, and a button to confirm."""
    name = request.path_params["name"]
    try:
        info = _match_info(_folder(request), name)
    except GinscoreError as error:
        return _problem(request, error)
    return render(request, "undo.html", _undo_context(info))


def _undo_context(info: MatchInfo) -> dict[str, Any]:
    last = ""
    if info.sheet is not None and info.sheet.lines:
        line = info.sheet.lines[-1]
        last = hand_words(line.result, line.winner, line.points)
    return {"name": info.name, "players": info.players, "hands": info.hands, "last": last}


def undo_post(request: Request, form: dict[str, str]) -> Response:
    """Undo, step two: remove the last hand, only if it is still the one the page showed."""
    name = request.path_params["name"]
    folder = _folder(request)
    try:
        folder.undo(name, form.get("expected_hands", ""))
    except GinscoreError as error:
        try:
            info = _match_info(folder, name)
        except GinscoreError:
            return _problem(request, error)
        message = str(error)
        if isinstance(error, StaleError):
            message = f"Someone changed the match first: {message}"
        return render(request, "undo.html", {**_undo_context(info), "errors": {"": message}}, status_of(error))
    return _redirect(request, "match", f"removed={form.get('expected_hands', '')}", name=name)


# --- check and advise -------------------------------------------------------------------------------------


def check_page(request: Request, form: dict[str, str]) -> Response:
    """Can I knock? The card picker, the solver's answer, and for 11 cards which discard is best."""
    return _check(request, {"rules": "standard"}, None)


def match_check_page(request: Request, form: dict[str, str]) -> Response:
    name = request.path_params["name"]
    try:
        info = _match_info(_folder(request), name)
    except GinscoreError as error:
        return _problem(request, error)
    return _check(request, {}, info)


def _check_fields(form: Mapping[str, str], info: MatchInfo | None) -> dict[str, Any] | None:
    """The rules a check is judged by: the match's, or the page's preset and up-card."""
    if info is not None:
        return info.judged_by(form.get("upcard", ""))
    return {key: form[key] for key in ("rules", "upcard") if form.get(key)}


def _check_context(form: Mapping[str, str], info: MatchInfo | None) -> dict[str, Any]:
    picker = picker_from(form, [("hand", "cards", "Your cards")], "Your 10 or 11 cards")
    cards = picker.cards("hand")
    fields = _check_fields(form, info)
    context: dict[str, Any] = {"picker": picker, "form": _Form(form), "check": _judge(cards, fields), "advice": None}
    if len(cards) == 11 and fields is not None and not (context["check"] or {}).get("error"):
        context["advice"] = advice_view(cards, fields)
    return context


def advice_view(cards: list[str], fields: Mapping[str, Any]) -> dict[str, Any]:
    """`advise`'s table for 11 cards: each discard's deadwood, chance to win and points a hand."""
    try:
        advice = hands.advise({"cards": " ".join(cards), **fields})
    except GinscoreError as error:
        return {"error": str(error)}
    options = []
    for option in advice["options"]:
        options.append({
            "discard": option["discard"], "deadwood": option["deadwood"], "can_knock": option["can_knock"],
            "win": "" if option["win"] is None else f"{option['win']:.0%}",
            "points": "" if option["expected_points"] is None else f"{option['expected_points']:+.1f}",
            "recommended": option["discard"] == advice["recommended"],
        })
    best = advice["recommended"]
    summary = f"Discard {best}." if best else "No discard lets you knock: draw on."
    model = "an opponent who has drawn since the deal" if advice["model"] == "improved" else "an opponent's hand as dealt"
    return {"options": options, "summary": summary, "samples": advice["samples"], "model": model}


def _check(request: Request, form: Mapping[str, str], info: MatchInfo | None, status: int = 200) -> Response:
    context = _check_context(form, info)
    if info is None:
        context.update(name="", action=_path(request, "check"), live_url=_path(request, "check_live"))
    else:
        limit = "the up-card's value" if info.rules.get("oklahoma") else info.rules["knock_limit"]
        context.update(name=info.name, players=info.players, knock_limit=limit, oklahoma=bool(info.rules.get("oklahoma")),
                       action=_path(request, "match_check", name=info.name),
                       live_url=_path(request, "match_check_live", name=info.name))
    context.update(presets=list(PRESETS), deck=DECK_CHOICES)
    return render(request, "check.html", context, status)


def check_post(request: Request, form: dict[str, str]) -> Response:
    return _check(request, form, None)


def match_check_post(request: Request, form: dict[str, str]) -> Response:
    name = request.path_params["name"]
    try:
        info = _match_info(_folder(request), name)
    except GinscoreError as error:
        return _problem(request, error)
    return _check(request, form, info)


def check_live(request: Request, form: dict[str, str]) -> Response:
    info = None
    if "name" in request.path_params:
        try:
            info = _match_info(_folder(request), request.path_params["name"])
        except GinscoreError as error:
            return HTMLResponse(f'<p class="error">{_escape(str(error))}</p>', status_of(error))
    return render(request, "_check_answer.html", _check_context(form, info))


Endpoint = Callable[[Request, dict[str, str]], Response]
"""A page: the request and its posted form (empty on a GET), answered synchronously in a worker thread, since
`service` reads and writes files."""


def guarded(endpoint: Endpoint) -> Callable[[Request], Awaitable[Response]]:
    """A page that never shows a traceback: a stale form gets 403 and a reload hint; anything unexpected is
    logged and answered with a plain page saying nothing was written."""

    @functools.wraps(endpoint)
    async def page(request: Request) -> Response:
        try:
            form = await _form(request) if request.method == "POST" else {}
            return await run_in_threadpool(endpoint, request, form)
        except CsrfRefused:
            return render(request, "problem.html", {"heading": "This form is out of date",
                                                    "message": "Reload the page and try again; nothing was written."}, 403)
        except Exception:
            log.exception("a page failed: %s %s", request.method, request.url.path)
            try:
                return render(request, "problem.html", {"heading": "Something went wrong",
                                                        "message": "Something went wrong; nothing was written. "
                                                                   "The server's log says what."}, 500)
            except Exception:
                log.exception("the error page failed too")
                return HTMLResponse(FALLBACK_500, 500)

    return page


def _route(path: str, endpoint: Endpoint, method: str, name: str) -> Route:
    return Route(path, guarded(endpoint), methods=[method], name=name)


routes = [
    _route("/", folder_page, "GET", "folder"),
    _route("/new", new_match, "POST", "new"),
    _route("/check", check_page, "GET", "check"),
    _route("/check", check_post, "POST", "check_post"),
    _route("/check/live", check_live, "POST", "check_live"),
    _route("/m/{name}", match_page, "GET", "match"),
    _route("/m/{name}/sheet", sheet_fragment, "GET", "sheet"),
    _route("/m/{name}/version", version, "GET", "version"),
    _route("/m/{name}/chart.svg", chart, "GET", "chart"),
    _route("/m/{name}/export/{kind}", export, "GET", "export"),
    _route("/m/{name}/record", record_page, "GET", "record"),
    _route("/m/{name}/record", record_post, "POST", "record_post"),
    _route("/m/{name}/record/live", record_live, "POST", "record_live"),
    _route("/m/{name}/edit", edit_pick, "GET", "edit_pick"),
    _route("/m/{name}/edit/{number:int}", edit_page, "GET", "edit"),
    _route("/m/{name}/edit/{number:int}", edit_post, "POST", "edit_post"),
    _route("/m/{name}/edit/{number:int}/live", edit_live, "POST", "edit_live"),
    _route("/m/{name}/undo", undo_page, "GET", "undo"),
    _route("/m/{name}/undo", undo_post, "POST", "undo_post"),
    _route("/m/{name}/check", match_check_page, "GET", "match_check"),
    _route("/m/{name}/check", match_check_post, "POST", "match_check_post"),
    _route("/m/{name}/check/live", check_live, "POST", "match_check_live"),
]
"""The pages' routes, mounted at the root by `app.create_app`."""

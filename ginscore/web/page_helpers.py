"""What every page shares: templates and `render`, links, the problem page, hand numbers, a form's match."""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from jinja2 import ModuleLoader
from markupsafe import Markup
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse
from starlette.routing import Route
from starlette.templating import Jinja2Templates

from ..errors import GinscoreError, InputError, NotFoundError
from ..errors import quote as quote_value
from ..files.served import Folder
from ..game.numbers import read_whole
from ..game.rulebook import Rules
from ..match.records import NAME_MOST, NOTE_MOST
from ..match.tally import Sheet
from ..sheets.hand_check import chip, hand_check_html
from ..sheets.odds_words import CHANCE_BASIS
from .file_words import problem_words, reason_words
from .security import CSRF_FIELD, csrf_token

if TYPE_CHECKING:
    from ..game.cards import Card

HERE = os.path.dirname(os.path.abspath(__file__))
TEMPLATES = Jinja2Templates(directory=os.path.join(HERE, "templates"))
COMPILED_TEMPLATES = os.path.join(HERE, "templates_compiled")
"""The templates as Python modules, which the phone app's build ships (pocket/build.py) so that a phone never
compiles a template itself; an installed ginscore has none, and compiles each template on its first use."""
if os.path.isdir(COMPILED_TEMPLATES):
    TEMPLATES.env.loader = ModuleLoader(COMPILED_TEMPLATES)


def _is_red(code: str) -> bool:
    from ..game.cards import parse_card

    try:
        return parse_card(code).suit.is_red
    except GinscoreError:
        return False


def _face(code: str) -> str:
    from .picker import card_face

    return card_face(code)


TEMPLATES.env.filters["face"] = _face
TEMPLATES.env.filters["red"] = _is_red
TEMPLATES.env.filters["reason"] = reason_words
TEMPLATES.env.globals["chance_basis"] = CHANCE_BASIS
TEMPLATES.env.filters["hand_check"] = lambda check: Markup(hand_check_html(check))
TEMPLATES.env.filters["chip"] = lambda code, kind="": Markup(chip(code, kind))


def folder_of(request: Request) -> Folder:
    folder: Folder = request.app.state.folder
    return folder


def url_path(app: Any, route: str, **params: Any) -> str:
    """A route's path, each parameter quoted: a file named `a b#1.toml` links as `/m/a%20b%231.toml`. The route is
    found by its name in a map made once an app: the app's own search tries every route in turn, which a list of
    thousands of links would do for each."""
    quoted = {key: quote(str(value), safe="") for key, value in params.items()}
    named = getattr(app.state, "routes_by_name", None)
    if named is None:
        named = app.state.routes_by_name = {found.name: found for found in app.routes if isinstance(found, Route)}
    return str((named.get(route) or app).url_path_for(route, **quoted))


def render(request: Request, template: str, context: dict[str, Any], status: int = 200) -> HTMLResponse:
    """A template with the helpers every page uses: `path`, `static` and the CSRF field."""
    app = request.app

    def path(route: str, **params: Any) -> str:
        return url_path(app, route, **params)

    def static(file: str) -> str:
        return str(app.url_path_for("static", path=file))

    context = {"path": path, "static": static, "csrf_name": CSRF_FIELD, "csrf_token": csrf_token(request),
               "errors": {}, "name_most": NAME_MOST, "note_most": NOTE_MOST, **context}
    response: HTMLResponse = TEMPLATES.TemplateResponse(request, template, context, status_code=status)
    return response


def redirect(request: Request, route: str, query: str = "", **params: Any) -> RedirectResponse:
    path = url_path(request.app, route, **params)
    return RedirectResponse(path + (f"?{query}" if query else ""), status_code=303)


def problem_page(request: Request, error: GinscoreError) -> HTMLResponse:
    """A page of its own for an error with nothing to keep: a missing or broken match file."""
    heading = "No such match" if error.http_status == 404 else "This match cannot be shown"
    return render(request, "problem.html", {"heading": heading, "message": problem_words(error)}, error.http_status)


def hand_number(text: str) -> int:
    """A hand's number as a page's URL or form gives it: the digits 0-9 only (an `InputError` otherwise), and one
    that could be a hand (a `NotFoundError` for 0 or one of more digits than any match has hands)."""
    if not (text.isascii() and text.isdigit()):
        raise InputError(f"{quote_value(text)} is not a hand's number: write it with the digits 0-9", field="number")
    try:
        number = read_whole(text)
    except InputError:  # more digits than any match has hands
        number = None
    if number is None or number < 1:
        raise NotFoundError(f"{quote_value(text)} is not a hand of this match: give its number as the sheet shows it", field="number")
    return number


def load_sheet(folder: Folder, name: str) -> Sheet:
    """The match's sheet; a broken file's problems name the file as the person named it."""
    return folder.sheet(name)


class FormValues(dict[str, str]):
    """The form's values for a template: a missing field reads as empty."""

    def __getattr__(self, name: str) -> str:
        return self.get(name, "")


@dataclass(frozen=True)
class MatchInfo:
    """A match file as its pages need it: its name, players, hand count, rules and sheet."""

    name: str
    players: list[str]
    hands: int
    rules: Rules
    sheet: Sheet

    def judged_by(self, upcard: str = "") -> tuple[Rules, Card | None] | None:
        """The rules and up-card `check` and `advise` judge this match's hands by: under Oklahoma the up-card's
        value is the knock limit, so until one is picked there is nothing to judge by (None)."""
        rules = self.rules
        if not rules.oklahoma:
            return rules, None
        if not upcard:
            return None
        from ..game.cards import parse_card

        return rules, parse_card(upcard)


def match_info(folder: Folder, name: str) -> MatchInfo:
    sheet = load_sheet(folder, name)
    return MatchInfo(name, list(sheet.match.players), len(sheet.match.hands), sheet.match.rules, sheet)


def escaped(text: str) -> str:
    from html import escape

    return escape(text)


def page_path(request: Request, route: str, **params: Any) -> str:
    return url_path(request.app, route, **params)


def next_game_view(sheet: Sheet, folder: Folder | None = None, name: str = "") -> dict[str, Any] | None:
    """The Next game form's choices for a finished match: who may deal first, the finished match's next dealer
    chosen; once the next game is started (by this phone or another), that game to open instead, as `started`
    and its words (`Game 2 is in play`); None while the match is in play."""
    if not sheet.finished:
        return None
    started = folder.started_after(name) if folder is not None and name else None
    if folder is not None and started is not None:
        number = len(folder.table.series(sheet).games) + 1
        return {"started": started, "words": f"Game {number} is in play"}
    return {"players": list(sheet.match.players), "dealer": sheet.next_dealer, "started": None}

"""What every page shares: templates and `render`, links, the problem page, where an error goes, a form's match."""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse
from starlette.templating import Jinja2Templates

from ..errors import GinscoreError, StaleError
from ..match.tally import Sheet
from .security import CSRF_FIELD, csrf_token
from .service import Folder, status_of

HERE = os.path.dirname(os.path.abspath(__file__))
TEMPLATES = Jinja2Templates(directory=os.path.join(HERE, "templates"))


def folder_of(request: Request) -> Folder:
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


def redirect(request: Request, route: str, query: str = "", **params: Any) -> RedirectResponse:
    path = url_path(request.app, route, **params)
    return RedirectResponse(path + (f"?{query}" if query else ""), status_code=303)


def problem_page(request: Request, error: GinscoreError) -> HTMLResponse:
    """A page of its own for an error with nothing to keep: a missing or broken match file."""
    heading = "No such match" if status_of(error) == 404 else "This match cannot be shown"
    return render(request, "problem.html", {"heading": heading, "message": str(error)}, status_of(error))


def error_place(error: GinscoreError, fields: tuple[str, ...]) -> str:
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


class FormValues(dict[str, str]):
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


def match_info(folder: Folder, name: str) -> MatchInfo:
    sheet = load_sheet(folder, name)
    from ..match.tally import sheet_dict

    rules = sheet_dict(sheet)["rules"]
    return MatchInfo(name, list(sheet.match.players), len(sheet.match.hands), rules, sheet)


def escaped(text: str) -> str:
    from html import escape

    return escape(text)


def page_path(request: Request, route: str, **params: Any) -> str:
    return url_path(request.app, route, **params)

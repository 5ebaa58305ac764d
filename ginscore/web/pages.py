"""The phone pages of `ginscore serve`: every page's route, behind the guard that keeps tracebacks off the phone.

Server-rendered Jinja2 templates (`templates/`, autoescaped) that work with plain forms and links; the one static
script (`static/pages.js`) makes the card picker toggle in place and keeps a match's sheet live. Every answer
about cards comes from the server (`hands.check`, `Folder.preview`, `hands.advise`): the script never solves
a hand itself. The card picker keeps its picked cards in hidden inputs, so without script each card is a submit
button (`name="toggle" value="3h"`) that re-renders the form with the card toggled.

The pages themselves are `match_pages` (the folder, a match, undo), `hand_pages` (record and edit) and
`check_pages` (check and advise), with the card picker in `picker` and what they all use in `page_helpers`.

Routes are short: they read the form into the service's typed entry, call the service through `folder`, and
render. A refusal is shown next to the field its `field` names, with everything the person typed or picked kept.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Awaitable, Callable

from starlette.datastructures import FormData
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route

from ..errors import GinscoreError
from .blocking import blocking
from .check_pages import check_live, check_page, check_post, match_check_page, match_check_post
from .folder_pages import folder_page, new_match, new_refused
from .hand_pages import edit_live, edit_page, edit_pick, edit_post, hand_refused, record_live, record_page, record_post
from .handover_pages import decoder_script, qr_page, scan_page, scan_post, scan_refused
from .match_pages import (
    chart,
    export,
    fragment_refused,
    json_refused,
    match_page,
    next_game_post,
    next_game_refused,
    result_picture,
    sheet_fragment,
    undo_page,
    undo_post,
    undo_refused,
    version,
)
from .merge_pages import backup_download, merge_post, merge_refused
from .page_helpers import problem_page, render
from .review_pages import review_ahead, review_page
from .security import check_csrf
from .standings_pages import standings_page
from .stats_pages import pair_page, player_page, stats_page

log = logging.getLogger("ginscore.web")

FALLBACK_500 = ('<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>ginscore</title>'
                '<meta name="viewport" content="width=device-width, initial-scale=1"></head><body><main>'
                "<h1>Something went wrong</h1><p>Something went wrong; nothing was written.</p></main></body></html>")


class CsrfRefused(Exception):
    """A posted form without this server's CSRF token: answered with a page saying to reload, status 403."""


async def _form(request: Request) -> dict[str, str]:
    """The posted form, text fields only (the last of a repeated one), after the CSRF check."""
    form: FormData = await request.form()
    if not check_csrf(request, form):
        raise CsrfRefused()
    return {key: value for key, value in form.multi_items() if isinstance(value, str)}


Endpoint = Callable[[Request, dict[str, str]], Response]
"""A page: the request and its posted form (empty on a GET), answered synchronously in a worker thread, since
the service reads and writes files."""
Refused = Callable[[Request, dict[str, str], GinscoreError], Response]
"""How a page answers a refusal: its form again with the message beside the field, or a part's short answer."""


Ahead = Callable[[Request], Awaitable[None]]
"""Work a page may do before it is made, awaiting what the app's shell lends (a review's helpers)."""


def guarded(
    endpoint: Endpoint, refused: Refused | None = None, ahead: Ahead | None = None
) -> Callable[[Request], Awaitable[Response]]:
    """A page that never shows a traceback, and the one place a page's refusals are caught: `refused` answers
    them (a form shown again as typed, with the message beside its field); without it, or when it fails too (the
    match itself is missing or broken), the problem gets a page of its own. A stale form gets 403 and a reload
    hint; anything unexpected is logged and answered with a plain page saying nothing was written. `ahead`, when
    given, is awaited first."""

    def answer(request: Request, form: dict[str, str]) -> Response:
        try:
            return endpoint(request, form)
        except GinscoreError as error:
            if refused is None:
                raise
            try:
                return refused(request, form, error)
            except GinscoreError:
                raise error from None

    @functools.wraps(endpoint)
    async def page(request: Request) -> Response:
        try:
            form = await _form(request) if request.method == "POST" else {}
            if ahead is not None:
                await ahead(request)
            return await blocking(answer, request, form)
        except (HTTPException, ClientDisconnect):
            raise  # Starlette answers 400 for a broken form: not a page's failure
        except GinscoreError as error:  # a missing or broken match file, with nothing on the page to keep
            return problem_page(request, error)
        except CsrfRefused:
            return render(request, "problem.html", {"heading": "This form is out of date",
                                                    "message": "Reload the page and try again; nothing was written."}, 403)
        except Exception:
            log.exception("a page failed: %s %s", request.method, request.url.path)
            try:
                return render(request, "problem.html", {"heading": "Something went wrong", "message": failure_words(request)}, 500)
            except Exception:
                log.exception("the error page failed too")
                return HTMLResponse(FALLBACK_500, 500)

    return page


SERVE_AFTER_FAILURE = "The server's log says what."
"""What `serve`'s failure page adds: where to look. The app, which has no log to show, gives its own words
(`app.state.after_failure`)."""


def failure_words(request: Request) -> str:
    """What an unexpected failure's page says: what was written (nothing, for a page that only reads; perhaps the
    change, for a form, which may have failed after it was saved) and what to do."""
    written = ("nothing was written" if request.method in ("GET", "HEAD") else
               "what you sent may or may not have been saved: open the match to see")
    return f"Something went wrong; {written}. {getattr(request.app.state, 'after_failure', SERVE_AFTER_FAILURE)}"


def _route(
    path: str, endpoint: Endpoint, method: str, name: str, refused: Refused | None = None, ahead: Ahead | None = None
) -> Route:
    return Route(path, guarded(endpoint, refused, ahead), methods=[method], name=name)


routes = [
    _route("/", folder_page, "GET", "folder"),
    _route("/new", new_match, "POST", "new", new_refused),
    _route("/check", check_page, "GET", "check"),
    _route("/check", check_post, "POST", "check_post"),
    _route("/check/live", check_live, "POST", "check_live", fragment_refused),
    _route("/merge", merge_post, "POST", "merge", merge_refused),
    _route("/backup.zip", backup_download, "GET", "backup"),
    _route("/standings", standings_page, "GET", "standings"),
    _route("/stats", stats_page, "GET", "stats"),
    _route("/stats/pair", pair_page, "GET", "stats_pair"),
    _route("/stats/player", player_page, "GET", "stats_player"),
    _route("/scan", scan_page, "GET", "scan"),
    _route("/scan", scan_post, "POST", "scan_post", scan_refused),
    _route("/scan/decoder.js", decoder_script, "GET", "scan_decoder"),
    _route("/m/{name}", match_page, "GET", "match"),
    _route("/m/{name}/sheet", sheet_fragment, "GET", "sheet", fragment_refused),
    _route("/m/{name}/version", version, "GET", "version", json_refused),
    _route("/m/{name}/chart.svg", chart, "GET", "chart"),
    _route("/m/{name}/result.svg", result_picture, "GET", "result_picture"),
    _route("/m/{name}/qr", qr_page, "GET", "qr"),
    _route("/m/{name}/review", review_page, "GET", "review", ahead=review_ahead),
    _route("/m/{name}/export/{kind}", export, "GET", "export"),
    _route("/m/{name}/record", record_page, "GET", "record"),
    _route("/m/{name}/record", record_post, "POST", "record_post", hand_refused),
    _route("/m/{name}/record/live", record_live, "POST", "record_live", fragment_refused),
    _route("/m/{name}/edit", edit_pick, "GET", "edit_pick"),
    _route("/m/{name}/edit/{number}", edit_page, "GET", "edit"),
    _route("/m/{name}/edit/{number}", edit_post, "POST", "edit_post", hand_refused),
    _route("/m/{name}/edit/{number}/live", edit_live, "POST", "edit_live", fragment_refused),
    _route("/m/{name}/next", next_game_post, "POST", "next_game", next_game_refused),
    _route("/m/{name}/undo", undo_page, "GET", "undo"),
    _route("/m/{name}/undo", undo_post, "POST", "undo_post", undo_refused),
    _route("/m/{name}/check", match_check_page, "GET", "match_check"),
    _route("/m/{name}/check", match_check_post, "POST", "match_check_post"),
    _route("/m/{name}/check/live", check_live, "POST", "match_check_live", fragment_refused),
]
"""The pages' routes, mounted at the root by `app.create_app`. A hand's number in a path is read by
`page_helpers.hand_number` (digits 0-9 only), never by the router, so that no other text reaches a page."""

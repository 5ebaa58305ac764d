"""The `serve` app put together: the guard in front, the JSON API under `/api`, the pages, the static files.

`create_app(folder, token, hosts)` is all a server or a test needs. What the routes share is on `app.state`:

- `app.state.folder`: the `files.served.Folder` being served;
- `app.state.token`: the access token; `app.state.csrf`: the CSRF token forms carry (`security.csrf_token`).

An API route that raises one of ginscore's errors is answered here, in one place, with the status its kind carries:
`{"error": message, "field": ...}` under `/api`; the pages answer their own in their one guard (`pages.guarded`).
"""

from __future__ import annotations

import copy
import hashlib
import hmac
import os
from collections.abc import Callable, Iterable, Sequence

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Receive, Scope, Send

from ..errors import GinscoreError
from ..files.served import Folder
from . import api, pages
from .answers import error_dict
from .limits import Limit, Limits
from .page_helpers import problem_page, render
from .route_uses import API, advising
from .security import BODY_SECONDS, Guard

HERE = os.path.dirname(os.path.abspath(__file__))
STATIC = os.path.join(HERE, "static")


def create_app(folder: str, token: str, hosts: Iterable[str], body_seconds: float = BODY_SECONDS) -> Starlette:
    """The app serving the match files of `folder` to holders of `token`, for requests whose Host header is one
    of `hosts` (each `name:port`, e.g. `127.0.0.1:8000`), each body to arrive within `body_seconds` of its head."""
    limits = Limits()
    app = Starlette(
        routes=[  # the routes that advise (route_uses.py) take turns
            Mount(API, routes=_taking_turns(advising(API), limits.advice)(api.routes)),
            Mount("/static", app=StaticFiles(directory=STATIC, check_dir=False), name="static"),
            *_taking_turns(advising(""), limits.advice)(pages.routes),
        ],
        middleware=[Middleware(Guard, token=token, hosts=list(hosts), body_seconds=body_seconds, requests=limits.requests)],
        exception_handlers={GinscoreError: _ginscore_error, HTTPException: _http_error},
    )
    app.state.folder = Folder(folder)
    app.state.token = token
    app.state.csrf = hmac.new(token.encode("utf-8"), b"csrf", hashlib.sha256).hexdigest()
    return app


def _is_api(request: Request) -> bool:
    return request.url.path == "/api" or request.url.path.startswith("/api/")


async def _ginscore_error(request: Request, error: Exception) -> Response:
    assert isinstance(error, GinscoreError)  # registered for GinscoreError only
    if _is_api(request):
        return JSONResponse(error_dict(error, str(error)), error.http_status)
    return problem_page(request, error)


async def _http_error(request: Request, error: Exception) -> Response:
    assert isinstance(error, HTTPException)  # registered for HTTPException only
    message = {404: "no such page or match file", 405: "that method is not allowed here"}.get(error.status_code, error.detail)
    if _is_api(request):
        return JSONResponse({"error": message, "field": None}, error.status_code, headers=error.headers)
    heading, said = PAGE_WORDS.get(error.status_code, ("This page cannot be shown", str(error.detail)))
    allowed = " ".join(value for key, value in (error.headers or {}).items() if key.lower() == "allow")
    if error.status_code == 405 and "GET" not in allowed:
        said = "This address takes what a page's form sends, not a visit: open it from the matches instead."
    page = render(request, "problem.html", {"heading": heading, "message": said}, error.status_code)
    page.headers.update(error.headers or {})
    return page


PAGE_WORDS = {
    404: ("No such page", "There is nothing at this address. Your matches are all on the first page."),
    405: ("This cannot be done here", "This address only shows a page: open it from the matches instead."),
}
"""A phone's words for a page the routes do not have, by status; the API keeps its own."""


def _taking_turns(names: Iterable[str], limit: Limit) -> Callable[[Sequence[BaseRoute]], list[BaseRoute]]:
    """A function giving a list of routes with those named `names` copied to answer within `limit` (one at a
    time, MOST_WAITING_ADVICE more waiting their turn in the event loop, the rest 503); the routes given are
    left as they were: one app's turns are not another's.

    `advise` is pure Python, so threads running it share one interpreter lock: a dozen at once starve the event
    loop (another phone's page took 1.6 s with twelve), and forty would take every worker thread. One at a time,
    with none of the waiting ones holding a thread, every other request goes on as if no one were advising.
    """
    wanted = set(names)

    def taking_turns(route_app: ASGIApp) -> ASGIApp:
        async def answer(scope: Scope, receive: Receive, send: Send) -> None:
            async with limit.turn():
                await route_app(scope, receive, send)

        return answer

    def applied(routes: Sequence[BaseRoute]) -> list[BaseRoute]:
        made: list[BaseRoute] = []
        for route in routes:
            if isinstance(route, Route) and route.name in wanted:
                route = copy.copy(route)
                route.app = taking_turns(route.app)
            made.append(route)
        return made

    return applied

"""The `serve` app put together: the guard in front, the JSON API under `/api`, the pages, the static files.

`create_app(folder, token, hosts)` is all a server or a test needs. What the routes share is on `app.state`:

- `app.state.folder`: the `folder.Folder` being served;
- `app.state.token`: the access token; `app.state.csrf`: the CSRF token forms carry (`security.csrf_token`).

An API route that raises one of ginscore's errors is answered here, in one place, with the status its kind carries:
`{"error": message, "field": ...}` under `/api`; the pages answer their own in their one guard (`pages.guarded`).
"""

from __future__ import annotations

import hashlib
import hmac
import os
from collections.abc import Iterable

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount
from starlette.staticfiles import StaticFiles

from ..errors import GinscoreError
from . import api, pages
from .answers import error_dict
from .folder import Folder
from .security import Guard

HERE = os.path.dirname(os.path.abspath(__file__))
STATIC = os.path.join(HERE, "static")
TEMPLATES = os.path.join(HERE, "templates")


def create_app(folder: str, token: str, hosts: Iterable[str]) -> Starlette:
    """The app serving the match files of `folder` to holders of `token`, for requests whose Host header is one
    of `hosts` (each `name:port`, e.g. `127.0.0.1:8000`)."""
    app = Starlette(
        routes=[
            Mount("/api", routes=api.routes),
            Mount("/static", app=StaticFiles(directory=STATIC, check_dir=False), name="static"),
            *pages.routes,
        ],
        middleware=[Middleware(Guard, token=token, hosts=list(hosts))],
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
    return PlainTextResponse(f"error: {error}\n", error.http_status)


async def _http_error(request: Request, error: Exception) -> Response:
    assert isinstance(error, HTTPException)  # registered for HTTPException only
    message = {404: "no such page or match file", 405: "that method is not allowed here"}.get(error.status_code, error.detail)
    if _is_api(request):
        return JSONResponse({"error": message, "field": None}, error.status_code, headers=error.headers)
    return PlainTextResponse(f"error: {message}\n", error.status_code, headers=error.headers)

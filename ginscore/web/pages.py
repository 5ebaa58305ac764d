"""The HTML pages of `ginscore serve`: owned by the pages side of the web layer, which replaces this placeholder.

`app.create_app` mounts `routes` after `/api` and `/static`.
"""

from __future__ import annotations

from starlette.routing import BaseRoute

routes: list[BaseRoute] = []

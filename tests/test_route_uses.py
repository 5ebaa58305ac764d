"""The route table (`web/route_uses.py`): every route of serve's app declares what it reads and writes, serve
takes turns on the ones that advise, and the app's worker reads and locks by it (`pocket/worker.py` `reads`)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.routing import Mount, Route

from ginscore.web.asgi import create_app
from ginscore.web.route_uses import ROUTES, Use, advising, key


def declared(routes: Any, mount: str = "") -> Iterator[tuple[str, Route]]:
    for route in routes:
        if isinstance(route, Mount) and route.routes:
            yield from declared(route.routes, route.path)
        elif isinstance(route, Route):
            yield key(mount, route.name), route


def test_every_route_of_the_app_is_in_the_table_and_the_table_holds_no_other(tmp_path: Path):
    named = dict(declared(create_app(str(tmp_path), "token", ["127.0.0.1:8000"]).routes))
    assert sorted(named) == sorted(ROUTES)
    for name, route in named.items():
        if ROUTES[name].writes or ROUTES[name].advises:  # only a POST, PUT or DELETE writes or weighs a hand
            assert route.methods and route.methods - {"GET", "HEAD"}, name


def test_the_routes_that_advise_are_the_checks_and_advice():
    assert advising("/api") == {"advise_hand"}
    assert advising("") == {"check_post", "check_live", "match_check_post", "match_check_live"}


def test_a_value_of_the_table_cannot_be_changed():
    with pytest.raises(TypeError):
        ROUTES["folder"] = Use()  # type: ignore[index]
    with pytest.raises(AttributeError):
        ROUTES["folder"].lists = False  # type: ignore[misc]


@pytest.mark.parametrize(("method", "path", "said"), [
    ("GET", "/", {"names": [], "listing": True, "summaries": True, "links": False, "changes": False}),
    ("POST", "/new", {"names": [], "listing": True, "summaries": True, "links": False, "changes": True}),
    ("GET", "/m/a%20b.toml", {"names": ["a b.toml"], "listing": False, "summaries": True, "links": True, "changes": False}),
    ("POST", "/m/a.toml/record", {"names": ["a.toml"], "listing": False, "summaries": True, "links": True, "changes": True}),
    ("POST", "/m/a.toml/record/live", {"names": ["a.toml"], "listing": False, "summaries": False, "links": False, "changes": False}),
    ("POST", "/m/a.toml/check", {"names": ["a.toml"], "listing": False, "summaries": True, "links": False, "changes": False}),
    ("POST", "/m/a.toml/next", {"names": ["a.toml"], "listing": False, "summaries": True, "links": True, "changes": True}),
    ("GET", "/api/matches/a.toml", {"names": ["a.toml"], "listing": False, "summaries": True, "links": True, "changes": False}),
    ("GET", "/api/matches/a.toml/version", {"names": ["a.toml"], "listing": False, "summaries": False, "links": False, "changes": False}),
    ("POST", "/api/matches", {"names": [], "listing": True, "summaries": True, "links": False, "changes": True}),
    ("POST", "/api/matches/a.toml/preview", {"names": ["a.toml"], "listing": False, "summaries": False, "links": False, "changes": False}),
    ("DELETE", "/api/matches/a.toml/hands/last", {"names": ["a.toml"], "listing": False, "summaries": False, "links": False, "changes": True}),
    ("GET", "/nowhere", {"names": [], "listing": False, "summaries": False, "links": False, "changes": False}),
])
def test_the_worker_reads_and_locks_as_the_table_says(pocket: Any, method: str, path: str, said: dict[str, Any]):
    assert json.loads(pocket.reads(method, path)) == said

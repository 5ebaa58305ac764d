"""What each route of serve's app reads and writes, in one table: serve takes turns on the routes that advise
(`web/asgi.py`), and the app's worker (`pocket/worker.py`) loads from IndexedDB only what a request reads and
takes the lock every tab shares only for a request that may write.

Every route reads the match files its address names (its `name` or `file`); the table says what else it does.
A route is named as Starlette names it, an API route with `api.` before its name (`api.match` is
`GET /api/matches/{file}`, `match` is `GET /m/{name}`). tests/test_route_uses.py holds the table to the app's
routes: every one declared, none declared that the app lacks.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType


@dataclass(frozen=True)
class Use:
    """What a route does beyond reading the match files its address names."""

    lists: bool = False
    """It lists the folder: every stored match's summary, and the texts the list needs."""
    links: bool = False
    """It reads the next games: Next game itself, and a finished match's pages, which offer the one started."""
    writes: bool = False
    """Its POST, PUT or DELETE may change a match, so takes the lock (its GET never does)."""
    table: bool = False
    """It draws on every match of the table (a series, a chance, its model): every stored match's summary, which
    carries what the match gives the table (`match.gives`), so that no other match's text is read for it."""
    advises: bool = False
    """It may run `advise` (up to `hands.MOST_SAMPLES` samples: seconds of pure-Python work), so takes turns."""


READS = Use()
"""A route that reads only what its address names."""
CHECKS = Use(advises=True)
"""A check or a live preview of one that may weigh the hand: a POST that changes nothing."""

ROUTES: Mapping[str, Use] = MappingProxyType({
    "api.matches": Use(lists=True, writes=True),
    "api.match": Use(links=True, table=True),
    "api.version": READS,
    "api.hands": Use(writes=True),
    "api.preview": READS,
    "api.last_hand": Use(writes=True),
    "api.hand": Use(writes=True),
    "api.export": READS,
    "api.api_merge": Use(writes=True),
    "api.api_standings": READS,
    "api.check_hand": READS,
    "api.advise_hand": CHECKS,
    "folder": Use(lists=True),
    "new": Use(lists=True, writes=True),
    "check": READS,
    "check_post": CHECKS,
    "check_live": CHECKS,
    "merge": Use(writes=True),
    "backup": READS,
    "standings": READS,
    "stats": READS,
    "stats_pair": READS,
    "stats_player": READS,
    "scan": READS,
    "scan_post": Use(writes=True),
    "scan_decoder": READS,
    "match": Use(links=True, table=True),
    "sheet": Use(links=True, table=True),
    "version": READS,
    "chart": READS,
    "result_picture": Use(table=True),
    "qr": READS,
    "review": Use(table=True),
    "export": READS,
    "record": Use(links=True, table=True),
    "record_post": Use(links=True, writes=True, table=True),
    "record_live": READS,
    "edit_pick": READS,
    "edit": READS,
    "edit_post": Use(writes=True),
    "edit_live": READS,
    "next_game": Use(links=True, writes=True, table=True),
    "undo": READS,
    "undo_post": Use(writes=True),
    "match_check": Use(table=True),
    "match_check_post": Use(advises=True, table=True),
    "match_check_live": CHECKS,
})
"""Every route of serve's app, by its name (`api.` before an API route's)."""

API = "/api"
"""Where the API's routes are mounted."""


def key(mount: str, name: str) -> str:
    """A route's name in `ROUTES`: `api.` before an API route's."""
    return f"api.{name}" if mount == API else name


def use(mount: str, name: str | None) -> Use:
    """What a route does; `READS` for an address that is no route of the app (answered 404, reading nothing)."""
    return ROUTES.get(key(mount, name), READS) if name else READS


def advising(mount: str) -> frozenset[str]:
    """The names, inside `mount` ("" for the pages), of the routes that may run `advise`."""
    return frozenset(name for name in (_inside(mount, named) for named, one in ROUTES.items() if one.advises) if name)


def _inside(mount: str, named: str) -> str:
    if mount == API:
        return named.removeprefix("api.") if named.startswith("api.") else ""
    return "" if named.startswith("api.") else named

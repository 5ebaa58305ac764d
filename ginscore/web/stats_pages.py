"""The table's figures on the phone: everyone who has played here, a page per pair and a page per player.

The figures are `ginscore stats --json`'s, made by the same code (`match.stats`) from the folder's match files;
nothing is stored for them. A file that cannot be read is left out here, as `stats` leaves it out.
"""

from __future__ import annotations

from typing import Any

from markupsafe import Markup
from starlette.requests import Request
from starlette.responses import Response

from ..errors import NotFoundError, quote
from ..match.records import pair_key, person_key
from ..match.stats import STAT_ROWS, PairStats, player_record, stat_text
from ..sheets.rating_chart import rating_svg
from ..sheets.standings_words import odds_text, rating_text
from .page_helpers import folder_of, render
from .standings_pages import chosen_season, season_standings


def _pairs(request: Request) -> list[PairStats]:
    return folder_of(request).table.pairs()


def stats_page(request: Request, form: dict[str, str]) -> Response:
    """Everyone who has played in this folder: each pair's games, and each player's page."""
    pairs = _pairs(request)
    players = sorted({person_key(name): name for pair in pairs for name in pair.players}.values(), key=person_key)
    return render(request, "stats.html", {"pairs": pairs, "players": players})


def pair_page(request: Request, form: dict[str, str]) -> Response:
    """Two players' head-to-head: every figure `stats` has for them, side by side."""
    wanted = (request.query_params.get("a", ""), request.query_params.get("b", ""))
    pair = next((pair for pair in _pairs(request) if pair_key(pair.players) == pair_key(wanted)), None)
    season = chosen_season(request)
    odds = season_standings(request, season).pair(*(pair.players if pair is not None else wanted))
    if pair is None and odds is None:
        raise NotFoundError(f"{quote(wanted[0])} and {quote(wanted[1])} have no match in this folder", field="players")
    rows = []
    if pair is not None:
        figures = pair.as_dict()["by_player"]
        rows = [(label, [stat_text(key, figures[name][key]) for name in pair.players]) for label, key in STAT_ROWS]
    players = pair.players if pair is not None else odds.players  # type: ignore[union-attr]
    return render(request, "stats_pair.html", {"pair": pair, "players": players, "rows": rows, "odds": odds_text(odds) if odds else None, "season": season})


def player_page(request: Request, form: dict[str, str]) -> Response:
    """One player against everyone: their figures summed, and each opponent's head-to-head a tap away."""
    name = request.query_params.get("name", "")
    record = player_record(_pairs(request), name)
    if record is None:
        raise NotFoundError(f"{quote(name)} has no match in this folder", field="players")
    figures = record.figures.as_dict(record.hands)
    rows: list[tuple[str, Any]] = [(label, stat_text(key, figures[key])) for label, key in STAT_ROWS]
    opponents = [(next(p for p in pair.players if person_key(p) != person_key(record.name)), pair) for pair in record.opponents]
    standing = season_standings(request, chosen_season(request)).row(record.name)
    chart = Markup(rating_svg(standing.player, standing.history)) if standing is not None else None
    rating = rating_text(standing) if standing is not None else None
    return render(request, "stats_player.html", {"record": record, "rows": rows, "opponents": opponents, "chart": chart, "rating": rating})

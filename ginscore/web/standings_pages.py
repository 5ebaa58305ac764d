"""The club's standings on the phone: who leads, by how much, how sure that is, and whether the ratings predict
better than a coin; a season chosen by tapping. The table is `ginscore standings --json`'s, made by the same code
(`match.standings`) from the served folder's sheets."""

from __future__ import annotations

from datetime import UTC, date, datetime

from starlette.requests import Request
from starlette.responses import Response

from ..match.standings import Skipped, Standings, sheet_games, standings_of_sheets, undated_games
from ..sheets.standings_words import ROOM_WORDS, margin_text, percent, prediction_text, rating_text
from .page_helpers import folder_of, render

SEASONS = (("month", "This month"), ("year", "This year"), ("all", "All"))
"""The seasons a person can tap: their value in the address, and their words."""


def season_start(season: str, today: date) -> date | None:
    """The first day of the season chosen (`month`, `year`); None for all (or anything else)."""
    if season == "month":
        return today.replace(day=1)
    if season == "year":
        return today.replace(month=1, day=1)
    return None


def chosen_season(request: Request) -> str:
    season = request.query_params.get("season", "all")
    return season if season in dict(SEASONS) else "all"


def season_standings(request: Request, season: str) -> Standings:
    """The standings of the served folder over the season, as of today (UTC)."""
    return standings_of_sheets(folder_of(request).sheets(), season_start(season, datetime.now(UTC).date()))


def undated_here(request: Request) -> tuple[Skipped, ...]:
    """The served folder's finished games with no date, which no season holds, each with its file's name."""
    return undated_games((name, sheet_games(sheet)) for name, sheet in folder_of(request).named_sheets())


def standings_page(request: Request, form: dict[str, str]) -> Response:
    """Every player, best first, with the season's figures and the ratings' test against a coin."""
    season = chosen_season(request)
    table = season_standings(request, season)
    rows = [
        {"row": row, "rating": rating_text(row), "share": percent(row.win_share), "margin": margin_text(row.average_margin)}
        for row in table.rows
    ]
    return render(request, "standings.html", {
        "table": table, "rows": rows, "seasons": SEASONS, "season": season,
        "prediction": prediction_text(table.prediction, scores=False), "room_words": ROOM_WORDS,
        "players": sorted((row.player for row in table.rows), key=str.casefold),
        "skipped": undated_here(request),
    })

"""The table's figures on the phone: everyone who has played here, a page per pair and a page per player.

The figures are `ginscore stats --json`'s, made by the same code (`match.stats`) from the folder's match files;
nothing is stored for them. A file that cannot be read is left out here, as `stats` leaves it out.

Each player's mean chance lost a knock is `stats --review`'s (`files.review_source`). A review of every match
with cards costs about a second a match, and a new hand changes every review by its rules (their model), so the
page never starts one by itself: it shows the figures when every match's review is kept (in memory, or in the
disk's cache `stats --review` fills), else a link. Under serve the link's page reviews in a thread of its own,
one a folder, and says how many hands are done, reloading itself until it is; under Pyodide (the app), which has
no threads, each visit of it reviews for a few seconds and offers to go on.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from markupsafe import Markup
from starlette.requests import Request
from starlette.responses import Response

from ..errors import NotFoundError, quote
from ..files.review_source import KeptReviews, ReviewSums, ToReview, known_sums, reviewed_sums, to_review
from ..match.records import pair_key, person_key
from ..match.stats import STAT_ROWS, PairStats, player_record, stat_text
from ..sheets.rating_chart import rating_svg
from ..sheets.standings_words import odds_text, rating_text
from .background import TURN_S, Background, Progress
from .blocking import INLINE
from .page_helpers import folder_of, render
from .standings_pages import chosen_season, season_standings

if TYPE_CHECKING:
    from ..files.review_source import ReviewStore
    from ..files.served import Folder

WAIT_S = 1.0
"""How long the review's page waits for a review under way (serve) before it answers with the progress so far."""
KEPT = KeptReviews()
"""What the reviews gave, for the life of serve or of the app's worker."""


def _pairs(request: Request) -> list[PairStats]:
    return folder_of(request).table.pairs()


def stats_page(request: Request, form: dict[str, str]) -> Response:
    """Everyone who has played in this folder: each pair's games, each player's page, and each player's mean
    chance lost a knock once reviewed (`?review=1` reviews)."""
    pairs = _pairs(request)
    players = sorted({person_key(name): name for pair in pairs for name in pair.players}.values(), key=person_key)
    lost = _chance_lost(folder_of(request), "review" in request.query_params)
    return render(request, "stats.html", {"pairs": pairs, "players": players, "lost": lost})


@dataclass(frozen=True)
class ChanceLost:
    """What the page says of each player's mean chance lost a knock."""

    matches: int
    """The matches with a knock recorded with the knocker's cards (0: nothing to review)."""
    sums: tuple[ReviewSums, ...] | None = None
    """Each player's, once every one of those matches is reviewed as it stands now."""
    done: int | None = None
    """While serve reviews: the hands done, of `total`."""
    total: int = 0
    reviewed: int = 0
    """The matches whose review is kept, when the app's review stopped to answer (`more`)."""
    more: bool = False
    reload: bool = False
    """Whether the page reloads itself: asked to review, and the review under way."""
    knocks: int = 0
    """The knocks recorded with the knocker's cards, while they are not reviewed."""


@dataclass
class _Job(Background[tuple[ReviewSums, ...]]):
    keys: tuple[bytes, ...] = ()
    """What the review is of: each match's `review_key`."""


_JOBS: dict[str, _Job] = {}
"""The latest review of each folder served."""
_LOCK = threading.Lock()


@contextmanager
def _kept() -> Iterator[ReviewStore]:
    """The reviews kept: in memory, in front of the disk's cache under serve (not under Pyodide, without SQLite)."""
    if INLINE:
        yield KEPT
        return
    from ..files.stats_cache import StatsCache, cache_folder

    with StatsCache(cache_folder()) as disk:
        yield KEPT.over(disk)


def _chance_lost(folder: Folder, asked: bool) -> ChanceLost:
    """The figures when every review is kept; else, when `asked`, the review made (or how far it has got)."""
    matches = to_review(folder.table)
    if not matches:
        return ChanceLost(0)
    sums = known_sums(matches, KEPT)
    if sums is None and not INLINE:
        with _kept() as kept:
            sums = known_sums(matches, kept)
    if sums is not None:
        return ChanceLost(len(matches), sums)
    if INLINE:
        return _reviewed_here(matches) if asked else _not_reviewed(matches)
    job = _job(folder.path, matches, asked)
    if job is None:
        return _not_reviewed(matches)
    if asked:
        job.finished.wait(WAIT_S)
        if job.failed:
            raise RuntimeError("the review failed")  # the guard's page: something went wrong, nothing was written
    if job.finished.is_set() and job.keys == tuple(match.key for match in matches) and job.found is not None:
        return ChanceLost(len(matches), job.found)
    if job.finished.is_set():
        return _not_reviewed(matches)
    return ChanceLost(len(matches), done=job.done, total=job.total, reload=asked)


def _not_reviewed(matches: Sequence[ToReview]) -> ChanceLost:
    knocks = sum(1 for match in matches for record in match.sheet.match.hands if record.cards is not None)
    return ChanceLost(len(matches), knocks=knocks)


def _job(folder: str, matches: Sequence[ToReview], asked: bool) -> _Job | None:
    """The folder's review under way or last made; when `asked` and none is under way, one started."""
    with _LOCK:
        job = _JOBS.get(folder)
        if not asked or (job is not None and not job.finished.is_set()):
            return job
        job = _JOBS[folder] = _Job(keys=tuple(match.key for match in matches))
    job.start(lambda progress: _reviewed(matches, progress), "ginscore-stats-review")
    return job


def _reviewed(matches: Sequence[ToReview], progress: Progress) -> tuple[ReviewSums, ...] | None:
    with _kept() as kept:
        return reviewed_sums(matches, kept, progress)


def _reviewed_here(matches: Sequence[ToReview]) -> ChanceLost:
    """The review made in this request, for a turn (`TURN_S`, a match at least): the figures, or how many are done."""
    stop = time.monotonic() + TURN_S
    sums = reviewed_sums(matches, KEPT, enough=lambda: time.monotonic() > stop)
    if sums is not None:
        return ChanceLost(len(matches), sums)
    reviewed = sum(1 for match in matches if KEPT.reviewed(match.key) is not None)
    return ChanceLost(len(matches), reviewed=reviewed, more=True)


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

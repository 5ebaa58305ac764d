"""A match's Review page: each knock recorded with the knocker's eleven cards, judged by the game chance it cost.

A review costs what `advise --match` costs for each such hand (a fifth of a second or so each here), so under a
server it runs in a thread of its own, once for each version of the file and of the model: the page answers at
once when it is done within a second, and otherwise says how far it has got and reloads itself until it is done.
Under Pyodide (the app), which has no threads, each visit reviews for a turn (`TURN_S`) and offers to go on.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Hashable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from starlette.requests import Request
from starlette.responses import Response

from ..match.review import JUDGEMENTS, KINDS, HandReview, Review, hand_at, review
from .background import TURN_S, Background
from .blocking import INLINE
from .page_helpers import folder_of, load_sheet, render
from .picker import card_face
from .review_share import Helpers, share

if TYPE_CHECKING:
    from ..files.served import Folder
    from ..match.tally import Sheet

WAIT_S = 1.0
"""How long a page waits for a review under way before it answers with the progress so far."""
KEPT = 16
"""Reviews kept in memory, the latest asked for."""


_JOBS: OrderedDict[Hashable, Background[Review]] = OrderedDict()
_LOCK = threading.Lock()


def _job(key: Hashable, sheet: Sheet, outcomes: Any) -> Background[Review]:
    """The review of `sheet` for `key`, started in a thread when none is under way or done."""
    with _LOCK:
        job = _JOBS.get(key)
        if job is not None and not job.failed:
            _JOBS.move_to_end(key)
            return job
        job = _JOBS[key] = Background(len(sheet.lines))
        while len(_JOBS) > KEPT:
            _JOBS.popitem(last=False)
    job.start(lambda progress: review(sheet, outcomes, progress), "ginscore-review")
    return job


class _Paused(Exception):
    """A visit's turn of a review is over: it goes on at the next."""


_TURNS: OrderedDict[Hashable, dict[int, HandReview]] = OrderedDict()
"""Without threads (the app): each review under way, its knocks reviewed so far, by line."""


def _made(key: Hashable) -> Review | None:
    """The review for `key` when it is made (by a thread, or by turns), else None."""
    with _LOCK:
        job = _JOBS.get(key)
    return None if job is None else job.found


def _kept(key: Hashable) -> dict[int, HandReview]:
    """The knocks of the review for `key` reviewed so far, without a thread."""
    with _LOCK:
        kept = _TURNS.setdefault(key, {})
        _TURNS.move_to_end(key)
        while len(_TURNS) > KEPT:
            _TURNS.popitem(last=False)
    return kept


def _in_turns(key: Hashable, sheet: Sheet, outcomes: Any, stop: float | None = None) -> Review | dict[int, HandReview]:
    """The review of `sheet` for `key` without a thread: a turn of it (`TURN_S`, or until `stop`; a knock at least)
    at each visit. The review once done, kept as serve keeps its reviews (for the match page's line); else its
    knocks so far."""
    kept = _kept(key)
    stop, before = time.monotonic() + TURN_S if stop is None else stop, len(kept)

    def each(sheet: Sheet, outcomes: Any, knocks: Sequence[int]) -> Iterator[HandReview]:
        for index in knocks:
            if index not in kept:
                if len(kept) > before and time.monotonic() > stop:
                    raise _Paused
                kept[index] = hand_at(sheet, outcomes, index)
            yield kept[index]

    try:
        found = review(sheet, outcomes, each=each)
    except _Paused:
        return kept
    done: Background[Review] = Background(len(sheet.lines), len(sheet.lines), found)
    done.finished.set()
    with _LOCK:
        _TURNS.pop(key, None)
        _JOBS[key] = done
    return found


def match_review_line(folder: Folder, name: str, version: str, sheet: Sheet) -> str:
    """`review_line` for a match page, with the review of this version when one was made (never starting one)."""
    from ..files.table import solvable

    found = None
    if solvable(sheet):
        outcomes = folder.table.model(sheet.match.rules).outcomes
        found = _made((folder.path, name, version, outcomes))
    return review_line(sheet, found)


async def review_ahead(request: Request) -> None:
    """Without threads, where the app's shell gives helpers (`app.state.review_helpers`): the knocks of this
    visit's turn shared with them (`review_share`) before the page is made, which then finds them done."""
    from ..files.table import solvable

    helpers: Helpers | None = getattr(request.app.state, "review_helpers", None)
    if not INLINE or helpers is None:
        return
    name = request.path_params["name"]
    folder = folder_of(request)
    version = folder.version(name)
    sheet = load_sheet(folder, name)
    if not solvable(sheet):
        return  # the page says why
    outcomes = folder.table.model(sheet.match.rules).outcomes  # the chance now is the page's, solved after
    read = folder.table.file(name).read
    key = (folder.path, name, version, outcomes)
    if read is None or _made(key) is not None:
        return
    kept = _kept(key)
    request.state.turn_ends = stop = time.monotonic() + TURN_S
    knocks = [index for index, line in enumerate(sheet.lines) if line.knocker is not None]
    await share(helpers, read.text, sheet, outcomes, knocks, kept, stop)


def review_page(request: Request, form: dict[str, str]) -> Response:
    """The review of a match, or how far it has got."""
    name = request.path_params["name"]
    folder = folder_of(request)
    version = folder.version(name)
    sheet = load_sheet(folder, name)
    outcomes = folder.table.odds(sheet).model.outcomes
    context: dict[str, Any] = {"name": name, "players": sheet.match.players, "thresholds": JUDGEMENTS, "kinds": KINDS,
                               "face": card_face}
    key = (folder.path, name, version, outcomes)
    if INLINE:
        found = _made(key) or _in_turns(key, sheet, outcomes, getattr(request.state, "turn_ends", None))
        if isinstance(found, Review):
            return render(request, "review.html", {**context, "review": found})
        return render(request, "review.html", {**context, "review": None, "done": max(found, default=-1) + 1,
                                               "total": len(sheet.lines), "turns": True})
    job = _job(key, sheet, outcomes)
    job.finished.wait(WAIT_S)
    if job.failed:
        raise RuntimeError("the review failed")  # the guard's page: something went wrong, nothing was written
    if job.found is None:
        return render(request, "review.html", {**context, "review": None, "done": job.done, "total": job.total})
    return render(request, "review.html", {**context, "review": job.found})


def review_line(sheet: Sheet, found: Review | None) -> str:
    """The match page's one line about its review: each player's chance lost once the review is made, else how
    many knocks have the knocker's cards recorded."""
    if found is not None:
        if found.nothing is not None:
            return "nothing to review: no knock has the knocker's eleven cards recorded"
        return "; ".join(
            f"{player.player} lost {player.total:.1f} points of game chance over {player.hands} "
            f"knock{'' if player.hands == 1 else 's'}" for player in found.players if player.hands
        )
    with_cards = sum(1 for line in sheet.lines if line.scored is not None and line.scored.discard is not None)
    return f"{with_cards} knock{'' if with_cards == 1 else 's'} with the knocker's eleven cards to judge"

"""Each player's mean chance lost over a folder's match files, each match reviewed as `ginscore review` reviews it
(its own folder's model, the seed made from each hand): for `stats --review` and the Players page.

A review is the slow part, so what each file's review gave each knocker is kept by a digest of all it is made
from, the match and the model's outcomes (`review_key`): in the one cache on disk (`stats_cache`), and under serve
and the app in memory too (`KeptReviews`). While neither changes it is not made again. The model is every hand of
the folder played by the match's rules, so a new hand changes it, and the review's figures with it: no key that
outlives a new hand would give what `review FILE` prints now.
"""

from __future__ import annotations

import hashlib
import os
import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from ..errors import MatchFileError
from ..match.gives import TableGives
from ..match.records import person_key
from .table import Table

if TYPE_CHECKING:
    from ..game.outcomes import Outcomes
    from ..game.rulebook import Rules
    from ..match.records import Match
    from ..match.review import Reviewer
    from ..match.tally import Sheet
    from .stats_cache import StatsCache

Rows = list[tuple[str, int, float]]
"""What one match's review gave each of its players: their name, hands reviewed and chance lost (close hands
counting none), as the cache keeps it."""


class ReviewStore(Protocol):
    """Where what reviews gave is kept, by `review_key`: the disk's cache (`StatsCache`) or `KeptReviews`."""

    def reviewed(self, key: bytes) -> Rows | None: ...

    def remember_review(self, key: bytes, rows: Rows) -> None: ...


@dataclass(frozen=True)
class ReviewSums:
    """One player's knocks reviewed over many matches: how many, and the chance they lost in all."""

    player: str
    hands: int
    total: float
    """Percentage points of game chance, close hands counting none (`match.review`)."""

    @property
    def mean(self) -> float:
        return self.total / self.hands if self.hands else 0.0

    def as_json(self) -> dict[str, object]:
        return {"player": self.player, "hands": self.hands, "total_lost": self.total, "mean_lost": self.mean}


@dataclass(frozen=True)
class ToReview:
    """One match of a table to review: its file's name, its sheet, and the model's outcomes it is reviewed by."""

    name: str
    sheet: Sheet
    outcomes: Outcomes
    key: bytes
    """`review_key`: what its review is kept by."""


def review_key(sheet: Sheet, outcomes: Outcomes, outcomes_text: str | None = None) -> bytes:
    """A digest of all a review is made from: the match and the model's outcomes, `repr((match, outcomes))`
    (`outcomes_text` its `repr` when the caller has it)."""
    digest = _match_begun(sheet.match)
    digest.update(f"{outcomes_text or repr(outcomes)})".encode())
    return digest.digest()


_BEGUN: dict[int, tuple[weakref.ref[Match], Any]] = {}
"""For each match object alive: the digest of `repr((match, outcomes))` fed up to the outcomes. No lock: an entry
is believed only for the very object it was made of, so two threads at once cost at worst a digest made again
(and a lock taken here could be wanted again by `gone`, run by the collector in the thread holding it)."""


def _match_begun(match: Match) -> Any:
    """A SHA-256 fed with `(repr(match), ` (the match's part of `review_key`), made once for each match object (a
    table keeps one while its file is unchanged; a page asks for every match's key at each visit) and forgotten
    with it."""
    key = id(match)
    found = _BEGUN.get(key)
    if found is not None and found[0]() is match:
        return found[1].copy()
    begun = hashlib.sha256(f"({match!r}, ".encode())

    def gone(dead: weakref.ref[Match]) -> None:
        kept = _BEGUN.get(key)
        if kept is not None and kept[0] is dead:
            _BEGUN.pop(key, None)

    _BEGUN[key] = (weakref.ref(match, gone), begun)
    return begun.copy()


def review_rows(sheet: Sheet, outcomes: Outcomes, progress: Callable[[int, int], None] | None = None,
                each: Reviewer | None = None) -> Rows:
    """What the review of `sheet` by `outcomes` gives each of its players (`progress` told each hand done; `each`
    reviews its knocks, as `review` takes it)."""
    from ..match.review import review

    return [(player.player, player.hands, player.total) for player in review(sheet, outcomes, progress, each).players]


def summed(each_file: Iterable[Rows]) -> tuple[ReviewSums, ...]:
    """Each knocker's sums over the files' rows, one person however their name was typed (the first spelling
    met), most hands first; a player with no hand reviewed is left out."""
    names: dict[str, str] = {}
    sums: dict[str, tuple[int, float]] = {}
    for rows in each_file:
        for player, hands, total in rows:
            key = person_key(player)
            names.setdefault(key, player)
            before = sums.get(key, (0, 0.0))
            sums[key] = (before[0] + hands, before[1] + total)
    found = [ReviewSums(names[key], hands, total) for key, (hands, total) in sums.items() if hands]
    return tuple(sorted(found, key=lambda each: (-each.hands, person_key(each.player))))


def review_sums(paths: Iterable[str], cache: StatsCache, each: Reviewer | None = None) -> tuple[ReviewSums, ...]:
    """Each knocker's sums over the reviews of the readable match files at `paths`, in their order (`summed`); a
    file that cannot be read is left out, as `stats` leaves it out. `each` reviews a match's knocks (`review`)."""
    tables: dict[str, tuple[Table, TableGives]] = {}
    found: list[Rows] = []
    for path in paths:
        folder = os.path.dirname(os.path.abspath(path))
        try:
            if folder not in tables:  # each folder's table read once, through the cache `stats` holds open
                table = Table(folder, layer=cache)
                tables[folder] = (table, table.table_gives())
            table, given = tables[folder]
            sheet = table.sheet_at(path)
            outcomes = table.model(sheet.match.rules, given=given).outcomes
        except MatchFileError:
            continue
        found.append(_rows(sheet, outcomes, review_key(sheet, outcomes), cache, each))
    return summed(found)


def _rows(sheet: Sheet, outcomes: Outcomes, key: bytes, store: ReviewStore, each: Reviewer | None) -> Rows:
    """The rows kept for `key`, else the review made and kept."""
    known = store.reviewed(key)
    if known is not None:
        return known
    found = review_rows(sheet, outcomes, each=each)
    store.remember_review(key, found)
    return found


def to_review(table: Table) -> tuple[ToReview, ...]:
    """The table's matches as `stats --review` reviews a folder: every readable one (a copy left out), by name,
    each with its model. A match with no hand recorded with the knocker's cards is left out: its review gives no
    player a hand."""
    given: TableGives | None = None
    models: dict[Rules, tuple[Outcomes, str]] = {}
    found = []
    for name, sheet in sorted(table.named_sheets(), key=lambda named: named[0]):
        if all(record.cards is None for record in sheet.match.hands):
            continue
        if given is None:
            given = table.table_gives()
        rules = sheet.match.rules
        if rules not in models:
            outcomes = table.model(rules, given=given).outcomes
            models[rules] = (outcomes, repr(outcomes))
        outcomes, text = models[rules]
        found.append(ToReview(name, sheet, outcomes, review_key(sheet, outcomes, text)))
    return tuple(found)


def known_sums(matches: Sequence[ToReview], store: ReviewStore) -> tuple[ReviewSums, ...] | None:
    """The sums over `matches` when every one's review is kept in `store`, else None (nothing is reviewed)."""
    found = []
    for match in matches:
        rows = store.reviewed(match.key)
        if rows is None:
            return None
        found.append(rows)
    return summed(found)


def reviewed_sums(matches: Sequence[ToReview], store: ReviewStore, progress: Callable[[int, int], None] | None = None,
                  enough: Callable[[], bool] | None = None) -> tuple[ReviewSums, ...] | None:
    """The sums over `matches`, each review made that `store` does not keep, and kept there. `progress` is told
    the hands done of the matches reviewed here, with their number. `enough` is asked before each review but the
    first: once it says so, the rest are left and None is given (what was made is kept, for the next call)."""
    rows = {match.key: store.reviewed(match.key) for match in matches}
    missing = [match for match in matches if rows[match.key] is None]
    total = sum(len(match.sheet.lines) for match in missing)
    done = 0

    def told(at: int, _: int) -> None:
        if progress is not None:
            progress(done + at, total)

    told(0, total)
    for match in missing:
        if done and enough is not None and enough():
            return None
        made = rows[match.key] = review_rows(match.sheet, match.outcomes, told)
        store.remember_review(match.key, made)
        done += len(match.sheet.lines)
    return summed(rows[match.key] or [] for match in matches)


class KeptReviews:
    """What reviews gave, kept in memory (the latest `most`), in front of the disk's cache when one is given: what
    serve and the app remember between pages. Safe to share between threads."""

    def __init__(self, most: int = 4096):
        self.most = most
        self._rows: OrderedDict[bytes, tuple[tuple[str, int, float], ...]] = OrderedDict()
        self._lock = threading.Lock()

    def over(self, behind: ReviewStore | None) -> ReviewStore:
        """This memory in front of `behind`: read from it first, else from `behind` (and kept here); kept in both."""
        return self if behind is None else _InFront(self, behind)

    def reviewed(self, key: bytes) -> Rows | None:
        with self._lock:
            rows = self._rows.get(key)
            if rows is not None:
                self._rows.move_to_end(key)
        return None if rows is None else list(rows)

    def remember_review(self, key: bytes, rows: Rows) -> None:
        with self._lock:
            self._rows[key] = tuple(rows)
            self._rows.move_to_end(key)
            while len(self._rows) > self.most:
                self._rows.popitem(last=False)


@dataclass(frozen=True)
class _InFront:
    front: KeptReviews
    behind: ReviewStore

    def reviewed(self, key: bytes) -> Rows | None:
        rows = self.front.reviewed(key)
        if rows is None:
            rows = self.behind.reviewed(key)
            if rows is not None:
                self.front.remember_review(key, rows)
        return rows

    def remember_review(self, key: bytes, rows: Rows) -> None:
        self.front.remember_review(key, rows)
        self.behind.remember_review(key, rows)

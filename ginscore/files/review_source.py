"""`stats --review`: each player's mean chance lost over the match files `stats` reads, each match reviewed as
`ginscore review` reviews it (its own folder's model, the seed made from each hand), and what each file's review
gave each knocker kept in the one cache (`stats_cache`), by the file's bytes and the model: a review is the slow
part, and while neither changes it is not made again.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable
from dataclasses import dataclass

from ..errors import MatchFileError
from ..match.gives import TableGives
from ..match.records import person_key
from .stats_cache import StatsCache
from .table import Table


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


def review_sums(paths: Iterable[str], cache: StatsCache) -> tuple[ReviewSums, ...]:
    """Each knocker's sums over the reviews of the readable match files at `paths` (one person however their name
    was typed), most hands first; a file that cannot be read is left out, as `stats` leaves it out."""
    tables: dict[str, tuple[Table, TableGives]] = {}
    names: dict[str, str] = {}
    sums: dict[str, tuple[int, float]] = {}
    for path in paths:
        folder = os.path.dirname(os.path.abspath(path))
        try:
            if folder not in tables:  # each folder's table read once, through the cache `stats` holds open
                table = Table(folder, layer=cache)
                tables[folder] = (table, table.table_gives())
            rows = _reviewed(path, *tables[folder], cache)
        except MatchFileError:
            continue
        for player, hands, total in rows:
            key = person_key(player)
            names.setdefault(key, player)
            before = sums.get(key, (0, 0.0))
            sums[key] = (before[0] + hands, before[1] + total)
    found = [ReviewSums(names[key], hands, total) for key, (hands, total) in sums.items() if hands]
    return tuple(sorted(found, key=lambda each: (-each.hands, person_key(each.player))))


def _reviewed(path: str, table: Table, given: TableGives, cache: StatsCache) -> list[tuple[str, int, float]]:
    """What the review of the file at `path` gives each of its players: hands reviewed and chance lost."""
    from ..match.review import review

    sheet = table.sheet_at(path)
    outcomes = table.model(sheet.match.rules, given=given).outcomes
    key = hashlib.sha256(repr((sheet.match, outcomes)).encode()).digest()  # all a review is made from
    known = cache.reviewed(key)
    if known is not None:
        return known
    found = [(player.player, player.hands, player.total) for player in review(sheet, outcomes).players]
    cache.remember_review(key, found)
    return found

"""The kinds of what a match file gives that the cache on disk keeps (`stats_cache`), a table each: what `stats`
counts (its figures), what `standings` rates (its games), what a table draws on (`match.gives`) and what a review
gave each player; each with how its record is written and read back, every part type-checked."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import Any, Generic, TypeVar

from ..match.gives import MatchGives, match_gives
from ..match.standings import SheetGames, sheet_games
from ..match.stats import PairStats, PlayerStats, contribution
from ..match.tally import Sheet

T = TypeVar("T")


@dataclass(frozen=True)
class Kind(Generic[T]):
    """One kind of what a file gives, kept in a table of its own."""

    table: str
    salt: bytes
    """Set before a row's checksum, so that no row passes for another kind's."""
    make: Callable[[Sheet], T] | None
    """What a sheet gives of this kind; None for a kind made from more than one file (a review, by the model)."""
    record: Callable[[T], dict[str, Any]]
    read: Callable[[object], T | None]
    """The value a record holds, every part type-checked; None for anything else."""


def _review_rows(record: object) -> list[tuple[str, int, float]] | None:
    """A review's rows, each a name, a whole number of hands and a number of points; None for anything else."""
    rows = record.get("players") if isinstance(record, dict) and set(record) == {"players"} else None
    if not isinstance(rows, list) or not all(
            isinstance(row, list) and len(row) == 3 and isinstance(row[0], str) and _whole(row[1])
            and isinstance(row[2], int | float) and not isinstance(row[2], bool) for row in rows):
        return None
    return [(row[0], row[1], float(row[2])) for row in rows]


def _figures_of(record: object) -> PairStats | None:
    return PairStats.from_record(record) if _well_typed(record) else None  # type: ignore[arg-type]


_COUNTS = ("matches", "games", "hands")
_PLAYER_FIGURES = frozenset(figure.name for figure in fields(PlayerStats))


def _well_typed(record: object) -> bool:
    """Whether a row's figures have exactly the shape `PairStats.as_record` gives: two names, whole numbers."""
    if not isinstance(record, dict) or set(record) != {"players", "by_player", *_COUNTS}:
        return False
    players, by_player = record["players"], record["by_player"]
    if not (isinstance(players, list) and len(players) == 2 and all(isinstance(name, str) for name in players)):
        return False
    if not (isinstance(by_player, dict) and set(by_player) == set(players) and all(_whole(record[key]) for key in _COUNTS)):
        return False
    return all(
        isinstance(figures, dict) and set(figures) == _PLAYER_FIGURES and all(_whole(value) for value in figures.values())
        for figures in by_player.values()
    )


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


FIGURES: Kind[PairStats] = Kind("figures", b"", contribution, PairStats.as_record, _figures_of)
GAMES: Kind[SheetGames] = Kind("games", b"standings\0", sheet_games, SheetGames.as_record, SheetGames.from_record)
GIVES: Kind[MatchGives] = Kind("gives", b"gives\0", match_gives, MatchGives.as_record, MatchGives.from_record)
REVIEW_METHOD = 2
"""The review's method, counted: raised whenever a review of the same match by the same model gives other figures
(2: every discard of a hand played on from the same shuffles), so that no review kept by an earlier one passes."""
REVIEWS: Kind[list[tuple[str, int, float]]] = Kind("reviews", b"reviews %d\0" % REVIEW_METHOD, None, lambda rows: {"players": [list(row) for row in rows]},
                                                  lambda record: _review_rows(record))
KINDS: tuple[Kind[Any], ...] = (FIGURES, GAMES, GIVES, REVIEWS)

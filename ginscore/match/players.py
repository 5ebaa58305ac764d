"""The players a table already knows, from its match files: nothing is stored for them but the matches."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .records import Match


@dataclass(frozen=True)
class KnownPlayers:
    """The names to offer when a new match is started."""

    names: tuple[str, ...] = ()
    """Every player, the one who played most recently first; one spelling a person (the latest)."""
    last_pair: tuple[str, str] | None = None
    """The two players of the latest match, in its order, to start the same pairing again in one tap."""

    def as_json(self) -> dict:
        return {"names": list(self.names), "last_pair": list(self.last_pair) if self.last_pair else None}


def known_players(matches: Iterable[tuple[str, Match]]) -> KnownPlayers:
    """The players of `matches`, each given with when it was last played (an ISO 8601 time, as the file stamps its
    hands), the latest first; names are one person in any case."""
    ordered = sorted(matches, key=lambda played: played[0], reverse=True)
    names: dict[str, str] = {}
    for _, match in ordered:
        for name in match.players:
            names.setdefault(name.casefold(), name)
    last_pair = ordered[0][1].players if ordered else None
    return KnownPlayers(tuple(names.values()), last_pair)


def last_played(match: Match) -> str:
    """When a match was last played: its latest hand's time, or when it was started."""
    return max((hand.recorded for hand in match.hands if hand.recorded), default=match.created)

"""The players a table already knows, from its match files: nothing is stored for them but the matches."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .records import person_key


@dataclass(frozen=True)
class KnownPlayers:
    """The names to offer when a new match is started."""

    names: tuple[str, ...] = ()
    """Every player, the one who played most recently first; one spelling a person (the latest)."""
    last_pair: tuple[str, str] | None = None
    """The two players of the latest match, in its order, to start the same pairing again in one tap."""

    def as_json(self) -> dict:
        return {"names": list(self.names), "last_pair": list(self.last_pair) if self.last_pair else None}


def known_players(played: Iterable[tuple[str, tuple[str, ...]]]) -> KnownPlayers:
    """The players of the matches `played`, each given as when it was last played (an ISO 8601 time, as a file
    stamps its hands) and its two players, the latest first; names are one person in any case."""
    ordered = sorted((entry for entry in played if len(entry[1]) == 2), key=lambda entry: entry[0], reverse=True)
    names: dict[str, str] = {}
    for _, players in ordered:
        for name in players:
            names.setdefault(person_key(name), name)
    last_pair = (ordered[0][1][0], ordered[0][1][1]) if ordered else None
    return KnownPlayers(tuple(names.values()), last_pair)

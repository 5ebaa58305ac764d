"""A pair's series: every finished game the same two players have played, match after match, and who leads it.

The series is derived from the sheets, like every other figure: games won each, the current streak, the last
result, and whether the games were all played by one set of rules. Names are matched as the head-to-head
figures match them (`records.pair_key`), and the first spelling read is kept.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .gives import MatchGives
from .records import pair_key, person_key


@dataclass(frozen=True)
class GameResult:
    """One finished game of the series."""

    winner: str | None
    """The player with the higher final total; None on equal finals."""
    final: tuple[tuple[str, int], ...]
    """Each player's final total, bonuses included, in the series' order of players."""
    rules: str
    """The preset the game was played by (`custom` when none is named)."""

    def as_json(self) -> dict:
        return {"winner": self.winner, "final": dict(self.final), "rules": self.rules}


@dataclass(frozen=True)
class Series:
    """Every finished game between two players, in the order they were played."""

    players: tuple[str, str]
    games: tuple[GameResult, ...] = ()

    @property
    def wins(self) -> tuple[int, int]:
        """Games won by each player, in the order of `players`."""
        a, b = self.players
        return sum(game.winner == a for game in self.games), sum(game.winner == b for game in self.games)

    @property
    def streak(self) -> tuple[str, int] | None:
        """The player who won the latest games in a row, and how many; None before any game is won."""
        if not self.games or self.games[-1].winner is None:
            return None
        holder, count = self.games[-1].winner, 0
        for game in reversed(self.games):
            if game.winner != holder:
                break
            count += 1
        return holder, count

    @property
    def last(self) -> GameResult | None:
        return self.games[-1] if self.games else None

    @property
    def rules(self) -> tuple[str, ...]:
        """The presets its games were played by, each once, in the order first met."""
        return tuple(dict.fromkeys(game.rules for game in self.games))

    def as_json(self) -> dict:
        streak = self.streak
        return {
            "players": list(self.players),
            "games": len(self.games),
            "wins": dict(zip(self.players, self.wins)),
            "drawn": sum(1 for game in self.games if game.winner is None),
            "streak": {"player": streak[0], "games": streak[1]} if streak else None,
            "last": self.last.as_json() if self.last else None,
            "rules": list(self.rules),
        }


def series_of(players: tuple[str, str], table: Iterable[MatchGives]) -> Series:
    """The series of `players` over the table's matches (what each gives, `gives.match_gives`), taken in the order
    given (oldest first): every finished game of every match between the same two names, in any case."""
    key = pair_key(players)
    names = {person_key(name): name for name in players}
    games: list[GameResult] = []
    for gives in table:
        if pair_key(gives.players) != key:
            continue
        ordered = _in_order(gives.players, players)
        for game in gives.games:
            final = dict(zip(gives.players, game.final))
            winner = names[person_key(game.winner)] if game.winner is not None else None
            games.append(GameResult(winner, tuple((names[person_key(name)], final[name]) for name in ordered), gives.preset))
    return Series(players, tuple(games))


def series_as_of(gives: MatchGives, table: Iterable[MatchGives]) -> Series:
    """The series of a match's players as that match stands in it (`gives`, what it gives): over the table's
    matches (oldest first) up to this one, so that an older game's "after this game" leaves out the games played
    after it. Where this match is not among them, over those started before it, then this one; a match with no
    start time (a file written by hand) sees every game."""
    created = gives.created
    if not created:
        return series_of(gives.players, table)
    given = [other for other in table if other.created <= created]
    # Started in the same second, the order given decides; two matches alike in all they give cannot be told
    # apart, and the later is taken.
    found = [at for at, other in enumerate(given) if other == gives]
    if found:
        return series_of(gives.players, given[:found[-1] + 1])
    return series_of(gives.players, [*(other for other in given if other.created < created), gives])


def _in_order(names: tuple[str, str], players: tuple[str, str]) -> tuple[str, str]:
    """`names` (one sheet's spelling) in the order of `players` (the series' spelling)."""
    return names if person_key(names[0]) == person_key(players[0]) else (names[1], names[0])

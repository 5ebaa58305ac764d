"""The club's standings: every player of a list of sheets rated by Glicko-2 (`ratings`), best first, with their
figures over the same games.

A finished game between two players is one result: 1 for its winner, 0 for the other (a Hollywood sheet's three
games count one each; a game whose finals are equal, which gin's rules never make, is left out). A game's day is
the UTC date of its last hand's `recorded` stamp, or of the match's start where the hand has none; a rating period
is one such day. A finished game with no day (its last hand's stamp is no time, or it has none and the match no
`created` that is one) is left out and said: `SheetGames.undated`, the standings' `skipped`. Players are one
person when their names are equal under NFC and casefold, and the first spelling
met in time is kept. A window (`since`, `until`, both days included) keeps the games that ended in it, and the
ratings are computed over those games alone; gins and undercuts count the hands recorded in it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, date, datetime

from .ratings import TAU, Prediction, Rating, Result, Share, expected_score, prediction, walk
from .records import Match, person_key
from .tally import Sheet


def day_of(stamp: str) -> str | None:
    """The UTC date (ISO) of a time stamp; a stamp without a zone is taken as UTC; None when it is not a time."""
    try:
        moment = datetime.fromisoformat(stamp)
        if moment.tzinfo is None:
            moment = moment.replace(tzinfo=UTC)
        return moment.astimezone(UTC).date().isoformat()
    except (ValueError, OverflowError, TypeError):
        return None

PERIOD = "day"
"""The rating period, as the JSON names it: a calendar day (UTC) on which games ended."""


@dataclass(frozen=True)
class PlayedGame:
    """One finished game, as the standings need it."""

    day: str
    """The UTC date its last hand was recorded."""
    players: tuple[str, str]
    winner: str
    margin: int
    """The winner's lead in final totals, bonuses included."""

    @property
    def loser(self) -> str:
        return self.players[1] if self.winner == self.players[0] else self.players[0]


@dataclass(frozen=True)
class HandMark:
    """A gin or an undercut, by whom, on which day."""

    day: str
    player: str
    kind: str
    """`gin` (big gin included) or `undercut` (the player undercut the knocker)."""


@dataclass(frozen=True)
class SheetGames:
    """What one sheet gives the standings: its finished games and its gins and undercuts."""

    games: tuple[PlayedGame, ...] = ()
    marks: tuple[HandMark, ...] = ()
    undated: tuple[str, ...] = ()
    """Why each finished game that has no day is left out, in words: `game 2 has no date: ...`."""

    def as_record(self) -> dict:
        """Plain data (JSON-ready), the inverse of `from_record`."""
        return {
            "games": [[g.day, g.players[0], g.players[1], g.winner, g.margin] for g in self.games],
            "marks": [[m.day, m.player, m.kind] for m in self.marks],
            "undated": list(self.undated),
        }

    @classmethod
    def from_record(cls, record: object) -> SheetGames | None:
        """What `as_record` gave, every value type-checked; None for anything else."""
        if not isinstance(record, dict) or set(record) != {"games", "marks", "undated"}:
            return None
        games, marks, undated = record["games"], record["marks"], record["undated"]
        if not (isinstance(games, list) and isinstance(marks, list) and isinstance(undated, list)):
            return None
        if not all(isinstance(reason, str) for reason in undated):
            return None
        played = []
        for game in games:
            if not (isinstance(game, list) and len(game) == 5 and all(isinstance(v, str) for v in game[:4])):
                return None
            if not (isinstance(game[4], int) and not isinstance(game[4], bool)) or game[3] not in game[1:3]:
                return None
            played.append(PlayedGame(game[0], (game[1], game[2]), game[3], game[4]))
        kept = []
        for mark in marks:
            if not (isinstance(mark, list) and len(mark) == 3 and all(isinstance(v, str) for v in mark)) or mark[2] not in ("gin", "undercut"):
                return None
            kept.append(HandMark(mark[0], mark[1], mark[2]))
        return cls(tuple(played), tuple(kept), tuple(undated))


def sheet_games(sheet: Sheet) -> SheetGames:
    """A sheet's finished games, each on its last hand's day, and its gins and undercuts on their hands' days; a
    finished game with no day is left out, with why (`SheetGames.undated`)."""
    match = sheet.match
    started = day_of(match.created) if match.created else None

    def day(number: int) -> str | None:
        """The hand's day: its stamp's, or the match's start when it has none; None when the one it has is no time."""
        stamp = match.hands[number - 1].recorded if 0 < number <= len(match.hands) else ""
        return day_of(stamp) if stamp else started

    games = []
    undated = []
    for number, game in enumerate(sheet.games, start=1):
        winner = game.winner
        if winner is None or not game.hands:
            continue
        when = day(game.hands[-1])
        if when is not None:
            games.append(PlayedGame(when, match.players, winner, game.margin))
        else:
            undated.append(_undated(match, number if len(sheet.games) > 1 else None, game.hands[-1]))
    marks = []
    for line in sheet.lines:
        if line.knocker is None:
            continue
        when = day(line.number)
        if when is None:
            continue
        if line.result in ("gin", "big_gin"):
            marks.append(HandMark(when, line.knocker, "gin"))
        elif line.result == "undercut":
            marks.append(HandMark(when, match.other(line.knocker), "undercut"))
    return SheetGames(tuple(games), tuple(marks), tuple(undated))


def _undated(match: Match, game: int | None, last: int) -> str:
    """Why a finished game (`game` of a Hollywood sheet, or the sheet's one game) has no day, in words."""
    from ..errors import quote

    stamp = match.hands[last - 1].recorded
    said = f"game {game}" if game is not None else "the game"
    if stamp:
        return (f"{said} has no date: its last hand's time stamp, hands[{last}].recorded, is no time ({quote(stamp)}); "
                f"write it as 2026-11-30T23:11:03+00:00")
    return (f"{said} has no date: its last hand, hands[{last}], has no `recorded` and the match no `created` that is "
            f"a time; add one, e.g. created = \"2026-11-30T23:11:03+00:00\"")


@dataclass(frozen=True)
class Skipped:
    """What the standings leave out, and why: a file that cannot be read, or a finished game with no date."""

    file: str
    reason: str

    def as_json(self) -> dict:
        return {"file": self.file, "reason": self.reason}


def undated_games(named: Iterable[tuple[str, SheetGames]]) -> tuple[Skipped, ...]:
    """Each finished game of the named sheets that has no date, with its file and why (`SheetGames.undated`)."""
    return tuple(Skipped(file, reason) for file, games in named for reason in games.undated)


@dataclass(frozen=True)
class Row:
    """One player's line of the standings."""

    player: str
    rating: Rating
    games: int
    won: int
    gins: int
    undercuts: int
    margin: int
    """Net points over their games: each game's margin, added when they won it and taken away when they lost."""
    last_played: str
    """The day of their latest game."""
    history: tuple[tuple[str, Rating], ...]
    """Their rating after each day they played, oldest first."""

    @property
    def win_share(self) -> float:
        return self.won / self.games

    @property
    def average_margin(self) -> float:
        """Net points a game."""
        return self.margin / self.games

    @property
    def interval(self) -> tuple[float, float]:
        """The rating ± 2 RD: where the player's strength is, at about 95%."""
        return self.rating.rating - 2 * self.rating.rd, self.rating.rating + 2 * self.rating.rd

    def as_json(self) -> dict:
        """The row as JSON: the rating, RD and volatility as computed, unrounded (the text and the pages round them),
        the interval to a tenth."""
        low, high = self.interval
        return {
            "player": self.player,
            "rating": self.rating.rating,
            "rd": self.rating.rd,
            "interval": [round(low, 1), round(high, 1)],
            "volatility": self.rating.volatility,
            "provisional": self.rating.provisional,
            "games": self.games,
            "won": self.won,
            "win_share": round(self.win_share, 4),
            "gins": self.gins,
            "undercuts": self.undercuts,
            "average_margin": round(self.average_margin, 1),
            "last_played": self.last_played,
            "history": [{"day": day, "rating": r.rating, "rd": r.rd} for day, r in self.history],
        }


@dataclass(frozen=True)
class PairOdds:
    """Two players' odds said honestly: their head-to-head share with its interval, and what the ratings expect."""

    players: tuple[str, str]
    head_to_head: Share
    """The first player's wins and losses against the second."""
    expected: float
    """The ratings' expected score of the first player against the second (their chance to win a game)."""

    def as_json(self) -> dict:
        a, b = self.players
        return {
            "players": [a, b],
            "head_to_head": self.head_to_head.as_json(),
            "expected": {a: round(self.expected, 4), b: round(1 - self.expected, 4)},
        }


@dataclass(frozen=True)
class Standings:
    """Every player of the games in a window, best first, and how well the ratings predicted those games."""

    rows: tuple[Row, ...]
    games: int
    since: str | None
    until: str | None
    prediction: Prediction
    wins: dict[tuple[str, str], int]
    """Games won, by (winner's key, loser's key)."""

    def row(self, name: str) -> Row | None:
        """The player's row, the name in any case; None for someone with no game here."""
        key = person_key(name)
        return next((row for row in self.rows if person_key(row.player) == key), None)

    def pair(self, a: str, b: str) -> PairOdds | None:
        """Two players' odds, met or not; None when either has no game here (or they are one player)."""
        first, second = self.row(a), self.row(b)
        if first is None or second is None or first is second:
            return None
        ka, kb = person_key(first.player), person_key(second.player)
        share = Share(self.wins.get((ka, kb), 0), self.wins.get((kb, ka), 0))
        return PairOdds((first.player, second.player), share, expected_score(first.rating, second.rating))

    def never_met(self) -> list[PairOdds]:
        """The odds of every two players here who have not finished a game against each other, by the ratings."""
        found = []
        for i, first in enumerate(self.rows):
            for second in self.rows[i + 1 :]:
                ka, kb = person_key(first.player), person_key(second.player)
                if (ka, kb) not in self.wins and (kb, ka) not in self.wins:
                    found.append(PairOdds((first.player, second.player), Share(0, 0), expected_score(first.rating, second.rating)))
        return found

    def as_json(self) -> dict:
        return {
            "since": self.since,
            "until": self.until,
            "tau": TAU,
            "period": PERIOD,
            "games": self.games,
            "players": [row.as_json() for row in self.rows],
            "prediction": self.prediction.as_json(),
        }


def standings(sheets: Iterable[SheetGames], since: date | None = None, until: date | None = None) -> Standings:
    """The standings of the games in `sheets` that ended from `since` to `until` (both included; None: open)."""
    low = since.isoformat() if since else None
    high = until.isoformat() if until else None

    def kept(day: str) -> bool:
        return (low is None or day >= low) and (high is None or day <= high)

    given = list(sheets)
    games = sorted((game for item in given for game in item.games if kept(game.day)), key=lambda game: game.day)
    spelled: dict[str, str] = {}
    figures: dict[str, list[int]] = {}  # games, won, gins, undercuts, margin
    last: dict[str, str] = {}
    wins: dict[tuple[str, str], int] = {}
    results = []
    for game in games:
        winner, loser = person_key(game.winner), person_key(game.loser)
        if winner == loser:
            continue
        for name in (game.winner, game.loser):
            key = person_key(name)
            spelled.setdefault(key, name)
            figures.setdefault(key, [0, 0, 0, 0, 0])[0] += 1
            last[key] = game.day
        figures[winner][1] += 1
        figures[winner][4] += game.margin
        figures[loser][4] -= game.margin
        wins[(winner, loser)] = wins.get((winner, loser), 0) + 1
        results.append(Result(game.day, winner, loser, min(winner, loser)))
    for item in given:
        for mark in item.marks:
            key = person_key(mark.player)
            if key in figures and kept(mark.day):
                figures[key][2 if mark.kind == "gin" else 3] += 1
    walked = walk(results)
    rows = [
        Row(spelled[key], walked.ratings[key], f[0], f[1], f[2], f[3], f[4], last[key], walked.history.get(key, ()))
        for key, f in figures.items()
    ]
    rows.sort(key=lambda row: (-row.rating.rating, person_key(row.player)))
    return Standings(tuple(rows), len(results), low, high, prediction(walked.predicted), wins)


def standings_of_sheets(sheets: Iterable[Sheet], since: date | None = None, until: date | None = None) -> Standings:
    """`standings` straight from sheets."""
    return standings((sheet_games(sheet) for sheet in sheets), since, until)


def window_of(since: date | None, until: date | None) -> tuple[date | None, date | None]:
    """The window, checked: `InputError` about `until` when it is before `since`."""
    from ..errors import InputError

    if since is not None and until is not None and until < since:
        raise InputError(f"{until.isoformat()} is before the start, {since.isoformat()}: give a day on or after it", field="until")
    return since, until


def parse_day(text: str, field: str) -> date:
    """A day typed as YYYY-MM-DD; `InputError` about `field` otherwise."""
    from ..errors import InputError, quote

    try:
        if len(text) != 10:
            raise ValueError
        return date.fromisoformat(text)
    except ValueError:
        raise InputError(f"{quote(text)} is not a day: type it as YYYY-MM-DD, e.g. 2026-03-01", field=field) from None

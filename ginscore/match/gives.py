"""What one match gives the table beside its own sheet: its place in the table's order, its finished games for a
pair's series, and its hands' outcomes for the chance's model.

Small and plain (names, numbers, the rules), so that the table can keep it on disk for every file
(`files.stats_cache`) and a command that shows one match reads that match alone: every other file of the folder
gives what it gives from the cache, by its bytes. Made from a sheet and nothing else, so a cached one and one made
now are equal.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..game.outcomes import DEAD, DEALER, NON_DEALER, OutcomeCounts
from ..game.rulebook import Rules

if TYPE_CHECKING:
    from .tally import Sheet

UNPLAYED = "\uffff"
"""The first hand's time of a match with none (or none stamped): after every time, so it comes last."""


@dataclass(frozen=True)
class FinishedGame:
    """One finished game: its winner (None on equal finals) and each player's final total, in the match's order."""

    winner: str | None
    final: tuple[int, int]


@dataclass(frozen=True)
class MatchGives:
    """What one match gives the table (see the module's words)."""

    id: str | None
    players: tuple[str, str]
    created: str
    first_played: str
    """When its first hand was recorded; `UNPLAYED` when it has none, or none stamped."""
    rules: Rules
    preset: str
    """The preset it is played by; `custom` when none is named."""
    hollywood: bool
    """Three games scored at once on one sheet."""
    outcomes: OutcomeCounts
    """Its hands from each hand's dealer's view (`hand_outcomes`)."""
    games: tuple[FinishedGame, ...]

    def order(self, name: str) -> tuple[str, str, str]:
        """Where the match of the file `name` stands in the table: the first started first; within a second, the
        first played first (a match with no hand yet last), then by name."""
        return self.created, self.first_played, name

    def as_record(self) -> dict[str, Any]:
        return {"id": self.id, "players": list(self.players), "created": self.created, "first_played": self.first_played,
                "rules": self.rules.to_dict(), "preset": self.preset, "hollywood": self.hollywood,
                "outcomes": _counts_record(self.outcomes),
                "games": [{"winner": game.winner, "final": list(game.final)} for game in self.games]}

    @classmethod
    def from_record(cls, record: object) -> MatchGives | None:
        """The value a record holds, every part type-checked; None for anything else."""
        try:
            return _from_record(record)
        except (TypeError, ValueError, KeyError, AttributeError):
            return None


def match_gives(sheet: Sheet) -> MatchGives:
    """What the sheet's match gives the table."""
    match = sheet.match
    first = match.hands[0].recorded if match.hands and match.hands[0].recorded else UNPLAYED
    games = tuple(FinishedGame(game.winner, (game.final[match.players[0]], game.final[match.players[1]]))
                  for game in sheet.games if game.finished)
    return MatchGives(match.id, match.players, match.created, first, match.rules, match.preset or "custom", match.hollywood,
                      hand_outcomes(sheet), games)


def hand_outcomes(sheet: Sheet) -> OutcomeCounts:
    """The sheet's hands from each hand's dealer's view: dead, the dealer scored k, or the other player did."""
    return OutcomeCounts.of(
        (DEAD, 0) if line.winner is None else ((DEALER if line.winner == line.dealer else NON_DEALER), line.points)
        for line in sheet.lines
    )


def history(table: Iterable[MatchGives], rules: Rules) -> tuple[OutcomeCounts, int]:
    """The hands of the table's matches played by exactly these rules, and how many matches they came from."""
    counts, matches = OutcomeCounts(), 0
    for gives in table:
        if gives.rules == rules and gives.outcomes.hands:
            counts = counts + gives.outcomes
            matches += 1
    return counts, matches


_KEYS = {"id", "players", "created", "first_played", "rules", "preset", "hollywood", "outcomes", "games"}
"""A record's keys (`MatchGives.as_record`), every one."""
_RULES_READ: dict[tuple[tuple[str, Any], ...], Rules] = {}
"""Rules read from records, by their knobs: a table's files share a few sets of rules."""


def _from_record(record: object) -> MatchGives | None:
    if not isinstance(record, dict) or set(record) != _KEYS or not isinstance(record["hollywood"], bool):
        return None
    players, games = record["players"], record["games"]
    texts = (record["created"], record["first_played"], record["preset"])
    if not (_names(players) and all(isinstance(text, str) for text in texts)
            and (record["id"] is None or isinstance(record["id"], str))):
        return None
    if not (isinstance(games, list) and all(_game(game, players) for game in games)):
        return None
    rules, counts = _rules_of(record["rules"]), _counts_of(record["outcomes"])
    if rules is None or counts is None:
        return None
    finished = tuple(FinishedGame(game["winner"], (game["final"][0], game["final"][1])) for game in games)
    return MatchGives(record["id"], (players[0], players[1]), record["created"], record["first_played"], rules,
                      record["preset"], record["hollywood"], counts, finished)


def _names(value: object) -> bool:
    return isinstance(value, list) and len(value) == 2 and all(isinstance(name, str) for name in value)


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _rows(value: object) -> bool:
    return isinstance(value, list) and all(
        isinstance(row, list) and len(row) == 2 and _whole(row[0]) and _whole(row[1]) for row in value)


def _game(value: object, players: list[str]) -> bool:
    if not (isinstance(value, dict) and set(value) == {"winner", "final"}):
        return False
    final = value["final"]
    return (value["winner"] is None or value["winner"] in players) and isinstance(final, list) and len(final) == 2 and all(
        _whole(total) for total in final)


class TableGives:
    """What a table's matches give, as its views ask it: each pair's matches in the table's order (for the series),
    and each set of rules' hands (for the chance's model). Kept for a folder (`files.stats_cache`) as one small
    record and one a pair, so that a command that shows one match reads neither the other files nor the other
    pairs' matches."""

    def __init__(self, pairs: dict[str, tuple[MatchGives, ...] | None], histories: tuple[tuple[Rules, OutcomeCounts, int], ...],
                 fetch: Callable[[str], list[Any] | None] | None = None):
        self._pairs = pairs
        """Each pair's matches by `pair_text`; None until first asked, when `fetch` gives their records."""
        self.histories = histories
        self._fetch = fetch

    @classmethod
    def of(cls, table: Iterable[MatchGives]) -> TableGives:
        """From what each match gives, the first started first, copies left out."""
        pairs: dict[str, list[MatchGives]] = {}
        for gives in table:
            pairs.setdefault(pair_text(gives.players), []).append(gives)
        rules = list(dict.fromkeys(gives.rules for given in pairs.values() for gives in given))
        histories = tuple((each, *history((gives for given in pairs.values() for gives in given), each)) for each in rules)
        return cls({key: tuple(given) for key, given in pairs.items()}, histories)

    @property
    def pair_texts(self) -> tuple[str, ...]:
        return tuple(sorted(self._pairs))

    def pair(self, players: tuple[str, str]) -> tuple[MatchGives, ...] | None:
        """The matches of these two players, the first started first; None when the record of them is damaged."""
        key = pair_text(players)
        if key not in self._pairs:
            return ()
        found = self._pairs[key]
        if found is None:
            records = self._fetch(key) if self._fetch is not None else None
            decoded = [MatchGives.from_record(record) for record in records] if isinstance(records, list) else [None]
            if any(gives is None for gives in decoded):
                return None
            found = self._pairs[key] = tuple(gives for gives in decoded if gives is not None)
        return found

    def history(self, rules: Rules) -> tuple[OutcomeCounts, int]:
        """The hands played by exactly these rules, and how many matches they came from."""
        return next(((counts, matches) for each, counts, matches in self.histories if each == rules), (OutcomeCounts(), 0))

    def as_record(self) -> dict[str, Any]:
        """The record of the whole but each pair's matches (`pair_record`)."""
        histories = [{"rules": rules.to_dict(), "outcomes": _counts_record(counts), "matches": matches}
                     for rules, counts, matches in self.histories]
        return {"pairs": list(self.pair_texts), "histories": histories}

    def pair_record(self, key: str) -> list[dict[str, Any]]:
        """The record of one pair's matches (by `pair_text`)."""
        return [gives.as_record() for gives in self._pairs.get(key) or ()]

    @classmethod
    def from_record(cls, record: object, fetch: Callable[[str], list[Any] | None] | None = None) -> TableGives | None:
        """The value a record holds, its histories type-checked now and each pair's matches, from `fetch`, when
        first asked; None for anything else."""
        if not (isinstance(record, dict) and set(record) == {"pairs", "histories"} and isinstance(record["pairs"], list)
                and all(isinstance(key, str) for key in record["pairs"]) and isinstance(record["histories"], list)):
            return None
        histories = []
        for row in record["histories"]:
            if not (isinstance(row, dict) and set(row) == {"rules", "outcomes", "matches"} and _whole(row["matches"])):
                return None
            rules, counts = _rules_of(row["rules"]), _counts_of(row["outcomes"])
            if rules is None or counts is None:
                return None
            histories.append((rules, counts, row["matches"]))
        return cls(dict.fromkeys(record["pairs"]), tuple(histories), fetch)


def pair_text(players: tuple[str, str]) -> str:
    """Two players as one key, in any order and case (`records.pair_key`)."""
    from .records import pair_key

    return "\0".join(pair_key(players))


def _counts_record(counts: OutcomeCounts) -> dict[str, Any]:
    return {"dead": counts.dead, "dealer": [list(row) for row in counts.dealer], "non_dealer": [list(row) for row in counts.non_dealer]}


def _counts_of(record: object) -> OutcomeCounts | None:
    if not (isinstance(record, dict) and set(record) == {"dead", "dealer", "non_dealer"} and _whole(record["dead"])
            and all(_rows(record[side]) for side in ("dealer", "non_dealer"))):
        return None
    return OutcomeCounts(record["dead"], tuple(map(tuple, record["dealer"])), tuple(map(tuple, record["non_dealer"])))


def _rules_of(record: object) -> Rules | None:
    """Rules from a record, every knob checked; read once for each set (a table's files share a few)."""
    if not isinstance(record, dict):
        return None
    key = tuple(sorted(record.items()))
    try:
        known = _RULES_READ.get(key)
    except TypeError:  # a value that is no scalar
        return None
    if known is not None:
        return known
    from ..errors import GinscoreError

    try:
        rules = Rules.from_dict(record)
    except GinscoreError:
        return None
    return _RULES_READ.setdefault(key, rules) if rules.to_dict() == record else None

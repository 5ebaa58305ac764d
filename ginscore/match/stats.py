"""History and statistics over many matches, per pair of players.

Each match contributes one `PairStats` (`contribution`); a `HeadToHead` folds contributions in one
at a time, so that any number of matches is read in constant memory, and a contribution can be kept
as plain data (`as_record`, `from_record`) to be reused while its file's bytes do not change.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass, field, fields

from .records import pair_key, person_key
from .tally import Sheet


@dataclass
class PlayerStats:
    """One player's figures against one opponent."""

    games_won: int = 0
    margin: int = 0
    """Net margin over finished games: won margins minus lost ones."""
    hands_won: int = 0
    gins: int = 0
    undercuts_given: int = 0
    undercuts_suffered: int = 0
    points: int = 0
    """Points from hands won, before bonuses."""
    biggest_hand: int = 0
    knocks: int = 0
    knock_deadwood: int = 0
    """Sum of the player's counts when they knocked, for the average."""
    layoffs: int = 0
    """Cards this player laid off onto the other's knocks (hands recorded with cards)."""
    loser_deadwood: int = 0
    hands_lost_with_cards: int = 0

    def add(self, other: PlayerStats) -> None:
        """Fold in the same player's figures from more matches."""
        for name in _PLAYER_FIELDS:
            if name == "biggest_hand":
                self.biggest_hand = max(self.biggest_hand, other.biggest_hand)
            else:
                setattr(self, name, getattr(self, name) + getattr(other, name))

    def as_dict(self, hands: int) -> dict:
        return {
            "games_won": self.games_won,
            "margin": self.margin,
            "hands_won": self.hands_won,
            "gins": self.gins,
            "undercuts_given": self.undercuts_given,
            "undercuts_suffered": self.undercuts_suffered,
            "average_hand": _average(self.points, self.hands_won),
            "biggest_hand": self.biggest_hand if self.hands_won else None,  # no hand won: none, not 0
            "knocks": self.knocks,
            "knock_rate": _average(self.knocks, hands),
            "average_knock_count": _average(self.knock_deadwood, self.knocks),
            "layoffs": self.layoffs,
            "average_deadwood_when_losing": _average(self.loser_deadwood, self.hands_lost_with_cards),
        }


_PLAYER_FIELDS = tuple(f.name for f in fields(PlayerStats))


def _average(total: int, count: int) -> float | None:
    return round(total / count, 2) if count else None


@dataclass
class PairStats:
    """Two players' head-to-head record over every match read."""

    players: tuple[str, str]
    matches: int = 0
    games: int = 0
    hands: int = 0
    """Hands played, cancelled ones included."""
    by_player: dict[str, PlayerStats] = field(default_factory=dict)

    def add(self, other: PairStats) -> None:
        """Fold in the same pair's figures from more matches; names are matched case-insensitively."""
        self.matches += other.matches
        self.games += other.games
        self.hands += other.hands
        for mine, theirs in zip(self.players, other.players):
            self.by_player[mine].add(other.by_player[theirs])

    def as_dict(self) -> dict:
        return {
            "players": list(self.players),
            "matches": self.matches,
            "games": self.games,
            "hands": self.hands,
            "by_player": {name: self.by_player[name].as_dict(self.hands) for name in self.players},
        }

    def as_record(self) -> dict:
        """Every raw figure as plain data (JSON-ready), the inverse of `from_record`."""
        return asdict(self)

    @classmethod
    def from_record(cls, record: dict) -> PairStats:
        """The figures `as_record` gave; `ValueError` (or `KeyError`, `TypeError`) for anything else."""
        players, figures = tuple(record["players"]), record["by_player"]
        if len(players) != 2 or set(figures) != set(players) or any(set(f) != set(_PLAYER_FIELDS) for f in figures.values()):
            raise ValueError(f"not a pair's figures: {record!r}")
        return cls(
            (players[0], players[1]),
            record["matches"],
            record["games"],
            record["hands"],
            by_player={name: PlayerStats(**figures[name]) for name in players},
        )


class HeadToHead:
    """Figures for every pair of players, fed one match's contribution at a time."""

    def __init__(self) -> None:
        self._pairs: dict[tuple[str, str], PairStats] = {}
        self._margins: dict[tuple[str, str], list[int]] = {}

    def add(self, contribution: PairStats) -> None:
        """Count one more match's figures; the first spelling of a name is kept."""
        key = pair_key(contribution.players)
        pair = self._pairs.get(key)
        if pair is None:
            self._pairs[key] = pair = PairStats(contribution.players, by_player={n: PlayerStats() for n in contribution.players})
            self._margins[key] = []
        pair.add(contribution)
        self._margins[key].append(contribution.by_player[contribution.players[0]].margin)

    def margins(self) -> dict[tuple[str, str], list[int]]:
        """For each pair, in the order the matches were read: the first player's net margin in each match's finished games."""
        return {pair.players: self._margins[key] for key, pair in self._pairs.items()}

    def pairs(self) -> list[PairStats]:
        """The pairs, in order of their names ignoring case."""
        return sorted(self._pairs.values(), key=lambda pair: [person_key(n) for n in pair.players])


@dataclass(frozen=True)
class PlayerRecord:
    """One player's figures against everyone they played, with each opponent's head-to-head beside them."""

    name: str
    figures: PlayerStats
    hands: int
    """Hands played, cancelled ones included."""
    games: int
    opponents: tuple[PairStats, ...]

    def as_dict(self) -> dict:
        return {
            "player": self.name,
            "games": self.games,
            "hands": self.hands,
            "figures": self.figures.as_dict(self.hands),
            "opponents": [pair.as_dict() for pair in self.opponents],
        }


def player_record(pairs: Iterable[PairStats], name: str) -> PlayerRecord | None:
    """`name`'s figures summed over every pair they are in (names in any case), or None for a stranger."""
    mine = [pair for pair in pairs if person_key(name) in (person_key(player) for player in pair.players)]
    if not mine:
        return None
    spelled = next(player for player in mine[0].players if person_key(player) == person_key(name))
    figures = PlayerStats()
    for pair in mine:
        figures.add(next(stats for player, stats in pair.by_player.items() if person_key(player) == person_key(name)))
    return PlayerRecord(spelled, figures, sum(pair.hands for pair in mine), sum(pair.games for pair in mine), tuple(mine))


def collect(sheets: Iterable[Sheet]) -> list[PairStats]:
    """Head-to-head figures for every pair of players, names matched case-insensitively."""
    head_to_head = HeadToHead()
    for sheet in sheets:
        head_to_head.add(contribution(sheet))
    return head_to_head.pairs()


def contribution(sheet: Sheet) -> PairStats:
    """One match's figures, the players in order of their names ignoring case."""
    ordered = sorted(sheet.match.players, key=person_key)
    pair = PairStats((ordered[0], ordered[1]), matches=1, by_player={n: PlayerStats() for n in ordered})
    _add(pair, sheet)
    return pair


def _add(pair: PairStats, sheet: Sheet) -> None:
    names = {person_key(name): name for name in pair.players}

    def stats(name: str) -> PlayerStats:
        return pair.by_player[names[person_key(name)]]

    for game in sheet.games:
        if game.finished and game.winner is not None:
            pair.games += 1
            loser = game.players[1] if game.winner == game.players[0] else game.players[0]
            stats(game.winner).games_won += 1
            stats(game.winner).margin += game.margin
            stats(loser).margin -= game.margin
    for line in sheet.lines:
        pair.hands += 1
        if line.knocker is None:
            continue
        knocker = stats(line.knocker)
        opponent = stats(sheet.match.other(line.knocker))
        knocker.knocks += 1
        knocker.knock_deadwood += line.knocker_deadwood or 0
        if line.winner is not None:
            winner = stats(line.winner)
            winner.hands_won += 1
            winner.points += line.points
            winner.biggest_hand = max(winner.biggest_hand, line.points)
        if line.result in ("gin", "big_gin"):
            knocker.gins += 1
        if line.result == "undercut":
            knocker.undercuts_suffered += 1
            opponent.undercuts_given += 1
        laid_off = line.scored.layoffs if line.scored is not None else None
        if laid_off is not None:
            opponent.layoffs += len(laid_off)
            if line.winner is not None:
                knocker_lost = line.winner != line.knocker
                losing = knocker if knocker_lost else opponent
                losing.loser_deadwood += (line.knocker_deadwood if knocker_lost else line.opponent_deadwood) or 0
                losing.hands_lost_with_cards += 1


# The figures a head-to-head table shows, in order: (label, key in `PlayerStats.as_dict`).
STAT_ROWS = (
    ("games won", "games_won"),
    ("net margin", "margin"),
    ("hands won", "hands_won"),
    ("gins", "gins"),
    ("undercuts given", "undercuts_given"),
    ("undercuts suffered", "undercuts_suffered"),
    ("average hand won", "average_hand"),
    ("biggest hand", "biggest_hand"),
    ("knocks", "knocks"),
    ("knocked in (share of hands)", "knock_rate"),
    ("average knock count", "average_knock_count"),
    ("cards laid off", "layoffs"),
    ("average deadwood when losing*", "average_deadwood_when_losing"),
)


NONE = "none"
"""The one word every view of the figures shows where there is nothing to count or average."""
AVERAGES = ("average_hand", "average_knock_count", "average_deadwood_when_losing")
"""The figures that are means: each shown to one decimal, whatever its value."""


def stat_text(key: str, value: object) -> str:
    """A figure as a table shows it, one precision a row: `none` for nothing, a rate as a whole percentage, a
    mean to one decimal, a gain with its sign."""
    if value is None:
        return NONE
    if key == "knock_rate" and isinstance(value, float):
        return f"{value:.0%}"
    if key in AVERAGES and isinstance(value, (int, float)):
        # Half up, as people round: 18.25 shows as 18.3 (a float's own rounding would give 18.2).
        from decimal import ROUND_HALF_UP, Decimal

        return str(Decimal(str(value)).quantize(Decimal("0.1"), ROUND_HALF_UP))
    if key == "margin" and isinstance(value, int) and value > 0:
        return f"+{value}"
    return str(value)

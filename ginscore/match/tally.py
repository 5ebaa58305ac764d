"""The tally: every total, box, bonus and dealer, derived from a match's records on each load.

A plain match is one game (one column); a Hollywood match scores three columns at once.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, replace
from types import MappingProxyType

from ..errors import GameOverError, GinscoreError, InputError, RefusedError
from ..game.rulebook import Rules
from ..game.scoring import ScoredKnock
from .entry import DERIVED
from .records import COLUMNS_HOLLYWOOD, HandRecord, Match
from .scored import ScoredRecord, check_record, entry_of, score_record, spread_text


@dataclass(frozen=True)
class HandLine:
    """One row of the score sheet."""

    number: int
    dealer: str
    knocker: str | None
    result: str
    """`knock`, `undercut`, `gin`, `big_gin`, `tie` or `cancelled`."""
    winner: str | None
    points: int
    knocker_deadwood: int | None
    opponent_deadwood: int | None
    columns: tuple[int, ...]
    """The columns (games) the points went into: (0,) in a plain match."""
    totals: Mapping[str, int]
    """Running totals after this hand, summed over the columns."""
    column_totals: tuple[Mapping[str, int], ...] = ()
    """Running totals after this hand in each column."""
    scored: ScoredKnock | None = None
    multiplier: int = 1

    def same_hand_as(self, other: HandLine) -> bool:
        """Whether two entries of a hand tell the same story: who knocked, both counts, and what it scored (two
        phones entering one hand, one by cards and one by counts, agree)."""
        told = ("knocker", "result", "winner", "points", "knocker_deadwood", "opponent_deadwood", "multiplier")
        return all(getattr(self, name) == getattr(other, name) for name in told)


@dataclass(frozen=True)
class Game:
    """One game (a column of a Hollywood sheet): totals, boxes and, once over, the bonuses. Read-only all the way
    down: a sheet is shared by every reader of its file."""

    players: tuple[str, str]
    totals: Mapping[str, int]
    """Points from hands entered in this game; these decide who reaches the target."""
    boxes: Mapping[str, int]
    """Boxes per player: a won hand counts 1, a gin `gin_boxes`, an undercut `undercut_boxes`."""
    hands: tuple[int, ...]
    """The numbers of the hands entered in this game."""
    entries: Mapping[str, int]
    """How many wins each player has entered here (Hollywood opens later games with these)."""
    reached: str | None
    """The player whose total reached the target; the game is over."""
    bonuses: Mapping[str, Mapping[str, int]]

    @property
    def finished(self) -> bool:
        return self.reached is not None

    @property
    def shutout(self) -> bool:
        """Whether the game ended with the other player still on nothing."""
        return self.finished and any(self.totals[name] == 0 for name in self.players if name != self.reached)

    @property
    def final(self) -> dict[str, int]:
        """Totals after every bonus; equal to the totals while the game is open."""
        return {name: self.totals[name] + sum(self.bonuses[name].values()) for name in self.players}

    @property
    def winner(self) -> str | None:
        """The higher final total once the game is over (RULES.md, source 002); None on equal finals."""
        if not self.finished:
            return None
        a, b = self.players
        final = self.final
        if final[a] == final[b]:
            return None
        return a if final[a] > final[b] else b

    @property
    def margin(self) -> int:
        final = self.final
        return abs(final[self.players[0]] - final[self.players[1]])

    def as_dict(self) -> dict:
        return {
            "totals": dict(self.totals),
            "boxes": dict(self.boxes),
            "finished": self.finished,
            "reached_target": self.reached,
            "winner": self.winner,
            "bonuses": {name: dict(values) for name, values in self.bonuses.items()},
            "final": self.final,
            "margin": self.margin,
            "hands": list(self.hands),
        }


class _Column:
    """A game as the tally scores it, hand after hand; `game()` is it as a sheet holds it."""

    def __init__(self, players: tuple[str, str], game: Game | None = None):
        self.players = players
        self.totals = dict(game.totals) if game else dict.fromkeys(players, 0)
        self.boxes = dict(game.boxes) if game else dict.fromkeys(players, 0)
        self.hands = list(game.hands) if game else []
        self.entries = dict(game.entries) if game else dict.fromkeys(players, 0)
        self.reached = game.reached if game else None
        self.bonuses = {name: dict(game.bonuses[name]) if game else {"game": 0, "boxes": 0, "shutout": 0} for name in players}

    @property
    def finished(self) -> bool:
        return self.reached is not None

    def enter(self, number: int, winner: str, points: int, boxes: int, rules: Rules) -> None:
        self.hands.append(number)
        self.totals[winner] += points
        self.boxes[winner] += boxes
        self.entries[winner] += 1
        if self.totals[winner] >= rules.target:
            self.reached = winner
            self._close(winner, rules)

    def _close(self, winner: str, rules: Rules) -> None:
        loser = self.players[1] if winner == self.players[0] else self.players[0]
        for name in self.players:
            self.bonuses[name]["boxes"] = self.boxes[name] * rules.box_bonus
        shutout = self.totals[loser] == 0
        if shutout and rules.shutout == "flat":
            self.bonuses[winner]["game"] = rules.shutout_bonus
        else:
            self.bonuses[winner]["game"] = rules.game_bonus
        if shutout and rules.shutout == "double":
            self.bonuses[winner]["shutout"] = self.totals[winner] + sum(self.bonuses[winner].values())

    def game(self) -> Game:
        return Game(self.players, MappingProxyType(dict(self.totals)), MappingProxyType(dict(self.boxes)), tuple(self.hands),
                    MappingProxyType(dict(self.entries)), self.reached,
                    MappingProxyType({name: MappingProxyType(dict(values)) for name, values in self.bonuses.items()}))


@dataclass(frozen=True)
class Sheet:
    """Everything derived from a match: one line a hand, the games, who deals next."""

    match: Match
    lines: tuple[HandLine, ...]
    games: tuple[Game, ...]
    next_dealer: str

    @property
    def finished(self) -> bool:
        return all(game.finished for game in self.games)

    def summed(self, attribute: str) -> dict[str, int]:
        """A per-player figure (totals, boxes, final) added over the games."""
        return {name: sum(getattr(game, attribute)[name] for game in self.games) for name in self.match.players}

    @property
    def winner(self) -> str | None:
        """The higher final total over the games once all are over; None on equal finals."""
        if not self.finished:
            return None
        final = self.summed("final")
        a, b = self.match.players
        return None if final[a] == final[b] else (a if final[a] > final[b] else b)

    @property
    def margin(self) -> int:
        final = self.summed("final")
        return abs(final[self.match.players[0]] - final[self.match.players[1]])

    def bonuses(self) -> dict[str, dict[str, int]]:
        """Each player's bonuses by kind, added over the games."""
        kinds = ("game", "boxes", "shutout")
        return {name: {k: sum(g.bonuses[name][k] for g in self.games) for k in kinds} for name in self.match.players}

    def score_text(self) -> str:
        """The running score in a line: `Ann 43, Bob 77`, or game by game on a Hollywood sheet."""
        if not self.match.hollywood:
            return ", ".join(f"{name} {total}" for name, total in self.games[0].totals.items())
        return "; ".join(
            f"game {index + 1}: " + ", ".join(f"{name} {total}" for name, total in game.totals.items())
            for index, game in enumerate(self.games)
        )


def boxes_for(result: str, rules: Rules) -> int:
    """How many boxes a won hand counts."""
    if result in ("gin", "big_gin"):
        return rules.gin_boxes
    if result == "undercut":
        return rules.undercut_boxes
    return 1


def tally(match: Match, problems: list[tuple[int, GinscoreError]] | None = None) -> Sheet:
    """Score every hand in order.

    A hand that cannot be scored raises its error; with a `problems` list, it is noted there
    with its number and left out, so that a file's every problem can be reported.
    """
    return _tally_known(match, problems, {})


def _tally_known(match: Match, problems: list[tuple[int, GinscoreError]] | None, known: dict[int, ScoredRecord]) -> Sheet:
    """`tally`, taking the hands in `known` (by number) as already scored."""
    games = tuple(_Column(match.players) for _ in range(COLUMNS_HOLLYWOOD if match.hollywood else 1))
    return _tally_from(match, 1, games, [], match.first_dealer, problems, known)


def _tally_from(
    match: Match,
    start: int,
    games: tuple[_Column, ...],
    lines: list[HandLine],
    dealer: str,
    problems: list[tuple[int, GinscoreError]] | None,
    known: dict[int, ScoredRecord],
) -> Sheet:
    """Score the hands from number `start` on, after the games, lines and dealer of those before it; a hand in
    `known` (by number) comes with its score, and is not scored again."""
    for number, record in enumerate(match.hands[start - 1 :], start=start):
        try:
            if all(game.finished for game in games):
                raise RefusedError(f"hand {number} comes after the end of the match")
            made = known.get(number)
            line = _score_line(match, number, record, dealer, games, made if made is not None and made.record is record else None)
        except GinscoreError as error:
            if problems is None:
                raise
            problems.append((number, error))
            continue
        lines.append(line)
        dealer = _next_dealer(match, dealer, line.winner)
    return Sheet(match, tuple(lines), tuple(game.game() for game in games), dealer)


def _score_line(
    match: Match,
    number: int,
    record: HandRecord,
    dealer: str,
    games: tuple[_Column, ...],
    made: ScoredRecord | None,
) -> HandLine:
    """Hand `number`'s line, entered into the games; `made`, when given, is the record with its score."""
    if record.cancelled:
        if made is None:
            check_record(record)
        totals, column_totals = _running(match, games)
        return HandLine(number, dealer, None, "cancelled", None, 0, None, None, (), totals, column_totals)
    if made is not None and made.result is not None:
        result, scored = made.result, made.scored
    else:
        result, scored = score_record(record, match.rules)
    knocker = match.player(record.knocker or "")
    winner = {"knocker": knocker, "opponent": match.other(knocker), None: None}[result.winner]
    columns: tuple[int, ...] = ()
    if winner is not None:
        columns = _columns_for(winner, games)
        for index in columns:
            games[index].enter(number, winner, result.points, boxes_for(result.result, match.rules), match.rules)
    totals, column_totals = _running(match, games)
    return HandLine(
        number,
        dealer,
        knocker,
        result.result,
        winner,
        result.points,
        result.knocker_deadwood,
        result.opponent_deadwood,
        columns,
        totals,
        column_totals,
        scored=scored,
        multiplier=result.multiplier,
    )


def _running(match: Match, games: tuple[_Column, ...]) -> tuple[Mapping[str, int], tuple[Mapping[str, int], ...]]:
    """The running totals after a hand, read-only: summed over the games, and in each game."""
    columns = tuple(MappingProxyType(dict(game.totals)) for game in games)
    if len(columns) == 1:
        return columns[0], columns
    return MappingProxyType({name: sum(column[name] for column in columns) for name in match.players}), columns


def _columns_for(winner: str, games: tuple[_Column, ...]) -> tuple[int, ...]:
    """Hollywood: the first open column, and each later open one where the winner already had an
    entry in the column before it. A plain match has one column."""
    open_columns = [i for i, game in enumerate(games) if not game.finished]
    first = open_columns[0]
    chosen = [first]
    for index in open_columns[1:]:
        if games[index - 1].entries[winner]:
            chosen.append(index)
    return tuple(chosen)


def _next_dealer(match: Match, dealer: str, winner: str | None) -> str:
    if winner is None:
        return dealer
    if match.rules.next_dealer == "alternate":
        return match.other(dealer)
    return winner


def add_hand(match: Match, hand: HandRecord | ScoredRecord, sheet: Sheet | None = None) -> tuple[Match, Sheet]:
    """The match with one more hand, refused once the game is over.

    Given the match's sheet, only the new hand is tallied; a `ScoredRecord` (as `make_record` makes it) is not
    scored again.
    """
    sheet = sheet if sheet is not None else tally(match)
    if sheet.finished:
        raise GameOverError(game_over_message(sheet), match)
    made = hand if isinstance(hand, ScoredRecord) else None
    record = hand.record if isinstance(hand, ScoredRecord) else hand
    updated = match.with_hands(match.hands + (record,))
    games = tuple(_Column(match.players, game) for game in sheet.games)
    number = len(updated.hands)
    known = {number: made} if made is not None else {}
    return updated, _tally_from(updated, number, games, list(sheet.lines), sheet.next_dealer, None, known)


def with_spreads(match: Match, sheet: Sheet) -> Match:
    """The match with each hand given by cards without groups carrying the spread it was scored with,
    so that the next load checks that spread instead of searching again."""
    hands = list(match.hands)
    for index, (record, line) in enumerate(zip(match.hands, sheet.lines)):
        if line.scored is not None and record.spread is None and "|" not in (record.cards or "|"):
            hands[index] = replace(record, spread=spread_text(line.scored.spread))
    return match.with_hands(tuple(hands))


def as_stored(match: Match, sheet: Sheet) -> tuple[Match, Sheet]:
    """The match and its sheet exactly as a later load of their written file gives them: each hand given by cards
    without groups carries its spread (`with_spreads`), and its line is scored by that spread alone, as a load
    scores it, with no second spread to compare."""
    stored = with_spreads(match, sheet)
    lines = tuple(
        replace(line, scored=replace(line.scored, lowest=None)) if line.scored is not None and old.spread != new.spread else line
        for line, old, new in zip(sheet.lines, match.hands, stored.hands)
    )
    return stored, replace(sheet, match=stored, lines=lines)


def replace_hand(match: Match, number: int, hand: HandRecord | ScoredRecord) -> tuple[Match, Sheet]:
    """The match with hand `number` (from 1) replaced; every other hand is scored again, and the new one too
    unless it comes scored (a `ScoredRecord`)."""
    if not 1 <= number <= len(match.hands):
        raise InputError(
            f"there is no hand {number}: the hands are numbered 1 to {len(match.hands)}"
            if match.hands
            else "there are no hands yet",
            field="number",
        )
    made = hand if isinstance(hand, ScoredRecord) else None
    hands = list(match.hands)
    hands[number - 1] = hand.record if isinstance(hand, ScoredRecord) else hand
    updated = match.with_hands(tuple(hands))
    return updated, _tally_known(updated, None, {number: made} if made is not None else {})


def remove_last_hand(match: Match) -> tuple[Match, Sheet]:
    """The match without its last hand."""
    if not match.hands:
        raise RefusedError("there are no hands to undo")
    updated = match.with_hands(match.hands[:-1])
    return updated, tally(updated)


def game_over_message(sheet: Sheet) -> str:
    """Why no hand can follow the end of the match, in words for every front end."""
    match = sheet.match
    reached = "all three games are over" if match.hollywood else f"{sheet.games[0].reached} reached {match.rules.target}"
    return f"the match is over ({reached}), so no hand was recorded"


def hand_json(line: HandLine, record: HandRecord) -> dict:
    """A hand as JSON: the entry's fields as recorded, which `record` takes back as they are, and under `derived`
    what the sheet works out from them (ignored when posted back)."""
    return {
        **asdict(entry_of(record)),
        DERIVED: {
            "number": line.number,
            "dealer": line.dealer,
            "result": line.result,
            "winner": line.winner,
            "points": line.points,
            "deadwood": line.knocker_deadwood,
            "opponent_deadwood": line.opponent_deadwood,
            "layoffs": [str(c) for c in line.scored.layoffs.sorted()]
            if line.scored and line.scored.layoffs is not None
            else None,
            "columns": [index + 1 for index in line.columns],
            "totals": dict(line.totals),
        },
    }


def sheet_dict(sheet: Sheet) -> dict:
    """The `show --json` object: players, every knob, each hand, and the games' outcome."""
    match = sheet.match
    games = [game.as_dict() for game in sheet.games]
    data = {
        "players": list(match.players),
        "note": match.note,
        "rules": match.rules.to_dict(),
        "hollywood": match.hollywood,
        "hands": [hand_json(line, record) for line, record in zip(sheet.lines, match.hands)],
        "totals": sheet.summed("totals"),
        "boxes": sheet.summed("boxes"),
        "next_dealer": sheet.next_dealer,
        "finished": sheet.finished,
        "winner": sheet.winner,
        "reached_target": games[0]["reached_target"] if len(games) == 1 else None,
        "bonuses": sheet.bonuses(),
        "final": sheet.summed("final"),
        "margin": sheet.margin,
    }
    if match.hollywood:
        data["columns"] = games
    return data

"""A match as records of what happened, and everything derived from them.

A match stores the players, every rule knob, who dealt first and each hand's inputs. Totals,
boxes, bonuses, the dealer of each hand and who deals next are recomputed from those on every
load. A plain match is one game (one column); a Hollywood match scores three columns at once.
"""

from __future__ import annotations

import shlex
import unicodedata
from collections.abc import Callable
from copy import deepcopy
from dataclasses import dataclass, field, replace
from typing import TypeVar

from .cards import DECK, Card, format_cards, parse_card, parse_cards, parse_groups, parse_spread
from .errors import GinscoreError, InputError, RefusedError, quote
from .melds import Arrangement
from .rulebook import Rules, rules_options
from .scoring import HandResult, ScoredKnock, score_cards, score_counts

COLUMNS_HOLLYWOOD = 3
T = TypeVar("T")


@dataclass(frozen=True)
class HandRecord:
    """One hand as entered at the table. Cards are kept as canonical text, groups with `|`."""

    knocker: str | None = None
    """The knocker's name; None for a cancelled hand."""
    cancelled: bool = False
    """A dead hand: nobody scores and the same dealer deals again."""
    knocker_cards: str | None = None
    """The knocker's 10 or 11 cards, or their spread grouped with `|`."""
    spread: str | None = None
    """The spread the knocker's cards were scored with, grouped with `|`, when the cards were given
    without groups; the card of `knocker_cards` not in it is the discard. Loading checks this spread
    (its melds, the knock limit, the opponent's best response) rather than searching again."""
    discard: str | None = None
    """The card the knocker discarded face down, when the spread was given with 11 cards."""
    opponent_cards: str | None = None
    """The opponent's 10 cards, for the lay-offs to be worked out."""
    knocker_deadwood: int | None = None
    """Typed count, for hands recorded without the knocker's cards."""
    opponent_deadwood: int | None = None
    """Typed count after lay-offs, for hands recorded without the opponent's cards."""
    big_gin: bool = False
    """With counts only: all 11 cards melded."""
    upcard: str | None = None
    """The up-card (knock card) under Oklahoma."""
    recorded: str = ""
    """When the hand was entered, ISO 8601."""
    note: str = ""
    """Free text a person wrote about the hand; never read by the scoring."""


@dataclass(frozen=True)
class Match:
    """The score sheet's inputs: who plays, by which rules, and each hand in order."""

    players: tuple[str, str]
    rules: Rules
    first_dealer: str
    hands: tuple[HandRecord, ...] = ()
    hollywood: bool = False
    created: str = ""
    preset: str | None = None
    """The preset the rules started from, for people; the knobs themselves decide."""
    note: str = ""
    """Free text a person wrote about the match (where, what for); never read by the scoring."""

    def player(self, name: str) -> str:
        """A player's name as stored, matched case-insensitively and however its accents were typed."""
        if name in self.players:
            return name
        typed = _name_key(name)
        for player in self.players:
            if _name_key(player) == typed:
                return player
        raise InputError(f"unknown player {quote(name)}: the players are {self.players[0]} and {self.players[1]}")

    def other(self, name: str) -> str:
        return self.players[1] if name == self.players[0] else self.players[0]

    def with_hands(self, hands: tuple[HandRecord, ...]) -> Match:
        return replace(self, hands=hands)


def _name_key(name: str) -> str:
    """What makes two typed names one person: the same letters (NFC), in any case."""
    return unicodedata.normalize("NFC", name.strip()).casefold()


def _found(names: object) -> str:
    """What was given instead of two names, in words: `3 were given: 'A', 'B' and 'C'`."""
    if not (isinstance(names, (list, tuple)) and names and all(isinstance(n, str) for n in names)):
        return f"found {quote(names)}"
    quoted = [quote(name) for name in names]
    listed = quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " and " + quoted[-1]
    return f"{len(names)} {'was' if len(names) == 1 else 'were'} given: {listed}"


def check_players(names: object) -> tuple[str, str]:
    """Two different, printable player names, with spaces trimmed and accents composed (NFC)."""
    if not (isinstance(names, (list, tuple)) and len(names) == 2 and all(isinstance(n, str) for n in names)):
        raise InputError(f"give two different player names, e.g. Ann Bob ({_found(names)})")
    a, b = (unicodedata.normalize("NFC", name.strip()) for name in names)
    for name in (a, b):
        if not name or _control_character(name):
            raise InputError(f"{quote(name)} cannot be a player's name: give two different player names without control characters")
    if _name_key(a) == _name_key(b):
        raise InputError(f"give two different player names, not {quote(a)} twice")
    return a, b


def _control_character(text: str) -> str | None:
    """The first character of `text` that is not printed as itself (Unicode category C: a control
    character such as a tab, a line break or ESC, or an invisible format character), or None."""
    return next((char for char in text if unicodedata.category(char).startswith("C")), None)


def check_note(note: str) -> str:
    """A note as typed, refused when it holds a control character other than a tab: `show` prints notes
    to a terminal, where an escape could recolour it or worse, and a line break would break the sheet.
    Invisible format characters are kept (unlike in names): emoji and many scripts join letters with them."""
    char = next((char for char in note if unicodedata.category(char) == "Cc" and char != "\t"), None)
    if char is not None:
        raise InputError(
            f"a note cannot hold the control character {quote(char)} (U+{ord(char):04X}): write it as plain text on one line"
        )
    return note


def _parse_field(name: str, text: str, parse: Callable[[str], T]) -> T:
    """Parse one field's text; an error names the field it came from."""
    try:
        return parse(text)
    except GinscoreError as error:
        error.field = name
        raise


def _read(record: HandRecord, name: str, parse: Callable[[str], T]) -> T | None:
    """Parse one text field of a stored record; an empty field is a missing one."""
    text = getattr(record, name)
    return _parse_field(name, text, parse) if text else None


_CARDS_BY_NAME = {str(card): card for card in DECK}


def _stored_cards(text: str) -> tuple[Card, ...]:
    """Cards as ginscore writes them (canonical, distinct), read by lookup; anything else goes
    through the full parser, which gives its errors."""
    tokens = text.split()
    try:
        cards = tuple(_CARDS_BY_NAME[token] for token in tokens)
    except KeyError:
        return parse_cards(text)
    if not cards or len(set(tokens)) != len(tokens):
        return parse_cards(text)
    return cards


def _stored_spread(text: str) -> tuple[tuple[Card, ...], tuple[tuple[Card, ...], ...] | None]:
    """`parse_spread`, with the lookup of `_stored_cards` for cards given without groups."""
    return (_stored_cards(text), None) if "|" not in text else parse_spread(text)


def _stored_groups(text: str) -> tuple[tuple[Card, ...], ...]:
    """`parse_groups`, by lookup for groups as ginscore writes them."""
    split = [group.split() for group in text.split("|")]
    try:
        groups = tuple(tuple(_CARDS_BY_NAME[token] for token in group) for group in split)
    except KeyError:
        return parse_groups(text)
    tokens = [token for group in split for token in group]
    if not all(groups) or len(set(tokens)) != len(tokens):
        return parse_groups(text)
    return groups


def spread_text(spread: Arrangement) -> str:
    """A spread in the grouped notation: each meld, then the deadwood in groups of at most two,
    so that no deadwood group reads as a meld."""
    deadwood = spread.deadwood_cards.sorted()
    groups = [" ".join(meld) for meld in spread.card_lists()]
    groups += [format_cards(deadwood[i : i + 2]) for i in range(0, len(deadwood), 2)]
    return " | ".join(groups)


def check_record(record: HandRecord) -> None:
    """Refuse a record whose parts contradict each other, whether typed or edited into a file."""
    details = (
        record.knocker_cards, record.discard, record.opponent_cards,
        record.knocker_deadwood, record.opponent_deadwood, record.upcard,
    )
    if record.cancelled:
        if record.knocker is not None or record.big_gin or any(value is not None for value in details):
            raise InputError("a cancelled hand takes no knocker, cards or counts: give --cancelled alone")
        return
    if record.knocker is None:
        raise InputError("say who knocked with --knocker NAME, or record a dead hand with --cancelled")
    if record.knocker_cards is not None and record.knocker_deadwood is not None:
        raise InputError("give the knocker's cards or their count (--deadwood), not both")
    if record.opponent_cards is not None and record.opponent_deadwood is not None:
        raise InputError("give the opponent's cards or their count (--opponent-deadwood), not both")
    if record.big_gin and record.knocker_cards is not None:
        raise InputError("--big-gin goes with counts; with the knocker's cards, big gin is found from them")
    if record.discard is not None and record.knocker_cards is None:
        raise InputError("--discard goes with the knocker's cards (--cards)")
    if record.opponent_cards is not None and record.knocker_cards is None:
        raise InputError("the opponent's cards need the knocker's cards too; or give both counts")
    if record.spread is not None and (record.knocker_cards is None or "|" in record.knocker_cards):
        error = InputError("a stored spread goes with the knocker's cards given without groups")
        error.field = "spread"
        raise error


def score_record(record: HandRecord, rules: Rules) -> tuple[HandResult, ScoredKnock | None]:
    """Score one recorded knock from its cards, its counts, or the knocker's cards and the opponent's count."""
    check_record(record)
    upcard = _read(record, "upcard", parse_card)
    spread = _read(record, "knocker_cards", _stored_spread)
    if spread:
        knocker_cards, groups = spread
        opponent: tuple | int | None = _read(record, "opponent_cards", _stored_cards)
        if opponent is None:
            opponent = record.opponent_deadwood
        if opponent is None:
            raise InputError("give the opponent's cards or their count after lay-offs (--opponent-deadwood)")
        discard = _read(record, "discard", parse_card)
        if groups is None and record.spread:
            return _score_stored_spread(record, knocker_cards, opponent, rules, upcard, discard)
        scored = score_cards(knocker_cards, opponent, rules, upcard=upcard, discard=discard, groups=groups)
        return scored.result, scored
    if record.knocker_deadwood is None or record.opponent_deadwood is None:
        raise InputError("give the knocker's cards, or both counts: --deadwood N --opponent-deadwood M")
    limit, multiplier = rules.knock_limit_for(upcard), rules.multiplier_for(upcard)
    result = score_counts(
        record.knocker_deadwood, record.opponent_deadwood, rules, limit, multiplier, record.big_gin
    )
    return result, None


def _score_stored_spread(
    record: HandRecord,
    knocker_cards: tuple[Card, ...],
    opponent: tuple[Card, ...] | int,
    rules: Rules,
    upcard: Card | None,
    discard: Card | None,
) -> tuple[HandResult, ScoredKnock]:
    """Score a hand by the spread stored with it: checked as a spread typed by hand is, no search."""
    groups = _read(record, "spread", _stored_groups) or ()
    try:
        scored = score_cards(
            knocker_cards, opponent, rules, upcard=upcard, discard=discard or _left_out(record, knocker_cards, groups), groups=groups
        )
    except GinscoreError as error:
        # The same error without the stored spread is about the cards themselves, not the spread.
        score_cards(knocker_cards, opponent, rules, upcard=upcard, discard=discard)
        stale = type(error)(f"{error}; delete this spread line and ginscore finds the best spread again")
        stale.field = "spread"
        raise stale from None
    return scored.result, scored


def _left_out(record: HandRecord, cards: tuple[Card, ...], groups: tuple[tuple[Card, ...], ...]) -> Card | None:
    """The one card not in the spread (the discard), or None when there are none or several."""
    if len(cards) - sum(map(len, groups)) != 1:
        return None
    # Compared as text first: stored cards are canonical, and names are quicker to compare than cards.
    named = set((record.knocker_cards or "").split()).difference((record.spread or "").replace("|", " ").split())
    if len(named) == 1 and (card := _CARDS_BY_NAME.get(named.pop())) is not None:
        return card
    left = set(cards).difference(*groups)
    return next(iter(left)) if len(left) == 1 else None


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
    totals: dict[str, int]
    """Running totals after this hand, summed over the columns."""
    column_totals: tuple[dict[str, int], ...] = ()
    """Running totals after this hand in each column."""
    scored: ScoredKnock | None = None
    multiplier: int = 1


@dataclass
class Game:
    """One game (a column of a Hollywood sheet): totals, boxes and, once over, the bonuses."""

    players: tuple[str, str]
    totals: dict[str, int] = field(default_factory=dict)
    """Points from hands entered in this game; these decide who reaches the target."""
    boxes: dict[str, int] = field(default_factory=dict)
    """Boxes per player: a won hand counts 1, a gin `gin_boxes`, an undercut `undercut_boxes`."""
    hands: list[int] = field(default_factory=list)
    """The numbers of the hands entered in this game."""
    entries: dict[str, int] = field(default_factory=dict)
    """How many wins each player has entered here (Hollywood opens later games with these)."""
    reached: str | None = None
    """The player whose total reached the target; the game is over."""
    bonuses: dict[str, dict[str, int]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for name in self.players:
            self.totals.setdefault(name, 0)
            self.boxes.setdefault(name, 0)
            self.entries.setdefault(name, 0)
            self.bonuses.setdefault(name, {"game": 0, "boxes": 0, "shutout": 0})

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
    games = tuple(Game(match.players) for _ in range(COLUMNS_HOLLYWOOD if match.hollywood else 1))
    return _tally_from(match, 1, games, [], match.first_dealer, problems)


def _tally_from(
    match: Match,
    start: int,
    games: tuple[Game, ...],
    lines: list[HandLine],
    dealer: str,
    problems: list[tuple[int, GinscoreError]] | None,
) -> Sheet:
    """Score the hands from number `start` on, after the games, lines and dealer of those before it."""
    for number, record in enumerate(match.hands[start - 1 :], start=start):
        try:
            if all(game.finished for game in games):
                raise RefusedError(f"hand {number} comes after the end of the match")
            line = _score_line(match, number, record, dealer, games)
        except GinscoreError as error:
            if problems is None:
                raise
            problems.append((number, error))
            continue
        lines.append(line)
        dealer = _next_dealer(match, dealer, line.winner)
    return Sheet(match, tuple(lines), games, dealer)


def _score_line(match: Match, number: int, record: HandRecord, dealer: str, games: tuple[Game, ...]) -> HandLine:
    if record.cancelled:
        check_record(record)
        totals, column_totals = _running(match, games)
        return HandLine(number, dealer, None, "cancelled", None, 0, None, None, (), totals, column_totals)
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


def _running(match: Match, games: tuple[Game, ...]) -> tuple[dict[str, int], tuple[dict[str, int], ...]]:
    """The running totals after a hand: summed over the games, and in each game."""
    columns = tuple(dict(game.totals) for game in games)
    if len(columns) == 1:
        return dict(columns[0]), columns
    return {name: sum(column[name] for column in columns) for name in match.players}, columns


def _columns_for(winner: str, games: tuple[Game, ...]) -> tuple[int, ...]:
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


def canonical_cards(text: str) -> str:
    """Typed cards in canonical notation, keeping a spread's `|` groups."""
    if "|" in text:
        return " | ".join(format_cards(group) for group in parse_groups(text))
    return format_cards(parse_cards(text))


def make_record(
    match: Match,
    *,
    knocker: str | None = None,
    cancelled: bool = False,
    cards: str | None = None,
    discard: str | None = None,
    opponent_cards: str | None = None,
    deadwood: int | None = None,
    opponent_deadwood: int | None = None,
    big_gin: bool = False,
    upcard: str | None = None,
    recorded: str = "",
    note: str = "",
) -> HandRecord:
    """A hand record from what was typed, checked by scoring it under the match's rules."""
    record = HandRecord(
        knocker=None if knocker is None else match.player(knocker),
        cancelled=cancelled,
        knocker_cards=_canonical("knocker_cards", cards, canonical_cards),
        discard=_canonical("discard", discard, parse_card),
        opponent_cards=_canonical("opponent_cards", opponent_cards, canonical_cards),
        knocker_deadwood=deadwood,
        opponent_deadwood=opponent_deadwood,
        big_gin=big_gin,
        upcard=_canonical("upcard", upcard, parse_card),
        recorded=recorded,
        note=_parse_field("note", note, check_note),
    )
    if cancelled:
        check_record(record)
    else:
        score_record(record, match.rules)
    return record


def _canonical(name: str, text: str | None, parse: Callable[[str], object]) -> str | None:
    """Typed cards in canonical notation; an empty option is an error, not a missing one."""
    return None if text is None else str(_parse_field(name, text, parse))


def add_hand(match: Match, record: HandRecord, sheet: Sheet | None = None) -> tuple[Match, Sheet]:
    """The match with one more hand, refused once the game is over.

    Given the match's sheet, only the new hand is scored.
    """
    sheet = sheet if sheet is not None else tally(match)
    if sheet.finished:
        raise RefusedError(game_over_message(sheet))
    updated = match.with_hands(match.hands + (record,))
    return updated, _tally_from(updated, len(match.hands) + 1, deepcopy(sheet.games), list(sheet.lines), sheet.next_dealer, None)


def with_spreads(match: Match, sheet: Sheet) -> Match:
    """The match with each hand given by cards without groups carrying the spread it was scored with,
    so that the next load checks that spread instead of searching again."""
    hands = list(match.hands)
    for index, (record, line) in enumerate(zip(match.hands, sheet.lines)):
        if line.scored is not None and record.spread is None and "|" not in (record.knocker_cards or "|"):
            hands[index] = replace(record, spread=spread_text(line.scored.spread))
    return match.with_hands(tuple(hands))


def replace_hand(match: Match, number: int, record: HandRecord) -> tuple[Match, Sheet]:
    """The match with hand `number` (from 1) replaced; every later hand is scored again."""
    if not 1 <= number <= len(match.hands):
        raise InputError(
            f"there is no hand {number}: the hands are numbered 1 to {len(match.hands)}"
            if match.hands
            else "there are no hands yet"
        )
    hands = list(match.hands)
    hands[number - 1] = record
    updated = match.with_hands(tuple(hands))
    return updated, tally(updated)


def remove_last_hand(match: Match) -> tuple[Match, Sheet]:
    """The match without its last hand."""
    if not match.hands:
        raise RefusedError("there are no hands to undo")
    updated = match.with_hands(match.hands[:-1])
    return updated, tally(updated)


def game_over_message(sheet: Sheet) -> str:
    match = sheet.match
    game = sheet.games[0]
    reached = "all three games are over" if match.hollywood else f"{game.reached} reached {match.rules.target}"
    options = [*rules_options(match.rules, match.preset), *(["hollywood"] if match.hollywood else [])]
    rules = "".join(f" --{option}" for option in options)
    names = " ".join(shlex.quote(name) for name in match.players)
    return (
        f"the match is over ({reached}), so no hand was recorded; start the next one with: "
        f"ginscore new next.toml {names}{rules}"
    )


def sheet_dict(sheet: Sheet) -> dict:
    """The `show --json` object: players, every knob, each hand, and the games' outcome."""
    match = sheet.match
    games = [game.as_dict() for game in sheet.games]
    data = {
        "players": list(match.players),
        "note": match.note,
        "rules": match.rules.to_dict(),
        "hollywood": match.hollywood,
        "hands": [
            {
                "number": line.number,
                "dealer": line.dealer,
                "knocker": line.knocker,
                "result": line.result,
                "winner": line.winner,
                "points": line.points,
                "knocker_deadwood": line.knocker_deadwood,
                "opponent_deadwood": line.opponent_deadwood,
                "layoffs": [str(c) for c in line.scored.layoffs.sorted()]
                if line.scored and line.scored.layoffs is not None
                else None,
                "columns": [index + 1 for index in line.columns],
                "totals": line.totals,
                "note": record.note,
            }
            for line, record in zip(sheet.lines, match.hands)
        ],
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

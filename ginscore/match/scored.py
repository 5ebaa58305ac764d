"""A hand record scored: its stored cards read and checked, its score under the match's rules, and what a person
entered made into a record with the score that checked it (`make_record`).

Every load scores each hand again from its record, so the totals are derived, never trusted; a record made from
an entry carries its score (`ScoredRecord`), so the tally adds it without scoring it twice.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TypeVar

from ..errors import GinscoreError, InputError, quote
from ..game.cards import DECK, Card, format_cards, parse_card, parse_cards, parse_groups, parse_spread
from ..game.melds import Arrangement
from ..game.rulebook import Rules
from ..game.scoring import HandResult, ScoredKnock, score_cards, score_counts
from .entry import HAND_FIELDS, HandEntry, about
from .records import HandRecord, Match, check_note

T = TypeVar("T")


def _parse_field(name: str, text: str, parse: Callable[[str], T]) -> T:
    """Parse one field's text; an error names the field it came from."""
    try:
        return parse(text)
    except GinscoreError as error:
        raise error.about(name) from None


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


_NOT_CANCELLED = tuple(name for name in HAND_FIELDS if "cancelled" not in about(name).ways)
"""The fields a cancelled hand does not take: who knocked, the cards and counts, the up-card, the spread."""


def check_record(record: HandRecord) -> None:
    """Refuse a record whose parts contradict each other, whether typed or edited into a file."""
    if record.cancelled:
        if any(getattr(record, name) is not None and getattr(record, name) is not False for name in _NOT_CANCELLED):
            raise InputError("a cancelled hand takes no knocker, cards or counts", field="cancelled")
        return
    if record.knocker is None:
        raise InputError("say who knocked, or record the hand as cancelled", field="knocker")
    if record.cards is not None and record.deadwood is not None:
        raise InputError("give the knocker's cards or their count, not both", field="deadwood")
    if record.opponent_cards is not None and record.opponent_deadwood is not None:
        raise InputError("give the opponent's cards or their count, not both", field="opponent_deadwood")
    if record.big_gin and record.cards is not None:
        raise InputError("big gin is marked only with counts; with the knocker's cards it is found from them", field="big_gin")
    if record.discard is not None and record.cards is None:
        raise InputError("a discard goes with the knocker's cards", field="discard")
    if record.opponent_cards is not None and record.cards is None:
        raise InputError("the opponent's cards need the knocker's cards too; or give both counts", field="opponent_cards")
    if record.spread is not None and (record.cards is None or "|" in record.cards):
        raise InputError("a stored spread goes with the knocker's cards given without groups", field="spread")


def score_record(record: HandRecord, rules: Rules) -> tuple[HandResult, ScoredKnock | None]:
    """Score one recorded knock from its cards, its counts, or the knocker's cards and the opponent's count."""
    check_record(record)
    upcard = _read(record, "upcard", parse_card)
    spread = _read(record, "cards", _stored_spread)
    if spread:
        knocker_cards, groups = spread
        opponent: tuple | int | None = _read(record, "opponent_cards", _stored_cards)
        if opponent is None:
            opponent = record.opponent_deadwood
        if opponent is None:
            raise InputError("give the opponent's cards or their count after lay-offs", field="opponent_cards")
        discard = _read(record, "discard", parse_card)
        if groups is None and record.spread:
            return _score_stored_spread(record, knocker_cards, opponent, rules, upcard, discard)
        scored = score_cards(knocker_cards, opponent, rules, upcard=upcard, discard=discard, groups=groups)
        return scored.result, scored
    if record.deadwood is None:
        raise InputError("give the knocker's cards, or both counts: the knocker's and the opponent's", field="deadwood")
    if record.opponent_deadwood is None:
        raise InputError("with the knocker's count, give the opponent's count after lay-offs", field="opponent_deadwood")
    try:
        limit, multiplier = rules.knock_limit_for(upcard), rules.multiplier_for(upcard)
    except GinscoreError as error:
        raise error.about("upcard") from None
    result = score_counts(
        record.deadwood, record.opponent_deadwood, rules, limit, multiplier, record.big_gin
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
        raise type(error)(f"{error}; delete this spread line and ginscore finds the best spread again", field="spread") from None
    return scored.result, scored


def _left_out(record: HandRecord, cards: tuple[Card, ...], groups: tuple[tuple[Card, ...], ...]) -> Card | None:
    """The one card not in the spread (the discard), or None when there are none or several."""
    if len(cards) - sum(map(len, groups)) != 1:
        return None
    # Compared as text first: stored cards are canonical, and names are quicker to compare than cards.
    named = set((record.cards or "").split()).difference((record.spread or "").replace("|", " ").split())
    if len(named) == 1 and (card := _CARDS_BY_NAME.get(named.pop())) is not None:
        return card
    left = set(cards).difference(*groups)
    return next(iter(left)) if len(left) == 1 else None


def canonical_cards(text: str) -> str:
    """Typed cards in canonical notation, keeping a spread's `|` groups."""
    if "|" in text:
        return " | ".join(format_cards(group) for group in parse_groups(text))
    return format_cards(parse_cards(text))


SPREADS = ("best", "lowest")
"""The spreads a knocker may have laid down when cards without groups allow two that score differently."""


@dataclass(frozen=True)
class ScoredRecord:
    """A hand record made from an entry, with the score that checked it: the tally adds it without scoring again."""

    record: HandRecord
    result: HandResult | None
    """What the hand scores; None for a cancelled hand."""
    scored: ScoredKnock | None
    """The knock scored from cards, with the spread used; None for counts or a cancelled hand."""


def make_record(match: Match, entry: HandEntry, *, recorded: str = "", note: str | None = None) -> ScoredRecord:
    """A hand record from what was entered, checked by scoring it under the match's rules, with that score; a
    refusal names the entry's field (`cards`, `opponent_deadwood`, ...). `note`, when given, is used instead of
    the entry's. With `spread`, the knocker's cards are kept grouped as the spread laid down."""
    record = HandRecord(
        knocker=None if entry.knocker is None else _parse_field("knocker", entry.knocker, match.player),
        cancelled=entry.cancelled,
        cards=_canonical("cards", entry.cards, canonical_cards),
        discard=_canonical("discard", entry.discard, parse_card),
        opponent_cards=_canonical("opponent_cards", entry.opponent_cards, canonical_cards),
        deadwood=entry.deadwood,
        opponent_deadwood=entry.opponent_deadwood,
        big_gin=entry.big_gin,
        upcard=_canonical("upcard", entry.upcard, parse_card),
        recorded=recorded,
        note=_parse_field("note", (entry.note if note is None else note) or "", check_note),
    )
    if record.cancelled:
        if entry.spread is not None:
            raise InputError("a cancelled hand has no spread", field="spread")
        check_record(record)
        return ScoredRecord(record, None, None)
    result, scored = score_record(record, match.rules)
    if entry.spread is None:
        return ScoredRecord(record, result, scored)
    if entry.spread not in SPREADS:
        raise InputError(f"{quote(entry.spread)} is not a spread: give best or lowest", field="spread")
    if scored is None or "|" in (record.cards or ""):
        raise InputError("a spread is chosen only for the knocker's cards given without groups", field="spread")
    if scored.lowest is None:  # one spread scores best: nothing to choose
        return ScoredRecord(record, result, scored)
    chosen = replace(scored.lowest if entry.spread == "lowest" else scored, lowest=None)
    cards, discard = laid_down(chosen)
    return ScoredRecord(replace(record, cards=cards, discard=discard), chosen.result, chosen)


def entry_of(record: HandRecord) -> HandEntry:
    """A record as the entry that records it again: its fields as recorded (the knocker's name, the cards in
    canonical notation, grouped as laid down when a spread was chosen), with no spread to choose, since the cards
    say it already or the best is found again."""
    return HandEntry(**{name: getattr(record, name) for name in HAND_FIELDS if name != "spread"})


def laid_down(scored: ScoredKnock) -> tuple[str, str | None]:
    """A knocker's spread as typed cards, grouped with `|`, and the card discarded face down (its own group)."""
    cards = spread_text(scored.spread)
    if scored.discard is None:
        return cards, None
    return f"{cards} | {scored.discard}", str(scored.discard)


def _canonical(name: str, text: str | None, parse: Callable[[str], object]) -> str | None:
    """Typed cards in canonical notation; an empty option is an error, not a missing one."""
    return None if text is None else str(_parse_field(name, text, parse))

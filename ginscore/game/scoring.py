"""Scoring one hand: from counts, or from both players' cards with the knocker's best spread."""

from __future__ import annotations

import functools
import operator
from dataclasses import dataclass

from ..errors import CardListError, GinscoreError, IllegalHandError, InputError, quote
from .cards import Card, Hand, format_cards, require_count
from .layoffs import Response, best_layoff, best_response
from .melds import Arrangement, arrangements, is_meld, min_deadwood
from .rulebook import Rules

# Ten cards count at most 98: two each of 10, J, Q, K placed so no suit runs, and two 9s.
MAX_DEADWOOD = 98


@dataclass(frozen=True)
class HandResult:
    """The score of one hand that ended in a knock."""

    result: str
    """One of `knock`, `undercut`, `gin`, `big_gin`, `tie`."""
    winner: str | None
    """`knocker`, `opponent`, or None when nobody scores."""
    points: int
    """What the winner scores, after any doubling."""
    knocker_deadwood: int
    """The knocker's count: the deadwood of the spread laid down."""
    opponent_deadwood: int
    """The opponent's count after lay-offs (none against gin)."""
    knock_limit: int
    """The most deadwood this knock could have: 10, a table's own, or the up-card's value."""
    multiplier: int = 1
    """2 when a spade up-card doubles the hand."""

    @property
    def net(self) -> int:
        """Points from the knocker's side: positive when the knocker wins."""
        return -self.points if self.winner == "opponent" else self.points


def illegal_knock_message(deadwood: int, limit: int) -> str:
    """Why a knock is illegal; a limit of 0 (an ace up-card) is said as what it means, gin only."""
    over = f"{deadwood} deadwood where only gin may go down" if limit == 0 else f"{deadwood} deadwood is over the knock limit of {limit}"
    return f"illegal knock: {over}, so the hand goes on with the knocker's cards face up and nothing is scored"


def score_counts(
    knocker_deadwood: int,
    opponent_deadwood: int,
    rules: Rules,
    knock_limit: int,
    multiplier: int = 1,
    big_gin: bool = False,
) -> HandResult:
    """Score a knock from the two counts; the opponent's is after lay-offs."""
    for field, count in (("deadwood", knocker_deadwood), ("opponent_deadwood", opponent_deadwood)):
        if not 0 <= count <= MAX_DEADWOOD:
            raise InputError(f"a count of {quote(count)} is impossible: ten cards count from 0 to {MAX_DEADWOOD}", field=field)
    if knocker_deadwood > knock_limit:
        raise IllegalHandError(illegal_knock_message(knocker_deadwood, knock_limit), field="deadwood")
    if big_gin and (knocker_deadwood or not rules.big_gin):
        raise IllegalHandError(
            "big gin needs all 11 cards melded and a big_gin_bonus in the rules"
            if rules.big_gin
            else "these rules have no big gin (big_gin_bonus is off): record it as gin",
            field="big_gin",
        )

    def hand(result: str, winner: str | None, points: int) -> HandResult:
        return HandResult(
            result, winner, points * multiplier, knocker_deadwood, opponent_deadwood, knock_limit, multiplier
        )

    if big_gin:
        return hand("big_gin", "knocker", rules.big_gin_bonus + opponent_deadwood)
    if knocker_deadwood == 0:
        return hand("gin", "knocker", rules.gin_bonus + opponent_deadwood)
    if knocker_deadwood < opponent_deadwood:
        return hand("knock", "knocker", opponent_deadwood - knocker_deadwood)
    if knocker_deadwood == opponent_deadwood and not rules.undercut_on_tie:
        return hand("tie", None, 0)
    return hand("undercut", "opponent", knocker_deadwood - opponent_deadwood + rules.undercut_bonus)


@dataclass(frozen=True)
class ScoredKnock:
    """A hand scored from both players' cards."""

    result: HandResult
    spread: Arrangement
    """The knocker's spread: the one given, or the best legal one."""
    discard: Card | None
    opponent: Hand | None
    """The opponent's cards; None when only their count was given."""
    lowest: ScoredKnock | None = None
    """When the best spread is not a lowest-deadwood one: the best lowest-deadwood spread, to compare."""

    @functools.cached_property
    def response(self) -> Response | None:
        """The opponent's own melds and lay-offs; None when only their count was given.

        Worked out when first asked for: a sheet read from a file needs only the lay-offs.
        """
        if self.opponent is None:
            return None
        return best_response(None if self._gin else self.spread, self.opponent)

    @functools.cached_property
    def layoffs(self) -> Hand | None:
        """The cards the opponent laid off (those of `response`, without working out their melds)."""
        if self.opponent is None:
            return None
        if self._gin:
            return Hand()
        return Hand(best_layoff(tuple(meld.mask for meld in self.spread.melds), self.opponent.mask)[1])

    @property
    def _gin(self) -> bool:
        return self.result.result in ("gin", "big_gin")


def score_cards(
    knocker: tuple[Card, ...],
    opponent: tuple[Card, ...] | int,
    rules: Rules,
    *,
    upcard: Card | None = None,
    discard: Card | None = None,
    groups: tuple[tuple[Card, ...], ...] | None = None,
) -> ScoredKnock:
    """Score a knock from the knocker's cards and the opponent's cards (or their count after lay-offs).

    With `groups` the knocker's spread is used as given; otherwise their best legal spread is found.
    """
    try:
        require_count(knocker, (10, 11), "the knocker's hand")
    except GinscoreError as error:
        raise error.about("cards") from None
    held = Hand.of(knocker)
    if len(held) != len(knocker):
        raise CardListError(f"a card is given twice in the knocker's hand ({format_cards(knocker)})", field="cards")
    against: Hand | int = opponent if isinstance(opponent, int) else Hand.of(opponent)
    if isinstance(against, Hand) and not isinstance(opponent, int):
        try:
            require_count(opponent, (10,), "the opponent's hand")
        except GinscoreError as error:
            raise error.about("opponent_cards") from None
        if len(against) != len(opponent):
            raise CardListError(f"a card is given twice in the opponent's hand ({format_cards(opponent)})", field="opponent_cards")
        both = held & against
        if both:
            raise IllegalHandError(f"{format_cards(both.sorted())} cannot be in both hands: check what was typed", field="opponent_cards")
    if discard is not None and discard not in held:
        raise IllegalHandError(f"the discard {discard} is not in the knocker's hand ({format_cards(knocker)})", field="discard")
    kept = Hand(held.mask & ~discard.bit) if discard else held
    if len(kept) == 9:
        raise CardListError(f"with a discard the knocker's hand is 11 cards; {len(knocker)} were given", field="discard")
    search = _Search(against, rules, rules.knock_limit_for(upcard), rules.multiplier_for(upcard))
    try:
        if groups is not None:
            spread = _given_spread(groups, kept, discard, rules)
            if spread.deadwood > search.limit:  # refused here, for the cards, before the counts are scored
                raise IllegalHandError(illegal_knock_message(spread.deadwood, search.limit))
            return search.scored(search.evaluate(spread, discard))
        return search.best(kept, discard)
    except GinscoreError as error:
        raise error.about("cards") from None


def _given_spread(
    groups: tuple[tuple[Card, ...], ...], kept: Hand, discard: Card | None, rules: Rules
) -> Arrangement:
    discarded = discard.bit if discard else 0
    masks = [Hand.of(group).mask & ~discarded for group in groups]
    grouped = Hand(functools.reduce(operator.or_, masks, 0))
    if grouped != kept:
        extra, missing = grouped - kept, kept - grouped
        raise IllegalHandError(
            "the spread must hold exactly the knocker's cards"
            + (f"; not in the hand: {extra}" if extra else "")
            + (f"; left out: {missing}" if missing else "")
        )
    melds, dead = [], 0
    for group, cards in zip(groups, masks):
        if len(group) >= 3 and discard in group:
            raise IllegalHandError(f"the discard {discard} cannot be in the meld {format_cards(group)}")
        if cards.bit_count() < 3:
            dead |= cards
        elif is_meld(cards):
            melds.append(Hand(cards))
        else:
            raise IllegalHandError(f"'{format_cards(group)}' is not a meld: a run is 3+ cards of one suit in sequence, a set 3 or 4 of one rank")
    if len(kept) == 11 and (dead or not rules.big_gin):
        raise InputError("11 cards are spread: name the card discarded face down", field="discard")
    return Arrangement(tuple(melds), Hand(dead))


class _Search:
    """Scores knocker spreads against one opponent hand, sharing the lay-off work between them."""

    def __init__(self, opponent: Hand | int, rules: Rules, limit: int, multiplier: int):
        """`opponent` is their hand, or their count after lay-offs when only that was given."""
        self.opponent = opponent if isinstance(opponent, Hand) else None
        self.rules, self.limit, self.multiplier = rules, limit, multiplier
        self.given = opponent
        self.counts: dict[tuple[int, ...], int] = {}

    @functools.cached_property
    def own_deadwood(self) -> int:
        """The opponent's count without lay-offs (against gin), or the count typed in."""
        return self.given if isinstance(self.given, int) else min_deadwood(self.given.mask)

    def count(self, melds: tuple[int, ...], gin: bool) -> int:
        """The opponent's count after lay-offs; a count typed in is taken as it is."""
        if gin or self.opponent is None:
            return self.own_deadwood
        if melds not in self.counts:
            self.counts[melds] = best_layoff(melds, self.opponent.mask)[0]
        return self.counts[melds]

    def evaluate(self, spread: Arrangement, discard: Card | None) -> tuple[HandResult, Arrangement, Card | None]:
        melds = tuple(sorted(m.mask for m in spread.melds))
        gin = not spread.deadwood_cards
        big_gin = gin and sum(len(m) for m in spread.melds) == 11
        count = self.count(melds, gin)
        result = score_counts(spread.deadwood, count, self.rules, self.limit, self.multiplier, big_gin)
        return result, spread, discard

    def scored(self, found: tuple[HandResult, Arrangement, Card | None], lowest: ScoredKnock | None = None) -> ScoredKnock:
        result, spread, discard = found
        return ScoredKnock(result, spread, discard, self.opponent, lowest)

    def best(self, kept: Hand, discard: Card | None) -> ScoredKnock:
        options = [(kept, discard)] if len(kept) == 10 else [(kept - Hand.of([c]), c) for c in kept.sorted()]
        lowest_count = min(min_deadwood(hand.mask) for hand, _ in options)
        if lowest_count > self.limit:
            raise IllegalHandError(illegal_knock_message(lowest_count, self.limit))
        candidates = []
        if len(kept) == 11 and self.rules.big_gin and min_deadwood(kept.mask) == 0:
            candidates.append(self.evaluate(next(arrangements(kept, 0)), None))
        for hand, card in options:
            candidates += [self.evaluate(spread, card) for spread in arrangements(hand, self.limit)]
        best = max(candidates, key=_preference)
        plain = max((c for c in candidates if c[0].knocker_deadwood == lowest_count), key=_preference)
        if best[0].net > plain[0].net:
            return self.scored(best, self.scored(plain))
        return self.scored(plain)


def _preference(candidate: tuple[HandResult, Arrangement, Card | None]) -> tuple[int, int]:
    result = candidate[0]
    return result.net, -result.knocker_deadwood


def knock_dict(scored: ScoredKnock) -> dict:
    """The `score --json` object."""
    result, response = scored.result, scored.response
    data = {
        "result": result.result,
        "winner": result.winner,
        "points": result.points,
        "knocker_deadwood": result.knocker_deadwood,
        "opponent_deadwood": result.opponent_deadwood,
        "knocker_melds": scored.spread.card_lists(),
        "knocker_deadwood_cards": [str(c) for c in scored.spread.deadwood_cards.sorted()],
        "opponent_melds": response.spread.card_lists() if response else None,
        "opponent_deadwood_cards": [str(c) for c in response.spread.deadwood_cards.sorted()] if response else None,
        "layoffs": [str(c) for c in response.layoffs.sorted()] if response else None,
        "discard": str(scored.discard) if scored.discard else None,
        "knock_limit": result.knock_limit,
        "multiplier": result.multiplier,
        "lowest_count_spread": knock_dict(scored.lowest) if scored.lowest else None,
    }
    return data

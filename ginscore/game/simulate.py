"""A hand simulator: whole hands of gin played by two stated policies, for the model of a hand's outcome.

A hand: the deck shuffled by a seeded `random.Random`, ten cards each (the non-dealer's first), the up-card
turned, the rest the stock. The up-card is offered to the non-dealer, then to the dealer; when both pass, the
non-dealer draws from the stock. From then on each player in turn takes the top of the discard pile or draws
from the stock, then knocks or discards. A player who discards without knocking and leaves two cards in the stock
ends the hand dead (RULES.md: the 51st card). Under Oklahoma the up-card's value is the knock limit and a spade
up-card doubles the hand.

Both policies draw and discard alike: take the discard pile's top card only when it lowers the least deadwood
(after the best discard), and discard a highest-value card among those leaving the least deadwood. They differ in
when they knock (`POLICIES`). A knock is scored by `scoring.score_cards`, which lays down the knocker's best
spread and finds the opponent's best melds and lay-offs; big gin, where the rules have it, is always declared.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

from ..errors import IllegalHandError
from .cards import DECK, Card, Hand
from .layoffs import best_layoff
from .melds import arrangement_masks, bits_of, min_after_discard, min_deadwood
from .outcomes import DEAD, DEALER, NON_DEALER, OutcomeCounts
from .rulebook import Rules
from .scoring import HandResult, illegal_knock_message, score_counts

STOCK_LEFT = 2
"""A hand is dead when a player discards without knocking and leaves this many cards in the stock."""
_VALUE_AT_BIT = {card.bit.bit_length() - 1: card.value for card in DECK}
_CARD_AT_MASK = {card.bit: card for card in DECK}


@dataclass(frozen=True)
class Policy:
    """When a player knocks: with deadwood at most `knock_at` (and within the knock limit)."""

    name: str
    knock_at: int
    """The most deadwood this player knocks with; below the knock limit, the player holds on for a lower count."""
    description: str
    careful: bool = False
    """Whether the player, seeing the other's cards, never knocks into an undercut (or a tie): only advise's
    rollouts use it, as the opponent least kind to playing on."""


POLICIES = (
    Policy("eager", 10, "knock as soon as it is legal"),
    Policy("patient", 4, "hold on for gin until the deadwood is 4 or less (or the knock limit, when lower), then knock"),
)
"""The policies of the built-in model; each player of each simulated hand plays one, drawn at random."""
POLICY = {policy.name: policy for policy in POLICIES}


def careful(policy: Policy) -> Policy:
    """The same policy, except that it never knocks into an undercut or a tie: it holds on and discards instead."""
    return Policy(f"careful {policy.name}", policy.knock_at, f"{policy.description}, but never into an undercut", True)


@dataclass(frozen=True)
class SimulatedHand:
    """One simulated hand: the deal, and how it ended."""

    dealer_cards: Hand
    non_dealer_cards: Hand
    upcard: Card
    policies: tuple[str, str]
    """The dealer's policy and the non-dealer's."""
    knocker: str | None
    """`dealer` or `non_dealer`; None when the hand went dead."""
    knocker_cards: Hand | None
    """The knocker's eleven cards when they knocked."""
    opponent_cards: Hand | None
    """The other player's ten cards when the knock came."""
    result: HandResult | None
    """The knock as `score_cards` scored it; None for a dead hand."""
    draws: int
    """Cards drawn from the stock."""

    @property
    def side(self) -> str:
        """Who won the hand, from the dealer's view: `dealer`, `non_dealer`, or `dead` (also a tie)."""
        if self.result is None or self.result.winner is None:
            return DEAD
        if self.result.winner == "knocker":
            return self.knocker or DEAD
        return NON_DEALER if self.knocker == DEALER else DEALER

    @property
    def points(self) -> int:
        """What the winner adds to their game score; 0 for a dead hand."""
        return 0 if self.result is None else self.result.points


@dataclass
class Position:
    """A hand in play, as masks: each player's cards (dealer first), the stock in drawing order, the discard pile's
    top card, and who moves next (0 the dealer, 1 the non-dealer)."""

    hands: list[int]
    stock: list[int]
    top: int
    to_move: int
    draws: int = 0


@dataclass(frozen=True)
class Ending:
    """How a position played out: who knocked (0 dealer, 1 non-dealer) with which cards, or dead."""

    knocker: int | None
    knocker_cards: int
    opponent_cards: int
    result: HandResult | None
    draws: int


def simulate_hand(rules: Rules, rng: random.Random, policies: tuple[Policy, Policy] | None = None) -> SimulatedHand:
    """Deal and play one hand; the policies (dealer's, non-dealer's) are drawn with `rng` unless given."""
    deck = [card.bit for card in DECK]
    rng.shuffle(deck)
    if policies is None:
        policies = (rng.choice(POLICIES), rng.choice(POLICIES))
    non_dealer, dealer = sum(deck[:10]), sum(deck[10:20])
    upcard = _CARD_AT_MASK[deck[20]]
    position = Position([dealer, non_dealer], deck[21:], deck[20], 1)
    limit = rules.knock_limit_for(upcard if rules.oklahoma else None)
    ending = _play_upcard(position, rules, upcard, limit, policies)
    if ending is None:
        ending = play_out(position, rules, upcard, limit, policies)
    knocker = None if ending.knocker is None else (DEALER, NON_DEALER)[ending.knocker]
    return SimulatedHand(
        Hand(dealer),
        Hand(non_dealer),
        upcard,
        (policies[0].name, policies[1].name),
        knocker,
        Hand(ending.knocker_cards) if knocker else None,
        Hand(ending.opponent_cards) if knocker else None,
        ending.result,
        ending.draws,
    )


def _play_upcard(position: Position, rules: Rules, upcard: Card, limit: int, policies: tuple[Policy, Policy]) -> Ending | None:
    """The up-card offered to the non-dealer, then to the dealer; when both pass, the non-dealer draws from the
    stock. None when the hand goes on, with `position` moved on."""
    for player in (1, 0):
        hand = position.hands[player]
        if _wants(hand, position.top, rules):
            ending = _act(position, player, hand | position.top, rules, upcard, limit, policies[player])
            if ending is not None:
                return ending
            position.to_move = 1 - player
            return None
    drawn = position.stock.pop(0)
    position.draws += 1
    ending = _act(position, 1, position.hands[1] | drawn, rules, upcard, limit, policies[1])
    position.to_move = 0
    return ending


def play_out(position: Position, rules: Rules, upcard: Card | None, limit: int, policies: tuple[Policy, Policy]) -> Ending:
    """Play a position to its end: a knock, or a dead hand at the stock's last two cards."""
    while True:
        player = position.to_move
        hand = position.hands[player]
        if _wants(hand, position.top, rules):
            held = hand | position.top
        else:
            drawn = position.stock.pop(0)
            position.draws += 1
            held = hand | drawn
        ending = _act(position, player, held, rules, upcard, limit, policies[player])
        if ending is not None:
            return ending
        if len(position.stock) <= STOCK_LEFT:
            return Ending(None, 0, 0, None, position.draws)
        position.to_move = 1 - player


def _wants(hand: int, top: int, rules: Rules) -> bool:
    """Whether the discard pile's top card lowers the least deadwood after the best discard."""
    after, _, big_gin = min_after_discard(hand | top)
    return after < min_deadwood(hand) or (big_gin and rules.big_gin)


def _act(
    position: Position, player: int, held: int, rules: Rules, upcard: Card | None, limit: int, policy: Policy
) -> Ending | None:
    """With eleven cards: knock (an `Ending`), or discard and leave the hand to go on (None)."""
    after, discards, big_gin = min_after_discard(held)
    other = position.hands[1 - player]
    if (big_gin and rules.big_gin) or after <= min(limit, policy.knock_at):
        result = _knock_result(held, other, rules, upcard if rules.oklahoma else None)
        if not policy.careful or result.winner == "knocker":
            return Ending(player, held, other, result, position.draws)
    discard = _highest(discards)
    position.hands[player] = held ^ discard
    position.top = discard
    return None


_KNOCKS: dict[tuple[int, int, Rules, Card | None], HandResult] = {}
"""`_knock_result` by its arguments: a hand played out twice from one shuffle often ends in the same knock."""


def _knock_result(held: int, other: int, rules: Rules, upcard: Card | None) -> HandResult:
    """The knock of `held` (eleven cards) against `other`, scored at its best spread: `score_cards`'s result."""
    key = (held, other, rules, upcard)
    result = _KNOCKS.get(key)
    if result is None:
        if len(_KNOCKS) >= 1 << 18:
            _KNOCKS.clear()
        result = _KNOCKS[key] = best_knock(held, other, rules, upcard)
    return result


_SCORES: dict[tuple[int, int, bool, Rules, int, int], HandResult] = {}
"""`score_counts` by its arguments, for `best_knock`: a few hundred pairs of counts come up again and again."""


def best_knock(held: int, other: int, rules: Rules, upcard: Card | None) -> HandResult:
    """`score_cards(held, other).result` for eleven cards that may knock, found with less search.

    `score_cards` weighs every spread within the knock limit after every discard, and keeps the best spread of
    the lowest deadwood unless another scores more. Here the lowest deadwood's spreads are weighed first; then a
    spread is weighed only if it could score more: the opponent's count after lay-offs is at most their count
    without any, so a spread with deadwood `d` scores at most what `d` scores against that count, and every
    deadwood whose bound does not beat the lowest's best is never searched. Big gin and gin score the same
    whatever the melds, as `score_cards` scores them.
    """
    limit, multiplier = rules.knock_limit_for(upcard), rules.multiplier_for(upcard)
    own = min_deadwood(other)

    def counted(deadwood: int, count: int, big_gin: bool = False) -> HandResult:
        key = (deadwood, count, big_gin, rules, limit, multiplier)
        found = _SCORES.get(key)
        if found is None:
            if len(_SCORES) >= 1 << 16:
                _SCORES.clear()
            found = _SCORES[key] = score_counts(deadwood, count, rules, limit, multiplier, big_gin)
        return found

    def scored(deadwood: int, melds: list[int], big_gin: bool = False) -> HandResult:
        return counted(deadwood, own if not deadwood else best_layoff(tuple(sorted(melds)), other, own)[0], big_gin)

    lowest, discards, _ = min_after_discard(held)
    if lowest > limit:
        raise IllegalHandError(illegal_knock_message(lowest, limit))
    candidates = [scored(0, [], big_gin=True)] if rules.big_gin and min_deadwood(held) == 0 else []
    for discard in bits_of(discards):
        candidates += [scored(_value(dead), melds) for melds, dead in arrangement_masks(held ^ discard, lowest)]
    plain = max(candidates, key=lambda result: result.net)  # the first of the best, as `score_cards` keeps it
    floor = plain.net
    budget = max((dw for dw in range(lowest + 1, limit + 1) if counted(dw, own).net > floor), default=lowest)
    if budget == lowest:  # no other deadwood could score more than the lowest's best: nothing else to search
        return plain
    best = plain
    for discard in bits_of(held):
        if min_deadwood(held ^ discard) > budget:
            continue
        for melds, dead in arrangement_masks(held ^ discard, budget):
            deadwood = _value(dead)
            bound = counted(deadwood, own).net
            if (bound, -deadwood) <= (best.net, -best.knocker_deadwood):
                continue
            found = scored(deadwood, melds)
            if (found.net, -found.knocker_deadwood) > (best.net, -best.knocker_deadwood):
                best = found
    return best if best.net > floor else plain


def _value(mask: int) -> int:
    """The deadwood value of the cards of `mask`."""
    total = 0
    while mask:
        low = mask & -mask
        total += _VALUE_AT_BIT[low.bit_length() - 1]
        mask ^= low
    return total


def _highest(cards: int) -> int:
    """The highest-value card among `cards` (the lowest in the deck's order on a tie), as its bit."""
    best, chosen = -1, 0
    while cards:
        low = cards & -cards
        value = _VALUE_AT_BIT[low.bit_length() - 1]
        if value > best:
            best, chosen = value, low
        cards ^= low
    return chosen


def simulate(rules: Rules, rng: random.Random, hands: int) -> Iterator[SimulatedHand]:
    """`hands` hands, one after another, from one random stream."""
    for _ in range(hands):
        yield simulate_hand(rules, rng)


def outcome_counts(played: Iterator[SimulatedHand]) -> OutcomeCounts:
    """The hands' outcomes from the dealer's view."""
    return OutcomeCounts.of((hand.side, hand.points) for hand in played)

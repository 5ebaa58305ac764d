"""A deliberately naive meld solver, the reference the real one is tested against.

It shares no code with `ginscore.game.melds`: it lists every meld of the hand as a set of cards,
then tries every collection of pairwise disjoint melds. That is slow, and short enough to
check by reading. Only `Card` and `parse_cards` come from ginscore.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import combinations

from ginscore.game.cards import Card, parse_cards

Meld = frozenset  # of Card


def value(card: Card) -> int:
    """Ace 1, two to ten their number, jack, queen and king 10."""
    number = int(card.rank)
    return 10 if number > 10 else number


def melds_in(cards: Iterable[Card]) -> list[Meld]:
    """Every set (3 or 4 cards of one rank) and every run (3+ consecutive ranks, one suit, ace low)."""
    cards = list(cards)
    melds: list[Meld] = []
    for number in range(1, 14):
        same_rank = [c for c in cards if int(c.rank) == number]
        for size in (3, 4):
            for group in combinations(same_rank, size):
                melds.append(frozenset(group))
    for suit in {c.suit for c in cards}:
        by_number = {int(c.rank): c for c in cards if c.suit == suit}
        for low in by_number:
            high = low + 1
            while high in by_number:  # low to high, each rank there: a run once it is three long
                if high - low >= 2:
                    melds.append(frozenset(by_number[n] for n in range(low, high + 1)))
                high += 1
    return melds


def every_arrangement(cards: Iterable[Card]) -> Iterator[tuple[Meld, ...]]:
    """Every collection of pairwise disjoint melds, the empty one included."""
    melds = melds_in(cards)

    def extend(start: int, used: frozenset, chosen: tuple[Meld, ...]) -> Iterator[tuple[Meld, ...]]:
        yield chosen
        for i in range(start, len(melds)):
            if not (melds[i] & used):
                yield from extend(i + 1, used | melds[i], chosen + (melds[i],))

    yield from extend(0, frozenset(), ())


def deadwood(cards: Iterable[Card], melds: Iterable[Meld]) -> int:
    """The value of the cards in none of the melds."""
    melded = set().union(*melds)
    return sum(value(c) for c in cards if c not in melded)


def min_deadwood(cards: Iterable[Card]) -> int:
    """The least deadwood over every arrangement."""
    cards = list(cards)
    return min(deadwood(cards, melds) for melds in every_arrangement(cards))


def min_after_discard(cards: Iterable[Card]) -> tuple[int, set[Card], bool]:
    """For 11 cards: (least deadwood of the 10 kept, every discard reaching it, whether all 11 meld)."""
    cards = list(cards)
    results = {c: min_deadwood([k for k in cards if k != c]) for c in cards}
    best = min(results.values())
    return best, {c for c, v in results.items() if v == best}, min_deadwood(cards) == 0


def _is_set(meld: Meld) -> bool:
    return len({c.rank for c in meld}) == 1


def normalised(melds: Iterable[Meld]) -> frozenset[Meld]:
    """The melds with every two touching runs of one suit (3-4-5 and 6-7-8) joined into one."""
    melds = list(melds)
    joined = True
    while joined:
        joined = False
        for a, b in combinations(melds, 2):
            if _is_set(a) or _is_set(b):
                continue
            if next(iter(a)).suit != next(iter(b)).suit:
                continue
            a_ranks, b_ranks = [int(c.rank) for c in a], [int(c.rank) for c in b]
            if max(a_ranks) + 1 == min(b_ranks) or max(b_ranks) + 1 == min(a_ranks):
                melds.remove(a)
                melds.remove(b)
                melds.append(a | b)
                joined = True
                break
    return frozenset(melds)


def cards(text: str) -> list[Card]:
    """The cards of typed text, for hand-written cases."""
    return list(parse_cards(text))

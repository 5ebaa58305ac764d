"""Seeded random melds and knocker hands, shared by the benchmarks."""

from __future__ import annotations

import random

from ginscore.game.cards import DECK, Card, Rank, Suit


def random_meld(rng: random.Random) -> set[Card]:
    """A run of 3 to 5 cards (six times in ten) or a set of 3 or 4."""
    if rng.random() < 0.6:
        suit, length = rng.choice(list(Suit)), rng.randint(3, 5)
        low = rng.randint(1, 14 - length)
        return {Card(Rank(n), suit) for n in range(low, low + length)}
    rank = rng.choice(list(Rank))
    return {Card(rank, s) for s in rng.sample(list(Suit), rng.choice((3, 3, 4)))}


def knocker_hand(rng: random.Random, low_rank: int) -> set[Card]:
    """Two to four melds in 7 to 10 cards, filled up to 11 mostly with cards of rank `low_rank` or less."""
    room, knocker = rng.randint(7, 10), set()
    for _ in range(rng.randint(2, 4)):
        meld = random_meld(rng)
        if not meld & knocker and len(knocker) + len(meld) <= room:
            knocker |= meld
    low = [c for c in DECK if c.rank <= low_rank and c not in knocker]
    while len(knocker) < 11:
        knocker.add(rng.choice(low) if rng.random() < 0.7 else rng.choice(DECK))
    return knocker

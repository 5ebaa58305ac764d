"""Long matches with cards, made through the service, for the handover tests (QR codes, the camera)."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

from ginscore.errors import GinscoreError
from ginscore.files import changes
from ginscore.game.cards import DECK, Card, Rank, Suit
from ginscore.game.rulebook import PRESETS
from ginscore.match.entry import HandEntry, NewMatch


def knock(rng: random.Random) -> tuple[str, str]:
    """A legal knock's 11 cards (three melds, a low card or none, a discard) and the opponent's 10."""
    suits = rng.sample(list(Suit), 3)
    length = rng.choice((3, 3, 4))
    low = rng.randint(1, 14 - length)
    run = [Card(Rank(number), suits[0]) for number in range(low, low + length)]
    rank = rng.choice([number for number in range(1, 14) if not low <= number < low + length])
    group = [Card(Rank(rank), suit) for suit in Suit if suit != suits[1]][:3]
    start = rng.randint(1, 11)
    other = [Card(Rank(number), suits[1]) for number in range(start, start + 3)]
    taken = set(run) | set(group)
    if taken & set(other):
        return knock(rng)
    taken |= set(other)
    rest = [card for card in DECK if card not in taken]
    spares = [rng.choice([card for card in rest if card.rank <= 3])] if length == 3 else []
    rest = [card for card in rest if card not in spares]
    discard = rng.choice(rest)
    rest.remove(discard)
    cards = [*run, *group, *other, *spares, discard]
    rng.shuffle(cards)
    return " ".join(map(str, cards)), " ".join(map(str, rng.sample(rest, 10)))


def long_match(path: Path, hands: int, seed: int = 38) -> Path:
    """A match file of `hands` hands, every one by both hands' cards, the game still in play."""
    rng = random.Random(seed)
    rules = replace(PRESETS["standard"], target=10000)
    changes.start(str(path), NewMatch(players=("Maria", "Tom"), rules=rules))
    while hands:
        cards, opponent = knock(rng)
        knocker = rng.choice(("Maria", "Tom"))
        try:
            changes.record(str(path), HandEntry(knocker=knocker, cards=cards, opponent_cards=opponent))
        except GinscoreError:  # a knock the random cards did not make legal: deal again
            continue
        hands -= 1
    return path

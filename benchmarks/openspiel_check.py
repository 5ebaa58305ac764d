"""`ginscore check --json -` done with OpenSpiel's solver: the peer that `bench_cli.py` times.

Run it with an interpreter that can import `pyspiel` (OpenSpiel), one hand a line on stdin in ginscore's
notation. It does the same work and prints the same JSON: it reads and checks the cards, finds the least
deadwood (for 11 cards, OpenSpiel's 10-card `min_deadwood` after each discard, since its own 11-card
shortcut can miss a gin), lays out one best arrangement with `best_meld_group`, and prints one object a line.
"""

import json
import re
import sys

import pyspiel

utils = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
LIMIT = 10
CODE, TEXT, ORDER, VALUE = {}, {}, {}, {}
for rank_index, rank in enumerate(RANKS):
    for suit_index, suit in enumerate("cdhs"):
        code = utils.card_int(("T" if rank == "10" else rank) + suit)
        CODE[rank + suit], TEXT[code], ORDER[code], VALUE[code] = code, rank + suit, (rank_index, suit_index), min(rank_index + 1, 10)


def parse(line):
    cards = []
    for token in re.split(r"[\s,]+", line.strip()):
        card = CODE.get(token[:-1].upper().replace("T", "10") + token[-1:].lower())
        if card is None or card in cards:
            raise ValueError(f"{token!r} is not a card, or is given twice")
        cards.append(card)
    if len(cards) not in (10, 11):
        raise ValueError(f"{len(cards)} cards: expected 10 or 11")
    return cards


def check(cards):
    discards, big_gin, shown = [], False, cards
    if len(cards) == 11:
        after = [utils.min_deadwood(cards[:i] + cards[i + 1 :]) for i in range(11)]
        deadwood = min(after)
        discards = sorted((c for c, a in zip(cards, after) if a == deadwood), key=lambda c: (-VALUE[c], ORDER[c]))
        big_gin = deadwood == 0 and sum(map(len, utils.best_meld_group(cards))) == 11
        shown = cards if big_gin else [c for c in cards if c != discards[0]]
    else:
        deadwood = utils.min_deadwood(cards)
    melds = sorted((sorted(meld, key=ORDER.get) for meld in utils.best_meld_group(shown)), key=lambda m: ORDER[m[0]])
    melded = {card for meld in melds for card in meld}
    return {
        "cards": [TEXT[c] for c in cards],
        "deadwood": deadwood,
        "melds": [[TEXT[c] for c in meld] for meld in melds],
        "deadwood_cards": [TEXT[c] for c in sorted((c for c in shown if c not in melded), key=ORDER.get)],
        "discards": [TEXT[c] for c in discards],
        "knock_limit": LIMIT,
        "can_knock": deadwood <= LIMIT,
        "gin": deadwood == 0,
        "big_gin": big_gin,
    }


status = 0
for number, line in enumerate(sys.stdin, start=1):
    if not line.strip() or line.lstrip().startswith("#"):
        continue
    try:
        sys.stdout.write(json.dumps(check(parse(line)), ensure_ascii=False) + "\n")
    except ValueError as error:
        sys.stderr.write(f"error: line {number}: {error}\n")
        status = 2
sys.exit(status)

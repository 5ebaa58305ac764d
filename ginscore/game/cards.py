"""Cards, hands and the notation people type.

The words of the game, used the same way across ginscore:

- meld: a run or a set. A card sits in at most one meld.
- run: three or more cards of one suit in sequence; the ace is low only (A-2-3, never Q-K-A).
- set: three or four cards of one rank.
- deadwood: the cards of a hand in no meld, and the sum of their values (A = 1, J/Q/K = 10).
- knock: ending a hand with deadwood at most the knock limit, spreading melds and deadwood.
- gin: a knock with no deadwood; big gin: all eleven cards meld and nothing is discarded.
- lay-off: the opponent adding a deadwood card to one of the knocker's melds.
- undercut: the opponent's count after lay-offs is below the knocker's (or equal, where ties are
  undercuts, as in every preset); the opponent wins.
- box: a hand won, worth a bonus at the end of the game.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from enum import IntEnum

from ..errors import CardListError, CardNotationError, quote


class Suit(IntEnum):
    """The four suits; the order is only for sorting."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def letter(self) -> str:
        """The suit's letter in card notation: c, d, h or s."""
        return "cdhs"[self]

    @property
    def symbol(self) -> str:
        """The suit's symbol: ♣ ♦ ♥ ♠."""
        return "♣♦♥♠"[self]

    @property
    def is_red(self) -> bool:
        """Diamonds and hearts are red."""
        return self in (Suit.DIAMONDS, Suit.HEARTS)


class Rank(IntEnum):
    """Ranks with the ace low, so that run adjacency is arithmetic."""

    ACE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13

    @property
    def label(self) -> str:
        """The rank in card notation: A, 2 … 10, J, Q, K."""
        return _RANK_LABELS[self - 1]


_RANK_LABELS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
LANE_BITS = 16  # each suit owns 16 bits of a hand's mask, ranks in its low 13


@dataclass(frozen=True, order=True, repr=False)  # __repr__ is written below: repr=True would compile one to discard
class Card:
    """One playing card. `str()` gives the canonical notation, e.g. `10c`."""

    rank: Rank
    suit: Suit

    @property
    def value(self) -> int:
        """Deadwood value: ace 1, number cards their number, faces 10."""
        return min(int(self.rank), 10)

    @property
    def bit(self) -> int:
        """The card's bit in a `Hand` mask."""
        return 1 << (self.suit * LANE_BITS + self.rank - 1)

    @property
    def symbol_text(self) -> str:
        """The card with its suit symbol, e.g. `10♣`."""
        return self.rank.label + self.suit.symbol

    def __str__(self) -> str:
        return self.rank.label + self.suit.letter

    def __repr__(self) -> str:
        return f"parse_card({str(self)!r})"


DECK: tuple[Card, ...] = tuple(Card(rank, suit) for suit in Suit for rank in Rank)
_CARD_AT_BIT: dict[int, Card] = {card.bit.bit_length() - 1: card for card in DECK}

_RANK_WORDS = {label: Rank(i + 1) for i, label in enumerate(_RANK_LABELS)} | {"T": Rank.TEN}
_SUIT_CHARS = {
    **{s.letter: s for s in Suit},
    **{s.symbol: s for s in Suit},
    "♧": Suit.CLUBS,
    "♢": Suit.DIAMONDS,
    "♡": Suit.HEARTS,
    "♤": Suit.SPADES,
}
_RANK_HELP = "use A 2 3 4 5 6 7 8 9 10 T J Q K"
_SUIT_HELP = "use c, d, h, s or ♣ ♦ ♥ ♠"
_SEPARATORS = re.compile(r"[\s,\ufeff]+")  # a byte-order mark, as a file may begin with, separates too
MAX_HAND_TEXT = 1000
"""The longest text read as one hand: eleven cards with room for spacing; anything longer is refused unread."""
EXAMPLE_HAND = "3h 4h 5h KS KC KD 7c 8c 9c 2d"


def parse_card(text: str) -> Card:
    """Read one card such as `Ah`, `10c`, `tS` or `Q♥`."""
    token = text.replace("\ufe0e", "").replace("\ufe0f", "").strip()
    if token.upper() in _RANK_WORDS:
        raise CardNotationError(f"{quote(text)} is not a card: it has no suit (add c, d, h or s, like '{token.upper()}h')")
    if len(token) < 2:
        wrong = _near_miss(token) or "write a rank then a suit, like 'Ah' or '10c'"
        raise CardNotationError(f"{quote(text)} is not a card: {wrong}")
    rank_text, suit_text = token[:-1].upper(), token[-1].lower()
    suit = _SUIT_CHARS.get(suit_text)
    rank = _RANK_WORDS.get(rank_text)
    if suit is None or rank is None:
        raise CardNotationError(f"{quote(text)} is not a card: {_near_miss(token) or _what_is_wrong(token)}")
    return Card(rank, suit)


def quick_parse(text: str) -> tuple[int, list[int]] | None:
    """`parse_cards` for text typed the usual way: the hand's mask and each card's bit index, in the order typed.

    None when a card is spelled some other way (variation selectors, a typing mistake), is given twice,
    or the text is too long to be read: `parse_cards` then reads the text, or says what is wrong with it.
    """
    if len(text) > MAX_HAND_TEXT:
        return None
    try:
        bits = [_QUICK_TOKENS[token] for token in text.replace(",", " ").split()]
    except KeyError:
        return None
    mask = sum(map(_BIT_VALUES.__getitem__, bits))
    return (mask, bits) if bits and mask.bit_count() == len(bits) else None


def _quick_tokens() -> dict[str, int]:
    """Every rank word and suit character `parse_card` reads, in either case -> the card's bit index."""
    ranks = _RANK_WORDS | {word.lower(): rank for word, rank in _RANK_WORDS.items()}
    suits = _SUIT_CHARS | {char.upper(): suit for char, suit in _SUIT_CHARS.items()}
    return {word + char: suit * LANE_BITS + rank - 1 for word, rank in ranks.items() for char, suit in suits.items()}


_QUICK_TOKENS = _quick_tokens()
_BIT_VALUES = [1 << bit for bit in range(4 * LANE_BITS)]


def _what_is_wrong(token: str) -> str:
    if token[-1].lower() not in _SUIT_CHARS:
        return f"unknown suit {quote(token[-1])} ({_SUIT_HELP})"
    return f"unknown rank {quote(token[:-1])} ({_RANK_HELP})"


_SPELLED_RANKS = {
    "ACE": "A", "TWO": "2", "THREE": "3", "FOUR": "4", "FIVE": "5", "SIX": "6", "SEVEN": "7",
    "EIGHT": "8", "NINE": "9", "TEN": "10", "JACK": "J", "QUEEN": "Q", "KING": "K",
}


def _near_miss(token: str) -> str | None:
    """What was probably meant, for the mistakes people make: `ten`, `1O` (letter O), an accent."""
    import unicodedata

    marks = [c for c in token if unicodedata.combining(c)]
    if marks:
        name = unicodedata.name(marks[0], "a combining mark").lower()
        alone = "is" if len(marks) == len(token) else "has"
        return f"it {alone} a combining accent (U+{ord(marks[0]):04X} {name}); type the card without it"
    upper = token.upper()
    for word, rank in _SPELLED_RANKS.items():
        if upper.startswith(word):
            rest = token[len(word):]
            suit = rest.lower() if rest.lower() in _SUIT_CHARS else "h"
            return f"write {word.lower()} as '{rank}', like '{rank}{suit}'"
    fixed = upper.replace("O", "0")
    if fixed in _RANK_WORDS:
        return f"that is the letter O, not a zero; write '{fixed}' and a suit, like '{fixed}h'"
    if fixed != upper and fixed[:-1] in _RANK_WORDS and token[-1].lower() in _SUIT_CHARS:
        return f"that is the letter O, not a zero; did you mean '{fixed[:-1]}{token[-1].lower()}'?"
    return None


def split_tokens(text: str | Iterable[str]) -> list[str]:
    """Split typed text (or several arguments) on spaces and commas."""
    parts = [text] if isinstance(text, str) else list(text)
    length = sum(len(part.strip()) for part in parts)
    if length > MAX_HAND_TEXT:
        raise CardListError(f"{length} characters is far longer than any hand (at most {MAX_HAND_TEXT}): type 10 or 11 cards")
    return [token for part in parts for token in _SEPARATORS.split(part) if token]


def parse_cards(text: str | Iterable[str]) -> tuple[Card, ...]:
    """Read a list of distinct cards, in the order typed."""
    tokens = split_tokens(text)
    if not tokens:
        raise CardNotationError(f"no cards given: type a hand like '{EXAMPLE_HAND}'")
    cards = tuple(parse_card(token) for token in tokens)
    seen: set[Card] = set()
    for token, card in zip(tokens, cards):
        if card in seen:
            raise CardListError(f"{quote(token)} is given twice: each card can be in a hand only once")
        seen.add(card)
    return cards


def parse_groups(text: str | Iterable[str]) -> tuple[tuple[Card, ...], ...]:
    """Read a spread typed as groups separated by `|`, e.g. `3h 4h 5h | Ks Kc Kd | 2d`."""
    joined = text if isinstance(text, str) else " ".join(text)
    groups = tuple(tuple(parse_card(t) for t in split_tokens(g)) for g in joined.split("|"))
    parse_cards([str(c) for group in groups for c in group])  # duplicates and emptiness
    return tuple(group for group in groups if group)


def parse_spread(text: str) -> tuple[tuple[Card, ...], tuple[tuple[Card, ...], ...] | None]:
    """A knocker's cards, and their `|` groups when the spread was typed as one."""
    return parse_cards(text.replace("|", " ")), parse_groups(text) if "|" in text else None


def require_count(cards: tuple[Card, ...], allowed: tuple[int, ...], what: str) -> None:
    """Refuse a hand whose size is not one of `allowed`."""
    if len(cards) not in allowed:
        sizes = " or ".join(str(n) for n in allowed)
        raise CardListError(
            f"{what} needs {sizes} cards, but {len(cards)} were given ({format_cards(cards)})"
        )


def format_cards(cards: Iterable[Card]) -> str:
    """Cards in canonical notation, separated by spaces, in the order given."""
    return " ".join(str(card) for card in cards)


class Hand:
    """An immutable set of cards over a bitmask: 16 bits a suit, ranks in the low 13."""

    __slots__ = ("_mask",)

    def __init__(self, mask: int = 0):
        self._mask = mask

    @property
    def mask(self) -> int:
        """The bitmask: bit 16 x suit + rank - 1 for each card."""
        return self._mask

    @classmethod
    def of(cls, cards: Iterable[Card]) -> Hand:
        """The hand holding these cards."""
        mask = 0
        for card in cards:
            mask |= card.bit
        return cls(mask)

    @classmethod
    def parse(cls, text: str | Iterable[str]) -> Hand:
        """The hand of typed cards, e.g. `Hand.parse("3h 4h 5h")`."""
        return cls.of(parse_cards(text))

    def __iter__(self) -> Iterator[Card]:
        mask = self.mask
        while mask:
            low = mask & -mask
            yield _CARD_AT_BIT[low.bit_length() - 1]
            mask ^= low

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __contains__(self, card: object) -> bool:
        return isinstance(card, Card) and bool(self.mask & card.bit)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Hand) and other.mask == self.mask

    def __hash__(self) -> int:
        return hash(self.mask)

    def __or__(self, other: Hand) -> Hand:
        return Hand(self.mask | other.mask)

    def __sub__(self, other: Hand) -> Hand:
        return Hand(self.mask & ~other.mask)

    def __and__(self, other: Hand) -> Hand:
        return Hand(self.mask & other.mask)

    @property
    def value(self) -> int:
        """The cards' total deadwood value."""
        return sum(card.value for card in self)

    def sorted(self) -> list[Card]:
        """Cards by rank, then suit: the order people read melds and deadwood in."""
        return sorted(self)

    def __str__(self) -> str:
        return format_cards(self.sorted())

    def __repr__(self) -> str:
        return f"Hand.parse({str(self)!r})"

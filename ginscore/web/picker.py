"""The card picker: a deck of buttons whose picked cards live in hidden inputs, and what `check` says about them.

Without script each card is a submit button (`name="toggle" value="3h"`) that re-renders the form with the card
toggled; the script toggles in place. Every answer about cards comes from the server
(`sheets.hand_check`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, replace

from ..errors import GinscoreError
from ..game.cards import DECK, Card, Rank, Suit, parse_card
from ..game.rulebook import Rules
from ..sheets.hand_check import HandCheck, checked_hand

RANK_WORDS = {Rank.ACE: "ace", Rank.JACK: "jack", Rank.QUEEN: "queen", Rank.KING: "king"}
SUIT_WORDS = {Suit.CLUBS: "clubs", Suit.DIAMONDS: "diamonds", Suit.HEARTS: "hearts", Suit.SPADES: "spades"}
SHOWN_SUITS = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
"""The picker's rows, top to bottom: black and red alternate, and the symbol and word say the suit anyway."""


def card_face(code: str) -> str:
    """A card as the phone shows it, with its suit's glyph: `3♥`; text that is not a card stays as it is."""
    try:
        return parse_card(code).symbol_text
    except GinscoreError:
        return code


def cards_face(text: str) -> str:
    """Cards as typed or stored (`3h 4h 5h | 2d`) as the phone shows them, `3♥ 4♥ 5♥ | 2♦`; the rest kept."""
    return re.sub(r"[^\s|,]+", lambda found: card_face(found.group()), text)


def card_words(card: Card) -> str:
    """A card in words, as a screen reader says the picker's button: `3 of hearts`, `ace of spades`."""
    return f"{RANK_WORDS.get(card.rank, str(int(card.rank)))} of {SUIT_WORDS[card.suit]}"


DECK_CHOICES = [(str(card), card_words(card)) for suit in SHOWN_SUITS for card in DECK if card.suit == suit]


def split_cards(text: str) -> list[str]:
    """Card codes from a hidden field or a stored spread (`|` groups ignored), each in canonical notation
    when it is a card; anything else is kept as typed, for the solver to refuse in its words."""
    codes: list[str] = []
    for word in text.replace("|", " ").replace(",", " ").split():
        try:
            code = str(parse_card(word))
        except GinscoreError:
            code = word
        if code not in codes:
            codes.append(code)
    return codes


@dataclass(frozen=True)
class Side:
    """One side of the picker: whose cards, the form field they go in, its label, and the cards picked."""

    key: str
    """`knocker` or `opponent`, or the one side of a lone hand."""
    field: str
    """The form field the cards go in (`cards`, `opponent_cards`)."""
    label: str
    codes: tuple[str, ...]

    @property
    def value(self) -> str:
        return " ".join(self.codes)

    @property
    def count(self) -> int:
        return len(self.codes)


@dataclass(frozen=True)
class Picker:
    """The picker's state: whose cards are being picked, and each side's cards."""

    sides: tuple[Side, ...]
    picking: str
    legend: str = "Cards"

    def cards(self, key: str) -> list[str]:
        return next(list(side.codes) for side in self.sides if side.key == key)

    @property
    def suits(self) -> tuple[SuitRow, ...]:
        """The deck's rows, a suit each, every card marked as picked for this side or taken by the other."""
        mine = set(self.cards(self.picking))
        others = {code for side in self.sides if side.key != self.picking for code in side.codes}
        return tuple(
            SuitRow(SUIT_WORDS[suit], suit.symbol, tuple(
                CardButton(str(card), card.rank.label, card_words(card), str(card) in mine, str(card) in others)
                for card in DECK if card.suit == suit))
            for suit in SHOWN_SUITS
        )


@dataclass(frozen=True)
class CardButton:
    """One card's button in the picker."""

    code: str
    rank: str
    """What the button says: `10`, `J`."""
    words: str
    """What a screen reader says: `10 of hearts`."""
    pressed: bool
    """Picked for the side being picked."""
    other: bool
    """Picked for the other side, so not to be pressed here."""


@dataclass(frozen=True)
class SuitRow:
    """One suit's row of the picker."""

    word: str
    symbol: str
    cards: tuple[CardButton, ...]


def picker_from(form: Mapping[str, str], sides: list[tuple[str, str, str]], legend: str) -> Picker:
    """The picker as the form left it, with the pressed button applied: `side` switches whose cards are
    picked, `toggle` adds or removes a card, `clear` empties the side being picked."""
    keys = [key for key, _, _ in sides]
    picking = form.get("side") or form.get("picking") or keys[0]
    if picking not in keys:
        picking = keys[0]
    codes = {key: split_cards(form.get(name, "")) for key, name, _ in sides}
    current = codes[picking]
    toggle = form.get("toggle")
    if toggle:
        code = split_cards(toggle)[0] if split_cards(toggle) else toggle
        taken = any(code in picked for key, picked in codes.items() if key != picking)
        if code in current:
            current.remove(code)
        elif not taken:
            current.append(code)
    if form.get("clear"):
        current.clear()
    return Picker(tuple(Side(key, name, label, tuple(codes[key])) for key, name, label in sides), picking, legend)


UPCARD_FIRST = "Pick the up-card: its value is the knock limit"
"""The verdict on an Oklahoma hand before its up-card is picked."""


def judge(cards: list[str], judged_by: tuple[Rules, Card | None] | None) -> HandCheck | None:
    """What a page says about the picked cards: None when none are picked, what is still missing, else the game's
    answer, the very one the app's typed check gives (`sheets.hand_check`). `judged_by` is None for an Oklahoma
    match whose up-card is not picked yet: the melds, and no verdict."""
    if not cards:
        return None
    if len(cards) < 10:
        missing = 10 - len(cards)
        return HandCheck(waiting=f"{len(cards)} picked: {missing} more card{'s' if missing > 1 else ''} for a hand.")
    rules, upcard = judged_by or (Rules(), None)
    check = checked_hand(" ".join(cards), rules, upcard)
    if judged_by is None and not check.error:
        return replace(check, verdict=UPCARD_FIRST)
    return check

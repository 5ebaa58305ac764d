"""Tests of ginscore.game.cards: the notation people type, and how hands print."""

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ginscore.errors import CardListError, CardNotationError, GinscoreError, IllegalHandError, InputError
from ginscore.game.cards import (
    DECK,
    MAX_HAND_TEXT,
    Card,
    Hand,
    Rank,
    Suit,
    parse_card,
    parse_cards,
    parse_groups,
    quote,
    require_count,
)

RANK_HELP = "(use A 2 3 4 5 6 7 8 9 10 T J Q K)"
SUIT_HELP = "(use c, d, h, s or ♣ ♦ ♥ ♠)"
SHAPE_HELP = "write a rank then a suit, like 'Ah' or '10c'"
NO_CARDS = "no cards given: type a hand like '3h 4h 5h KS KC KD 7c 8c 9c 2d'"


def card(rank: int, suit: Suit) -> Card:
    return Card(Rank(rank), suit)


# --- bad input, one table per function -------------------------------------------------------

BAD_CARDS = [
    ("1h", f"'1h' is not a card: unknown rank '1' {RANK_HELP}"),
    ("11s", f"'11s' is not a card: unknown rank '11' {RANK_HELP}"),
    ("0c", f"'0c' is not a card: unknown rank '0' {RANK_HELP}"),
    ("Ahh", f"'Ahh' is not a card: unknown rank 'Ah' {RANK_HELP}"),
    ("4x", f"'4x' is not a card: unknown suit 'x' {SUIT_HELP}"),
    ("4X", f"'4X' is not a card: unknown suit 'X' {SUIT_HELP}"),
    ("10", "'10' is not a card: it has no suit (add c, d, h or s, like '10h')"),
    ("q", "'q' is not a card: it has no suit (add c, d, h or s, like 'Qh')"),
    ("Kj", f"'Kj' is not a card: unknown suit 'j' {SUIT_HELP}"),
    ("h", f"'h' is not a card: {SHAPE_HELP}"),
    ("♥", f"'♥' is not a card: {SHAPE_HELP}"),
    ("A\ufe0f", f"{'A' + chr(0xFE0F)!r} is not a card: it has no suit (add c, d, h or s, like 'Ah')"),
    ("", f"'' is not a card: {SHAPE_HELP}"),
    ("   ", f"'   ' is not a card: {SHAPE_HELP}"),
]


@pytest.mark.parametrize("text, message", BAD_CARDS, ids=[t or "<empty>" for t, _ in BAD_CARDS])
def test_parse_card_refuses(text, message):
    with pytest.raises(CardNotationError) as caught:
        parse_card(text)
    assert str(caught.value) == message


BAD_HANDS = [
    ("3h 4h 1h", CardNotationError, f"'1h' is not a card: unknown rank '1' {RANK_HELP}"),
    ("3h,4x", CardNotationError, f"'4x' is not a card: unknown suit 'x' {SUIT_HELP}"),
    ("Qs 11s", CardNotationError, f"'11s' is not a card: unknown rank '11' {RANK_HELP}"),
    ("3h h", CardNotationError, f"'h' is not a card: {SHAPE_HELP}"),
    ("", CardNotationError, NO_CARDS),
    (" , ,  ", CardNotationError, NO_CARDS),
    ("Ah 3c Ah", CardListError, "'Ah' is given twice: each card can be in a hand only once"),
    ("10h 2c Th", CardListError, "'Th' is given twice: each card can be in a hand only once"),
    ("Q♥ 2c qh", CardListError, "'qh' is given twice: each card can be in a hand only once"),
    ("A♠ 2c A♤", CardListError, "'A♤' is given twice: each card can be in a hand only once"),
]


@pytest.mark.parametrize("text, error, message", BAD_HANDS, ids=[repr(t) for t, _, _ in BAD_HANDS])
def test_parse_cards_refuses(text, error, message):
    with pytest.raises(error) as caught:
        parse_cards(text)
    assert str(caught.value) == message


def test_parse_cards_refuses_no_arguments():
    with pytest.raises(CardNotationError) as caught:
        parse_cards([])
    assert str(caught.value) == NO_CARDS


def test_error_kinds():
    # Unreadable or wrongly sized input exits with status 2; cards that cannot be played, 1.
    for error in (CardNotationError, CardListError):
        assert issubclass(error, InputError) and issubclass(error, ValueError)
        assert error.exit_code == 2
    assert issubclass(IllegalHandError, GinscoreError) and not issubclass(IllegalHandError, ValueError)
    assert IllegalHandError.exit_code == 1
    assert not issubclass(CardListError, CardNotationError)


# --- good input ------------------------------------------------------------------------------

GOOD_CARDS = [
    ("Ah", card(1, Suit.HEARTS)),
    ("ah", card(1, Suit.HEARTS)),
    ("AH", card(1, Suit.HEARTS)),
    ("aH", card(1, Suit.HEARTS)),
    ("10c", card(10, Suit.CLUBS)),
    ("10C", card(10, Suit.CLUBS)),
    ("Tc", card(10, Suit.CLUBS)),
    ("tS", card(10, Suit.SPADES)),
    ("jd", card(11, Suit.DIAMONDS)),
    ("Q♥", card(12, Suit.HEARTS)),
    ("k♣", card(13, Suit.CLUBS)),
    ("2♦", card(2, Suit.DIAMONDS)),
    ("9♠", card(9, Suit.SPADES)),
    ("3♧", card(3, Suit.CLUBS)),
    ("4♢", card(4, Suit.DIAMONDS)),
    ("5♡", card(5, Suit.HEARTS)),
    ("6♤", card(6, Suit.SPADES)),
    ("10♥\ufe0f", card(10, Suit.HEARTS)),
    ("7♠\ufe0e", card(7, Suit.SPADES)),
    ("T\ufe0f♦\ufe0f", card(10, Suit.DIAMONDS)),
    (" 8h ", card(8, Suit.HEARTS)),
]


@pytest.mark.parametrize("text, expected", GOOD_CARDS, ids=[t for t, _ in GOOD_CARDS])
def test_parse_card_accepts(text, expected):
    assert parse_card(text) == expected


def test_parse_cards_separators_and_arguments():
    expected = (
        card(3, Suit.HEARTS),
        card(4, Suit.HEARTS),
        card(5, Suit.HEARTS),
        card(13, Suit.SPADES),
        card(10, Suit.DIAMONDS),
    )
    assert parse_cards("3h 4h 5h Ks Td") == expected
    assert parse_cards("3h,4h,5h,Ks,Td") == expected
    assert parse_cards("3h, 4h ,5h,, Ks\tTd\n") == expected
    assert parse_cards(["3h", "4h", "5h", "Ks", "Td"]) == expected
    assert parse_cards(["3h 4h", "5h,Ks", "Td"]) == expected
    assert parse_cards(("3♥", "4♡", "5h", "K♠\ufe0f", "10♦")) == expected


def test_parse_cards_keeps_typed_order():
    assert [str(c) for c in parse_cards("Kd 2c 7h As")] == ["Kd", "2c", "7h", "As"]


# --- groups and counts -----------------------------------------------------------------------


def test_parse_groups():
    groups = parse_groups("3h 4h 5h | Ks Kc Kd | 2d")
    assert [[str(c) for c in g] for g in groups] == [["3h", "4h", "5h"], ["Ks", "Kc", "Kd"], ["2d"]]


def test_parse_groups_from_arguments_and_without_spaces():
    expected = parse_groups("3h 4h 5h | Ks Kc Kd | 2d")
    assert parse_groups(["3h", "4h", "5h", "|", "Ks", "Kc", "Kd", "|", "2d"]) == expected
    assert parse_groups("3h,4h,5h|Ks,Kc,Kd|2d") == expected
    assert parse_groups(["3h 4h 5h|Ks", "Kc Kd |2d"]) == expected


def test_parse_groups_drops_empty_groups():
    assert parse_groups("| 3h 4h 5h || 2d |") == parse_groups("3h 4h 5h | 2d")
    assert len(parse_groups("| 3h 4h 5h || 2d |")) == 2


BAD_GROUPS = [
    ("3h 4h 5h | 3h", CardListError, "'3h' is given twice: each card can be in a hand only once"),
    ("3h 4h 5h | 2x", CardNotationError, f"'2x' is not a card: unknown suit 'x' {SUIT_HELP}"),
    ("|", CardNotationError, NO_CARDS),
    ("", CardNotationError, NO_CARDS),
]


@pytest.mark.parametrize("text, error, message", BAD_GROUPS, ids=[repr(t) for t, _, _ in BAD_GROUPS])
def test_parse_groups_refuses(text, error, message):
    with pytest.raises(error) as caught:
        parse_groups(text)
    assert str(caught.value) == message


def test_require_count_accepts_allowed_sizes():
    ten = parse_cards("3h 4h 5h Ks Kc Kd 7c 8c 9c 2d")
    for cards, allowed in ((ten, (10, 11)), (ten + parse_cards("Qh"), (10, 11)), (ten, (10,))):
        assert require_count(cards, allowed, "the hand") is None  # no refusal
    with pytest.raises(CardListError):  # the same call refuses a size not allowed, so the ones above can fail
        require_count(ten, (11,), "the hand")


@pytest.mark.parametrize(
    "text, allowed, message",
    [
        (
            "3h 4h 5h",
            (10, 11),
            "check needs 10 or 11 cards, but 3 were given (3h 4h 5h)",
        ),
        (
            "3h 4h 5h Ks Kc Kd 7c 8c 9c 2d Qh",
            (10,),
            "check needs 10 cards, but 11 were given (3h 4h 5h Ks Kc Kd 7c 8c 9c 2d Qh)",
        ),
        (
            "T♥ 3h 4h 5h Ks Kc Kd 7c 8c 9c 2d Qh",
            (10, 11),
            "check needs 10 or 11 cards, but 12 were given (10h 3h 4h 5h Ks Kc Kd 7c 8c 9c 2d Qh)",
        ),
    ],
    ids=["too-few", "too-many-for-10", "twelve"],
)
def test_require_count_refuses(text, allowed, message):
    with pytest.raises(CardListError) as caught:
        require_count(parse_cards(text), allowed, "check")
    assert str(caught.value) == message


# --- printing and round trips ----------------------------------------------------------------


def test_str_is_canonical():
    assert str(parse_card("tS")) == "10s"
    assert str(parse_card("a♡\ufe0f")) == "Ah"
    assert parse_card("Q♥").symbol_text == "Q♥"
    assert str(Hand.parse("Ks 3h, kc T♦ 3c")) == "3c 3h 10d Kc Ks"


def test_deck():
    assert len(DECK) == 52 == len(set(DECK))
    assert {str(c) for c in DECK} == {r + s for r in ["A", *map(str, range(2, 11)), "J", "Q", "K"] for s in "cdhs"}
    assert [c.value for c in DECK if c.suit == Suit.SPADES] == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10]


@given(st.sampled_from(DECK))
def test_str_round_trip(c):
    assert parse_card(str(c)) == c
    assert parse_card(c.symbol_text) == c
    assert eval(repr(c), {"parse_card": parse_card}) == c


OUTLINED = {Suit.CLUBS: "♧", Suit.DIAMONDS: "♢", Suit.HEARTS: "♡", Suit.SPADES: "♤"}


@st.composite
def spellings(draw, c: Card) -> str:
    """Any of the ways a person may type the card."""
    rank = c.rank.label
    if c.rank == Rank.TEN:
        rank = draw(st.sampled_from(["10", "T", "t"]))
    elif rank.isalpha() and draw(st.booleans()):
        rank = rank.lower()
    suit = draw(st.sampled_from([c.suit.letter, c.suit.letter.upper(), c.suit.symbol, OUTLINED[c.suit]]))
    selector = draw(st.sampled_from(["", "\ufe0e", "\ufe0f"]))
    return rank + suit + selector


@given(st.data())
def test_every_spelling_parses(data):
    c = data.draw(st.sampled_from(DECK))
    assert parse_card(data.draw(spellings(c))) == c


@given(st.lists(st.sampled_from(DECK), min_size=1, max_size=11, unique=True), st.data())
def test_hand_round_trip(cards, data):
    typed = [data.draw(spellings(c)) for c in cards]
    separators = [data.draw(st.sampled_from([" ", ",", ", ", " , ", "\t", "  "])) for _ in typed]
    text = "".join(t + s for t, s in zip(typed, separators))
    assert parse_cards(text) == tuple(cards)
    assert parse_cards(typed) == tuple(cards)
    hand = Hand.of(cards)
    assert len(hand) == len(cards)
    assert Hand.parse(str(hand)) == hand
    assert str(hand) == " ".join(str(c) for c in sorted(cards))
    shuffled = list(cards)
    random.Random(len(text)).shuffle(shuffled)
    assert str(Hand.of(shuffled)) == str(hand)
    assert set(hand) == set(cards)


# --- long input, the byte-order mark, near misses (issues 8 and 9) -----------------------------------


def test_quote_cuts_a_long_token_at_40_characters():
    assert quote("4x") == "'4x'"
    assert quote("a" * 40) == "'" + "a" * 40 + "'"
    assert quote("a" * 10_000_000) == "'" + "a" * 40 + "…'"


def test_text_far_longer_than_a_hand_is_refused_before_it_is_split():
    hand = "3h 4h 5h Ks Kc Kd 7c 8c 9c 2d"
    assert len(parse_cards(" " * 900 + hand)) == 10  # spacing around a hand is not counted
    with pytest.raises(CardListError) as caught:
        parse_cards(hand + " " + "x" * MAX_HAND_TEXT)
    assert str(caught.value) == f"{len(hand) + 1 + MAX_HAND_TEXT} characters is far longer than any hand (at most 1000): type 10 or 11 cards"
    with pytest.raises(CardListError):
        parse_cards([hand] * 40)


def test_a_byte_order_mark_separates_like_a_space():
    assert parse_cards("\ufeff3h 4h\ufeff5h") == parse_cards("3h 4h 5h")


@pytest.mark.parametrize(
    "text, hint",
    [
        ("ten", "write ten as '10', like '10h'"),
        ("TEN♠", "write ten as '10', like '10♠'"),
        ("aces", "write ace as 'A', like 'As'"),
        ("1O", "that is the letter O, not a zero; write '10' and a suit, like '10h'"),
        ("1od", "that is the letter O, not a zero; did you mean '10d'?"),
        ("K\u0308s", "it has a combining accent (U+0308 combining diaeresis); type the card without it"),
    ],
)
def test_near_misses_name_what_was_meant(text, hint):
    with pytest.raises(CardNotationError) as caught:
        parse_card(text)
    assert str(caught.value) == f"{quote(text)} is not a card: {hint}"

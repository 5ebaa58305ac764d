"""Tests of ginscore.game.check: the fast path gives what the general path (`solve`, `check_dict`, rich) gives."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_melds import few_suits, meld_rich, uniform

from ginscore.errors import CardListError, CardNotationError
from ginscore.game.cards import _QUICK_TOKENS, Card, Rank, Suit, parse_card, parse_cards, quick_parse
from ginscore.game.check import answer_of, check_hand, json_line, plain_report
from ginscore.game.melds import check_dict, solve

PROPERTY = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
KNOCK = "3h 4h 5h Ks Kc Kd 7c 8c 9c 2d"


@st.composite
def typed(draw, cards: list[Card]) -> str:
    """The cards as a person might type them: any case, 10 or T, letters or symbols, spaces or commas."""
    words = []
    for card in cards:
        rank = draw(st.sampled_from(["10", "T", "t"])) if card.rank == Rank.TEN else card.rank.label
        suit = draw(st.sampled_from([card.suit.letter, card.suit.letter.upper(), card.suit.symbol, card.suit.symbol + "\ufe0f"]))
        words.append(draw(st.sampled_from([rank, rank.lower()])) + suit)
    separators = st.sampled_from([" ", ",", ", ", "  ", "\t"])
    return "".join(word + draw(separators) for word in words).strip(" \t,") + draw(st.sampled_from(["", "\n"]))


def hands() -> st.SearchStrategy[list[Card]]:
    return st.sampled_from([10, 11]).flatmap(lambda n: st.one_of(uniform(n), meld_rich(n), few_suits(n)))


def rich_piped_report(text: str, limit: int) -> str:
    """What the rich report prints for a hand when standard output is not a terminal."""
    from ginscore.render.console import console
    from ginscore.render.hand import check_report

    stdout, sys.stdout = sys.stdout, io.StringIO()
    try:
        check_report(answer_of(solve(parse_cards(text))), limit, console())
        return sys.stdout.getvalue()
    finally:
        sys.stdout = stdout


@PROPERTY
@given(data=st.data())
def test_fast_path_gives_the_general_answer_byte_for_byte(data):
    text = data.draw(hands().flatmap(typed))
    limit = data.draw(st.integers(0, 10))
    answer = check_hand(text)
    general = solve(parse_cards(text))
    assert answer == answer_of(general)
    assert json_line(answer, limit) == json.dumps(check_dict(general, limit), ensure_ascii=False) + "\n"
    assert plain_report(answer, limit) == rich_piped_report(text, limit)


@PROPERTY
@given(data=st.data())
def test_quick_parse_reads_what_parse_cards_reads(data):
    cards = data.draw(st.integers(1, 12).flatmap(uniform))
    text = data.draw(typed(cards))
    quick = quick_parse(text)
    if "\ufe0f" in text:
        assert quick is None  # left to parse_cards
        return
    assert quick is not None
    mask, bits = quick
    assert [1 << bit for bit in bits] == [card.bit for card in parse_cards(text)]
    assert mask == sum(card.bit for card in cards)


def test_every_quick_token_is_the_card_parse_card_reads():
    tokens = _QUICK_TOKENS
    assert len(tokens) == 19 * 16  # A 2-10 J Q K T, with a j q k t; c d h s, C D H S and eight symbols
    for token, bit in tokens.items():
        assert parse_card(token).bit == 1 << bit, token
    assert {1 << bit for bit in tokens.values()} == {Card(rank, suit).bit for rank in Rank for suit in Suit}


@pytest.mark.parametrize(
    "text",
    ["", "  ,, ", "3h 3h", "3h 3H", "10h Th", "3h 4x", "3h 1h", "K", "3h 4h\ufe0e", "3h;4h", "\ufeff3h 4h", "3h" + " " * 1000 + "4h"],
)
def test_quick_parse_leaves_anything_unusual_to_parse_cards(text):
    assert quick_parse(text) is None


@pytest.mark.parametrize(
    "text, error, message",
    [
        (
            KNOCK.replace(" ", " " * 120),
            CardListError,
            "1100 characters is far longer than any hand (at most 1000): type 10 or 11 cards",
        ),
        ("3h 4h 5h Ks Kc Kd 7c 8c 9c", CardListError, "a hand to check needs 10 or 11 cards, but 9 were given (3h 4h 5h Ks Kc Kd 7c 8c 9c)"),
        ("3h 4h 5h Ks Kc Kd 7c 8c 9c 3H", CardListError, "'3H' is given twice: each card can be in a hand only once"),
        ("3h 4x 5h Ks Kc Kd 7c 8c 9c 2d", CardNotationError, "'4x' is not a card: unknown suit 'x' (use c, d, h, s or ♣ ♦ ♥ ♠)"),
    ],
)
def test_check_hand_raises_what_the_general_path_raises(text, error, message):
    with pytest.raises(error) as raised:
        check_hand(text)
    assert str(raised.value) == message


def test_check_hand_reads_symbols_with_variation_selectors_by_the_general_path():
    selected = "3♥\ufe0f 4♥\ufe0f 5♥\ufe0f K♠\ufe0f K♣\ufe0f K♦\ufe0f 7♣\ufe0f 8♣\ufe0f 9♣\ufe0f 2♦\ufe0f"
    assert quick_parse(selected) is None
    assert check_hand(selected) == check_hand(KNOCK)


def test_plain_report_of_an_eleven_card_hand():
    answer = check_hand("3h 4h 5h Ks Kc Kd 7c 8c 9c Qd Qh")
    assert plain_report(answer, 10) == (
        "hand      3h 4h 5h Ks Kc Kd 7c 8c 9c Qd Qh\n"
        "discard   Qd or Qh\n"
        "melds     3h 4h 5h | 7c 8c 9c | Kc Kd Ks | (Qh)\n"
        "deadwood  10\n"
        "verdict   can knock (10 <= 10)\n"
    )
    assert plain_report(answer, 0).endswith("verdict   cannot knock: gin only\n")
    assert plain_report(answer, 9).endswith("verdict   cannot knock (10 > 9)\n")


# --- a piped check never imports rich ------------------------------------------------------------

PROBE = (
    "import sys\n"
    "from ginscore.cli import app\n"
    "try:\n"
    "    app(sys.argv[1:])\n"
    "except SystemExit:\n"
    "    pass\n"
    "sys.stderr.write(str('rich' in sys.modules))\n"
)


def probe(*args: str, env: dict[str, str] | None = None, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    base = {key: value for key, value in os.environ.items() if key not in ("FORCE_COLOR", "TTY_COMPATIBLE")}
    return subprocess.run(
        [sys.executable, "-c", PROBE, *args], input=stdin, capture_output=True, text=True, env=base | (env or {}), timeout=60
    )


@pytest.mark.parametrize("args, stdin", [(KNOCK.split(), None), (["-"], KNOCK + "\n"), (["--json", *KNOCK.split()], None)])
def test_piped_check_does_not_import_rich(args, stdin):
    done = probe("check", *args, stdin=stdin)
    assert done.stderr == "False"
    assert done.stdout.startswith('{"cards": ["3h"' if "--json" in args else "hand      3h 4h 5h Ks Kc Kd 7c 8c 9c 2d\n")


def test_the_probe_sees_rich_when_the_environment_asks_for_a_terminal():
    done = probe("check", *KNOCK.split(), env={"FORCE_COLOR": "1"})
    assert done.stderr == "True"
    assert "\x1b[" in done.stdout

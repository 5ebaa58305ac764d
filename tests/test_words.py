"""The sheet's shared words that the score pad adds: the target, who is ahead, the up-card."""

from __future__ import annotations

from dataclasses import replace

import pytest

from ginscore.game.rulebook import preset
from ginscore.sheets.words import lead_words, target_words, upcard_words


@pytest.mark.parametrize(("totals", "finished", "words"), [
    ({"Ann": 38, "Bob": 40}, False, "Bob is ahead by 2"),
    ({"Ann": 41, "Bob": 40}, False, "Ann is ahead by 1"),
    ({"Ann": 0, "Bob": 0}, False, "level"),
    ({"Ann": 296, "Bob": 103}, True, "Ann won by 193"),
    ({"Ann": 130, "Bob": 130}, True, "level"),
])
def test_who_is_ahead(totals, finished, words):
    assert lead_words(totals, finished) == words


def test_the_target_names_each_game_on_a_hollywood_sheet():
    assert target_words(preset("standard")) == "first to 100"
    assert target_words(replace(preset("oklahoma"), target=250), hollywood=True) == "first to 250 in each game"


@pytest.mark.parametrize(("upcard", "words"), [("7h", "up-card 7h"), ("10s", "up-card 10s"), (None, ""), ("", "")])
def test_the_up_card(upcard, words):
    assert upcard_words(upcard) == words


def test_a_phone_writes_the_up_card_with_its_suits_glyph():
    from ginscore.web.picker import card_face

    assert upcard_words("7h", card_face) == "up-card 7♥"
    assert upcard_words("10s", card_face) == "up-card 10♠"
    assert upcard_words(None, card_face) == ""


@pytest.mark.parametrize(("deadwood", "big_gin", "limit", "words"), [
    (2, False, 10, "You can knock: 2 deadwood, limit 10"),
    (10, False, 10, "You can knock: 10 deadwood, limit 10"),
    (11, False, 10, "You cannot knock: 11 deadwood, limit 10"),
    (0, False, 10, "Gin: every card melds"),
    (0, True, 10, "Big gin: all 11 cards meld"),
    (3, False, 0, "You cannot knock: gin only, and 3 deadwood is left"),
])
def test_the_knock_verdict_in_a_players_words(deadwood: int, big_gin: bool, limit: int, words: str):
    from ginscore.sheets.words import knock_sentence

    assert knock_sentence(deadwood, big_gin, limit) == words

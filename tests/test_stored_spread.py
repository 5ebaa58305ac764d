"""A hand given by cards alone stores the spread it was scored with; loading checks that spread
instead of searching again, and gives the very sheet the search gives."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from strategies import SETS, runs

from ginscore.files import reading, storage
from ginscore.game.cards import DECK, Hand, format_cards
from ginscore.game.melds import min_after_discard
from ginscore.game.rulebook import PRESETS
from ginscore.match.entry import HandEntry
from ginscore.match.records import Match
from ginscore.match.scored import make_record
from ginscore.match.tally import add_hand, sheet_dict, tally, with_spreads

LONG = replace(PRESETS["standard"], target=100000)
BIG_GIN = replace(PRESETS["tournament"], target=100000)


@st.composite
def knocks(draw: st.DrawFn) -> dict:
    """`make_record` options of a legal knock by cards: 11 cards around two or three melds, the opponent's 10."""
    cards: set = set()
    for meld in draw(st.lists(st.one_of(runs(5), SETS), min_size=2, max_size=3)):
        if not meld & cards and len(cards | meld) <= 10:
            cards |= meld
    rest = draw(st.permutations([card for card in DECK if card not in cards]))
    knocker = sorted(cards) + list(rest[: 11 - len(cards)])
    assume(min_after_discard(Hand.of(knocker).mask)[0] <= 10)
    opponent = rest[11 - len(cards) : 21 - len(cards)]
    options = {"knocker": draw(st.sampled_from(["Ann", "Bob"])), "cards": format_cards(knocker)}
    if draw(st.booleans()):
        options["opponent_cards"] = format_cards(opponent)
    else:
        options["opponent_deadwood"] = draw(st.integers(0, 60))
    return options


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(hands=st.lists(knocks(), min_size=1, max_size=4), big_gin=st.booleans())
def test_a_stored_spread_scores_as_the_search_did(hands, big_gin):
    match = Match(("Ann", "Bob"), BIG_GIN if big_gin else LONG, "Ann")
    for options in hands:
        match, _ = add_hand(match, make_record(match, HandEntry(**options)))
    searched = tally(match)
    stored = with_spreads(match, searched)
    assert all(record.spread for record in stored.hands)
    checked = tally(stored)
    assert sheet_dict(checked) == sheet_dict(searched)
    for old, new in zip(searched.lines, checked.lines):
        assert (new.scored.result, new.scored.spread, new.scored.discard) == (old.scored.result, old.scored.spread, old.scored.discard)
        assert new.scored.layoffs == old.scored.layoffs == (old.scored.response.layoffs if old.scored.response else None)
    loaded, sheet, problems = reading.loads(storage.dumps(match))
    assert problems == [] and loaded == stored and sheet_dict(sheet) == sheet_dict(searched)


def recorded(**options) -> str:
    match = Match(("Ann", "Bob"), LONG, "Ann")
    match, _ = add_hand(match, make_record(match, HandEntry(**options)))
    return storage.dumps(match)


KNOCK = {"knocker": "Ann", "cards": "3h 4h 5h Ks Kc Kd 7c 8c 9c 2d 9h", "opponent_cards": "Qh Qd 5s 6s 7s Jc 4d 8h 2c Ac"}


def test_the_spread_is_stored_in_the_grouped_notation_with_the_discard_left_out():
    assert 'spread = "3h 4h 5h | 7c 8c 9c | Kc Kd Ks | 2d"\n' in recorded(**KNOCK)


@pytest.mark.parametrize(
    ("old", "new", "problem"),
    [
        ('knocker_cards = "3h 4h 5h Ks Kc Kd 7c 8c 9c 2d 9h"', 'knocker_cards = "3h 4h 5h Ks Kc Kd 7c 8c 9c 2s 9h"',
         "hands[1].spread: the spread must hold exactly the knocker's cards; not in the hand: 2d; left out: 2s 9h; "
         "delete this spread line and ginscore finds the best spread again"),
        ('spread = "3h 4h 5h | 7c 8c 9c | Kc Kd Ks | 2d"', 'spread = "3h 4h 5h 7c | 8c 9c | Kc Kd Ks | 2d"',
         "hands[1].spread: '3h 4h 5h 7c' is not a meld: a run is 3+ cards of one suit in sequence, a set 3 or 4 of one rank; "
         "delete this spread line and ginscore finds the best spread again"),
        ('spread = "3h 4h 5h | 7c 8c 9c | Kc Kd Ks | 2d"', 'spread = "3h 4h 5h | 7c 8c | 9c | Kc Kd Ks | 2d"',
         "hands[1].spread: illegal knock: 26 deadwood is over the knock limit of 10, so the hand goes on with the "
         "knocker's cards face up and nothing is scored; delete this spread line and ginscore finds the best spread again"),
        ('knocker_cards = "3h 4h 5h Ks Kc Kd 7c 8c 9c 2d 9h"', 'knocker_cards = "3h 4h 5h | Ks Kc Kd | 7c 8c 9c | 2d 9h"',
         "hands[1].spread: a stored spread goes with the knocker's cards given without groups"),
    ],
    ids=["cards-changed", "not-a-meld", "over-the-limit", "with-groups"],
)
def test_a_stored_spread_that_no_longer_fits_is_reported_at_its_place(old, new, problem):
    text = recorded(**KNOCK)
    assert old in text
    _, _, problems = reading.loads(text.replace(old, new))
    assert problems == [problem]


def test_deleting_the_spread_line_scores_the_hand_by_the_search_again():
    text = recorded(**KNOCK)
    _, sheet, problems = reading.loads(text.replace('spread = "3h 4h 5h | 7c 8c 9c | Kc Kd Ks | 2d"\n', ""))
    assert problems == [] and sheet.lines[0].points == 43

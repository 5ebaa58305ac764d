"""Tests of ginscore.game.scoring: counts to points, the worked examples, refusals, and the knocker's best spread."""

from __future__ import annotations

import functools

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from strategies import SETS, runs

from ginscore.errors import CardListError, IllegalHandError, InputError
from ginscore.game.cards import DECK, Card, Hand, parse_card, parse_cards, parse_groups
from ginscore.game.layoffs import best_layoff
from ginscore.game.melds import arrangements, min_after_discard, min_deadwood
from ginscore.game.rulebook import PRESETS, rules_from
from ginscore.game.scoring import score_cards, score_counts

try:
    from . import oracle
    from .test_layoffs import naive_layoff_count
except ImportError:  # tests/ is not a package: pytest puts it on sys.path
    import oracle
    from test_layoffs import naive_layoff_count

STANDARD, TOURNAMENT, OKLAHOMA = PRESETS["standard"], PRESETS["tournament"], PRESETS["oklahoma"]
PROPERTY = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


def cards(text: str) -> tuple[Card, ...]:
    return parse_cards(text)


# --- score_counts -------------------------------------------------------------------------

NO_TIE = rules_from("standard", ["undercut_on_tie=false"])

COUNTS = [
    # (id, rules, knocker, opponent, limit, multiplier, big_gin) -> (result, winner, points, net)
    ("knock", STANDARD, 2, 24, 10, 1, False, ("knock", "knocker", 22, 22)),
    ("knock by one", STANDARD, 9, 10, 10, 1, False, ("knock", "knocker", 1, 1)),
    ("undercut", STANDARD, 8, 1, 10, 1, False, ("undercut", "opponent", 17, -17)),
    ("undercut to zero", STANDARD, 10, 0, 10, 1, False, ("undercut", "opponent", 20, -20)),
    ("tournament undercut", TOURNAMENT, 8, 1, 10, 1, False, ("undercut", "opponent", 32, -32)),
    ("tie is an undercut", STANDARD, 6, 6, 10, 1, False, ("undercut", "opponent", 10, -10)),
    ("tie without undercut_on_tie", NO_TIE, 6, 6, 10, 1, False, ("tie", None, 0, 0)),
    ("no tie is still an undercut", NO_TIE, 7, 6, 10, 1, False, ("undercut", "opponent", 11, -11)),
    ("gin", STANDARD, 0, 23, 10, 1, False, ("gin", "knocker", 43, 43)),
    ("gin against nothing", STANDARD, 0, 0, 10, 1, False, ("gin", "knocker", 20, 20)),
    ("gin without undercut_on_tie", NO_TIE, 0, 0, 10, 1, False, ("gin", "knocker", 20, 20)),
    ("tournament gin", TOURNAMENT, 0, 23, 10, 1, False, ("gin", "knocker", 48, 48)),
    ("big gin", TOURNAMENT, 0, 23, 10, 1, True, ("big_gin", "knocker", 54, 54)),
    ("straight gin", rules_from("standard", ["knock_limit=0"]), 0, 5, 0, 1, False, ("gin", "knocker", 25, 25)),
    ("oklahoma knock", OKLAHOMA, 3, 20, 7, 1, False, ("knock", "knocker", 17, 17)),
    ("oklahoma knock, spades", OKLAHOMA, 3, 20, 7, 2, False, ("knock", "knocker", 34, 34)),
    ("oklahoma undercut, spades", OKLAHOMA, 5, 2, 7, 2, False, ("undercut", "opponent", 56, -56)),
    ("oklahoma gin, spades", OKLAHOMA, 0, 30, 0, 2, False, ("gin", "knocker", 110, 110)),
]


@pytest.mark.parametrize("rules, knocker, opponent, limit, multiplier, big_gin, expected", [c[1:] for c in COUNTS], ids=[c[0] for c in COUNTS])
def test_score_counts(rules, knocker, opponent, limit, multiplier, big_gin, expected):
    result = score_counts(knocker, opponent, rules, limit, multiplier, big_gin)
    assert (result.result, result.winner, result.points, result.net) == expected
    assert (result.knocker_deadwood, result.opponent_deadwood) == (knocker, opponent)
    assert (result.knock_limit, result.multiplier) == (limit, multiplier)


@pytest.mark.parametrize("rules", [STANDARD, OKLAHOMA, rules_from("tournament", ["big_gin_bonus=off"])])
def test_big_gin_only_when_big_gin_bonus_is_on(rules):
    with pytest.raises(IllegalHandError) as caught:
        score_counts(0, 23, rules, 10, big_gin=True)
    assert "big_gin_bonus" in str(caught.value)


def test_big_gin_needs_no_deadwood():
    with pytest.raises(IllegalHandError):
        score_counts(3, 23, TOURNAMENT, 10, big_gin=True)


@pytest.mark.parametrize("knocker, limit", [(11, 10), (15, 10), (1, 0), (8, 7), (3, 2)])
def test_illegal_knock_over_the_limit(knocker, limit):
    with pytest.raises(IllegalHandError) as caught:
        score_counts(knocker, 30, STANDARD, limit)
    message = str(caught.value)
    assert caught.value.exit_code == 1
    assert f"{knocker} deadwood" in message
    assert (f"limit of {limit}" if limit else "only gin may go down") in message  # a limit of 0 is gin only
    assert "face up" in message


def test_negative_counts_are_input_errors():
    with pytest.raises(InputError):
        score_counts(-1, 5, STANDARD, 10)
    with pytest.raises(InputError):
        score_counts(1, -5, STANDARD, 10)


# --- the worked examples of 000_201ab7a16466a253.txt -------------------------------------------

EXAMPLES = [
    # knocker, opponent, discard, knocker's spread, result, winner, points, K, O, lay-offs, opponent's spread
    (
        "7s 8s 9s 9c 10c Jc 5h 5d 5c 2d 9h",
        "Kh Kd Ks 6s Qc 8d 4c 2h Ac 9d",
        "9h", "5c 5d 5h | 7s 8s 9s | 9c 10c Jc | 2d",
        "knock", "knocker", 22, 2, 24, "6s Qc", "Kd Kh Ks | Ac 2h 4c 8d 9d",
    ),
    (
        "4h 4d 4c 6h 6d 6c 10s Js Qs 8h Kd",
        "9s 9d 9c Jh Qh Kh 4s 6s Ks Ad",
        "Kd", "4c 4d 4h | 6c 6d 6h | 10s Js Qs | 8h",
        "undercut", "opponent", 17, 8, 1, "4s 6s Ks", "9c 9d 9s | Jh Qh Kh | Ad",
    ),
    (
        "5h 6h 7h Ks Kc Kd 2c 3c 4c 5c 2d",
        "9s 9d 9c 6d 7d 8d 8h Qs 4s As",
        "2d", "2c 3c 4c 5c | 5h 6h 7h | Kc Kd Ks",
        "gin", "knocker", 43, 0, 23, "", "6d 7d 8d | 9c 9d 9s | As 4s 8h Qs",
    ),
]


@pytest.mark.parametrize("example", EXAMPLES, ids=["knock 22", "undercut 17", "gin 43"])
def test_worked_example(example):
    knocker, opponent, discard, spread, result, winner, points, k, o, laid, response = example
    scored = score_cards(cards(knocker), cards(opponent), STANDARD)
    assert (scored.result.result, scored.result.winner, scored.result.points) == (result, winner, points)
    assert (scored.result.knocker_deadwood, scored.result.opponent_deadwood) == (k, o)
    assert str(scored.response.layoffs) == laid
    assert scored.discard == parse_card(discard)
    assert str(scored.spread) == spread
    assert str(scored.response.spread) == response
    assert scored.response.deadwood == o
    assert scored.lowest is None  # the best spread is a lowest-count one here


@pytest.mark.parametrize("example", EXAMPLES, ids=["knock 22", "undercut 17", "gin 43"])
def test_worked_example_as_given_spread_and_discard(example):
    knocker, opponent, discard, spread, result, winner, points, k, o, laid, response = example
    scored = score_cards(cards(knocker), cards(opponent), STANDARD, discard=parse_card(discard), groups=parse_groups(spread))
    assert (scored.result.result, scored.result.points, scored.result.opponent_deadwood) == (result, points, o)
    assert str(scored.response.layoffs) == laid
    assert scored.lowest is None


@pytest.mark.parametrize("example", EXAMPLES, ids=["knock 22", "undercut 17", "gin 43"])
def test_worked_example_with_ten_cards_after_the_discard(example):
    knocker, opponent, discard, spread, result, winner, points, k, o, laid, response = example
    kept = tuple(c for c in cards(knocker) if c != parse_card(discard))
    scored = score_cards(kept, cards(opponent), STANDARD)
    assert (scored.result.result, scored.result.points, scored.discard) == (result, points, None)


def test_gin_scored_with_the_002_variant():
    rules = rules_from("standard", ["gin_bonus=25", "undercut_bonus=20"])
    knocker, opponent = cards(EXAMPLES[2][0]), cards(EXAMPLES[2][1])
    assert score_cards(knocker, opponent, rules).result.points == 48
    knocker, opponent = cards(EXAMPLES[1][0]), cards(EXAMPLES[1][1])
    assert score_cards(knocker, opponent, rules).result.points == 27


# --- Oklahoma and big gin from cards -------------------------------------------------------

KNOCK_22 = (cards(EXAMPLES[0][0]), cards(EXAMPLES[0][1]))


@pytest.mark.parametrize("upcard, points, multiplier", [("2h", 22, 1), ("2s", 44, 2), ("5c", 22, 1), ("Ks", 44, 2)])
def test_oklahoma_from_cards(upcard, points, multiplier):
    scored = score_cards(*KNOCK_22, OKLAHOMA, upcard=parse_card(upcard))
    assert (scored.result.result, scored.result.points, scored.result.multiplier) == ("knock", points, multiplier)
    assert scored.result.knock_limit == parse_card(upcard).value


@pytest.mark.parametrize("upcard, limit", [("Ah", 0), ("As", 0)])
def test_oklahoma_ace_up_card_needs_gin(upcard, limit):
    with pytest.raises(IllegalHandError) as caught:
        score_cards(*KNOCK_22, OKLAHOMA, upcard=parse_card(upcard))
    assert limit == 0 and "2 deadwood where only gin may go down" in str(caught.value)  # said as what it means


def test_oklahoma_without_an_up_card_is_an_input_error():
    with pytest.raises(InputError):
        score_cards(*KNOCK_22, OKLAHOMA)


BIG_GIN = (cards("3h 4h 5h 6h Ks Kc Kd 7c 8c 9c 10c"), cards("2h 7h Kh Qd Jd 10s 9s 4d 3s As"))


def test_big_gin_from_cards():
    scored = score_cards(*BIG_GIN, TOURNAMENT)
    own = 2 + 7 + 10 + 10 + 10 + 10 + 9 + 4 + 3 + 1
    assert (scored.result.result, scored.result.winner, scored.result.points) == ("big_gin", "knocker", 31 + own)
    assert scored.discard is None
    assert str(scored.response.layoffs) == ""
    assert sum(len(m) for m in scored.spread.melds) == 11


def test_eleven_melded_cards_without_big_gin_are_gin_with_a_discard():
    scored = score_cards(*BIG_GIN, STANDARD)
    own = 2 + 7 + 10 + 10 + 10 + 10 + 9 + 4 + 3 + 1
    assert (scored.result.result, scored.result.points) == ("gin", 20 + own)
    assert scored.discard is not None
    assert str(scored.response.layoffs) == ""


# --- refusals ---------------------------------------------------------------------------------

K22, O22 = EXAMPLES[0][0], EXAMPLES[0][1]
OTHER = "Ah 6s Qc 8d 4c 2h Ac 9d Jd 10s"  # shares no card with the ten-card knockers below
REFUSALS = [
    # (id, knocker, opponent, keyword arguments, error, words in the message)
    ("card in both hands", K22, "Kh Kd Ks 6s Qc 8d 4c 2h Ac 2d", {}, IllegalHandError, ["2d", "both hands"]),
    ("two cards in both hands", K22, "Kh Kd Ks 6s Qc 8d 4c 9h Ac 2d", {}, IllegalHandError, ["2d", "9h"]),
    ("discard not in the hand", K22, O22, {"discard": "3d"}, IllegalHandError, ["3d", "not in"]),
    (
        "group not a meld", K22, O22,
        {"discard": "9h", "groups": "7s 8s 9s | 9c 10c 5h | Jc 5d 5c | 2d"}, IllegalHandError, ["9c 10c 5h", "not a meld"],
    ),
    (
        "run with a gap", "3h 4h 6h Ks Kc Kd 7c 8c 9c 2d", OTHER,
        {"groups": "3h 4h 6h | Ks Kc Kd | 7c 8c 9c | 2d"}, IllegalHandError, ["3h 4h 6h", "not a meld"],
    ),
    ("run across suits", K22, O22, {"discard": "9h", "groups": "7s 8s 9c | 9s 10c Jc | 5h 5d 5c | 2d"}, IllegalHandError, ["not a meld"]),
    ("knock over the limit", "7s 8s 9s 9c 10c Jc 5h Ad 3d 2s 9h", O22, {}, IllegalHandError, ["11 deadwood", "limit of 10", "face up"]),
    ("ten-card knock over the limit", "3h 4h 5h Ks Kc Kd 7c 8c Qh 2d", OTHER, {}, IllegalHandError, ["27 deadwood", "limit of 10", "face up"]),
    ("given spread over the limit", K22, O22, {"discard": "2d", "groups": "7s 8s 9s | 9c 10c Jc | 5h 5d 5c | 9h"}, IllegalHandError, ["9 deadwood", "limit of 8"]),
    ("knocker 9 cards", "7s 8s 9s 9c 10c Jc 5h 5d 5c", O22, {}, CardListError, ["10 or 11", "9 were given"]),
    ("knocker 12 cards", K22 + " Ad", O22, {}, CardListError, ["10 or 11", "12 were given"]),
    ("opponent 9 cards", K22, "Kh Kd Ks 6s Qc 8d 4c 2h Ac", {}, CardListError, ["10", "9 were given"]),
    ("opponent 11 cards", K22, O22 + " Ad", {}, CardListError, ["10", "11 were given"]),
    ("a discard from ten cards", "7s 8s 9s 9c 10c Jc 5h 5d 5c 2d", O22, {"discard": "2d"}, CardListError, ["11 cards"]),
    ("11 spread without a discard", K22, O22, {"groups": "7s 8s 9s | 9c 10c Jc | 5h 5d 5c | 2d 9h"}, InputError, ["name the card discarded face down"]),
]


@pytest.mark.parametrize("knocker, opponent, kwargs, error, words", [r[1:] for r in REFUSALS], ids=[r[0] for r in REFUSALS])
def test_refusals(knocker, opponent, kwargs, error, words):
    kwargs = dict(kwargs)
    if "discard" in kwargs:
        kwargs["discard"] = parse_card(kwargs["discard"])
    if "groups" in kwargs:
        kwargs["groups"] = parse_groups(kwargs["groups"])
    rules = rules_from("standard", ["knock_limit=8"]) if "limit of 8" in words else STANDARD
    with pytest.raises(error) as caught:
        score_cards(cards(knocker), cards(opponent), rules, **kwargs)
    assert caught.value.exit_code == (1 if error is IllegalHandError else 2)
    for word in words:
        assert word in str(caught.value)


@pytest.mark.parametrize("name", ["knock over the limit", "ten-card knock over the limit", "given spread over the limit"])
def test_an_illegal_knock_from_cards_is_about_the_cards(name):
    """The count over the limit is the knocker's cards' count: the refusal names `cards`, not `deadwood`."""
    knocker, opponent, kwargs = next(refusal[1:4] for refusal in REFUSALS if refusal[0] == name)
    kwargs = {key: parse_card(value) if key == "discard" else parse_groups(value) for key, value in kwargs.items()}
    rules = rules_from("standard", ["knock_limit=8"]) if "groups" in kwargs else STANDARD
    with pytest.raises(IllegalHandError, match="^illegal knock: ") as caught:
        score_cards(cards(knocker), cards(opponent), rules, **kwargs)
    assert caught.value.field == "cards"


def test_a_group_with_a_card_the_knocker_does_not_hold_is_refused():
    # 7s 8s 9s is spread, but the knocker holds 7c 8c 9c.
    with pytest.raises(IllegalHandError, match="not in the hand: 7s 8s 9s; left out: 7c 8c 9c"):
        score_cards(
            cards("3h 4h 5h Ks Kc Kd 7c 8c 9c 2d"),
            cards("Kh Qd Js 6s Qc 8d 4c 2h Ac 9d"),
            STANDARD,
            groups=parse_groups("3h 4h 5h | Ks Kc Kd | 7s 8s 9s | 2d"),
        )


def test_groups_that_leave_out_a_kept_card_are_refused():
    with pytest.raises(IllegalHandError, match="left out: 2d"):
        score_cards(
            cards("3h 4h 5h Ks Kc Kd 7c 8c 9c 2d"),
            cards("Kh Qd Js 6s Qc 8d 4c 2h Ac 9d"),
            STANDARD,
            groups=parse_groups("3h 4h 5h | Ks Kc Kd | 7c 8c 9c"),
        )


@pytest.mark.parametrize("side", ["knocker", "opponent"])
def test_a_card_given_twice_is_refused(side):
    knocker, opponent = cards("3h 4h 5h Ks Kc Kd 7c 8c 9c 2d"), cards("Kh Qd Js 6s Qc 8d 4c 2h Ac 9d")
    if side == "knocker":
        knocker += (parse_card("2d"),)
    else:
        opponent = opponent[:9] + (parse_card("Kh"),)
    with pytest.raises(CardListError):
        score_cards(knocker, opponent, STANDARD)


# --- the knocker's spread -----------------------------------------------------------------


def test_a_given_spread_is_used_even_when_it_is_not_the_lowest_count():
    # The lowest count is gin (3-4-5-6h); the user spread 3-4-5h and kept 6h as deadwood.
    knocker, opponent = cards("3h 4h 5h 6h Ks Kc Kd 7c 8c 9c"), cards("2h 6c Kh Qd Jd 10s 9s 4d 3s As")
    scored = score_cards(knocker, opponent, STANDARD, groups=parse_groups("3h 4h 5h | Ks Kc Kd | 7c 8c 9c | 6h"))
    assert str(scored.spread) == "3h 4h 5h | Kc Kd Ks | 7c 8c 9c | 6h"
    assert str(scored.response.layoffs) == "2h 6c Kh"
    assert (scored.result.result, scored.result.knocker_deadwood, scored.result.opponent_deadwood) == ("knock", 6, 47)
    assert scored.result.points == 41
    assert scored.lowest is None
    assert score_cards(knocker, opponent, STANDARD).result.result == "gin"


def test_a_given_spread_decides_the_layoffs():
    # 5h may be spread with the hearts or with the fives; the opponent holds 4h and 3h.
    knocker, opponent = cards("5h 6h 7h 8h 5s 5c 5d Ac 2d 3s"), cards("4h 3h Qh Jd 10s 9s 4d Kc Qc Kd")
    as_run = score_cards(knocker, opponent, STANDARD, groups=parse_groups("5h 6h 7h 8h | 5s 5c 5d | Ac 2d | 3s"))
    as_set = score_cards(knocker, opponent, STANDARD, groups=parse_groups("6h 7h 8h | 5h 5s 5c 5d | Ac 2d | 3s"))
    assert str(as_run.response.layoffs) == "3h 4h"
    assert str(as_set.response.layoffs) == ""
    assert as_run.result.knocker_deadwood == as_set.result.knocker_deadwood == 6
    assert as_run.result.opponent_deadwood == as_set.result.opponent_deadwood - 7 == 80 - 7
    # Given only the cards, the knocker spreads the fives as a set: same count, nothing laid off.
    best = score_cards(knocker, opponent, STANDARD)
    assert set(best.spread.melds) == set(as_set.spread.melds) and best.result == as_set.result
    assert best.lowest is None


# The knocker holds 10h Jh Qh Kh, three 7s, and Ac Ad 2c 2d. The lowest count discards a 2 and
# keeps 4 (Ac Ad 2), spreading 10-J-Q-Kh, onto which the opponent lays off 9h and 8h (17).
# Discarding 10h instead keeps 6 (Ac Ad 2c 2d) but leaves J-Q-Kh, whose low end the opponent
# cannot reach without the 10h: nothing is laid off. 75 - 6 = 69 beats 58 - 4 = 54.
BLOCKING = (cards("10h Jh Qh Kh 7s 7c 7d Ac Ad 2c 2d"), cards("9h 8h Kc Qd Js 5c 4d 3s 6s 10c"))


def test_the_best_spread_blocks_layoffs_with_more_deadwood():
    scored = score_cards(*BLOCKING, STANDARD)
    assert scored.discard == parse_card("10h")
    assert str(scored.spread) == "7c 7d 7s | Jh Qh Kh | Ac Ad 2c 2d"
    assert str(scored.response.layoffs) == ""
    assert (scored.result.result, scored.result.knocker_deadwood, scored.result.opponent_deadwood) == ("knock", 6, 75)
    assert scored.result.points == 69
    lowest = scored.lowest
    assert lowest is not None
    assert lowest.discard in (parse_card("2c"), parse_card("2d"))
    assert str(lowest.response.layoffs) == "8h 9h"
    assert (lowest.result.knocker_deadwood, lowest.result.opponent_deadwood, lowest.result.points) == (4, 58, 54)
    assert lowest.result.net < scored.result.net
    assert lowest.lowest is None


def test_the_best_spread_with_the_discard_fixed_keeps_the_lowest():
    # With the 2d named as the discard the knocker cannot throw the 10h: the spread is the lowest count.
    scored = score_cards(*BLOCKING, STANDARD, discard=parse_card("2d"))
    assert (scored.result.knocker_deadwood, scored.result.opponent_deadwood, scored.result.points) == (4, 58, 54)
    assert scored.lowest is None


def test_the_best_spread_may_keep_a_meld_as_deadwood():
    # The opponent holds 4c 5c and 69 deadwood, no melds. Discarding the 4h:
    #   spreading A-2-3c: count 1 (Ad), 4c 5c laid off, 60 - 1 = 59 (the lowest count);
    #   keeping A-2-3c as deadwood: count 7, nothing laid off, 69 - 7 = 62.
    # Breaking the run by discarding the 3c instead: count 8 (Ac 2c Ad 4h), 69 - 8 = 61.
    knocker, opponent = cards("Ac 2c 3c Ks Kd Kh 7d 8d 9d Ad 4h"), cards("4c 5c Qh Js 10s 9h 6h 3s 2h Jd")
    scored = score_cards(knocker, opponent, STANDARD)
    assert scored.discard == parse_card("4h")
    assert str(scored.spread) == "7d 8d 9d | Kd Kh Ks | Ac Ad 2c 3c"
    assert str(scored.response.layoffs) == ""
    assert (scored.result.knocker_deadwood, scored.result.opponent_deadwood, scored.result.points) == (7, 69, 62)
    assert scored.lowest is not None
    assert str(scored.lowest.spread) == "Ac 2c 3c | 7d 8d 9d | Kd Kh Ks | Ad"
    assert str(scored.lowest.response.layoffs) == "4c 5c"
    assert (scored.lowest.result.knocker_deadwood, scored.lowest.result.points) == (1, 59)
    broken = score_cards(knocker, opponent, STANDARD, discard=parse_card("3c"))
    assert broken.result.points == 61


# --- properties over random legal knocks --------------------------------------------------------

RUN = runs(5)
SET = SETS
LOW_CARDS = [c for c in DECK if c.rank <= 3]
HIGH_UPCARDS = [c for c in DECK if c.value >= 6]


def neighbours(knocker: set[Card]) -> list[Card]:
    """Cards the opponent might lay off: the suit within 2 ranks of a knocker card, or its rank."""
    return [
        c
        for c in DECK
        if c not in knocker and any((c.suit == k.suit and abs(c.rank - k.rank) <= 2) or c.rank == k.rank for k in knocker)
    ]


@st.composite
def legal_knocks(draw):
    """(rules name, rules, up-card, knocker's 11 cards, opponent's 10): the best discard leaves <= the limit.

    The knocker's melds leave room for a few low cards, so most knocks have deadwood; the opponent
    holds cards next to the knocker's (lay-offs) and sometimes melds of their own (undercuts).
    """
    name = draw(st.sampled_from(["standard", "standard", "tournament", "oklahoma", "no-tie"]))
    rules = NO_TIE if name == "no-tie" else PRESETS[name]
    upcard = draw(st.sampled_from(HIGH_UPCARDS)) if rules.oklahoma else None
    room = draw(st.integers(7, 10))
    knocker: set[Card] = set()
    for meld in draw(st.lists(st.one_of(RUN, RUN, SET), min_size=2, max_size=4)):
        if not meld & knocker and len(knocker) + len(meld) <= room:
            knocker |= meld
    need = 11 - len(knocker)
    low = [c for c in LOW_CARDS if c not in knocker]
    n_low = draw(st.integers(need // 2, need))
    knocker |= set(draw(st.lists(st.sampled_from(low), unique=True, min_size=n_low, max_size=n_low)))
    other = [c for c in DECK if c not in knocker]
    knocker |= set(draw(st.lists(st.sampled_from(other), unique=True, min_size=11 - len(knocker), max_size=11 - len(knocker))))
    assume(min_after_discard(Hand.of(knocker).mask)[0] <= rules.knock_limit_for(upcard))
    held: list[Card] = []
    for meld in draw(st.lists(st.one_of(RUN, SET), max_size=3)):
        if not meld & knocker and not meld & set(held) and len(held) + len(meld) <= 9:
            held += sorted(meld)
    pool = [c for c in neighbours(knocker) if c not in held]
    room = 10 - len(held)
    if pool:
        held += draw(st.lists(st.sampled_from(pool), unique=True, min_size=1, max_size=min(6, len(pool), room)))
    rest = [c for c in DECK if c not in knocker and c not in held]
    held += draw(st.lists(st.sampled_from(rest), unique=True, min_size=10 - len(held), max_size=10 - len(held)))
    order = draw(st.permutations(sorted(knocker)))
    return name, rules, upcard, tuple(order), tuple(held)


def lowest_count_nets(knocker, opponent, rules, upcard) -> list[int]:
    """The net result of every lowest-count spread, over every best discard, against the best lay-offs."""
    limit, multiplier = rules.knock_limit_for(upcard), rules.multiplier_for(upcard)
    hand, opp = Hand.of(knocker), Hand.of(opponent).mask
    lowest = min(min_deadwood((hand - Hand.of([c])).mask) for c in knocker)
    nets = []
    for card in knocker:
        kept = hand - Hand.of([card])
        if min_deadwood(kept.mask) != lowest:
            continue
        for arr in arrangements(kept):
            gin = not arr.deadwood_cards
            count = min_deadwood(opp) if gin else best_layoff(tuple(m.mask for m in arr.melds), opp)[0]
            nets.append(score_counts(arr.deadwood, count, rules, limit, multiplier).net)
    if rules.big_gin and min_deadwood(hand.mask) == 0:  # big gin is a count of 0 too
        nets.append(score_counts(0, min_deadwood(opp), rules, limit, multiplier, big_gin=True).net)
    return nets


@PROPERTY
@given(legal_knocks())
def test_the_best_spread_is_never_worse_than_a_lowest_count_spread(case):
    name, rules, upcard, knocker, opponent = case
    scored = score_cards(knocker, opponent, rules, upcard=upcard)
    nets = lowest_count_nets(knocker, opponent, rules, upcard)
    assert nets
    assert scored.result.net >= max(nets)
    if scored.lowest is None:
        assert scored.result.net == max(nets)
    else:
        assert scored.lowest.result.net == max(nets) < scored.result.net


@PROPERTY
@given(legal_knocks(), st.randoms(use_true_random=False))
def test_the_score_does_not_depend_on_card_order(case, random):
    name, rules, upcard, knocker, opponent = case
    first = score_cards(knocker, opponent, rules, upcard=upcard)
    knocker, opponent = list(knocker), list(opponent)
    random.shuffle(knocker)
    random.shuffle(opponent)
    second = score_cards(tuple(knocker), tuple(opponent), rules, upcard=upcard)
    assert second.result == first.result
    assert second == first


@functools.cache
def naive_count(knocker_melds: frozenset[frozenset[Card]], opponent: frozenset[Card]) -> int:
    return naive_layoff_count(list(knocker_melds), sorted(opponent))[0]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(legal_knocks())
def test_the_best_spread_is_the_best_of_every_legal_spread(case):
    """Every discard and every collection of melds (the naive oracle's), scored with the naive lay-offs."""
    name, rules, upcard, knocker, opponent = case
    scored = score_cards(knocker, opponent, rules, upcard=upcard)
    limit, multiplier = rules.knock_limit_for(upcard), rules.multiplier_for(upcard)
    opp = frozenset(opponent)
    own = oracle.min_deadwood(opponent)
    nets: dict[int, list[int]] = {}  # knocker's count -> nets
    for card in knocker:
        kept = [c for c in knocker if c != card]
        for melds in oracle.every_arrangement(kept):
            count = oracle.deadwood(kept, melds)
            if count > limit:
                continue
            o = own if count == 0 else naive_count(frozenset(melds), opp)
            nets.setdefault(count, []).append(score_counts(count, o, rules, limit, multiplier).net)
    if rules.big_gin and oracle.min_deadwood(knocker) == 0:
        nets[0].append(score_counts(0, own, rules, limit, multiplier, big_gin=True).net)
    best = max(n for ns in nets.values() for n in ns)
    lowest = min(nets)
    assert scored.result.net == best
    assert scored.result.knocker_deadwood <= limit
    kept = Hand.of(c for m in scored.spread.melds for c in m) | scored.spread.deadwood_cards
    assert kept | Hand.of([scored.discard] if scored.discard else []) == Hand.of(knocker)
    if scored.lowest is None:
        assert scored.result.knocker_deadwood == lowest
    else:
        assert scored.lowest.result.knocker_deadwood == lowest
        assert scored.lowest.result.net == max(nets[lowest]) < best

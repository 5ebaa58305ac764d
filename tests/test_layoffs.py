"""Tests of ginscore.game.layoffs: hand-checked lay-offs, then properties against a naive lay-off oracle."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import SETS, runs

from ginscore.game.cards import DECK, Card, Hand, parse_groups
from ginscore.game.layoffs import best_layoff, best_response, layoff_choices
from ginscore.game.melds import Arrangement, min_deadwood

try:
    from . import oracle
except ImportError:  # tests/ is not a package: pytest puts it on sys.path
    import oracle

PROPERTY = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def hand(text: str) -> Hand:
    return Hand.parse(text)


def spread(text: str) -> Arrangement:
    """A knocker's spread typed as groups, `3h 4h 5h | Ks Kc Kd | 2d`: groups of 3+ are melds."""
    groups = parse_groups(text)
    melds = tuple(Hand.of(g) for g in groups if len(g) >= 3)
    dead = Hand.of([c for g in groups if len(g) < 3 for c in g])
    return Arrangement(melds, dead)


def masks(text: str) -> tuple[int, ...]:
    """The knocker's melds, typed as groups, as masks."""
    return tuple(Hand.of(g).mask for g in parse_groups(text))


def layoffs(knock: str, opponent: str):
    """(count, laid-off cards as text) of the opponent's best response to a spread."""
    response = best_response(spread(knock), hand(opponent))
    return response.deadwood, str(response.layoffs)


# --- chains onto runs --------------------------------------------------------------------------

JUNK = "Qs Qd Jc 9s 2c 3d"  # meld nothing with each other or with the cards below


def test_chain_upward_8h_then_9h():
    assert layoffs("5h 6h 7h | Kc Kd Kh | 2s", f"8h 9h Ac {JUNK}") == (min_deadwood(hand(f"Ac {JUNK}").mask), "8h 9h")


def test_chain_downward_4h_then_3h():
    assert layoffs("5h 6h 7h | Kc Kd Kh | 2s", f"4h 3h Ac {JUNK}") == (min_deadwood(hand(f"Ac {JUNK}").mask), "3h 4h")


def test_chains_at_both_ends_together():
    count, laid = layoffs("5h 6h 7h | Kc Kd Kh | 2s", f"3h 4h 8h 9h {JUNK}")
    assert laid == "3h 4h 8h 9h"
    assert count == hand(JUNK).value


def test_a_gap_stops_the_chain():
    # 8h goes on, 9h is missing, so 10h cannot follow; 3h waits for a 4h nobody lays off.
    count, laid = layoffs("5h 6h 7h | Kc Kd Kh | 2s", "8h 10h 3h Ac Qs Qd Jc 9s 2c 3d")
    assert laid == "8h"
    assert count == hand("10h 3h Ac Qs Qd Jc 9s 2c 3d").value


def test_a_gap_at_the_end_of_the_run_lays_off_nothing():
    count, laid = layoffs("5h 6h 7h | Kc Kd Kh | 2s", "9h 10h 3h Ac Qs Qd Jc 9s 2c 3d")
    assert laid == ""
    assert count == hand("9h 10h 3h Ac Qs Qd Jc 9s 2c 3d").value


def test_a_long_chain_runs_to_the_king():
    # Qd Kd alone are deadwood to the opponent: both go on above 9-10-Jd, and the chain ends at the king.
    count, laid = layoffs("9d 10d Jd | 2c 2h 2s | As", "Qd Kd Ad 4c 5h 6s 8c 9h 10s 3d")
    assert laid == "Qd Kd"
    assert count == hand("Ad 4c 5h 6s 8c 9h 10s 3d").value


def test_layoff_choices_are_the_prefixes_of_each_chain():
    choices = {str(Hand(m)) for m in layoff_choices(masks("5h 6h 7h"), hand("3h 4h 8h 9h 10h Kc").mask)}
    lows, highs = ["", "4h", "3h 4h"], ["", "8h", "8h 9h", "8h 9h 10h"]
    expected = {str(hand(" ".join(filter(None, [low, high])))) if low or high else "" for low in lows for high in highs}
    assert choices == expected


# --- sets ------------------------------------------------------------------------------------


def test_the_fourth_card_onto_a_3_card_set():
    count, laid = layoffs("Kc Kd Ks | 2h 3h 4h | 5s", "Kh 8c 9d 6s Jc 10h Qs 7d Ad 2c")
    assert laid == "Kh"
    assert count == hand("8c 9d 6s Jc 10h Qs 7d Ad 2c").value


def test_nothing_onto_a_4_card_set_not_even_a_card_next_in_its_suit():
    # The set has no room, and a set is not a run: 6s and 8s cannot extend 7s 7c 7d 7h.
    count, laid = layoffs("7s 7c 7d 7h | 2h 3h 4h | 5s", "6s 8s 6c 8d Kc Qd Jc 9s Ad 2c")
    assert laid == ""
    assert count == hand("6s 8s 6c 8d Kc Qd Jc 9s Ad 2c").value
    assert layoff_choices(masks("7s 7c 7d 7h"), hand("6s 8s 6c 8d Kc").mask) == [0]


def test_a_card_next_to_a_3_card_set_is_not_a_layoff():
    count, laid = layoffs("7s 7c 7d | 2h 3h 4h | 5s", "6s 8s 8c 6d Kc Qd Jc 9s Ad 2c")
    assert laid == ""


def test_a_card_that_fits_a_run_and_a_set_goes_on_once():
    # 8h is both the fourth 8 and the next heart; it is laid off once, and the count drops by 8 once.
    count, laid = layoffs("5h 6h 7h | 8c 8d 8s | 2s", "8h Kc Qd Jc 9s Ad 2c 3d 4c 10s")
    assert laid == "8h"
    assert count == hand("Kc Qd Jc 9s Ad 2c 3d 4c 10s").value


# --- nothing onto deadwood, nothing against gin ------------------------------------------------


def test_nothing_onto_the_knockers_deadwood():
    # 2d 3d are the knocker's deadwood: Ad and 4d would make a run with them, but are not laid off.
    count, laid = layoffs("Qs Qc Qh | 7c 8c 9c | 2d 3d", "Ad 4d 2c 2h Kd Jh 5s 6h 10d 4s")
    assert laid == ""
    assert count == hand("Ad 4d 2c 2h Kd Jh 5s 6h 10d 4s").value


@pytest.mark.parametrize(
    "knock",
    [
        Arrangement(tuple(hand(m) for m in ["5h 6h 7h", "Kc Kd Ks", "2c 3c 4c 5c"]), Hand()),
        None,
    ],
)
def test_nothing_against_gin(knock):
    # 8h and 4h would continue the heart run, Kh is the fourth king, 6c continues the clubs.
    opponent = hand("8h 4h Kh 6c 9s 9d 9c Qs 4s As")
    response = best_response(knock, opponent)
    assert str(response.layoffs) == ""
    assert response.deadwood == 8 + 4 + 10 + 6 + 10 + 4 + 1 == min_deadwood(opponent.mask)


def test_the_rules_example_against_gin_leaves_8h_as_deadwood():
    gin = spread("5h 6h 7h | Ks Kc Kd | 2c 3c 4c 5c")
    response = best_response(gin, hand("9s 9d 9c 6d 7d 8d 8h Qs 4s As"))
    assert (response.deadwood, str(response.layoffs)) == (23, "")
    assert str(response.spread.deadwood_cards) == "As 4s 8h Qs"


# --- the opponent's own melds against lay-offs -----------------------------------------------


def test_a_card_does_better_in_the_opponents_own_meld():
    # Laying 8h off leaves 8s 8c and 9h (25); keeping the set of 8s leaves 9h (9).
    response = best_response(spread("5h 6h 7h | Kc Kd Ks | 2d"), hand("8h 8s 8c 9h Ac 2s 3d Qh Jd 4c"))
    assert str(response.layoffs) == ""
    assert response.deadwood == 9 + 1 + 2 + 3 + 10 + 10 + 4
    assert [str(m) for m in response.spread.melds] == ["8c 8h 8s"]


def test_a_card_does_better_laid_off_than_in_the_opponents_own_run():
    # As a run 8-9-10h leaves 10s 10c (20); the set 10h 10s 10c with 8h 9h laid off leaves 0 of them.
    response = best_response(spread("5h 6h 7h | Kc Kd Ks | 2d"), hand("8h 9h 10h 10s 10c Ac 2s 3d Qh Jd"))
    assert str(response.layoffs) == "8h 9h"
    assert response.deadwood == 1 + 2 + 3 + 10 + 10
    assert [str(m) for m in response.spread.melds] == ["10c 10h 10s"]


def test_one_card_of_the_opponents_four_of_a_kind_starts_a_chain():
    # Four sevens meld, but leave 8d (8). Laying 7d then 8d onto 4-5-6d keeps 7s 7c 7h a set: 0 of them.
    response = best_response(spread("4d 5d 6d | Kc Kd Ks | 2h"), hand("7d 8d 7s 7c 7h 3c Jh Qs 9c Ah"))
    assert str(response.layoffs) == "7d 8d"
    assert response.deadwood == 3 + 10 + 10 + 9 + 1


def test_the_response_accounts_for_every_opponent_card():
    opponent = hand("8h 9h 10h 10s 10c Ac 2s 3d Qh Jd")
    response = best_response(spread("5h 6h 7h | Kc Kd Ks | 2d"), opponent)
    melded = Hand.of(c for m in response.spread.melds for c in m)
    assert melded | response.spread.deadwood_cards | response.layoffs == opponent
    assert not (melded & response.layoffs) and not (response.spread.deadwood_cards & response.layoffs)
    assert response.spread.deadwood == response.deadwood


# --- ace low, king high --------------------------------------------------------------------


def test_nothing_below_the_ace():
    # Ks does not wrap around below A-2-3s; 4s goes on above.
    count, laid = layoffs("As 2s 3s | 9c 9d 9h | 4d", "Ks 4s Qh Jc 8d 7c 6h 5d 10c 2h")
    assert laid == "4s"
    assert count == hand("Ks Qh Jc 8d 7c 6h 5d 10c 2h").value


def test_nothing_above_the_king():
    # Ad does not wrap around above J-Q-Kd; 10d goes on below.
    count, laid = layoffs("Jd Qd Kd | 9c 9s 9h | 4c", "Ad 10d 2d Qh 8c 7s 6h 5c 3s 2h")
    assert laid == "10d"
    assert count == hand("Ad 2d Qh 8c 7s 6h 5c 3s 2h").value


def test_an_ace_to_king_run_takes_nothing():
    below_the_top = {str(Hand(m)) for m in layoff_choices(masks("Ah 2h 3h 4h 5h 6h 7h 8h 9h 10h Jh"), hand("Qh Kh As").mask)}
    assert below_the_top == {"", "Qh", "Qh Kh"}
    assert layoff_choices(masks("Ah 2h 3h 4h 5h 6h 7h 8h 9h 10h Jh Qh Kh"), hand("As Ks Ac Kc").mask) == [0]


def test_runs_next_to_the_ace_lane_boundary_do_not_leak_into_another_suit():
    # In the bitmask the king of clubs sits just below the ace of diamonds' lane: neither leaks.
    assert best_layoff(masks("Ad 2d 3d"), hand("Kc Qc Jc 4s 5s 6h 7h 8c 9c 10c").mask)[1] == 0
    assert best_layoff(masks("Jc Qc Kc"), hand("Ad 2d 3h 4s 5s 6h 7h 8d 9d 10d").mask)[1] == 0


# --- properties against a naive lay-off oracle -----------------------------------------------


def naive_layoff_count(knocker_melds: list[frozenset[Card]], opponent: list[Card]) -> tuple[int, set[frozenset[Card]]]:
    """(least count, every reachable laid-off set): lay off one card at a time, every order, by hand rules."""
    sets = [m for m in knocker_melds if len({c.rank for c in m}) == 1]
    runs = [m for m in knocker_melds if len({c.rank for c in m}) > 1]

    def placeable(card: Card, laid: frozenset[Card]) -> bool:
        for meld in sets:
            if len(meld) == 3 and card.rank == next(iter(meld)).rank:
                return True
        for run in runs:
            suit = next(iter(run)).suit
            if card.suit != suit:
                continue
            numbers = [int(c.rank) for c in run]
            low, high = min(numbers), max(numbers)
            on_suit = {int(c.rank) for c in laid if c.suit == suit}
            while low - 1 in on_suit:
                low -= 1
            while high + 1 in on_suit:
                high += 1
            if int(card.rank) in (low - 1, high + 1):
                return True
        return False

    reachable, todo = {frozenset()}, [frozenset()]
    while todo:
        laid = todo.pop()
        for card in opponent:
            if card not in laid and placeable(card, laid):
                more = laid | {card}
                if more not in reachable:
                    reachable.add(more)
                    todo.append(more)
    best = min(oracle.min_deadwood([c for c in opponent if c not in laid]) for laid in reachable)
    return best, reachable


RUN = runs(6)
SET = SETS


def near(melds: list[frozenset[Card]], taken: set[Card]) -> list[Card]:
    """Cards a lay-off could use: the suit within 3 ranks of a knocker card, or a knocker card's rank."""
    knocker = set().union(*melds)
    return [
        c
        for c in DECK
        if c not in taken
        and any((c.suit == k.suit and abs(c.rank - k.rank) <= 3) or c.rank == k.rank for k in knocker)
    ]


@st.composite
def knock_and_opponent(draw):
    """The knocker's melds (disjoint runs and sets) and 10 opponent cards, often next to those melds."""
    melds: list[frozenset[Card]] = []
    for meld in draw(st.lists(st.one_of(RUN, RUN, SET), min_size=1, max_size=4)):
        if not any(meld & other for other in melds):
            melds.append(meld)
    taken = set().union(*melds)
    pool = near(melds, taken)
    close = draw(st.lists(st.sampled_from(pool), unique=True, min_size=min(2, len(pool)), max_size=min(8, len(pool))))
    rest = [c for c in DECK if c not in taken and c not in close]
    others = draw(st.lists(st.sampled_from(rest), unique=True, min_size=10 - len(close), max_size=10 - len(close)))
    return melds, close + others


def as_masks(melds: list[frozenset[Card]]) -> tuple[int, ...]:
    return tuple(Hand.of(m).mask for m in melds)


@PROPERTY
@given(knock_and_opponent())
def test_layoffs_never_raise_the_count(case):
    melds, opponent = case
    count, laid = best_layoff(as_masks(melds), Hand.of(opponent).mask)
    assert count <= min_deadwood(Hand.of(opponent).mask)
    assert count == min_deadwood(Hand.of(opponent).mask & ~laid)
    assert laid & ~Hand.of(opponent).mask == 0


@PROPERTY
@given(knock_and_opponent())
def test_best_layoff_equals_the_naive_oracle(case):
    melds, opponent = case
    count, laid = best_layoff(as_masks(melds), Hand.of(opponent).mask)
    expected, reachable = naive_layoff_count(melds, opponent)
    assert count == expected
    assert frozenset(Hand(laid)) in reachable
    choices = {frozenset(Hand(m)) for m in layoff_choices(as_masks(melds), Hand.of(opponent).mask)}
    assert choices == reachable


@PROPERTY
@given(knock_and_opponent(), st.randoms(use_true_random=False))
def test_best_response_does_not_depend_on_order(case, random):
    melds, opponent = case
    shuffled_melds = list(melds)
    random.shuffle(shuffled_melds)
    # Any deadwood card the opponent does not hold: the knock is not gin, so lay-offs count.
    deadwood = next(c for c in DECK if c not in opponent and not any(c in m for m in melds))
    knock = Arrangement(tuple(Hand.of(m) for m in melds), Hand.of([deadwood]))
    again = Arrangement(tuple(Hand.of(m) for m in shuffled_melds), knock.deadwood_cards)
    first, second = best_response(knock, Hand.of(opponent)), best_response(again, Hand.of(opponent))
    assert first.deadwood == second.deadwood
    assert first.deadwood == naive_layoff_count(melds, opponent)[0]

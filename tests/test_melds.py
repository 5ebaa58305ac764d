"""Tests of ginscore.game.melds: against a naive brute-force oracle, then hand-checked cases."""

import functools
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ginscore.game.cards import DECK, Card, Hand, Suit, parse_cards, parse_groups
from ginscore.game.melds import (
    arrangement_masks,
    arrangements,
    first_arrangement,
    is_meld,
    is_set,
    min_after_discard,
    min_deadwood,
    solve,
)

try:
    from . import oracle
except ImportError:  # tests/ is not a package: pytest puts it on sys.path
    import oracle

PROPERTY = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# --- hands to draw ---------------------------------------------------------------------------


@functools.cache
def hands_from(pool: tuple[Card, ...], n: int) -> st.SearchStrategy[list[Card]]:
    """n different cards of `pool`: one strategy for each pool, made once (a strategy made anew for every example
    is checked anew each time, most of what drawing a hand costs)."""
    return st.lists(st.sampled_from(pool), min_size=n, max_size=n, unique=True)


def uniform(n: int) -> st.SearchStrategy[list[Card]]:
    """Any n cards of the deck: few melds, mostly deadwood."""
    return hands_from(DECK, n)


@st.composite
def meld_rich(draw, n: int) -> list[Card]:
    """n cards from 5 or 6 adjacent ranks in all four suits: runs and sets fight for cards."""
    width = draw(st.sampled_from([5, 6]))
    low = draw(st.integers(1, 14 - width))
    return draw(hands_from(tuple(c for c in DECK if low <= c.rank < low + width), n))


@st.composite
def few_suits(draw, n: int) -> list[Card]:
    """n cards from one to four suits over a window of ranks: long runs that may split."""
    suits = draw(st.sets(st.sampled_from(list(Suit)), min_size=1, max_size=4))
    width = draw(st.integers(max(3, -(-n // len(suits))), 13))
    low = draw(st.integers(1, 14 - width))
    return draw(hands_from(tuple(c for c in DECK if c.suit in suits and low <= c.rank < low + width), n))


KINDS = {"uniform": uniform, "meld-rich": meld_rich, "few-suits": few_suits}


def cards(text: str) -> list[Card]:
    return list(parse_cards(text))


def mask_of(text_or_cards) -> int:
    return Hand.of(cards(text_or_cards) if isinstance(text_or_cards, str) else text_or_cards).mask


def shape(arrangement) -> frozenset[frozenset[Card]]:
    """An arrangement's melds as sets of cards, comparable with the oracle's."""
    return frozenset(frozenset(meld) for meld in arrangement.melds)


def melds(text: str) -> frozenset[frozenset[Card]]:
    """Melds typed as groups: `3h 4h 5h | Ks Kc Kd`."""
    return frozenset(frozenset(group) for group in parse_groups(text))


def oracle_shapes(hand: list[Card], limit: int) -> set[frozenset[frozenset[Card]]]:
    """The oracle's arrangements with deadwood at most `limit`, touching runs joined as ginscore gives them."""
    return {
        oracle.normalised(chosen)
        for chosen in oracle.every_arrangement(hand)
        if oracle.deadwood(hand, chosen) <= limit
    }


def shown_cards(solution, hand: list[Card]) -> list[Card]:
    """The cards `solution.best` lays out: all 10, or 11 less one best discard (all 11 for big gin)."""
    shown = set(solution.best.deadwood_cards).union(*solution.best.melds)
    left_out = set(hand) - shown
    assert shown <= set(hand)
    if len(hand) == 10:
        assert not left_out
    elif solution.big_gin:
        assert not left_out or left_out <= set(solution.discards)
    else:
        assert len(left_out) == 1 and left_out <= set(solution.discards)
    return [c for c in hand if c in shown]


def check_arrangement(arrangement, hand: list[Card]) -> None:
    """Melds are real, disjoint and from the hand; the deadwood is the rest."""
    hand_mask = Hand.of(hand).mask
    used = 0
    for meld in arrangement.melds:
        assert is_meld(meld.mask), str(meld)
        assert meld.mask & ~hand_mask == 0, f"{meld} is not in the hand"
        assert meld.mask & used == 0, f"{meld} overlaps another meld"
        used |= meld.mask
    assert arrangement.deadwood_cards.mask == hand_mask & ~used
    assert arrangement.deadwood == oracle.deadwood(hand, [frozenset(m) for m in arrangement.melds])


# --- properties against the oracle -----------------------------------------------------------


@pytest.mark.parametrize("kind", KINDS)
@PROPERTY
@given(data=st.data())
def test_min_deadwood_matches_oracle(kind, data):
    hand = data.draw(KINDS[kind](10))
    assert min_deadwood(Hand.of(hand).mask) == oracle.min_deadwood(hand)


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 13).flatmap(lambda n: st.one_of(meld_rich(min(n, 20)), few_suits(n))))
def test_min_deadwood_matches_oracle_any_size(hand):
    # The arrangement search calls min_deadwood on every part of a hand.
    assert min_deadwood(Hand.of(hand).mask) == oracle.min_deadwood(hand)


@pytest.mark.parametrize("kind", KINDS)
@PROPERTY
@given(data=st.data())
def test_min_after_discard_matches_oracle(kind, data):
    hand = data.draw(KINDS[kind](11))
    best, discards, big_gin = min_after_discard(Hand.of(hand).mask)
    assert (best, set(Hand(discards)), big_gin) == oracle.min_after_discard(hand)


@pytest.mark.parametrize("kind", KINDS)
@PROPERTY
@given(data=st.data())
def test_best_arrangements_are_valid_and_complete(kind, data):
    hand = data.draw(KINDS[kind](10))
    least = oracle.min_deadwood(hand)
    found = list(arrangements(Hand.of(hand)))
    assert found, "no arrangement at all"
    for arrangement in found:
        check_arrangement(arrangement, hand)
        assert arrangement.deadwood == least
    assert len({shape(a) for a in found}) == len(found), "an arrangement is given twice"
    assert {shape(a) for a in found} == oracle_shapes(hand, least)


@pytest.mark.parametrize("kind", KINDS)
@PROPERTY
@given(data=st.data())
def test_arrangements_within_limit(kind, data):
    hand = data.draw(KINDS[kind](10))
    limit = oracle.min_deadwood(hand) + data.draw(st.integers(-3, 15), label="over the least")
    found = list(arrangements(Hand.of(hand), limit))
    for arrangement in found:
        check_arrangement(arrangement, hand)
        assert arrangement.deadwood <= limit
    shapes = [shape(a) for a in found]
    assert len(set(shapes)) == len(shapes), "an arrangement is given twice"
    assert set(shapes) == oracle_shapes(hand, limit)


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 13).flatmap(lambda n: st.one_of(uniform(n), meld_rich(min(n, 20)), few_suits(n))))
def test_first_arrangement_is_what_the_search_gives_first(hand):
    # `solve` shows this arrangement; reading it off the tables must not change which one it is.
    mask = Hand.of(hand).mask
    assert first_arrangement(mask) == next(arrangement_masks(mask))


@pytest.mark.parametrize("size", [10, 11])
@PROPERTY
@given(data=st.data())
def test_order_does_not_matter(size, data):
    hand = data.draw(st.one_of(meld_rich(size), few_suits(size), uniform(size)))
    shuffled = list(hand)
    random.Random(data.draw(st.integers(0, 2**32))).shuffle(shuffled)
    first, second = solve(tuple(hand)), solve(tuple(shuffled))
    assert second.cards == tuple(shuffled)
    assert (second.deadwood, second.discards, second.big_gin) == (first.deadwood, first.discards, first.big_gin)
    assert second.best == first.best


@pytest.mark.parametrize("size", [10, 11])
@PROPERTY
@given(data=st.data())
def test_solve_matches_oracle(size, data):
    hand = data.draw(st.one_of(meld_rich(size), few_suits(size)))
    solution = solve(tuple(hand))
    if size == 10:
        assert solution.deadwood == oracle.min_deadwood(hand)
        assert (solution.discards, solution.big_gin) == ((), False)
    else:
        least, discards, big_gin = oracle.min_after_discard(hand)
        assert (solution.deadwood, set(solution.discards), solution.big_gin) == (least, discards, big_gin)
        assert len(solution.discards) == len(discards)
        values = [c.value for c in solution.discards]
        assert values == sorted(values, reverse=True), "highest discard first"
    check_arrangement(solution.best, shown_cards(solution, hand))
    assert solution.best.deadwood == solution.deadwood


# --- hand-checked cases ----------------------------------------------------------------------

# (hand, least deadwood, every best arrangement's melds); each number reasoned out in the id.
TEN_CARD_CASES = [
    pytest.param(
        "8h 9h 10h 8c 8d Js Qs Ks 2c 3d",
        21,
        ["8h 9h 10h | Js Qs Ks"],
        id="8h-to-the-run:8c+8d+2c+3d=21-beats-set:9h+10h+2c+3d=24",
    ),
    pytest.param(
        "6h 7h 8h 8c 8d Js Qs Ks 2c 3d",
        18,
        ["8c 8d 8h | Js Qs Ks"],
        id="8h-to-the-set:6h+7h+2c+3d=18-beats-run:8c+8d+2c+3d=21",
    ),
    pytest.param(
        "10h Jh Qh Qc Qd 2s 3s 4s 6c 7d",
        33,
        ["10h Jh Qh | 2s 3s 4s", "Qc Qd Qh | 2s 3s 4s"],
        id="Qh-either-way:Qc+Qd=10h+Jh=20,+6c+7d=33",
    ),
    pytest.param(
        "7c 7d 7h 7s 5h 6h 8s 9s Ac 2d",
        14,
        ["7c 7d 7h | 7s 8s 9s"],
        id="three-of-four-sevens:5h+6h+Ac+2d=14;both-runs=17;7c7d7s+hearts=20;four-7s=31",
    ),
    *[
        pytest.param(
            f"7c 7d 7h 7s 8{s} 9{s} Ac 2c 3c Kd",
            10,
            [" ".join(f"7{t}" for t in "cdhs" if t != s) + f" | 7{s} 8{s} 9{s} | Ac 2c 3c"],
            id=f"set-without-7{s}:Kd=10;four-7s-leaves-8{s}+9{s}+Kd=27",
        )
        for s in "cdhs"
    ],
    pytest.param(
        "3h 4h 5h 6h 7h 8h 9h 9c 9d 2s",
        2,
        ["3h 4h 5h 6h 7h 8h | 9c 9d 9h"],
        id="7-run-gives-its-end-to-a-set:2s=2;whole-run:9c+9d+2s=20",
    ),
    pytest.param(
        "Ah 2h 3h 4h 5h 6h 7h 8h 5c 5d",
        0,
        ["Ah 2h 3h 4h | 5c 5d 5h | 6h 7h 8h"],
        id="8-run-splits-around-a-set:gin;whole-run:5c+5d=10",
    ),
    pytest.param("Ah 2h 3h 4h 5h 6h 7h 8h 9h 10h", 0, ["Ah 2h 3h 4h 5h 6h 7h 8h 9h 10h"], id="gin:one-10-run"),
    pytest.param(
        "Kc Kd Kh Ks Qc Qd Qh 2s 3s 4s", 0, ["Kc Kd Kh Ks | Qc Qd Qh | 2s 3s 4s"], id="gin:4-set+3-set+run"
    ),
    pytest.param("3c 4c 5c 6c 7c 9d 10d Jd Qd Kd", 0, ["3c 4c 5c 6c 7c | 9d 10d Jd Qd Kd"], id="gin:two-5-runs"),
    pytest.param(
        "3h 4h 5h KS KC KD 7c 8c 9c 2d", 2, ["3h 4h 5h | Kc Kd Ks | 7c 8c 9c"], id="example-hand:2d=2"
    ),
    pytest.param("Qh Kh Ah 2c 3c 4c 5d 6d 7d 9s", 30, ["2c 3c 4c | 5d 6d 7d"], id="no-Q-K-A:10+10+1+9=30"),
    pytest.param("Ah 2h 3h 2c 3c 4c 5d 6d 7d 9s", 9, ["Ah 2h 3h | 2c 3c 4c | 5d 6d 7d"], id="A-2-3-is-a-run:9s=9"),
    pytest.param("As 2c 3d 4h 5s 6c 7d 8h 9s 10c", 55, [""], id="no-meld:1+2+...+10=55"),
]


@pytest.mark.parametrize("text, least, best", TEN_CARD_CASES)
def test_ten_card_hands(text, least, best):
    hand = cards(text)
    expected = {melds(groups) if groups else frozenset() for groups in best}
    assert oracle.min_deadwood(hand) == least  # the oracle agrees with the reasoning
    assert min_deadwood(mask_of(hand)) == least
    found = list(arrangements(Hand.of(hand)))
    assert {shape(a) for a in found} == expected
    assert len(found) == len(expected)
    for arrangement in found:
        check_arrangement(arrangement, hand)
    solution = solve(tuple(hand))
    assert (solution.deadwood, solution.discards, solution.big_gin) == (least, (), False)
    assert shape(solution.best) in expected


def test_sets_and_runs_are_told_apart():
    assert is_set(mask_of("7c 7d 7h")) and is_set(mask_of("7c 7d 7h 7s"))
    assert is_meld(mask_of("7c 7d 7h")) and is_meld(mask_of("7c 7d 7h 7s"))
    assert is_meld(mask_of("Ah 2h 3h")) and not is_set(mask_of("Ah 2h 3h"))
    assert is_meld(mask_of("9s 10s Js Qs Ks"))
    assert not is_meld(mask_of("Qh Kh Ah"))
    assert not is_meld(mask_of("7c 7d"))
    assert not is_meld(mask_of("3h 4h 6h"))
    assert not is_meld(mask_of("3h 4h 5c"))
    assert not is_meld(mask_of("7c 7d 8d"))


# (hand, least deadwood after the discard, every such discard as `solve` orders them, big gin)
ELEVEN_CARD_CASES = [
    pytest.param(
        "4d 3c 4c 2d As 4h Ah Ac Ad 2c 3d",
        0,
        "4h",
        False,
        # OpenSpiel's shortcut says 1. Without 4h: Ac Ah As | 2c 3c 4c | Ad 2d 3d 4d is gin.
        # Every other discard leaves deadwood: without Ah (or As), Ac 2c 3c | Ad 2d 3d |
        # 4c 4d 4h leaves As = 1; without 3c (or 3d), Ac Ah As | Ad 2d 3d | 4c 4d 4h leaves 2c = 2.
        id="openspiel-says-1:discard-4h-is-gin",
    ),
    pytest.param(
        "7s 8s 9s 10s 2h 3h 4h Kh Kd Kc Ks",
        0,
        "10s Kc Kd Kh Ks 7s",
        True,
        # 7s..10s | 2h 3h 4h | four kings melds all eleven. Gin after the discard of a run end
        # (7s or 10s) or of any king. Without 8s, 7s 9s 10s are deadwood (26); without 9s,
        # 7s 8s 10s (25); a heart breaks 2h 3h 4h (5 to 7).
        id="rlcard-discards-from-the-middle:only-run-ends-and-kings",
    ),
    pytest.param(
        "Ah 2h 3h 4h 5h 6h 7h 8h 9h 10h Jh",
        0,
        "Jh 8h 7h 6h 5h 4h Ah",
        True,
        # An 11-run keeps gin when the gap leaves pieces of 0 or 3+ cards: A, 4, 5, 6, 7, 8, J.
        id="11-run:discards-A-4-5-6-7-8-J",
    ),
    pytest.param(
        "7c 7d 7h 7s 8c 8d 8h 8s 9c 9d 9h",
        0,
        "8c 8d 8h 8s 7c 7d 7h 7s",
        True,
        # 4+4+3 sets. Without a 9 the best is 7d 8d 9d | three 7s | three 8s | 9h = 9.
        id="big-gin-4+4+3-sets:any-7-or-8",
    ),
    pytest.param(
        "3h 4h 5h Ks Kc Kd 7c 8c 9c 2d Qh",
        2,
        "Qh",
        False,
        id="example-hand+Qh:discard-Qh-leaves-2d=2",
    ),
    pytest.param(
        "3h 4h 5h Ks Kc Kd 7c 8c 9c Qd Qh",
        10,
        "Qd Qh",
        False,
        id="two-queens:either-discard-leaves-10",
    ),
    pytest.param(
        "As 2c 3d 4h 5s 6c 7d 8h 9s 10c Jd",
        55,
        "10c Jd",
        False,
        # No meld: 1 + 2 + ... + 10 + 10 = 65, less one ten-point card.
        id="no-meld:either-ten-point-card-leaves-55",
    ),
]


@pytest.mark.parametrize("text, least, discards, big_gin", ELEVEN_CARD_CASES)
def test_eleven_card_hands(text, least, discards, big_gin):
    hand = cards(text)
    expected = tuple(parse_cards(discards))
    assert oracle.min_after_discard(hand) == (least, set(expected), big_gin)
    best, chosen, found_big_gin = min_after_discard(mask_of(hand))
    assert (best, set(Hand(chosen)), found_big_gin) == (least, set(expected), big_gin)
    solution = solve(tuple(hand))
    assert (solution.deadwood, solution.discards, solution.big_gin) == (least, expected, big_gin)
    check_arrangement(solution.best, shown_cards(solution, hand))
    assert solution.best.deadwood == least


def test_rlcard_case_discards_leave_gin_and_keep_the_middle():
    hand = cards("7s 8s 9s 10s 2h 3h 4h Kh Kd Kc Ks")
    solution = solve(tuple(hand))
    leaves_gin = {c for c in hand if oracle.min_deadwood([k for k in hand if k != c]) == 0}
    assert set(solution.discards) == leaves_gin == set(cards("7s 10s Kh Kd Kc Ks"))
    assert not set(cards("8s 9s")) & set(solution.discards)


def test_openspiel_case_is_gin_after_4h():
    hand = cards("4d 3c 4c 2d As 4h Ah Ac Ad 2c 3d")
    solution = solve(tuple(hand))
    assert solution.deadwood == 0
    assert parse_cards("4h")[0] in solution.discards
    kept = [c for c in hand if str(c) != "4h"]
    assert oracle.min_deadwood(kept) == 0
    gins = {
        melds("Ac Ah As | 2c 3c 4c | Ad 2d 3d 4d"),
        melds("Ad Ah As | Ac 2c 3c 4c | 2d 3d 4d"),
        melds("Ac Ad Ah As | 2c 3c 4c | 2d 3d 4d"),
    }
    assert {shape(a) for a in arrangements(Hand.of(kept))} == gins
    assert shape(solution.best) in gins


def test_big_gin_best_has_no_deadwood():
    hand = cards("7s 8s 9s 10s 2h 3h 4h Kh Kd Kc Ks")
    solution = solve(tuple(hand))
    assert solution.big_gin and solution.deadwood == 0
    assert not solution.best.deadwood_cards
    check_arrangement(solution.best, shown_cards(solution, hand))


def test_touching_runs_are_one_run():
    # 3-4-5 + 6-7-8 of hearts is only ever reported as 3-4-5-6-7-8.
    hand = cards("3h 4h 5h 6h 7h 8h Kc Kd Ks 2c")
    found = list(arrangements(Hand.of(hand)))
    assert [shape(a) for a in found] == [melds("3h 4h 5h 6h 7h 8h | Kc Kd Ks")]
    within = [shape(a) for a in arrangements(Hand.of(hand), 2 + 10)]
    # Beside 2c (2), the run may leave out 3h (5), 3h 4h (9) or 8h (10); leaving out 3h 4h 5h (14)
    # or 7h 8h (17), or breaking the kings (32), goes over 12.
    assert len(within) == 4
    assert set(within) == {
        melds("3h 4h 5h 6h 7h 8h | Kc Kd Ks"),
        melds("4h 5h 6h 7h 8h | Kc Kd Ks"),
        melds("5h 6h 7h 8h | Kc Kd Ks"),
        melds("3h 4h 5h 6h 7h | Kc Kd Ks"),
    }

"""Tests of ginscore.game.advise: every figure against a naive oracle on small unseen pools, sampling, invariants."""

from __future__ import annotations

import functools
import random
from dataclasses import replace
from itertools import combinations

import pytest

from ginscore.errors import CardListError, InputError
from ginscore.game.advise import advise, keep_best_ten, opponent_hands, opponent_turns
from ginscore.game.cards import DECK, Card, Hand, parse_card
from ginscore.game.melds import min_after_discard, min_deadwood
from ginscore.game.rulebook import PRESETS, Rules
from ginscore.game.scoring import score_cards

try:
    from . import oracle
    from .test_layoffs import naive_layoff_count
except ImportError:  # tests/ is not a package: pytest puts it on sys.path
    import oracle
    from test_layoffs import naive_layoff_count

STANDARD = PRESETS["standard"]


def cards(text: str) -> tuple[Card, ...]:
    return tuple(oracle.cards(text))


def seen_except(hand: tuple[Card, ...], unseen: list[Card]) -> tuple[Card, ...]:
    """Every card outside the hand and the unseen pool: what the player has seen."""
    return tuple(c for c in DECK if c not in hand and c not in unseen)


# --- the naive oracle ---------------------------------------------------------------------------


def naive_net(knocker: int, opponent: int, rules: Rules, multiplier: int, big_gin: bool = False) -> int:
    """Points from the knocker's side, by the table in RULES.md."""
    if big_gin:
        points = rules.big_gin_bonus + opponent
    elif knocker == 0:
        points = rules.gin_bonus + opponent
    elif knocker < opponent:
        points = opponent - knocker
    elif knocker == opponent and not rules.undercut_on_tie:
        points = 0
    else:
        points = -(knocker - opponent + rules.undercut_bonus)
    return points * multiplier


@functools.cache
def naive_deadwood(cards: frozenset[Card]) -> int:
    """The oracle's least deadwood, kept: the same remainders come up across opponent hands and spreads."""
    return oracle.min_deadwood(cards)


@functools.cache
def naive_count(melds: frozenset[frozenset[Card]], opponent: frozenset[Card]) -> int:
    """The opponent's least count after lay-offs, by the naive lay-off oracle of test_layoffs."""
    return naive_layoff_count(list(melds), sorted(opponent))[0]


def oracle_option(kept: list[Card], unseen: list[Card], opponents: list[frozenset[Card]], rules: Rules, limit: int, multiplier: int):
    """(deadwood, outs to knock, outs to gin, {spread: [nets per opponent hand]} for every legal spread)."""
    dead = oracle.min_deadwood(kept)
    after = {c: min(naive_deadwood(frozenset(kept + [c]) - {d}) for d in kept + [c]) for c in unseen}
    knock_outs = {c for c, d in after.items() if d <= limit}
    gin_outs = {c for c, d in after.items() if d == 0}
    spreads: dict[frozenset, list[int]] = {}
    if dead <= limit:
        for melds in oracle.every_arrangement(kept):
            count = oracle.deadwood(kept, melds)
            if count > limit:
                continue
            spread = oracle.normalised(melds)
            if spread in spreads:
                continue
            spreads[spread] = [
                naive_net(count, naive_deadwood(opp) if count == 0 else naive_count(spread, opp), rules, multiplier)
                for opp in opponents
            ]
    return dead, knock_outs, gin_outs, spreads


def as_spread(arrangement) -> frozenset[frozenset[Card]]:
    return oracle.normalised(frozenset(meld) for meld in arrangement.melds)


def check_against_oracle(hand: tuple[Card, ...], unseen: list[Card], rules: Rules = STANDARD, upcard: Card | None = None):
    limit, multiplier = rules.knock_limit_for(upcard), rules.multiplier_for(upcard)
    advice = advise(hand, rules, seed=1, seen=seen_except(hand, unseen), upcard=upcard, model="deal")
    opponents = [frozenset(combo) for combo in combinations(unseen, 10)]
    assert advice.exact and advice.samples == len(opponents) and advice.unseen == len(unseen)
    assert len(advice.options) == 11 and {o.discard for o in advice.options} == set(hand)
    knockable = 0
    for option in advice.options:
        kept = [c for c in hand if c != option.discard]
        dead, knock_outs, gin_outs, spreads = oracle_option(kept, unseen, opponents, rules, limit, multiplier)
        assert option.deadwood == dead
        assert (option.can_knock, option.gin) == (dead <= limit, dead == 0)
        assert set(option.outs.knock) == knock_outs and set(option.outs.gin) == gin_outs
        if not option.can_knock:
            assert option.knock is None
            continue
        knockable += 1
        best = max(sum(nets) for nets in spreads.values())
        assert option.knock.expected_points == best / len(opponents)
        nets = spreads[as_spread(option.knock.spread)]
        assert sum(nets) == best
        assert option.knock.win == sum(n > 0 for n in nets) / len(opponents)
        assert option.knock.undercut == sum(n < 0 for n in nets) / len(opponents)
        assert option.knock.tie == sum(n == 0 for n in nets) / len(opponents)
        assert option.knock.errors is None
    expected = [o for o in advice.options if o.knock is not None]
    assert (advice.recommended is None) == (not knockable)
    if expected:
        assert advice.recommended.knock.expected_points == max(o.knock.expected_points for o in expected)
    return advice


# The unseen pools hold cards next to the knocker's melds, so lay-offs, undercuts and spread choices all matter.
ORACLE_CASES = [
    pytest.param(
        "3h 4h 5h Ks Kc Kd 7c 8c 9c 2d Qs", "2h 6h 7h Kh 6c 10c Jc Ac 2c 3c 3d 4s", STANDARD, None, id="two-knocks"
    ),
    pytest.param(
        "10h Jh Qh Kh 7s 7c 7d Ac Ad 2c 2d", "8h 9h 7h Kc Qd Js 5c 4d 3s 6s 10c 8s", STANDARD, None, id="blocking-spread"
    ),
    pytest.param(
        "Ah 2h 3h 4c 5c 6c 7d 8d 9d 2s 3s", "4h 5h 3c 7c 6d 10d As 4s 2c 2d 3d Ac 9s", STANDARD, None, id="13-unseen"
    ),
    pytest.param(
        "4h 4d 4c 6h 6d 6c 10s Js Qs 8h Kd", "9s 9d 9c Jh Qh Kh 4s 6s Ks Ad 8s 8d", replace(STANDARD, undercut_on_tie=False), None, id="ties"
    ),
    pytest.param(
        "3c 4c 5c 9d 9h 9s Jh Qh Kh 2d 6d", "Ac 2c 6c 8d 8h Qs Qd 7s 6s 5d 10h 10d", PRESETS["oklahoma"], parse_card("5s"), id="oklahoma-spade"
    ),
    pytest.param(
        "5h 6h 7h Kc Kd Ks 2c 3c 4c 5c Qd", "4h 8h 9h Kh 6c Ac 9s 9d 9c 8d 10d Js", STANDARD, None, id="gin"
    ),
]


@pytest.mark.parametrize(("hand", "unseen", "rules", "upcard"), ORACLE_CASES)
def test_every_figure_equals_the_naive_oracle(hand, unseen, rules, upcard):
    check_against_oracle(cards(hand), list(cards(unseen)), rules, upcard)


def random_case(rng: random.Random) -> tuple[tuple[Card, ...], list[Card]]:
    """An 11-card hand that can knock after some discard, and 12 unseen cards, mostly next to its cards."""
    while True:
        hand = _meldy_hand(rng)
        if min_after_discard(Hand.of(hand).mask)[0] <= 10:
            break
    near = [c for c in DECK if c not in hand and any(c.rank == k.rank or (c.suit == k.suit and abs(c.rank - k.rank) <= 2) for k in hand)]
    unseen = rng.sample(near, min(8, len(near)))
    unseen += rng.sample([c for c in DECK if c not in hand and c not in unseen], 12 - len(unseen))
    return hand, unseen


def _meldy_hand(rng: random.Random) -> tuple[Card, ...]:
    chosen: set[Card] = set()
    while len(chosen) < 6:
        if rng.random() < 0.5:
            suit, low = rng.randrange(4), rng.randint(1, 11)
            meld = {c for c in DECK if c.suit == suit and low <= c.rank < low + rng.choice((3, 4))}
        else:
            rank = rng.randint(1, 13)
            meld = set(rng.sample([c for c in DECK if c.rank == rank], 3))
        if not meld & chosen and len(chosen | meld) <= 9:
            chosen |= meld
    low = [c for c in DECK if c.rank <= 4 and c not in chosen]
    chosen |= set(rng.sample(low, 11 - len(chosen)))
    return tuple(sorted(chosen))


@pytest.mark.parametrize("seed", range(4))
def test_random_hands_equal_the_naive_oracle(seed):
    hand, unseen = random_case(random.Random(seed))
    check_against_oracle(hand, unseen)


def test_ten_cards_deadwood_and_outs_equal_the_oracle():
    hand = cards("3h 4h 5h Ks Kc Kd 7c 8c 2d Qs")
    unseen = list(cards("6c 9c 2h 6h Kh 10c 5c Ad 3d 4d Qh Jd"))
    advice = advise(hand, STANDARD, seed=1, seen=seen_except(hand, unseen))
    assert advice.options == () and advice.recommended is None and advice.samples == 0
    assert advice.deadwood == oracle.min_deadwood(hand) == 27
    knock = {c for c in unseen if oracle.min_after_discard(list(hand) + [c])[0] <= 10}
    gin = {c for c in unseen if oracle.min_after_discard(list(hand) + [c])[0] == 0}
    assert set(advice.outs.knock) == knock == set(cards("6c 9c"))
    assert set(advice.outs.gin) == gin == set()
    assert advice.best.deadwood == 27


# --- the figures are what `score` gives --------------------------------------------------------


def groups_of(spread) -> tuple[tuple[Card, ...], ...]:
    return tuple(tuple(meld) for meld in spread.meld_cards()) + tuple((c,) for c in spread.deadwood_cards)


def assert_expected_points_are_score_means(advice, hand, rules, hands, upcard=None):
    for option in advice.options:
        if option.knock is None:
            continue
        nets = [
            score_cards(hand, tuple(Hand(opp)), rules, upcard=upcard, discard=option.discard, groups=groups_of(option.knock.spread)).result
            for opp in hands
        ]
        assert option.knock.expected_points == sum(r.net for r in nets) / len(nets)
        assert option.knock.win == sum(r.winner == "knocker" for r in nets) / len(nets)


def test_expected_points_are_the_mean_of_score_over_every_hand():
    hand, unseen = cards("10h Jh Qh Kh 7s 7c 7d Ac Ad 2c 2d"), list(cards("8h 9h 7h Kc Qd Js 5c 4d 3s 6s 10c 8s"))
    advice = advise(hand, STANDARD, seed=5, seen=seen_except(hand, unseen), model="deal")
    hands = [Hand.of(combo).mask for combo in combinations(unseen, 10)]
    assert_expected_points_are_score_means(advice, hand, STANDARD, hands)


def test_expected_points_are_the_mean_of_score_over_the_sampled_improved_hands():
    hand, took = cards("3c 4c 5c 9d 9h 9s Jh Qh Kh 2d 6d"), cards("8d 8c")
    rules, upcard = PRESETS["oklahoma"], parse_card("7s")
    advice = advise(hand, rules, seed=11, opponent_took=took, upcard=upcard, stock=20, samples=120)
    assert advice.model == "improved" and advice.turns == 5 and not advice.exact and advice.samples == 120
    pool = [c.bit for c in DECK if c not in hand and c not in took and c != upcard]
    hands = list(opponent_hands(pool, Hand.of(took).mask, 8, 5, 120, False, random.Random(11)))
    assert all(h & Hand.of(took).mask == Hand.of(took).mask and h.bit_count() == 10 for h in hands)
    assert_expected_points_are_score_means(advice, hand, rules, hands, upcard)
    assert advice.multiplier == 2


# --- sampling ------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_sampling_converges_on_the_enumerated_answer(seed):
    hand, unseen = random_case(random.Random(100 + seed))
    unseen += random.Random(seed).sample([c for c in DECK if c not in hand and c not in unseen], 4)  # 16: 8008 hands
    seen = seen_except(hand, unseen)
    exact = advise(hand, STANDARD, seed=seed, seen=seen, model="deal", samples=10000)
    sampled = advise(hand, STANDARD, seed=seed, seen=seen, model="deal", samples=2000)
    assert exact.exact and exact.samples == 8008
    assert not sampled.exact and sampled.samples == 2000
    by_card = {o.discard: o for o in exact.options}
    compared = 0
    for option in sampled.options:
        truth = by_card[option.discard].knock
        if option.knock is None:
            assert truth is None
            continue
        errors = option.knock.errors
        assert errors is not None
        # The sampled run picks its spread from its own sample; compare it with that spread's exact value.
        assert abs(option.knock.expected_points - truth.expected_points) <= 4 * errors.expected_points + 1e-9 or (
            option.knock.spread != truth.spread
        )
        if option.knock.spread == truth.spread:
            # An estimate of 0% or 100% has a standard error of 0: allow three hands' worth as well.
            assert abs(option.knock.win - truth.win) <= 4 * errors.win + 3 / sampled.samples
            compared += 1
    assert compared


def test_a_seed_repeats_a_run():
    hand = cards("3h 4h 5h Ks Kc Kd 7c 8c 9c 2d Qs")
    first = advise(hand, STANDARD, seed=42, samples=300)
    assert advise(hand, STANDARD, seed=42, samples=300) == first
    assert first.seed == 42


def test_improved_without_turns_is_the_deal_model():
    hand, unseen = cards("3h 4h 5h Ks Kc Kd 7c 8c 9c 2d Qs"), list(cards("2h 6h 7h Kh 6c 10c Jc Ac 2c 3c 3d 4s"))
    seen = seen_except(hand, unseen)
    with pytest.raises(InputError, match="a stock of 31 is impossible"):
        advise(hand, STANDARD, seed=1, seen=seen, stock=31)
    wide = advise(hand, STANDARD, seed=1, stock=31)  # 11 cards, a fresh stock: the opponent has not drawn
    assert wide.turns == 0 and wide.model == "improved"
    assert wide.options == advise(hand, STANDARD, seed=1, model="deal").options


def test_opponent_turns_are_their_share_of_the_stock_draws():
    assert opponent_turns(31, 11) == 0 and opponent_turns(31, 10) == 0
    assert opponent_turns(30, 10) == 1 and opponent_turns(30, 11) == 0
    assert opponent_turns(17, 11) == 7 and opponent_turns(2, 10) == 15


def test_without_a_stock_mid_hand_is_assumed():
    advice = advise(cards("3h 4h 5h Ks Kc Kd 7c 8c 9c 2d Qs"), STANDARD, seed=1, samples=50)
    assert advice.stock_assumed and advice.stock == 17 and advice.turns == 7


def test_the_assumed_stock_and_the_turns_never_exceed_the_unseen_cards():
    hand = cards("3h 4h 5h Ks Kc Kd 7c 8c 9c 2d Qs")
    unseen = [c for c in DECK if c not in hand][:12]
    advice = advise(hand, STANDARD, seed=1, samples=50, seen=seen_except(hand, unseen))
    assert advice.stock_assumed and (advice.unseen, advice.stock, advice.turns) == (12, 2, 2)
    given = advise(hand, STANDARD, seed=1, samples=50, seen=seen_except(hand, unseen), stock=advice.stock)
    assert given.options == advice.options


def test_the_upcard_is_seen_unless_a_player_holds_it():
    hand = cards("3h 4h 5h Ks Kc Kd 7c 8c 9c 2d Qs")
    oklahoma = PRESETS["oklahoma"]
    face_up = advise(hand, oklahoma, seed=1, samples=20, upcard=parse_card("6h"))
    assert face_up.unseen == 40 and all(parse_card("6h") not in o.outs.knock + o.outs.gin for o in face_up.options)
    taken = advise(hand, oklahoma, seed=1, samples=20, upcard=parse_card("6h"), opponent_took=cards("6h"))
    assert taken.unseen == 40
    held = advise(hand, oklahoma, seed=1, samples=20, upcard=parse_card("Qs"))
    assert held.unseen == 41


def test_keep_best_ten_keeps_the_least_deadwood_and_the_cards_taken():
    rng = random.Random(3)
    for _ in range(200):
        eleven = Hand.of(rng.sample(DECK, 11)).mask
        took = Hand.of(rng.sample(list(Hand(eleven)), rng.choice((0, 2, 5)))).mask
        ten = keep_best_ten(eleven, took, rng)
        assert ten & eleven == ten and ten.bit_count() == 10 and ten & took == took
        free = [c.bit for c in Hand(eleven & ~took)]
        assert min_deadwood(ten) == min(min_deadwood(eleven ^ bit) for bit in free)


def test_the_improved_opponent_is_better_than_the_dealt_one():
    hand = cards("3h 4h 5h Ks Kc Kd 7c 8c 9c 2d Qs")
    dealt = advise(hand, STANDARD, seed=1, model="deal", samples=500)
    improved = advise(hand, STANDARD, seed=1, stock=10, samples=500)
    assert improved.recommended.knock.expected_points < dealt.recommended.knock.expected_points
    assert improved.recommended.knock.undercut > dealt.recommended.knock.undercut


# --- invariants ------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(3))
def test_invariants(seed):
    hand, unseen = random_case(random.Random(200 + seed))
    for advice in (
        advise(hand, STANDARD, seed=seed, samples=300),
        advise(hand, replace(STANDARD, undercut_on_tie=False), seed=seed, samples=300, model="deal"),
    ):
        for option in advice.options:
            if not option.can_knock:
                assert option.knock is None
                continue
            knock = option.knock
            assert knock.win + knock.undercut + knock.tie == pytest.approx(1.0, abs=1e-12)
            assert knock.spread.deadwood <= advice.knock_limit
            if option.gin:
                assert knock.undercut == 0 and knock.tie == 0 and knock.win == 1
            counts = [round(share * advice.samples) for share in (knock.win, knock.undercut, knock.tie)]
            assert sum(counts) == advice.samples
        knocks = [o.knock.expected_points for o in advice.options if o.knock]
        assert [o.knock.expected_points for o in advice.options[: len(knocks)]] == sorted(knocks, reverse=True)


def test_gin_is_never_undercut():
    # Discarding Qd is gin; the opponent's pool holds a near-gin hand of their own.
    hand, unseen = cards("5h 6h 7h Kc Kd Ks 2c 3c 4c 5c Qd"), list(cards("Ah Ad As 2h 2d 2s 3d 3s 4d 4s 8h Ac"))
    advice = check_against_oracle(hand, unseen)
    gin = next(o for o in advice.options if o.discard == parse_card("Qd"))
    assert gin.gin and gin.knock.undercut == 0 and gin.knock.win == 1
    assert advice.recommended is gin


def test_nothing_may_knock():
    advice = advise(cards("3h 4h 5h Ks Kc Kd 7c 8c 2d Qs Jh"), STANDARD, seed=1)
    assert advice.recommended is None and advice.samples == 0
    assert all(o.knock is None and not o.can_knock for o in advice.options)
    assert [o.deadwood for o in advice.options] == sorted(o.deadwood for o in advice.options)


def test_big_gin_under_tournament_rules():
    hand = cards("7s 8s 9s 10s 2h 3h 4h Kh Kd Kc Ks")
    advice = advise(hand, PRESETS["tournament"], seed=1, samples=100, model="deal")
    assert advice.big_gin and advice.big_gin_value is not None
    assert advice.big_gin_value.win == 1
    assert not advise(hand, STANDARD, seed=1, samples=100, model="deal").big_gin
    hands = list(opponent_hands([c.bit for c in DECK if c not in hand], 0, 10, 0, 100, False, random.Random(1)))
    assert advice.big_gin_value.expected_points == sum(31 + min_deadwood(h) for h in hands) / 100


# --- bad input -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "error", "words"),
    [
        ({"seen": cards("Qs 5d")}, CardListError, "Qs cannot be both in your hand and seen"),
        ({"opponent_took": cards("2d")}, CardListError, "2d cannot be both in your hand and taken by the opponent"),
        ({"seen": cards("5d"), "opponent_took": cards("5d")}, CardListError, "5d cannot be both seen and taken"),
        ({"seen": tuple(c for c in DECK if c.suit != 0 and c not in cards("3h 4h 5h Ks Kd 2d Qs"))[:32]}, InputError, "needs 10 more cards but only 9 are unseen"),
        ({"stock": 32}, InputError, "a stock of 32 is impossible"),
        ({"stock": -1}, InputError, "a stock of -1 is impossible"),
        ({"model": "smart"}, InputError, "unknown model 'smart'"),
        ({"samples": 0}, InputError, "the samples must be from 1"),
        ({"upcard": parse_card("5s")}, InputError, "only under Oklahoma"),
    ],
)
def test_bad_input_is_refused(kwargs, error, words):
    with pytest.raises(error, match=words) as raised:
        advise(cards("3h 4h 5h Ks Kc Kd 7c 8c 9c 2d Qs"), STANDARD, seed=1, **kwargs)
    assert raised.value.exit_code == 2


def test_a_hand_of_nine_is_refused():
    with pytest.raises(CardListError, match="needs 10 or 11 cards"):
        advise(cards("3h 4h 5h Ks Kc Kd 7c 8c 9c"), STANDARD, seed=1)


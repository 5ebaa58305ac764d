"""`advise --match`'s play-on and the review's errors: common random numbers, the careful opponent's shortcut, the
simulated knock's scoring, and the error of a difference between two options."""

from __future__ import annotations

import random

import pytest

from ginscore.files.table import match_odds
from ginscore.game.advise import advise
from ginscore.game.advise_game import GameState, weigh_game
from ginscore.game.cards import Hand, parse_card, parse_cards
from ginscore.game.estimate import Z95, difference_interval
from ginscore.game.odds import chance_to_win
from ginscore.game.rulebook import Rules
from ginscore.game.scoring import score_cards
from ginscore.game.simulate import POLICIES, POLICY, Position, best_knock, careful, play_out, simulate
from ginscore.match.review import Choice, judge, lost_interval

HAND = parse_cards("3h 4h 5h Ks Kc Kd 7c 8c 9c 2d Qs")


@pytest.mark.parametrize("rules", [
    Rules(),
    Rules(big_gin_bonus=31, undercut_bonus=25),
    Rules(undercut_on_tie=False, undercut_bonus=0, knock_limit=6),
    Rules(oklahoma=True, spades_double=True, big_gin_bonus=20, gin_bonus=25),
], ids=["standard", "big-gin", "ties", "oklahoma"])
def test_a_simulated_knock_scores_as_score_cards_scores_it(rules: Rules) -> None:
    knocks = 0
    for hand in simulate(rules, random.Random(11), 120):
        if hand.knocker_cards is None or hand.opponent_cards is None:
            continue
        upcard = hand.upcard if rules.oklahoma else None
        expected = score_cards(tuple(hand.knocker_cards), tuple(hand.opponent_cards), rules, upcard=upcard).result
        assert best_knock(hand.knocker_cards.mask, hand.opponent_cards.mask, rules, upcard) == expected
        knocks += 1
    assert knocks > 60


def test_a_knock_whose_best_spread_is_not_the_lowest_deadwoods_is_found() -> None:
    # The lowest deadwood lays down 4h 5h 6h 7h, onto which the opponent lays off the 3h; a spread with more
    # deadwood that keeps the 4h out of the run scores more. best_knock must search past the lowest deadwood.
    held = parse_cards("Ac As 2s 3c 3d 4d 4h 5d 5h 6h 7h")
    other = parse_cards("Ad 2c 2h 3h 3s 4c 4s 6d 7d 8d")
    scored = score_cards(held, other, Rules())
    assert scored.lowest is not None and scored.result.net > scored.lowest.result.net
    assert best_knock(Hand.of(held).mask, Hand.of(other).mask, Rules(), None) == scored.result


@pytest.fixture(scope="module")
def weighed(tmp_path_factory: pytest.TempPathFactory) -> tuple:
    from typer.testing import CliRunner

    from ginscore.cli import app

    path = tmp_path_factory.mktemp("rollouts") / "m.toml"
    assert CliRunner().invoke(app, ["new", str(path), "Ann", "Bob"]).exit_code == 0
    model = match_odds(str(path)).model.outcomes
    advice = advise(HAND, Rules(), seed=5, samples=300, keep_worlds=True)
    state = GameState(40, 70, False, 100, "winner")
    return advice, model, state, weigh_game(advice, Rules(), model, state, rollouts=30)


def test_every_discard_plays_on_from_one_set_of_shuffles(weighed: tuple) -> None:
    advice, model, state, game = weighed
    rng = random.Random(advice.seed)
    shuffles = []
    for world in advice.worlds[:30]:  # drawn once for the hand, in this order, then shared by every discard
        rest = [bit for bit in advice.pool if not world & bit]
        rng.shuffle(rest)
        shuffles.append((world, rest[: advice.stock], rng.choice(POLICIES)))

    def chance(ending: object) -> float:
        result = ending.result  # type: ignore[attr-defined]
        if result is None or result.winner is None:
            return chance_to_win(model, 100, "winner", (40, 70), 1)
        mine_won = (ending.knocker == 0) == (result.winner == "knocker")  # type: ignore[attr-defined]
        scores = (40 + result.points, 70) if mine_won else (40, 70 + result.points)
        return chance_to_win(model, 100, "winner", scores, 0 if mine_won else 1)

    hand = Hand.of(HAND).mask
    assert len(game.choices) == 2
    for choice in game.choices:
        kept = hand ^ choice.discard.bit
        careful_ends: list[float] = []
        careless_ends: list[float] = []
        for world, stock, policy in shuffles:
            for opponent, ends in ((careful(policy), careful_ends), (policy, careless_ends)):
                position = Position([kept, world], list(stock), choice.discard.bit, 1)
                ends.append(chance(play_out(position, Rules(), None, advice.knock_limit, (POLICY["eager"], opponent))))
        assert choice.play_on_values == pytest.approx(tuple(careful_ends), abs=1e-15)
        assert choice.play_on == pytest.approx(sum(careful_ends) / 30, abs=1e-12)
        assert choice.play_on_careless == pytest.approx(sum(careless_ends) / 30, abs=1e-12)
        assert choice.rollouts == 30 and len(choice.knock_values) == 300
        assert choice.knock_now == pytest.approx(sum(choice.knock_values) / 300, abs=1e-12)


def test_the_same_seed_weighs_the_same(weighed: tuple) -> None:
    advice, model, state, game = weighed
    again = weigh_game(advice, Rules(), model, state, rollouts=30)
    assert [(c.knock_now, c.play_on, c.play_on_values) for c in again.choices] == [
        (c.knock_now, c.play_on, c.play_on_values) for c in game.choices]


def test_the_error_of_a_difference_takes_out_the_luck_both_shared() -> None:
    values = (0.2, 0.9, 0.4, 0.7, 0.1, 0.6)
    low, high = difference_interval(tuple(v + 0.05 for v in values), values)  # type: ignore[misc]
    assert low == pytest.approx(0.05) and high == pytest.approx(0.05)  # the same luck: no error left
    low, high = difference_interval((0.5,), values)  # type: ignore[misc]  # an exact figure against a sampled one
    mean = sum(values) / 6
    spread = (sum((v - mean) ** 2 for v in values) / 5 / 6) ** 0.5
    assert (low, high) == pytest.approx((0.5 - mean - Z95 * spread, 0.5 - mean + Z95 * spread))
    # knocking now over four worlds, playing on over the first two: their covariance counts two of the four
    first, second = (0.1, 0.3, 0.5, 0.7), (0.2, 0.6)
    low, high = difference_interval(first, second)  # type: ignore[misc]
    variance = (sum((v - 0.4) ** 2 for v in first) / 3) / 4 + 0.08 / 2 - 2 * 0.04 * 2 / (4 * 2)  # 0.04: 0.1, 0.3 with 0.2, 0.6
    assert (high - low) / 2 == pytest.approx(Z95 * variance ** 0.5)
    assert difference_interval((), values) is None


def test_close_is_the_difference_within_its_error_not_two_ranges_overlapping() -> None:
    values = tuple(random.Random(3).random() for _ in range(100))
    king = parse_card("Kh")

    def choice(shift: float, knocks: bool, with_values: bool = True) -> Choice:
        shifted = tuple(v + shift for v in values)
        mean = sum(shifted) / len(shifted)
        return Choice(king, knocks, mean, (mean - 0.06, mean + 0.06), 100, values=shifted if with_values else ())

    taken, best = choice(0.0, True), choice(0.03, False)
    found, lost, close = judge(taken, (taken, best))
    assert found is best and lost == pytest.approx(3.0)
    assert not close  # the ranges overlap, but each world gave playing on 3 points more
    assert lost_interval(best, taken) == pytest.approx((3.0, 3.0))
    # without their samples the two are taken as independent estimates: a 3-point lead within their error
    found, lost, close = judge(choice(0.0, True, False), (choice(0.0, True, False), choice(0.03, False, False)))
    assert close and lost == pytest.approx(3.0)

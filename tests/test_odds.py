"""The chance to win a game (game/odds.py) against naive solutions of the same chain that live here: value
iteration over every state, and a seeded Monte Carlo of whole games; and its properties."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ginscore.game.odds import chance_to_win, dealer_table
from ginscore.game.outcomes import DEALER, NON_DEALER, OutcomeCounts, Outcomes, blend

TOY = Outcomes(0.2, ((0, 0.05), (3, 0.2), (7, 0.1)), ((0, 0.05), (2, 0.3), (12, 0.1)))
"""Dead hands, zero-point wins on both sides, and points past a small target."""
LOPSIDED = Outcomes(0.0, ((1, 0.9),), ((1, 0.1),))
"""The dealer nearly always wins a point: who deals decides almost everything."""


def iterated(outcomes: Outcomes, target: int, rule: str, sweeps: int = 5000) -> dict[tuple[int, int, int], float]:
    """P(player 0 wins) at (score 0, score 1, dealer) by value iteration: the dead hand's loop iterated, not solved."""
    states = [(x, y, d) for x in range(target) for y in range(target) for d in (0, 1)]
    value = dict.fromkeys(states, 0.5)

    def at(x: int, y: int, d: int) -> float:
        return 1.0 if x >= target else 0.0 if y >= target else value[(x, y, d)]

    for _ in range(sweeps):
        change = 0.0
        for x, y, d in states:
            new = outcomes.dead * at(x, y, d)
            for side in (DEALER, NON_DEALER):
                for points, chance in outcomes.side(side):
                    won = d if side == DEALER else 1 - d
                    nx, ny = (x + points, y) if won == 0 else (x, y + points)
                    new += chance * at(nx, ny, won if rule == "winner" else 1 - d)
            change = max(change, abs(new - value[(x, y, d)]))
            value[(x, y, d)] = new
        if change < 1e-15:
            break
    return value


@pytest.mark.parametrize("rule", ["winner", "alternate"])
@pytest.mark.parametrize("outcomes", [TOY, LOPSIDED], ids=["toy", "lopsided"])
@pytest.mark.parametrize("target", [10, 25])
def test_the_solution_is_the_iterated_chain(outcomes, target, rule):
    reference = iterated(outcomes, target, rule)
    worst = max(abs(reference[s] - chance_to_win(outcomes, target, rule, s[:2], s[2])) for s in reference)
    assert worst < 1e-12


def monte_carlo(outcomes: Outcomes, target: int, rule: str, games: int, seed: int) -> float:
    rng = random.Random(seed)
    kinds = [("dead", 0, outcomes.dead)] + [(s, k, p) for s in (DEALER, NON_DEALER) for k, p in outcomes.side(s)]
    weights = [p for _, _, p in kinds]
    wins = 0
    for _ in range(games):
        scores, dealer = [0, 0], 0
        while max(scores) < target:
            side, points, _ = rng.choices(kinds, weights)[0]
            if side == "dead":
                continue
            winner = dealer if side == DEALER else 1 - dealer
            scores[winner] += points
            dealer = winner if rule == "winner" else 1 - dealer
        wins += scores[0] >= target
    return wins / games


@pytest.mark.parametrize("rule", ["winner", "alternate"])
def test_the_solution_agrees_with_whole_games_played_at_random(rule):
    games = 20_000
    played = monte_carlo(TOY, 10, rule, games, seed=7)
    exact = chance_to_win(TOY, 10, rule, (0, 0), 0)
    assert abs(played - exact) < 4 * (exact * (1 - exact) / games) ** 0.5


def test_the_dead_hand_only_delays_the_game():
    """Solved in closed form, a dead hand's chance changes nothing: the same chain with its dead share spread
    over the other outcomes in proportion gives the same chances."""
    live = Outcomes(0.0, tuple((k, p / 0.8) for k, p in TOY.dealer), tuple((k, p / 0.8) for k, p in TOY.non_dealer))
    for state in [(0, 0, 0), (5, 3, 1), (9, 0, 0), (2, 8, 1)]:
        assert chance_to_win(TOY, 10, "winner", state[:2], state[2]) == pytest.approx(
            chance_to_win(live, 10, "winner", state[:2], state[2]), abs=1e-12
        )


def test_who_deals_next_matters():
    """The dealer wins 2 points 70% of the time, the other player 1 point: 3 - 0 up and dealing, the chance
    differs when the deal follows the winner and when it alternates, and each is the iterated chain's."""
    edge = Outcomes(0.0, ((2, 0.7),), ((1, 0.3),))
    keeps = chance_to_win(edge, 10, "winner", (3, 0), 0)
    turns = chance_to_win(edge, 10, "alternate", (3, 0), 0)
    assert keeps == pytest.approx(0.7054, abs=1e-4)
    assert turns == pytest.approx(0.8167, abs=1e-4)
    for rule in ("winner", "alternate"):
        reference = iterated(edge, 10, rule)
        assert chance_to_win(edge, 10, rule, (3, 0), 0) == pytest.approx(reference[(3, 0, 0)], abs=1e-12)


def test_a_chain_that_never_scores_is_refused():
    with pytest.raises(ValueError, match="never ends"):
        dealer_table(Outcomes(1.0, (), ()), 10, "winner")
    with pytest.raises(ValueError, match="next_dealer"):
        dealer_table(TOY, 10, "loser")


def test_the_blend_is_history_plus_the_prior_s_share_of_the_baseline():
    history = OutcomeCounts.of([(DEALER, 10), (DEALER, 10), (NON_DEALER, 25), ("dead", 0)])
    mixed = blend(history, TOY, 4)
    assert mixed.dead == pytest.approx((1 + 4 * 0.2) / 8)
    assert dict(mixed.dealer) == pytest.approx({0: 0.2 / 8, 3: 0.8 / 8, 7: 0.4 / 8, 10: 2 / 8})
    assert dict(mixed.non_dealer) == pytest.approx({0: 0.2 / 8, 2: 1.2 / 8, 12: 0.4 / 8, 25: 1 / 8})
    assert blend(history, TOY, 0) == history.shares()
    with pytest.raises(ValueError):
        blend(OutcomeCounts(), TOY, 0)


@st.composite
def distributions(draw: st.DrawFn) -> Outcomes:
    sides = []
    for _ in range(2):
        points = draw(st.lists(st.integers(1, 40), min_size=1, max_size=6, unique=True))
        weights = draw(st.lists(st.floats(0.01, 1.0), min_size=len(points), max_size=len(points)))
        sides.append(list(zip(points, weights)))
    dead = draw(st.floats(0.0, 0.5))
    total = sum(w for side in sides for _, w in side) / (1 - dead)
    return Outcomes(dead, *(tuple(sorted((k, w / total) for k, w in side)) for side in sides))


scores = st.integers(0, 39)


@settings(max_examples=40, deadline=None)
@given(distributions(), scores, scores, st.integers(0, 1), st.sampled_from(["winner", "alternate"]))
def test_more_points_never_lower_your_chance(outcomes, mine, theirs, dealer, rule):
    here = chance_to_win(outcomes, 40, rule, (mine, theirs), dealer)
    assert chance_to_win(outcomes, 40, rule, (mine + 1, theirs), dealer) >= here - 1e-12
    assert chance_to_win(outcomes, 40, rule, (mine, theirs + 1), dealer) <= here + 1e-12


@settings(max_examples=40, deadline=None)
@given(distributions(), scores, scores, st.integers(0, 1), st.sampled_from(["winner", "alternate"]))
def test_swapping_the_players_swaps_the_chances(outcomes, mine, theirs, dealer, rule):
    first = chance_to_win(outcomes, 40, rule, (mine, theirs), dealer)
    second = chance_to_win(outcomes, 40, rule, (theirs, mine), 1 - dealer)
    assert first + second == pytest.approx(1.0, abs=1e-12)
    assert 0.0 <= first <= 1.0


@given(st.integers(40, 500), st.integers(0, 39), st.integers(0, 1))
def test_at_or_past_the_target_the_game_is_won(reached, other, dealer):
    assert chance_to_win(TOY, 40, "winner", (reached, other), dealer) == 1.0
    assert chance_to_win(TOY, 40, "winner", (other, reached), dealer) == 0.0


@pytest.mark.parametrize("rule", ["winner", "alternate"])
def test_a_table_handed_to_another_process_is_kept_as_solved_there(rule):
    from ginscore.game import odds

    solved = dealer_table(TOY, 25, rule, 0)
    data = odds.table_bytes(solved)
    odds._SOLVED.clear()
    odds.keep_table(TOY, 25, rule, 0, data)
    assert odds._SOLVED[(TOY, 25, rule)] == (0, solved)  # bit for bit, and asked for it is not solved again
    assert dealer_table(TOY, 25, rule, 0) is odds._SOLVED[(TOY, 25, rule)][1]
    with pytest.raises(ValueError, match="a table to 25 holds 625 chances, not 624"):
        odds.keep_table(TOY, 25, rule, 0, data[:-8])

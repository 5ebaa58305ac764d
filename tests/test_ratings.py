"""match/ratings.py against Glickman's paper: the worked example, an implementation written here from the paper's
steps (sharing no code with the real one), the Beta interval against numeric integration, and the walk forward's
promise that no game's own result goes into its prediction."""

from __future__ import annotations

import math

import pytest

from ginscore.match.ratings import (
    Rating,
    Result,
    Share,
    beta_quantile,
    expected_score,
    prediction,
    rate,
    walk,
)


def paper_period(players: dict[str, list[float]], games: list[tuple[str, str]], tau: float = 0.5) -> dict[str, list[float]]:
    """One rating period as the paper writes it, on lists [r, RD, sigma]; `games` are (winner, loser). Written
    from "Example of the Glicko-2 system" step by step, for the tests only."""
    out = {}
    for name, (r, rd, sig) in players.items():
        mu, ph = (r - 1500) / 173.7178, rd / 173.7178
        opp = []
        for w, l_ in games:
            if w == name:
                opp.append((players[l_], 1.0))
            elif l_ == name:
                opp.append((players[w], 0.0))
        if not opp:  # step 6 only
            out[name] = [r, 173.7178 * math.sqrt(ph**2 + sig**2), sig]
            continue
        gs, es, ss = [], [], []
        for (rj, rdj, _), s in opp:
            muj, phj = (rj - 1500) / 173.7178, rdj / 173.7178
            gj = 1 / math.sqrt(1 + 3 * phj**2 / math.pi**2)
            gs.append(gj)
            es.append(1 / (1 + math.exp(-gj * (mu - muj))))
            ss.append(s)
        v = 1 / sum(gj**2 * ej * (1 - ej) for gj, ej in zip(gs, es))
        dl = v * sum(gj * (s - ej) for gj, ej, s in zip(gs, es, ss))
        a = math.log(sig**2)

        def f(x: float, dl: float = dl, ph: float = ph, v: float = v, a: float = a) -> float:
            return math.exp(x) * (dl**2 - ph**2 - v - math.exp(x)) / (2 * (ph**2 + v + math.exp(x)) ** 2) - (x - a) / tau**2

        A = a
        if dl**2 > ph**2 + v:
            B = math.log(dl**2 - ph**2 - v)
        else:
            k = 1
            while f(a - k * tau) < 0:
                k = k + 1
            B = a - k * tau
        fA, fB = f(A), f(B)
        while abs(B - A) > 0.000001:
            C = A + (A - B) * fA / (fB - fA)
            fC = f(C)
            if fC * fB <= 0:
                A, fA = B, fB
            else:
                fA = fA / 2
            B, fB = C, fC
        sig2 = math.exp(A / 2)
        phstar = math.sqrt(ph**2 + sig2**2)
        ph2 = 1 / math.sqrt(1 / phstar**2 + 1 / v)
        mu2 = mu + ph2**2 * sum(gj * (s - ej) for gj, ej, s in zip(gs, es, ss))
        out[name] = [173.7178 * mu2 + 1500, 173.7178 * ph2, sig2]
    return out


def paper_walk(days: list[list[tuple[str, str]]]) -> dict[str, list[float]]:
    """The ratings after each day's games in turn, a new player starting at 1500/350/0.06."""
    players: dict[str, list[float]] = {}
    for games in days:
        for w, l_ in games:
            for name in (w, l_):
                players.setdefault(name, [1500.0, 350.0, 0.06])
        players = paper_period(players, games)
    return players


def test_the_papers_worked_example_to_1e_4():
    # The player at 1500/200 beats 1400/30, loses to 1550/100 and to 1700/300: the paper gives mu' = -0.2069,
    # phi' = 0.8722, sigma' = 0.05999, that is r' = 1464.06 and RD' = 151.52 (its rounding of the same numbers).
    after = rate(Rating(1500, 200, 0.06), [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0), (Rating(1700, 300), 0.0)])
    assert after.mu == pytest.approx(-0.2069, abs=1e-4)
    assert after.phi == pytest.approx(0.8722, abs=1e-4)
    assert after.volatility == pytest.approx(0.05999, abs=1e-4)
    assert after.rating == pytest.approx(1464.06, rel=1e-4)
    assert after.rd == pytest.approx(151.52, rel=1e-4)
    assert after.volatility == pytest.approx(0.05999, rel=1e-4)
    mine = paper_period({"me": [1500, 200, 0.06], "a": [1400, 30, 0.06], "b": [1550, 100, 0.06], "c": [1700, 300, 0.06]}, [("me", "a"), ("b", "me"), ("c", "me")])
    assert [after.rating, after.rd, after.volatility] == pytest.approx(mine["me"], abs=1e-9)


def test_away_from_1500_the_volatility_step_uses_phi():
    # The package `glicko2` 2.1.0 puts mu² where the paper's f has phi²: the same example at 1800 tells them apart
    # (it gives sigma' = 0.0600016 here, the paper's steps 0.0600044).
    after = rate(Rating(1800, 200, 0.06), [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0), (Rating(1700, 300), 0.0)])
    mine = paper_period({"me": [1800, 200, 0.06], "a": [1400, 30, 0.06], "b": [1550, 100, 0.06], "c": [1700, 300, 0.06]}, [("me", "a"), ("b", "me"), ("c", "me")])
    assert [after.rating, after.rd, after.volatility] == pytest.approx(mine["me"], abs=1e-9)
    assert after.volatility == pytest.approx(0.0600044, abs=1e-7)


def test_an_idle_period_grows_only_the_rd():
    after = rate(Rating(1620, 80, 0.07), [])
    assert (after.rating, after.volatility) == (1620, 0.07)
    assert after.rd == pytest.approx(173.7178 * math.sqrt((80 / 173.7178) ** 2 + 0.07**2), abs=1e-12)


DAYS = [
    [("Ann", "Bob"), ("Ann", "Cy"), ("Bob", "Cy")],
    [("Cy", "Ann")],  # Bob idle
    [("Bob", "Ann"), ("Bob", "Ann"), ("Dee", "Cy")],  # Dee new
    [("Ann", "Dee"), ("Cy", "Bob")],
]


def test_a_walk_over_several_days_equals_the_papers_steps_to_1e_6():
    results = [Result(f"2026-03-0{day + 1}", w, l_, min(w, l_)) for day, games in enumerate(DAYS) for w, l_ in games]
    walked = walk(results)
    expected = paper_walk(DAYS)
    assert set(walked.ratings) == set(expected)
    for name, (r, rd, sig) in expected.items():
        got = walked.ratings[name]
        assert (got.rating, got.rd, got.volatility) == pytest.approx((r, rd, sig), abs=1e-6), name
    assert [day for day, _ in walked.history["Bob"]] == ["2026-03-01", "2026-03-03", "2026-03-04"]
    assert [day for day, _ in walked.history["Dee"]] == ["2026-03-03", "2026-03-04"]


def test_the_walk_forward_uses_no_games_own_result():
    results = [Result(f"2026-03-0{day + 1}", w, l_, min(w, l_)) for day, games in enumerate(DAYS) for w, l_ in games]
    before = walk(results).predicted
    flipped_at = 4  # the first game of day 3
    changed = list(results)
    game = changed[flipped_at]
    changed[flipped_at] = Result(game.period, game.loser, game.winner, game.first)
    after = walk(changed).predicted
    same_day = [i for i, r in enumerate(results) if r.period == game.period]
    for i, (old, new) in enumerate(zip(before, after)):
        if results[i].period <= game.period:
            assert old.chance == new.chance, i  # its own prediction and those of its day are made before it is known
        else:
            assert old.chance != new.chance, i  # every later one moves
    assert flipped_at in same_day
    # The first day is predicted from nothing: every chance even.
    assert [p.chance for p in before[:3]] == [0.5, 0.5, 0.5]


def test_expected_score_is_glickmans_formula_and_adds_to_one():
    a, b = Rating(1700, 60), Rating(1500, 120)
    q = math.log(10) / 400
    g = 1 / math.sqrt(1 + 3 * q**2 * (60**2 + 120**2) / math.pi**2)
    assert expected_score(a, b) == pytest.approx(1 / (1 + 10 ** (-g * 200 / 400)), abs=1e-12)
    assert expected_score(a, b) + expected_score(b, a) == pytest.approx(1, abs=1e-12)
    assert expected_score(Rating(), Rating()) == 0.5


def test_prediction_scores_and_the_coin():
    results = [Result("d1", "A", "B", "A"), Result("d2", "A", "B", "A"), Result("d3", "B", "A", "A")]
    walked = walk(results)
    scored = prediction(walked.predicted)
    chances = [p.chance for p in walked.predicted]
    outcomes = [1, 1, 0]
    assert scored.games == 3
    assert scored.log_loss == pytest.approx(-sum(math.log(p if y else 1 - p) for p, y in zip(chances, outcomes)) / 3)
    assert scored.brier == pytest.approx(sum((p - y) ** 2 for p, y in zip(chances, outcomes)) / 3)
    assert chances[0] == 0.5 and chances[1] > 0.5 and chances[2] > 0.5
    assert scored.called == pytest.approx((0.5 + 1 + 0) / 3)
    assert scored.as_json()["coin_flip"] == {"log_loss": 0.6931, "brier": 0.25, "called": 0.5}
    assert prediction([]).as_json()["log_loss"] is None


def integrated_quantile(q: float, a: int, b: int) -> float:
    """The Beta(a, b) quantile by Simpson's rule over its density on a fine grid, then a linear step between the
    grid points: no binomial sum, no bisection of a CDF."""
    n = 20000
    h = 1.0 / n
    log_beta = math.lgamma(a) + math.lgamma(b) - math.lgamma(a + b)

    def density(x: float) -> float:
        if x <= 0 or x >= 1:
            return (1.0 if a == 1 else 0.0) if x <= 0 else (1.0 if b == 1 else 0.0)
        return math.exp((a - 1) * math.log(x) + (b - 1) * math.log(1 - x) - log_beta)

    total = 0.0
    for i in range(0, n, 2):
        x0, x1, x2 = i * h, (i + 1) * h, (i + 2) * h
        step = h / 3 * (density(x0) + 4 * density(x1) + density(x2))
        if total + step >= q:
            return x0 + (q - total) / step * (x2 - x0)
        total += step
    return 1.0


@pytest.mark.parametrize(("wins", "losses"), [(0, 0), (3, 1), (40, 10)])
def test_the_pair_interval_against_numeric_integration(wins, losses):
    low, high = Share(wins, losses).interval
    assert low == pytest.approx(integrated_quantile(0.025, wins + 1, losses + 1), abs=2e-4)
    assert high == pytest.approx(integrated_quantile(0.975, wins + 1, losses + 1), abs=2e-4)


def test_the_interval_hand_checked():
    # Beta(1, 1) is uniform; Beta(4, 2)'s CDF is 5x⁴ - 4x⁵, solved here by hand for 0.025.
    assert Share(0, 0).interval == pytest.approx((0.025, 0.975), abs=1e-12)
    assert beta_quantile(0.025, 4, 2) == pytest.approx(0.28358, abs=1e-5)
    assert Share(0, 0).share is None
    assert Share(3, 1).as_json() == {"wins": 3, "losses": 1, "share": 0.75, "interval": [pytest.approx(0.2836, abs=1e-4), pytest.approx(0.9473, abs=1e-4)]}


@pytest.mark.parametrize("bad", [(-0.1, 1, 1), (0.5, 0, 1), (1.5, 2, 2)])
def test_beta_quantile_refuses_nonsense(bad):
    with pytest.raises(ValueError):
        beta_quantile(*bad)

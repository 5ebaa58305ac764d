"""`ginscore.game.estimate`: Wilson's score interval against values worked by hand, and its coverage near 0 and 1,
where the textbook interval (share ± 1.96 standard errors) fails."""

from __future__ import annotations

import math
import random

import pytest

from ginscore.game.estimate import Z95, mean_interval, wilson

# Worked by hand, z = 1.96 (to the 4th decimal the same as Z95), n = 200:
#   0 of 200:   high = z²/(n + z²) = 3.8416/203.8416 = 0.018846
#   200 of 200: low = n/(n + z²) = 200/203.8416 = 0.981154
#   100 of 200: centre 0.5, half = z·sqrt(0.25/200 + z²/(4·200²)) / (1 + z²/200) = 1.96·0.035695/1.019208 = 0.068644
#   10 of 200:  p = 0.05, centre = (0.05 + 0.009604)/1.019208 = 0.058481,
#               half = 1.96·sqrt(0.0002375 + 0.00002401)/1.019208 = 1.96·0.016172/1.019208 = 0.031099
HAND_WORKED = [
    (0, 200, 0.0, 0.018846),
    (200, 200, 0.981154, 1.0),
    (100, 200, 0.431356, 0.568644),
    (10, 200, 0.027382, 0.089580),
]


@pytest.mark.parametrize("successes, count, low, high", HAND_WORKED)
def test_wilson_matches_values_worked_by_hand(successes, count, low, high):
    got = wilson(successes, count)
    assert got == pytest.approx((low, high), abs=2e-5)


def test_wilson_is_never_zero_wide_and_stays_within_0_and_1():
    for count in (1, 2, 7, 50, 2000):
        for successes in range(count + 1) if count < 60 else (0, 1, count // 2, count - 1, count):
            low, high = wilson(successes, count)
            assert 0.0 <= low <= successes / count <= high <= 1.0
            assert high - low > 0


@pytest.mark.parametrize("bad", [(1, 0), (-1, 5), (6, 5)])
def test_wilson_refuses_impossible_counts(bad):
    with pytest.raises(ValueError):
        wilson(*bad)


def test_mean_interval_is_the_normal_one():
    assert mean_interval(10.0, 2.0) == pytest.approx((10 - 2 * Z95, 10 + 2 * Z95))


def coverage(interval, share: float, count: int, runs: int, rng: random.Random) -> float:
    """How often `interval(successes, count)` holds the true share, over `runs` seeded binomial draws."""
    held = 0
    for _ in range(runs):
        successes = sum(rng.random() < share for _ in range(count))
        low, high = interval(successes, count)
        held += low <= share <= high
    return held / runs


def wald(successes: int, count: int) -> tuple[float, float]:
    share = successes / count
    half = Z95 * math.sqrt(share * (1 - share) / count)
    return share - half, share + half


@pytest.mark.parametrize("share", [0.005, 0.02, 0.5, 0.995])
def test_wilson_covers_about_95_percent_even_near_0_and_1(share):
    """A seeded simulation (400 runs of 200 hands each, well under a second): Wilson's interval holds the true
    share at least 90% of the time at every share tried; near the ends the textbook interval does far worse."""
    rng = random.Random(20261201)
    held = coverage(wilson, share, 200, 400, rng)
    assert held >= 0.90, held
    if share in (0.005, 0.995):
        assert coverage(wald, share, 200, 400, random.Random(20261201)) < 0.85

"""How sure a sampled figure is: intervals for a share and for a mean, at 95%.

A share of sampled hands gets Wilson's score interval, which stays honest near 0% and 100%: the
textbook interval (the share plus or minus 1.96 standard errors) shrinks to nothing when no sampled
hand, or every one, was a win, although the true share can be 0.5%. A mean gets the normal interval.
Below two samples there is no estimate of the error at all. A difference between two chances sampled in the
same worlds gets the interval of its own error, with the luck the two share taken out.
"""

from __future__ import annotations

import math

Z95 = 1.959963984540054
"""The normal quantile for a two-sided 95% interval."""


def wilson(successes: int, count: int, z: float = Z95) -> tuple[float, float]:
    """Wilson's score interval for a share of `successes` out of `count` trials, clipped to [0, 1]."""
    if count < 1 or not 0 <= successes <= count:
        raise ValueError(f"{successes} successes out of {count} trials")
    share = successes / count
    scale = 1 + z * z / count
    centre = (share + z * z / (2 * count)) / scale
    half = z * math.sqrt(share * (1 - share) / count + z * z / (4 * count * count)) / scale
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == count else min(1.0, centre + half)
    return low, high


def mean_interval(mean: float, standard_error: float, z: float = Z95) -> tuple[float, float]:
    """The normal interval around a sample mean."""
    return mean - z * standard_error, mean + z * standard_error


Estimate = tuple[float, "tuple[float, float] | None", tuple[float, ...]]
"""A chance as advise gives it: its value, its 95% interval (None when exact) and its samples world by world."""


def gap_interval(first: Estimate, second: Estimate) -> tuple[float, float] | None:
    """The 95% interval of the first chance less the second; None when both are exact. From their samples world by
    world where both have them (`difference_interval`: the luck they share taken out); else as two independent
    estimates, from their intervals."""
    if first[2] and second[2]:
        found = difference_interval(first[2], second[2])
    else:
        half = math.hypot(*(0.0 if interval is None else (interval[1] - interval[0]) / 2 for _, interval, _ in (first, second)))
        found = (first[0] - second[0] - half, first[0] - second[0] + half)
    return None if found is None or found[0] == found[1] else found


def difference_interval(first: tuple[float, ...], second: tuple[float, ...]) -> tuple[float, float] | None:
    """The 95% interval of `mean(first) - mean(second)`, two chances given by their samples, the `i`th of each
    drawn in advise's `i`th world (knocking now over every world, playing on over the first `rollouts`).

    The samples are common random numbers: two discards meet the same opponent hands and, playing on, the same
    shuffles, so their errors largely cancel in the difference. Its variance is each mean's variance less twice
    their covariance, estimated from the worlds both were sampled in (the covariance of two means whose samples
    share `m` worlds, out of `n1` and `n2`, is `m / (n1 * n2)` times the samples' own). A chance of one value is
    exact (no error); None when either has no value."""
    if not first or not second:
        return None
    mean_first, mean_second = sum(first) / len(first), sum(second) / len(second)
    variance = _variance(first) / len(first) + _variance(second) / len(second)
    shared = min(len(first), len(second))
    if shared >= 2:
        one, other = first[:shared], second[:shared]
        centre_one, centre_other = sum(one) / shared, sum(other) / shared
        covariance = sum((a - centre_one) * (b - centre_other) for a, b in zip(one, other)) / (shared - 1)
        variance -= 2 * covariance * shared / (len(first) * len(second))
    return mean_interval(mean_first - mean_second, math.sqrt(max(variance, 0.0)))


def _variance(values: tuple[float, ...]) -> float:
    """The sample variance; 0 for one value (an exact figure)."""
    if len(values) < 2:
        return 0.0
    mean = sum(values) / len(values)
    return sum((value - mean) ** 2 for value in values) / (len(values) - 1)

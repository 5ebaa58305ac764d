"""How sure a sampled figure is: intervals for a share and for a mean, at 95%.

A share of sampled hands gets Wilson's score interval, which stays honest near 0% and 100%: the
textbook interval (the share plus or minus 1.96 standard errors) shrinks to nothing when no sampled
hand, or every one, was a win, although the true share can be 0.5%. A mean gets the normal interval.
Below two samples there is no estimate of the error at all.
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

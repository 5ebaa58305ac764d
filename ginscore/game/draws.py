"""`random.Random.sample` and `choice` drawn with fewer calls: the same numbers from the same generator.

The opponent hands `advise` draws take some thirty random numbers each, two thousand hands a knock. Through the
standard methods each number costs three Python calls (`_randbelow`, `bit_length`, `getrandbits`), which is a fifth
of a review's time under Pyodide. These functions take the generator's `getrandbits` and ask it for exactly the
bits the standard methods ask for (CPython 3.11 to 3.14 share the algorithms), so a seed gives the same hands.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

T = TypeVar("T")

Bits = Callable[[int], int]
"""A generator's `getrandbits`."""

_WIDTHS = tuple(n.bit_length() for n in range(64))
"""`n.bit_length()` by n, for the sizes drawn from: a look-up, where the method is a call."""
_SMALL_SET = 21
"""`random.sample`'s size of a small set less an empty list's: below it, a list of the population is cheaper."""


def below(bits: Bits, n: int) -> int:
    """`Random._randbelow(n)`: a number from 0 to n - 1, n at least 1."""
    width = _WIDTHS[n] if n < len(_WIDTHS) else n.bit_length()
    r = bits(width)
    while r >= n:
        r = bits(width)
    return r


def choice(bits: Bits, items: Sequence[T]) -> T:
    """`Random.choice(items)`."""
    return items[below(bits, len(items))]


def sample(bits: Bits, population: Sequence[T], k: int) -> list[T]:
    """`Random.sample(population, k)`: k distinct items, in the order drawn."""
    n = len(population)
    if not 0 <= k <= n:
        raise ValueError("Sample larger than population or is negative")
    if n <= _set_size(k):
        pool = list(population)
        result = pool[:k]  # each place filled in turn below
        widths = _WIDTHS if n < len(_WIDTHS) else [size.bit_length() for size in range(n + 1)]
        for i, size in enumerate(range(n, n - k, -1)):
            width = widths[size]
            j = bits(width)
            while j >= size:
                j = bits(width)
            result[i] = pool[j]
            pool[j] = pool[size - 1]
        return result
    chosen: list[T] = []
    taken: set[int] = set()
    width = n.bit_length()
    while len(chosen) < k:
        j = bits(width)
        if j < n and j not in taken:
            taken.add(j)
            chosen.append(population[j])
    return chosen


def _set_size(k: int) -> int:
    """`random.sample`'s threshold: `21 + 4 ** ceil(log(3k, 4))` for k over 5 (computed without floats)."""
    if k <= 5:
        return _SMALL_SET
    power = 1
    while power < 3 * k:
        power *= 4
    return _SMALL_SET + power

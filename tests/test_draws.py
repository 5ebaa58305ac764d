"""`game.draws` draws what `random.Random`'s `sample` and `choice` draw, from the same generator state."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ginscore.game import draws


@settings(max_examples=400, deadline=None)
@given(seed=st.integers(0, 2**32), size=st.integers(1, 52), data=st.data())
def test_sample_draws_what_random_sample_draws(seed: int, size: int, data: st.DataObject) -> None:
    k = data.draw(st.integers(0, size))
    population = [1 << n for n in range(size)]
    theirs, ours = random.Random(seed), random.Random(seed)
    assert draws.sample(ours.getrandbits, population, k) == theirs.sample(population, k)
    assert ours.getstate() == theirs.getstate()


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**32), size=st.integers(1, 60))
def test_choice_draws_what_random_choice_draws(seed: int, size: int) -> None:
    items = list(range(size))
    theirs, ours = random.Random(seed), random.Random(seed)
    for _ in range(5):
        assert draws.choice(ours.getrandbits, items) == theirs.choice(items)
    assert ours.getstate() == theirs.getstate()


@pytest.mark.parametrize("k", [6, 7, 10, 21, 22, 30])
def test_both_ways_of_sampling_are_taken(k: int) -> None:
    """Both of `random.sample`'s branches (a list of the population, a set of picks), on each side of its bound."""
    for size in (k, 21, 22, 85, 86, 200):
        if k <= size:
            population = list(range(size))
            theirs, ours = random.Random(size * k), random.Random(size * k)
            assert draws.sample(ours.getrandbits, population, k) == theirs.sample(population, k)
            assert ours.getstate() == theirs.getstate()


def test_a_sample_larger_than_the_population_is_refused_as_random_refuses_it() -> None:
    with pytest.raises(ValueError, match="Sample larger than population"):
        draws.sample(random.Random(1).getrandbits, [1, 2], 3)

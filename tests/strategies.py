"""Hypothesis strategies shared by the lay-off and scoring properties."""

from __future__ import annotations

from hypothesis import strategies as st

from ginscore.game.cards import Card, Rank, Suit


def runs(longest: int) -> st.SearchStrategy[frozenset[Card]]:
    """Runs of 3 to `longest` cards of one suit, cut short at the king."""
    return st.builds(
        lambda suit, low, length: frozenset(Card(Rank(n), suit) for n in range(low, min(low + length, 14))),
        st.sampled_from(list(Suit)),
        st.integers(1, 11),
        st.integers(3, longest),
    ).filter(lambda run: len(run) >= 3)


SETS = st.builds(
    lambda rank, suits: frozenset(Card(rank, s) for s in suits),
    st.sampled_from(list(Rank)),
    st.sets(st.sampled_from(list(Suit)), min_size=3, max_size=4),
)

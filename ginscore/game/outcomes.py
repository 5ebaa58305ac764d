"""How a hand ends, seen from its dealer: dead, the dealer scores k, or the non-dealer scores k.

k is everything the hand adds to the winner's game score under the rules: the knock's points, the gin or big gin
bonus, the undercut bonus and any doubling. Boxes and end-of-game bonuses never decide who reaches the target, so
they are no part of it. `OutcomeCounts` holds hands counted (a table's history, or simulated hands);
`Outcomes` the shares the chance to win a game is solved from.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

DEALER = "dealer"
NON_DEALER = "non_dealer"
DEAD = "dead"
SIDES = (DEALER, NON_DEALER)


@dataclass(frozen=True)
class OutcomeCounts:
    """Hands counted by how they ended, from the dealer's view."""

    dead: int = 0
    """Hands that scored nothing: cancelled, or a tie where ties are not undercuts."""
    dealer: tuple[tuple[int, int], ...] = ()
    """(points, hands) where the dealer won the hand, points ascending."""
    non_dealer: tuple[tuple[int, int], ...] = ()
    """(points, hands) where the non-dealer won the hand, points ascending."""

    @classmethod
    def of(cls, results: Iterable[tuple[str, int]]) -> OutcomeCounts:
        """Counts from (side, points) pairs; side is `dealer`, `non_dealer` or `dead`."""
        counted: dict[str, Counter[int]] = {DEALER: Counter(), NON_DEALER: Counter()}
        dead = 0
        for side, points in results:
            if side == DEAD:
                dead += 1
            else:
                counted[side][points] += 1
        return cls(dead, tuple(sorted(counted[DEALER].items())), tuple(sorted(counted[NON_DEALER].items())))

    @property
    def hands(self) -> int:
        """How many hands were counted."""
        return self.dead + sum(n for _, n in self.dealer) + sum(n for _, n in self.non_dealer)

    def __add__(self, other: OutcomeCounts) -> OutcomeCounts:
        sides = {DEALER: Counter(dict(self.dealer)), NON_DEALER: Counter(dict(self.non_dealer))}
        sides[DEALER].update(dict(other.dealer))
        sides[NON_DEALER].update(dict(other.non_dealer))
        return OutcomeCounts(
            self.dead + other.dead, tuple(sorted(sides[DEALER].items())), tuple(sorted(sides[NON_DEALER].items()))
        )

    def shares(self) -> Outcomes:
        """The counts as shares of the hands; no hands at all is a `ValueError`."""
        total = self.hands
        if not total:
            raise ValueError("no hands were counted")
        return Outcomes(
            self.dead / total,
            tuple((k, n / total) for k, n in self.dealer),
            tuple((k, n / total) for k, n in self.non_dealer),
        )


@dataclass(frozen=True)
class Outcomes:
    """The chance of each way a hand ends, from the dealer's view; the shares add up to 1."""

    dead: float
    """The chance the hand scores nothing and the same dealer deals again."""
    dealer: tuple[tuple[int, float], ...]
    """(points, chance) of the dealer winning the hand with those points, points ascending."""
    non_dealer: tuple[tuple[int, float], ...]
    """(points, chance) of the non-dealer winning the hand with those points, points ascending."""

    def side(self, name: str) -> tuple[tuple[int, float], ...]:
        """The (points, chance) pairs of `dealer` or `non_dealer`."""
        return self.dealer if name == DEALER else self.non_dealer

    def as_dict(self) -> dict[str, object]:
        """The shares as JSON: `dead`, and `dealer` / `non_dealer` as {points: chance}."""
        return {
            DEAD: self.dead,
            DEALER: {str(k): p for k, p in self.dealer},
            NON_DEALER: {str(k): p for k, p in self.non_dealer},
        }


def blend(history: OutcomeCounts, baseline: Outcomes, prior: int) -> Outcomes:
    """`(history counts + prior x baseline) / (history hands + prior)`: the table's own hands, with the baseline
    counted as `prior` hands more. A `ValueError` when there is nothing to weigh (no history and no prior)."""
    total = history.hands + prior
    if total <= 0:
        raise ValueError("no hands and no prior")

    def mixed(counted: tuple[tuple[int, int], ...], base: tuple[tuple[int, float], ...]) -> tuple[tuple[int, float], ...]:
        shares: dict[int, float] = {k: prior * p for k, p in base} if prior else {}
        for k, n in counted:
            shares[k] = shares.get(k, 0.0) + n
        return tuple((k, shares[k] / total) for k in sorted(shares) if shares[k] > 0)

    dead = (history.dead + prior * baseline.dead) / total
    return Outcomes(dead, mixed(history.dealer, baseline.dealer), mixed(history.non_dealer, baseline.non_dealer))


def outcomes_from(shares: Mapping[str, object]) -> Outcomes:
    """`Outcomes` from its `as_dict` form."""
    dead = shares[DEAD]
    if not isinstance(dead, (int, float)):
        raise ValueError("dead must be a number")

    def pairs(name: str) -> tuple[tuple[int, float], ...]:
        side = shares[name]
        if not isinstance(side, Mapping):
            raise ValueError(f"{name} must be a table of points")
        return tuple(sorted((int(k), float(p)) for k, p in side.items()))

    return Outcomes(float(dead), pairs(DEALER), pairs(NON_DEALER))

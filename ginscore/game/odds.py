"""The chance to win a game: an exact solution of the game as a Markov chain over the two scores and who deals.

A state is (the dealer's score, the non-dealer's score); each hand ends as `Outcomes` says. The dealer of the
next hand follows `next_dealer`: the hand's winner, or the other player (`alternate`); after a dead hand the same
dealer deals again. Every hand that scores adds at least a point, so the states are solved from the target down,
each once; the dead hand's loop back to the same state is solved in closed form, dividing by one less its
chance. A hand won for 0 points (an undercut bonus of 0 and a tie) leads to the same scores, perhaps with the
other dealer: the two states are then solved together, two equations in two unknowns.

Each state sums over the points a hand may score: a dot product of the chances with solved states. It is taken
in C, from `math.dist` of the two lists and their sums of squares (kept as the states are solved), about ten
times quicker than a Python loop; the rounding it adds is a few parts in 10^14.
"""

from __future__ import annotations

import functools
import math

from .outcomes import Outcomes

MAX_TARGET = 1000
"""The highest target solved: the table holds every pair of scores below it."""
MAX_SPAN = 400
"""The most points from the lower score to the target solved: the work grows as its cube."""


def solvable(target: int, scores: tuple[int, int]) -> bool:
    """Whether the chance at these scores is solved: a target up to `MAX_TARGET`, at most `MAX_SPAN` points from the
    lower score (a game past the target always is)."""
    return max(scores) >= target or (target <= MAX_TARGET and target - min(scores) <= MAX_SPAN)


def chance_to_win(
    outcomes: Outcomes, target: int, next_dealer: str, scores: tuple[int, int], dealer: int, floor: int | None = None
) -> float:
    """The chance that the first player (index 0 of `scores`) wins the game, `dealer` (0 or 1) dealing next.

    At or past the target the game is over: 1 or 0. `floor`, at most either score, solves the states from there up
    once for many calls (by default, from the lower score).
    """
    first, second = scores
    if first >= target:
        return 1.0
    if second >= target:
        return 0.0
    low = min(first, second) if floor is None else min(floor, first, second)
    if not solvable(target, (low, low)):
        raise ValueError(f"a target of {target} from {low} points is past what is solved ({MAX_TARGET}, {MAX_SPAN} points)")
    table = dealer_table(outcomes, target, next_dealer, low)
    dealer_wins = table[first][second] if dealer == 0 else table[second][first]
    dealer_wins = min(1.0, max(0.0, dealer_wins))  # the dot products' rounding, a few parts in 10^14
    return dealer_wins if dealer == 0 else 1.0 - dealer_wins


@functools.lru_cache(maxsize=16)
def dealer_table(outcomes: Outcomes, target: int, next_dealer: str, low: int = 0) -> tuple[tuple[float, ...], ...]:
    """`table[a][b]`: the chance that the dealer wins the game, the dealer on `a` points and the other on `b`,
    for every score from `low` to `target - 1` (below `low` the entries are 0 and mean nothing)."""
    if next_dealer not in ("winner", "alternate"):
        raise ValueError(f"next_dealer must be 'winner' or 'alternate', not {next_dealer!r}")
    if not 0 <= low < target:
        raise ValueError(f"scores from {low} are not below the target {target}")
    winner_deals = next_dealer == "winner"
    size = target
    dealer_points, other_points = _dense(outcomes.dealer, size), _dense(outcomes.non_dealer, size)
    dealer_zero, other_zero = dealer_points[0], other_points[0]
    if sum(dealer_points[1:]) + sum(other_points[1:]) + _tail(outcomes.dealer, size) + _tail(outcomes.non_dealer, size) <= 0:
        raise ValueError("no hand ever scores a point: the game never ends")
    dealer_from, other_from = dealer_points[1:], other_points[1:]
    dealer_squares, other_squares = _squares(dealer_from), _squares(other_from)
    dealer_first = [dealer_from[:n] for n in range(size)]  # the first n chances, cut once rather than per state
    other_first = [other_from[:n] for n in range(size)]
    # dealer_reaches[m]: the chance the dealer scores m or more; dealer_short[m]: from 1 to m - 1 points
    dealer_reaches = _reaching(outcomes.dealer, size)
    dealer_short = _short(dealer_points)
    other_short = _short(other_points)
    rows = [[0.0] * size for _ in range(size)]
    columns = [[0.0] * size for _ in range(size)]
    # the sum of squares of each row's and column's entries solved so far: those past the state being solved
    row_squares, column_squares = [0.0] * size, [0.0] * size
    stay = outcomes.dead + (dealer_zero if winner_deals else 0.0)
    swap = other_zero + (0.0 if winner_deals else dealer_zero)
    keep = 1.0 - stay
    top = size - 1
    dist = math.dist
    for total in range(2 * top, 2 * low - 1, -1):
        first = max(low, total - top)
        last = min(top, total - low)
        known: dict[int, float] = {}
        for a in range(first, last + 1):
            b = total - a
            n = top - a  # the dealer's scores short of the target
            won = dealer_reaches[size - a]
            if n:
                if winner_deals:
                    later = columns[b][a + 1 :]
                    won += (dealer_squares[n] + column_squares[b] - dist(dealer_first[n], later) ** 2) / 2
                else:
                    later = rows[b][a + 1 :]
                    won += dealer_short[size - a] - (dealer_squares[n] + row_squares[b] - dist(dealer_first[n], later) ** 2) / 2
            m = top - b
            lost = 0.0
            if m:
                later = columns[a][b + 1 :]
                lost = other_short[size - b] - (other_squares[m] + column_squares[a] - dist(other_first[m], later) ** 2) / 2
            known[a] = won + lost
        for a in range(first, last + 1):
            b = total - a
            if not swap:
                value = known[a] / keep
            elif a == b:
                value = (known[a] + swap) / (keep + swap)
            else:  # F(a,b) = (c1 + swap (1 - F(b,a))) / keep, and F(b,a) the same way round
                c1, c2 = known[a] + swap, known[b] + swap
                value = (c1 * keep - swap * c2) / (keep * keep - swap * swap)
            rows[a][b] = value
            columns[b][a] = value
            row_squares[a] += value * value
            column_squares[b] += value * value
    return tuple(tuple(row) for row in rows)


def _squares(chances: list[float]) -> list[float]:
    """`squares[n]`: the sum of the squares of the first n chances."""
    squares = [0.0]
    for chance in chances:
        squares.append(squares[-1] + chance * chance)
    return squares


def _dense(pairs: tuple[tuple[int, float], ...], size: int) -> list[float]:
    """Chances by points 0 to `size - 1`; points at `size` or more are left to `_reaching`."""
    dense = [0.0] * size
    for points, share in pairs:
        if points < size:
            dense[points] += share
    return dense


def _tail(pairs: tuple[tuple[int, float], ...], size: int) -> float:
    return sum(share for points, share in pairs if points >= size)


def _reaching(pairs: tuple[tuple[int, float], ...], size: int) -> list[float]:
    """`reaching[m]`, m from 0 to `size`: the chance of scoring m points or more (from 1 up)."""
    dense = _dense(pairs, size)
    reaching = [0.0] * (size + 1)
    reaching[size] = _tail(pairs, size)
    for m in range(size - 1, 0, -1):
        reaching[m] = reaching[m + 1] + dense[m]
    reaching[0] = reaching[1]
    return reaching


def _short(dense: list[float]) -> list[float]:
    """`short[m]`, m from 0 to `len(dense)`: the chance of scoring from 1 to m - 1 points."""
    short = [0.0] * (len(dense) + 1)
    for m in range(2, len(dense) + 1):
        short[m] = short[m - 1] + dense[m - 1]
    return short

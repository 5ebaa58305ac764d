"""The chance to win a game: an exact solution of the game as a Markov chain over the two scores and who deals.

A state is (the dealer's score, the non-dealer's score); each hand ends as `Outcomes` says. The dealer of the
next hand follows `next_dealer`: the hand's winner, or the other player (`alternate`); after a dead hand the same
dealer deals again. Every hand that scores adds at least a point, so the states are solved from the target down,
each once; the dead hand's loop back to the same state is solved in closed form, dividing by one less its
chance. A hand won for 0 points (an undercut bonus of 0 and a tie) leads to the same scores, perhaps with the
other dealer: the two states are then solved together, two equations in two unknowns.

Each state sums over the points a hand may score: a dot product of the chances with solved states, the
dealer's points and the other's. Each is taken in C, from `math.dist` of the two tuples and their sums of
squares (kept as the states are solved), about ten times quicker than a Python loop; the rounding it adds is a
few parts in 10^14. The states with equal totals need nothing from each other, so a whole line of them is solved
at once by `map` over slices, with no Python loop per state; what is left is the dot products' own work.
"""

from __future__ import annotations

import math
from array import array
from operator import add, getitem, itemgetter, mul, sub

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


_SOLVED: dict[tuple[Outcomes, int, str], tuple[int, tuple[tuple[float, ...], ...]]] = {}
"""The table last solved for each model, target and rule, with the `low` it was solved from."""


def dealer_table(outcomes: Outcomes, target: int, next_dealer: str, low: int = 0) -> tuple[tuple[float, ...], ...]:
    """`table[a][b]`: the chance that the dealer wins the game, the dealer on `a` points and the other on `b`,
    for every score from `low` to `target - 1` (below `low` the entries mean nothing). Cached: a process solves
    each model, target and rule once from the lowest `low` asked so far; a state's chance depends only on the
    states above it, so a table solved from a lower `low` holds the same figures, bit for bit."""
    key = (outcomes, target, next_dealer)
    solved = _SOLVED.get(key)
    if solved is not None and solved[0] <= low:
        return solved[1]
    table = _dealer_table(outcomes, target, next_dealer, low)
    _remember(key, low, table)
    return table


def _remember(key: tuple[Outcomes, int, str], low: int, table: tuple[tuple[float, ...], ...]) -> None:
    """`table` kept for `dealer_table`, the oldest of 16 given up."""
    if key not in _SOLVED and len(_SOLVED) >= 16:
        _SOLVED.pop(next(iter(_SOLVED)))
    _SOLVED[key] = (low, table)


def table_bytes(table: tuple[tuple[float, ...], ...]) -> bytes:
    """A solved table as bytes (the floats' own, row after row), to hand to another process."""
    return array("d", [chance for row in table for chance in row]).tobytes()


def keep_table(outcomes: Outcomes, target: int, next_dealer: str, low: int, data: bytes) -> None:
    """`dealer_table(outcomes, target, next_dealer, low)` as another process solved it (`table_bytes`), kept as
    if solved here: the same figures, bit for bit."""
    chances = array("d")
    chances.frombytes(data)
    if len(chances) != target * target:
        raise ValueError(f"a table to {target} holds {target * target} chances, not {len(chances)}")
    _remember((outcomes, target, next_dealer), low, tuple(tuple(chances[a * target:(a + 1) * target])
                                                         for a in range(target)))


def _dealer_table(outcomes: Outcomes, target: int, next_dealer: str, low: int) -> tuple[tuple[float, ...], ...]:
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
    top = size - 1
    # A state's chance sums over the points the hand may score: the chances of n, n - 1, ... 1 points of the
    # dealer (n the dealer's scores short of the target) against the states they lead to, farthest first, and
    # the other player's m, m - 1, ... 1 the same way: two dot products, each one C call (see the docstring).
    # Under `winner` the dealer's wins count for the dealer and the other's against; under `alternate` both
    # lead to a state where the other player deals, so both count against.
    sign = 1.0 if winner_deals else -1.0
    # No hand scores more than `reach` points short of the target, so each dot product needs only the `reach`
    # nearest states: a row or a column starts with `reach` zeros, and its sum of squares is kept over the last
    # `reach` entries, each entry leaving it as it falls out of that window.
    reach = max([points for points in range(1, size) if dealer_points[points] or other_points[points]], default=1)
    dealer_backward = [tuple(dealer_points[min(n, reach):0:-1]) for n in range(size)]
    other_backward = [tuple(other_points[min(n, reach):0:-1]) for n in range(size)]
    nearest = [slice(-min(n, reach), None) if n else slice(0, 0) for n in range(size)]
    leaving = itemgetter(-reach - 1)
    dealer_squares, other_squares = _squares(dealer_points[1:]), _squares(other_points[1:])
    # what does not depend on later states, by n and by m: the dealer reaching the target in one hand (and,
    # under `alternate`, scoring short of it), the other scoring short of it, and the coefficients' squares
    dealer_reaches = _reaching(outcomes.dealer, size)
    dealer_short, other_short = _short(dealer_points), _short(other_points)
    half = sign / 2
    dealer_known = [
        dealer_reaches[n + 1] + (0.0 if winner_deals else dealer_short[n + 1]) + half * dealer_squares[n]
        for n in range(size)
    ]
    other_known = [other_short[m + 1] - other_squares[m] / 2 for m in range(size)]
    # the solved states by column (the other's score) and, under `alternate`, by row (the dealer's), as tuples
    # in the order they are solved: farthest score first, so that a state's successors in a row or a column
    # are the tuple's last entries, of which `nearest` hands `math.dist` those a hand can reach
    columns: list[tuple[float, ...]] = [(0.0,) * reach] * size
    rows: list[tuple[float, ...]] = [(0.0,) * reach] * size
    row_squares, column_squares = [0.0] * size, [0.0] * size  # each one's sum of squares over its window
    stay = outcomes.dead + (dealer_zero if winner_deals else 0.0)
    swap = other_zero + (0.0 if winner_deals else dealer_zero)
    keep = 1.0 - stay
    successors = columns if winner_deals else rows
    successor_squares = column_squares if winner_deals else row_squares
    dist = math.dist
    for total in range(2 * top, 2 * low - 1, -1):
        # the line of states with this total, a (the dealer's score) from `first` to `last` and b = total - a;
        # every list below is in that order, and the work is done in C, a line at a time
        first, last = max(low, total - top), min(top, total - low)
        by_a, by_b = slice(first, last + 1), slice(total - last, total - first + 1)
        by_n, by_m = slice(top - last, top - first + 1), slice(top - total + first, top - total + last + 1)
        known = [
            n_part + m_part + half * (b_squares - dealer_gap * dealer_gap) - (a_squares - other_gap * other_gap) / 2
            for n_part, m_part, b_squares, a_squares, dealer_gap, other_gap in zip(
                dealer_known[by_n][::-1], other_known[by_m], successor_squares[by_b][::-1], column_squares[by_a],
                map(dist, dealer_backward[by_n][::-1], map(getitem, successors[by_b][::-1], nearest[by_n][::-1])),
                map(dist, other_backward[by_m], map(getitem, columns[by_a], nearest[by_m])),
            )
        ]
        # a state's value joins its row and column once the whole line is solved: its mirror image, on the
        # same line, reads them as they were before it
        if swap:  # only with zero-point wins: (a, b) and (b, a) are solved together
            solved = []
            for a, chance in zip(range(first, last + 1), known):
                if a == total - a:
                    solved.append((chance + swap) / (keep + swap))
                else:  # F(a,b) = (c1 + swap (1 - F(b,a))) / keep, and F(b,a) the same way round
                    c1, c2 = chance + swap, known[total - a - first] + swap
                    solved.append((c1 * keep - swap * c2) / (keep * keep - swap * swap))
        else:
            solved = [chance / keep for chance in known]
        squared = list(map(mul, solved, solved))
        backward = solved[::-1]
        columns[by_b] = map(add, columns[by_b], zip(backward))
        gone = list(map(leaving, columns[by_b]))
        column_squares[by_b] = map(sub, map(add, column_squares[by_b], squared[::-1]), map(mul, gone, gone))
        if not winner_deals:
            rows[by_a] = map(add, rows[by_a], zip(solved))
            gone = list(map(leaving, rows[by_a]))
            row_squares[by_a] = map(sub, map(add, row_squares[by_a], squared), map(mul, gone, gone))
    # columns[b][i] is the state (top - i, b): read across the columns, farthest a first
    across = list(zip(*columns[low:]))[:reach - 1:-1]
    return tuple((0.0,) * size if a < low else (0.0,) * low + across[a - low] for a in range(size))


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

"""What the opponent can lay off onto a knock, and their best response.

The opponent's own melds and lay-offs are chosen together: every feasible set of lay-offs is
tried, and the rest of the opponent's hand is solved exactly. Lay-offs onto a run chain from
either end (8 then 9 onto 5-6-7), so from each end the feasible choices are the prefixes of the
chain of cards the opponent holds there; a 3-card set takes the fourth card of its rank.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import product

from .cards import Hand
from .melds import RANK_COLUMNS, SUIT_SHIFTS, Arrangement, arrangements, is_set, min_deadwood


def _chain(start: int, step_up: bool, opponent: int, lane_edge: int) -> list[int]:
    """Prefixes of the run of cards the opponent holds beyond one end of a run (0 first)."""
    prefixes, taken, card = [0], 0, start
    while card and opponent & card:
        taken |= card
        prefixes.append(taken)
        if card & lane_edge:
            break
        card = card << 1 if step_up else card >> 1
    return prefixes


def layoff_choices(melds: tuple[int, ...], opponent: int) -> list[int]:
    """Every feasible set of cards the opponent can lay off onto these melds, as masks."""
    ends, first = _ends(melds)
    if not opponent & first:
        return [0]
    per_end: list[list[int]] = []
    for start, step_up, edge in ends:
        if step_up is None:  # a three-card set: its fourth card
            fourth = start & opponent
            if fourth:
                per_end.append([0, fourth])
            continue
        options = _chain(start, step_up, opponent, edge)
        if len(options) > 1:
            per_end.append(options)
    if len(per_end) == 1:  # one end's prefixes: distinct, and already fewest cards first
        return per_end[0]
    return sorted({_union(combo) for combo in product(*per_end)}, key=int.bit_count)


def first_layoffs(melds: tuple[int, ...]) -> int:
    """Every card that could be the first laid off onto `melds` (next to a run's end, or a set's fourth): an
    opponent holding none of them lays off nothing."""
    return _ends(melds)[1]


_ENDS: dict[tuple[int, ...], tuple[tuple[tuple[int, bool | None, int], ...], int]] = {}
"""`_ends` by its melds: one knock's melds meet many opponent hands."""


def _ends(melds: tuple[int, ...]) -> tuple[tuple[tuple[int, bool | None, int], ...], int]:
    """Where cards can be laid off on `melds`, in their order: for a three-card set (its fourth card, None, 0), for
    a run (the card below it, False, the ace) then (the card above it, True, the king), a run ending at the ace or
    the king having no card on that side; and every such first card, as one mask."""
    found = _ENDS.get(melds)
    if found is None:
        ends: list[tuple[int, bool | None, int]] = []
        for meld in melds:
            low = meld & -meld
            if is_set(meld):
                if meld.bit_count() == 3:
                    ends.append((RANK_COLUMNS[(low.bit_length() - 1) % 16] & ~meld, None, 0))
                continue
            high = 1 << (meld.bit_length() - 1)
            shift = SUIT_SHIFTS[(low.bit_length() - 1) // 16]
            ace, king = 1 << shift, 1 << (shift + 12)
            ends.append((0 if low & ace else low >> 1, False, ace))
            ends.append((0 if high & king else high << 1, True, king))
        first = _union(tuple(start for start, _, _ in ends))
        if len(_ENDS) >= 1 << 16:
            _ENDS.clear()
        found = _ENDS[melds] = (tuple(ends), first)
    return found


def _union(masks: tuple[int, ...]) -> int:
    total = 0
    for mask in masks:
        total |= mask
    return total


@dataclass(frozen=True)
class Response:
    """The opponent's answer to a knock."""

    deadwood: int
    """The opponent's count after their own melds and lay-offs."""
    layoffs: Hand
    """The cards laid off onto the knocker's melds."""
    spread: Arrangement
    """The opponent's own melds and deadwood, without the laid-off cards."""


_LAYOFFS: dict[tuple[tuple[int, ...], int], tuple[int, int]] = {}
"""`best_layoff` by its arguments: the same knock meets the same opponent hands across discards and hands."""


def best_layoff(melds: tuple[int, ...], opponent: int, own: int | None = None) -> tuple[int, int]:
    """(the opponent's least count, the lay-offs reaching it), fewest lay-offs first on a tie. `own`, when the
    caller knows it, is `min_deadwood(opponent)`: the count laying off nothing, which is then not solved again."""
    key = (melds, opponent)
    found = _LAYOFFS.get(key)
    if found is None:
        if len(_LAYOFFS) >= 1 << 20:
            _LAYOFFS.clear()
        found = _LAYOFFS[key] = _best_layoff(melds, opponent, min_deadwood(opponent) if own is None else own)
    return found


def _best_layoff(melds: tuple[int, ...], opponent: int, own: int) -> tuple[int, int]:
    best, chosen = own, 0
    for layoffs in layoff_choices(melds, opponent)[1:]:  # the first lays off nothing
        count = min_deadwood(opponent & ~layoffs)
        if count < best:
            best, chosen = count, layoffs
    return best, chosen


def best_response(knock: Arrangement | None, opponent: Hand) -> Response:
    """The opponent's best response; against gin (`knock` None or without deadwood) nothing is laid off."""
    melds = () if knock is None or not knock.deadwood_cards else tuple(m.mask for m in knock.melds)
    count, layoffs = best_layoff(melds, opponent.mask)
    spread = next(arrangements(opponent.mask & ~layoffs, count))
    return Response(count, Hand(layoffs), spread)


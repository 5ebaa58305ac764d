"""The exact meld solver: minimum deadwood, best discards, and every arrangement.

Speed comes from splitting the problem. Runs never cross suits, so once the sets are chosen
each suit's 13-bit lane is solved alone, by tables filled lazily and kept for the process.
Only ranks with three or more cards can form sets, and a hand has few of those, so the
choices of sets are few. The search functions take bitmasks (`Hand.mask`, see `cards.Hand`);
`arrangements` also takes a `Hand`, and `solve` takes cards.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from itertools import combinations, product

from .cards import LANE_BITS, Card, Hand

LANE = (1 << 13) - 1
SUIT_SHIFTS = (0, LANE_BITS, 2 * LANE_BITS, 3 * LANE_BITS)
_VALUES = tuple(min(i + 1, 10) for i in range(13))
_NO_DISCARD = 1 << 30


class _RunTable(dict):
    """Lane pattern -> least deadwood of that suit's cards when they form runs only."""

    def __missing__(self, lane: int) -> int:
        low = lane & -lane
        i = low.bit_length() - 1
        best = _VALUES[i] + self[lane ^ low]
        run, k = low, i + 1
        while lane >> k & 1:
            run |= 1 << k
            if k - i >= 2:
                rest = self[lane & ~run]
                if rest < best:
                    best = rest
            k += 1
        self[lane] = best
        return best


class _DiscardTable(dict):
    """Lane pattern -> (its run deadwood; the least change to it that discarding one of its cards makes, below 0
    where a deadwood card goes; the mask of such cards). An empty lane has no discard: its change is `_NO_DISCARD`,
    which never wins."""

    def __missing__(self, lane: int) -> tuple[int, int, int]:
        best, cards, rest = _NO_DISCARD, 0, lane
        while rest:
            low = rest & -rest
            rest ^= low
            value = _RUNS[lane ^ low]
            if value < best:
                best, cards = value, low
            elif value == best:
                cards |= low
        run = _RUNS[lane]
        found = self[lane] = (run, best - run if cards else _NO_DISCARD, cards)
        return found


class _SetChoiceTable(dict):
    """The cards of a hand at ranks held three or four times -> every way to take sets from them.

    Each way is the mask of cards the sets use; 0 (no set at all) is always one of them.
    """

    def __missing__(self, cards: int) -> tuple[int, ...]:
        per_rank = []
        for rank in range(13):
            column = cards & RANK_COLUMNS[rank]
            if column:
                per_rank.append(_set_masks(column))
        choices = tuple(sorted({sum(combo) for combo in product(*per_rank)}))
        self[cards] = choices
        return choices


class _LaneSpreadTable(dict):
    """Lane pattern -> (its runs, lowest first; its deadwood cards): the first least-deadwood layout of that
    suit alone in the order `arrangements` tries, as lane masks."""

    def __missing__(self, lane: int) -> tuple[tuple[int, ...], int]:
        found = _lane_spread(lane, False)
        assert found is not None  # a lane whose lowest card may start a run always has one
        self[lane] = found
        return found


class _SuitSpreadTable(dict):
    """A hand's cards of one suit, in place -> `_LANE_SPREADS` of their lane, moved back into place."""

    def __missing__(self, cards: int) -> tuple[tuple[int, ...], int]:
        shift = (cards.bit_length() - 1) // LANE_BITS * LANE_BITS
        runs, dead = _LANE_SPREADS[cards >> shift]
        found = tuple(run << shift for run in runs), dead << shift
        self[cards] = found
        return found


RANK_COLUMNS = tuple(sum(1 << (shift + rank) for shift in SUIT_SHIFTS) for rank in range(13))
_RUNS = _RunTable({0: 0})
_DISCARDS = _DiscardTable({0: (0, _NO_DISCARD, 0)})
_SET_CHOICES = _SetChoiceTable()
_LANE_SPREADS = _LaneSpreadTable({0: ((), 0)})
_SUIT_SPREADS = _SuitSpreadTable({0: ((), 0)})


def _set_masks(column: int) -> list[int]:
    """The sets one rank's three or four cards can form: none, all of them, or (of four) each three."""
    if column.bit_count() == 3:
        return [0, column]
    return [0, column, *(column ^ bit for bit in bits_of(column))]


def bits_of(mask: int) -> Iterator[int]:
    """The mask's cards as single bits, lowest first."""
    while mask:
        low = mask & -mask
        yield low
        mask ^= low


def _set_columns(hand: int) -> int:
    """The hand's cards at ranks it holds three or four times."""
    a, b, c, d = hand & LANE, hand >> 16 & LANE, hand >> 32 & LANE, hand >> 48 & LANE
    triples = (a & b & (c | d)) | (c & d & (a | b))
    return hand & (triples | triples << 16 | triples << 32 | triples << 48)


def min_deadwood(hand: int) -> int:
    """The least deadwood of a hand of any size, over every arrangement of runs and sets."""
    runs = _RUNS
    # `_set_columns`, inlined: this is the hottest line of the solver.
    a, b, c, d = hand & LANE, hand >> 16 & LANE, hand >> 32 & LANE, hand >> 48 & LANE
    triples = (a & b & (c | d)) | (c & d & (a | b))
    if not triples:
        return runs[a] + runs[b] + runs[c] + runs[d]
    best = 1 << 30
    for used in _SET_CHOICES[hand & (triples | triples << 16 | triples << 32 | triples << 48)]:
        rest = hand ^ used
        value = runs[rest & LANE] + runs[rest >> 16 & LANE] + runs[rest >> 32 & LANE] + runs[rest >> 48]
        if value < best:
            best = value
            if not best:
                break
    return best


def min_after_discard(hand: int) -> tuple[int, int, bool]:
    """For an 11-card hand: (least deadwood after one discard, mask of every such discard, big gin).

    One search over the 11 cards: the discard is a highest-value deadwood card of an
    arrangement, so per suit the table keeps the best lane after losing one of its cards.
    """
    lanes = _DISCARDS
    best, chosen, big_gin = 1 << 30, 0, False
    # `_set_columns` inlined, and one table look-up a suit: the opponent hands `advise` draws call this some
    # fourteen thousand times a hand.
    a, b, c, d = hand & LANE, hand >> 16 & LANE, hand >> 32 & LANE, hand >> 48 & LANE
    triples = (a & b & (c | d)) | (c & d & (a | b))
    for used in _SET_CHOICES[hand & (triples | triples << 16 | triples << 32 | triples << 48)] if triples else (0,):
        if used:  # no set (0) comes first, while a, b, c and d are still the whole hand's lanes
            rest = hand ^ used
            a, b, c, d = rest & LANE, rest >> 16 & LANE, rest >> 32 & LANE, rest >> 48
        run_a, change_a, cards_a = lanes[a]
        run_b, change_b, cards_b = lanes[b]
        run_c, change_c, cards_c = lanes[c]
        run_d, change_d, cards_d = lanes[d]
        total = run_a + run_b + run_c + run_d
        if not total:
            big_gin = True
        change = min(change_a, change_b, change_c, change_d)
        value = total + change
        if value <= best:
            cards = ((cards_a if change_a == change else 0) | (cards_b << 16 if change_b == change else 0)
                     | (cards_c << 32 if change_c == change else 0) | (cards_d << 48 if change_d == change else 0))
            if value < best:
                best, chosen = value, cards
            else:
                chosen |= cards
    return best, chosen, big_gin


@dataclass(frozen=True)
class Arrangement:
    """One way to lay out a hand."""

    melds: tuple[Hand, ...]
    """The runs and sets, each a `Hand`, lowest first."""
    deadwood_cards: Hand
    """The cards in no meld."""

    @property
    def deadwood(self) -> int:
        """The value of the deadwood cards."""
        return self.deadwood_cards.value

    def meld_cards(self) -> list[list[Card]]:
        """Each meld's cards, runs in rank order."""
        return [sorted(meld, key=lambda card: (card.rank, card.suit)) for meld in self.melds]

    def card_lists(self) -> list[list[str]]:
        """The melds as lists of card notation, as the JSON output gives them."""
        return [[str(card) for card in meld] for meld in self.meld_cards()]

    def __str__(self) -> str:
        groups = [" ".join(meld) for meld in self.card_lists()]
        if self.deadwood_cards:
            groups.append(str(self.deadwood_cards))
        return " | ".join(groups)


def is_set(meld: int) -> bool:
    """Whether a meld's cards share one rank (otherwise it is a run)."""
    return meld.bit_count() >= 3 and _one_rank(meld)


def _one_rank(mask: int) -> bool:
    folded = (mask | mask >> 16 | mask >> 32 | mask >> 48) & LANE
    return folded & (folded - 1) == 0


def is_meld(mask: int) -> bool:
    """Whether the cards form one run or one set."""
    if mask.bit_count() < 3:
        return False
    if _one_rank(mask):
        return True
    for shift in SUIT_SHIFTS:
        lane = mask >> shift & LANE
        if lane:
            low = lane & -lane
            return lane << shift == mask and (lane + low) & lane == 0
    return False


def arrangements(hand: Hand | int, limit: int | None = None) -> Iterator[Arrangement]:
    """Every arrangement with deadwood at most `limit`; by default, every one with the least deadwood.

    Two runs of one suit that touch (3-4-5 and 6-7-8) are given only as the single longer run:
    they spread, count and take lay-offs alike.
    """
    mask = hand.mask if isinstance(hand, Hand) else hand
    for melds, dead in arrangement_masks(mask, limit):
        yield Arrangement(tuple(Hand(m) for m in sorted(melds, key=_meld_order)), Hand(dead))


def arrangement_masks(hand: int, limit: int | None = None) -> Iterator[tuple[list[int], int]]:
    """`arrangements` as (meld masks, deadwood mask), for searches that try many."""
    return _arrange(hand, min_deadwood(hand) if limit is None else limit, 0)


def _meld_order(meld: int) -> tuple[int, int]:
    low = meld & -meld
    bit = low.bit_length() - 1
    return bit % 16, bit // 16


def _arrange(rest: int, budget: int, run_ends: int) -> Iterator[tuple[list[int], int]]:
    """Lowest card first: it is deadwood, starts a run, or is the lowest card of a set."""
    if not rest:
        yield [], 0
        return
    low = rest & -rest
    bit = low.bit_length() - 1
    rank = bit % 16
    value = _VALUES[rank]
    if value <= budget and min_deadwood(rest ^ low) <= budget - value:
        for melds, dead in _arrange(rest ^ low, budget - value, run_ends):
            yield melds, dead | low
    if not run_ends & (low >> 1):
        run, k = low, 1
        while rank + k < 13 and rest & (low << k):
            run |= low << k
            k += 1
            if k >= 3 and min_deadwood(rest ^ run) <= budget:
                for melds, dead in _arrange(rest ^ run, budget, run_ends | (low << (k - 1))):
                    yield [run, *melds], dead
    column = rest & RANK_COLUMNS[rank]
    others = [b for b in (low << 16, low << 32, low << 48) if column & b]
    for size in (2, 3):
        for combo in combinations(others, size):
            group = low | sum(combo)
            if min_deadwood(rest ^ group) <= budget:
                for melds, dead in _arrange(rest ^ group, budget, run_ends):
                    yield [group, *melds], dead


def first_arrangement(hand: int) -> tuple[list[int], int]:
    """The arrangement `arrangement_masks` gives first, as (meld masks, deadwood mask), without its search.

    That search tries each card, lowest first, as deadwood, then as the start of a run (shortest
    first), then as the lowest card of a set; its first answer is the least in that order. Once the
    sets are chosen, each suit's lane is laid out alone, by a table; only when several choices of
    sets give the least deadwood are their layouts compared in that order.
    """
    a, b, c, d = hand & LANE, hand >> 16 & LANE, hand >> 32 & LANE, hand >> 48 & LANE
    triples = (a & b & (c | d)) | (c & d & (a | b))
    if not triples:
        return _lanes_spread(hand)
    columns = hand & (triples | triples << 16 | triples << 32 | triples << 48)
    runs = _RUNS
    best, tied = 1 << 30, [0]
    for used in _SET_CHOICES[columns]:
        rest = hand ^ used
        value = runs[rest & LANE] + runs[rest >> 16 & LANE] + runs[rest >> 32 & LANE] + runs[rest >> 48]
        if value < best:
            best, tied = value, [used]
        elif value == best:
            tied.append(used)
    layouts = []
    for used in tied:
        melds, dead = _lanes_spread(hand ^ used)
        melds += _SETS_IN[used]
        melds.sort(key=_lowest)
        layouts.append((melds, dead))
    if len(layouts) == 1:
        return layouts[0]
    return min(layouts, key=_search_order)


def _lowest(mask: int) -> int:
    return mask & -mask


class _SetsTable(dict):
    """A choice of sets, as the mask of their cards -> each set's mask (one set a rank)."""

    def __missing__(self, used: int) -> tuple[int, ...]:
        folded = (used | used >> 16 | used >> 32 | used >> 48) & LANE
        sets = tuple(used & RANK_COLUMNS[low.bit_length() - 1] for low in bits_of(folded))
        self[used] = sets
        return sets


_SETS_IN = _SetsTable()


def _lanes_spread(hand: int) -> tuple[list[int], int]:
    """Runs and deadwood of a hand with no sets: each lane's first layout, lanes in suit order."""
    suits = _SUIT_SPREADS
    runs_a, dead_a = suits[hand & LANE]
    runs_b, dead_b = suits[hand & LANE << 16]
    runs_c, dead_c = suits[hand & LANE << 32]
    runs_d, dead_d = suits[hand & LANE << 48]
    return [*runs_a, *runs_b, *runs_c, *runs_d], dead_a | dead_b | dead_c | dead_d


def _lane_spread(lane: int, blocked: bool) -> tuple[tuple[int, ...], int] | None:
    """The first layout of one lane with its least run deadwood, in the order `_arrange` tries.

    `blocked`: the card below the lowest one ended a run, so no run may start here (touching runs
    are given as one). Only then can there be no layout, and the answer is None.
    """
    low = lane & -lane
    i = low.bit_length() - 1
    least = _RUNS[lane]
    if _VALUES[i] + _RUNS[lane ^ low] == least:
        runs, dead = _LANE_SPREADS[lane ^ low]
        return runs, dead | low
    if blocked:
        return None
    run, k = low, i + 1
    while lane >> k & 1:
        run |= 1 << k
        rest = lane ^ run
        if k - i >= 2 and _RUNS[rest] == least:
            found = _lane_spread(rest, bool(rest >> (k + 1) & 1)) if rest else ((), 0)
            if found is not None:
                return (run, *found[0]), found[1]
        k += 1
    return None


def _search_order(layout: tuple[list[int], int]) -> list[tuple[int, ...]]:
    """A layout as the choices `_arrange` makes, card by card: deadwood, a run by its length, a set by its cards."""
    melds, dead = layout
    steps = sorted([(meld & -meld, meld) for meld in melds] + [(bit, 0) for bit in bits_of(dead)])
    return [(0,) if not meld else (2, meld) if is_set(meld) else (1, meld.bit_count()) for _, meld in steps]


@dataclass(frozen=True)
class Solution:
    """What `check` reports for a hand of 10 or 11 cards."""

    cards: tuple[Card, ...]
    """The hand, as typed."""
    deadwood: int
    """The least deadwood; for 11 cards, after the best discard."""
    discards: tuple[Card, ...]
    """For 11 cards, every discard that leaves the least deadwood; empty for 10."""
    big_gin: bool
    """For 11 cards, whether all eleven meld."""
    best: Arrangement
    """One arrangement with the least deadwood: of the ten cards kept for 11, or of all eleven for big gin."""


def solve(cards: tuple[Card, ...]) -> Solution:
    """Solve a hand of 10 or 11 cards (the caller checks the count)."""
    mask = Hand.of(cards).mask
    discards: tuple[Card, ...] = ()
    big_gin = False
    if len(cards) == 11:
        _, chosen, big_gin = min_after_discard(mask)
        discards = tuple(sorted(Hand(chosen), key=lambda c: (-c.value, c)))
        if not big_gin:
            mask ^= discards[0].bit
    melds, dead = first_arrangement(mask)
    best = Arrangement(tuple(Hand(m) for m in sorted(melds, key=_meld_order)), Hand(dead))
    return Solution(cards, best.deadwood, discards, big_gin, best)


def check_dict(solution: Solution, limit: int) -> dict:
    """The `check --json` object."""
    return {
        "cards": [str(card) for card in solution.cards],
        "deadwood": solution.deadwood,
        "melds": solution.best.card_lists(),
        "deadwood_cards": [str(card) for card in solution.best.deadwood_cards.sorted()],
        "discards": [str(card) for card in solution.discards],
        "knock_limit": limit,
        "can_knock": solution.deadwood <= limit,
        "gin": solution.deadwood == 0,
        "big_gin": solution.big_gin,
    }

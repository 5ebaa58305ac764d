"""The hand checker's answer as text: the `check --json` line, and the plain lines a piped `check` prints.

A stream of hands goes from text to bitmask to output without a `Card` or a `Hand` per card: a hand
typed the usual way is read by `quick_parse`, solved on its mask, and spelled from tables. Any other
hand takes the general path (`parse_cards`, `solve`) and gets the same answer, or its error.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from .cards import DECK, parse_cards, quick_parse, require_count
from .melds import LANE, Solution, first_arrangement, min_after_discard, solve

_AT_BIT = {card.bit.bit_length() - 1: card for card in DECK}
_NAMES = [str(_AT_BIT[bit]) if bit in _AT_BIT else "" for bit in range(64)]
_VALUES = [min(bit % 16 + 1, 10) for bit in range(64)]
_READING = [bit % 16 * 4 + bit // 16 for bit in range(64)]  # rank, then suit: how people read cards
_DISCARDING = [(10 - _VALUES[bit]) * 64 + _READING[bit] for bit in range(64)]  # the highest value first


class Answer(NamedTuple):
    """What `check` says about one hand, as card notation."""

    cards: list[str]
    """The hand, as typed."""
    deadwood: int
    """The least deadwood; for 11 cards, after the best discard."""
    melds: list[tuple[str, ...]]
    """The melds of the arrangement shown, lowest first, each in rank order."""
    deadwood_cards: list[str]
    """The cards of that arrangement in no meld, in rank order."""
    discards: list[str]
    """For 11 cards, every best discard, highest first; empty for 10."""
    big_gin: bool
    """For 11 cards, whether all eleven meld and the rules pay big gin; where they pay none, such a hand is a
    plain gin: one card is discarded and ten meld."""


def check_hand(text: str, big_gin_paid: bool = True) -> Answer:
    """Read and solve one hand of 10 or 11 cards typed as text, under rules that pay big gin or not; raise the
    errors `parse_cards` raises."""
    quick = quick_parse(text)
    if quick is None or len(quick[1]) not in (10, 11):
        cards = parse_cards(text)
        require_count(cards, (10, 11), "a hand to check")
        return answer_of(solve(cards), big_gin_paid)
    mask, bits = quick
    discards: list[str] = []
    big_gin = False
    if len(bits) == 11:
        _, chosen, all_meld = min_after_discard(mask)
        big_gin = all_meld and big_gin_paid
        order = sorted(_indices(chosen), key=_DISCARDING.__getitem__)
        discards = [_NAMES[bit] for bit in order]
        if not big_gin:
            mask ^= 1 << order[0]
    melds, dead = first_arrangement(mask)
    dead_names, deadwood = _spelled(dead)
    return Answer(
        list(map(_NAMES.__getitem__, bits)),
        deadwood,
        [names for _, names in sorted(map(_MELD_NAMES.__getitem__, melds))] if melds else [],
        list(dead_names),
        discards,
        big_gin,
    )


def answer_of(solution: Solution, big_gin_paid: bool = True) -> Answer:
    """The answer of the general path, from `solve`, under rules that pay big gin or not."""
    if solution.big_gin and not big_gin_paid:  # a plain gin: the highest card a meld can spare is discarded
        ten = solve(tuple(card for card in solution.cards if card != solution.discards[0]))
        return Answer(
            [str(card) for card in solution.cards],
            0,
            [tuple(meld) for meld in ten.best.card_lists()],
            [],
            [str(card) for card in solution.discards],
            False,
        )
    return Answer(
        [str(card) for card in solution.cards],
        solution.deadwood,
        [tuple(meld) for meld in solution.best.card_lists()],
        [str(card) for card in solution.best.deadwood_cards.sorted()],
        [str(card) for card in solution.discards],
        solution.big_gin,
    )


def json_line(answer: Answer, limit: int) -> str:
    """The `check --json` object on one line, byte for byte what `json.dumps(check_dict(...))` writes."""
    deadwood = answer.deadwood
    return (
        f'{{"cards": [{_quoted(answer.cards)}], "deadwood": {deadwood}, '
        f'"melds": [{", ".join(f"[{_quoted(meld)}]" for meld in answer.melds)}], '
        f'"deadwood_cards": [{_quoted(answer.deadwood_cards)}], "discards": [{_quoted(answer.discards)}], '
        f'"knock_limit": {limit}, "can_knock": {_JSON[deadwood <= limit]}, "gin": {_JSON[deadwood == 0]}, '
        f'"big_gin": {_JSON[answer.big_gin]}}}\n'
    )


def plain_report(answer: Answer, limit: int) -> str:
    """The labelled lines of `check` as plain text, the same as its rich report prints when piped."""
    groups = [" ".join(meld) for meld in answer.melds]
    if answer.deadwood_cards:
        groups.append(f"({' '.join(answer.deadwood_cards)})")
    rows = [("hand", " ".join(answer.cards))]
    if answer.discards:
        rows.append(("discard", " or ".join(answer.discards)))
    rows += [
        ("melds", " | ".join(groups) or "-"),
        ("deadwood", str(answer.deadwood)),
        ("verdict", verdict(answer.deadwood, answer.big_gin, limit)),
    ]
    width = max(len(label) for label, _ in rows) + 2
    return "".join(f"{label.ljust(width)}{value}\n" for label, value in rows)


def verdict(deadwood: int, big_gin: bool, limit: int, at_most: str = "<=") -> str:
    """Whether the hand can knock, in words: `gin`, `can knock (2 <= 10)`, `cannot knock (12 > 10)`."""
    if big_gin:
        return "big gin: all 11 cards meld"
    if deadwood == 0:
        return "gin"
    if deadwood <= limit:
        return f"can knock ({deadwood} {at_most} {limit})"
    if limit == 0:
        return "cannot knock: gin only"
    return f"cannot knock ({deadwood} > {limit})"


_JSON = {False: "false", True: "true"}


def _quoted(names: Sequence[str]) -> str:
    return '"' + '", "'.join(names) + '"' if names else ""


def _indices(mask: int) -> list[int]:
    found = []
    while mask:
        low = mask & -mask
        found.append(low.bit_length() - 1)
        mask ^= low
    return found


def _spelled(mask: int) -> tuple[tuple[str, ...], int]:
    """The cards of a mask in reading order (rank, then suit), and their value.

    The mask is turned rank-major (bit 4 x rank + suit), where reading order is bit order, and
    spelled 13 bits at a time from a table: a Python loop over the cards would cost twice as much.
    """
    lanes = _RANK_MAJOR
    cards = lanes[mask & LANE] | lanes[mask >> 16 & LANE] << 1 | lanes[mask >> 32 & LANE] << 2 | lanes[mask >> 48] << 3
    chunks = _CHUNKS
    names0, value0 = chunks[cards & 0x1FFF]
    names1, value1 = chunks[cards & 0x1FFF << 13]
    names2, value2 = chunks[cards & 0x1FFF << 26]
    names3, value3 = chunks[cards & 0x1FFF << 39]
    return names0 + names1 + names2 + names3, value0 + value1 + value2 + value3


class _RankMajorTable(dict[int, int]):
    """One suit's 13-bit lane -> the same ranks at bits 4 x rank."""

    def __missing__(self, lane: int) -> int:
        spread = sum(1 << 4 * rank for rank in range(13) if lane >> rank & 1)
        self[lane] = spread
        return spread


class _ChunkTable(dict[int, tuple[tuple[str, ...], int]]):
    """13 bits of a rank-major mask, in place -> the names of their cards in order, and their value."""

    def __missing__(self, chunk: int) -> tuple[tuple[str, ...], int]:
        bits = [_BY_READING[place] for place in range(52) if chunk >> place & 1]
        found = tuple(_NAMES[bit] for bit in bits), sum(_VALUES[bit] for bit in bits)
        self[chunk] = found
        return found


class _MeldNameTable(dict[int, tuple[int, tuple[str, ...]]]):
    """Meld mask -> (where it sorts, its cards in rank order); there are only 329 melds, each spelled once."""

    def __missing__(self, meld: int) -> tuple[int, tuple[str, ...]]:
        names, _ = _spelled(meld)
        found = _READING[(meld & -meld).bit_length() - 1], names
        self[meld] = found
        return found


_BY_READING = [suit * 16 + rank for rank in range(13) for suit in range(4)]  # reading place -> bit
_RANK_MAJOR = _RankMajorTable()
_CHUNKS = _ChunkTable()
_MELD_NAMES = _MeldNameTable()

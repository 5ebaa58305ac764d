"""The hand checker's answer as text: the `check --json` line, and the plain lines a piped `check` prints.

A stream of hands goes from text to bitmask to output without a `Card` or a `Hand` per card: a hand
typed the usual way is read by `quick_bits`, solved on its mask, and spelled from tables. Any other
hand takes the general path (`parse_cards`, `solve`) and gets the same answer, or its error.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from .cards import DECK, parse_cards, quick_bits, require_count
from .melds import Solution, first_arrangement, min_after_discard, solve

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
    """For 11 cards, whether all eleven meld."""


def check_hand(text: str) -> Answer:
    """Read and solve one hand of 10 or 11 cards typed as text; raise the errors `parse_cards` raises."""
    bits = quick_bits(text)
    if bits is None or len(bits) not in (10, 11):
        cards = parse_cards(text)
        require_count(cards, (10, 11), "a hand to check")
        return answer_of(solve(cards))
    mask = 0
    for bit in bits:
        mask |= 1 << bit
    discards: list[int] = []
    big_gin = False
    if len(bits) == 11:
        _, chosen, big_gin = min_after_discard(mask)
        discards = sorted(_indices(chosen), key=_DISCARDING.__getitem__)
        if not big_gin:
            mask ^= 1 << discards[0]
    melds, dead = first_arrangement(mask)
    dead_bits = sorted(_indices(dead), key=_READING.__getitem__)
    return Answer(
        [_NAMES[bit] for bit in bits],
        sum(_VALUES[bit] for bit in dead_bits),
        [_MELD_NAMES[meld] for meld in sorted(melds, key=_meld_reading)],
        [_NAMES[bit] for bit in dead_bits],
        [_NAMES[bit] for bit in discards],
        big_gin,
    )


def answer_of(solution: Solution) -> Answer:
    """The answer of the general path, from `solve`."""
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


def _meld_reading(meld: int) -> int:
    return _READING[(meld & -meld).bit_length() - 1]


class _MeldNameTable(dict[int, tuple[str, ...]]):
    """Meld mask -> its cards in rank order; there are only 329 melds, so each is spelled once."""

    def __missing__(self, meld: int) -> tuple[str, ...]:
        names = tuple(_NAMES[bit] for bit in sorted(_indices(meld), key=_READING.__getitem__))
        self[meld] = names
        return names


_MELD_NAMES = _MeldNameTable()

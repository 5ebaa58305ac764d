"""Two copies of one match, compared: the rule every front end merges by.

Two copies are of one match when both have an id (`Match.id`, written when the match started) and the ids are
equal (and, as a check on a hand-edited file, the same players, rules and first dealer); two files with different
ids are two matches, whatever else they share (two games started in one second). A file with an id and one
without are two matches too: an id is written when a match starts and never added to a file later, so the one
without was started apart (before ids, or written by hand). When both lack an id, they are one match when they
have the same players, rules and start (the time the match was started, and its first dealer). Then their hands
decide: the same hands (each hand alike but perhaps for the time it was entered, which two phones never share)
change nothing; when one copy's hands are the first hands of the other, the longer is kept; hands that differ at
some number are a conflict, which only a person can settle.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

from ..errors import RefusedError
from .records import HandRecord, Match, person_key, same_id

Kind = Literal["same", "mine_longer", "theirs_longer", "conflict"]


@dataclass(frozen=True)
class Comparison:
    """How two copies of one match stand."""

    kind: Kind
    differing: tuple[int, ...] = ()
    """For a conflict, the numbers (from 1) of the hands that differ, and of those only the longer copy has."""


def not_the_same(mine: Match, theirs: Match) -> RefusedError | None:
    """Why two matches are not copies of one match, naming the field that differs; None when they are."""
    if tuple(map(person_key, mine.players)) != tuple(map(person_key, theirs.players)):
        return RefusedError(f"is another match: its players are {_pair(theirs)}, not {_pair(mine)}", field="players")
    if mine.rules != theirs.rules or mine.hollywood != theirs.hollywood:
        return RefusedError("is another match: it is played by other rules", field="rules")
    both = mine.id is not None and theirs.id is not None
    if both and not same_id(mine.id, theirs.id):
        return RefusedError(f"is another match of {_pair(mine)}, started as a game of its own: its id is {theirs.id}, "
                            f"not {mine.id}", field="id")
    if (mine.id is None) != (theirs.id is None):  # ids are written when a match starts, never added to a file later
        return RefusedError(f"is another match of {_pair(mine)}, started as a game of its own: "
                            f"{'it has an id and this one none' if mine.id is None else 'this one has an id and it none'}",
                            field="id")
    if both:  # one id: the start may have been set right by hand in one copy, but the dealers decide every hand
        if person_key(mine.first_dealer) != person_key(theirs.first_dealer):
            return RefusedError(f"has another first dealer: {theirs.first_dealer}, not {mine.first_dealer}", field="first_dealer")
        return None
    if mine.created != theirs.created or person_key(mine.first_dealer) != person_key(theirs.first_dealer):
        return RefusedError(f"is another match of {_pair(mine)}: it was started at another time", field="created")
    return None


def compare(mine: Match, theirs: Match) -> Comparison:
    """How `theirs` stands to `mine`; a `RefusedError` naming the field when they are not one match."""
    refused = not_the_same(mine, theirs)
    if refused is not None:
        raise refused
    shorter = min(len(mine.hands), len(theirs.hands))
    unlike = [number for number, pair in enumerate(zip(mine.hands, theirs.hands), start=1) if not alike(*pair)]
    if unlike:
        longer = max(len(mine.hands), len(theirs.hands))
        return Comparison("conflict", (*unlike, *range(shorter + 1, longer + 1)))
    if len(theirs.hands) > shorter:
        return Comparison("theirs_longer")
    if len(mine.hands) > shorter:
        return Comparison("mine_longer")
    return Comparison("same")


def alike(mine: HandRecord, theirs: HandRecord) -> bool:
    """Whether two records are one hand: everything the same but perhaps when each was entered."""
    return mine == replace(theirs, recorded=mine.recorded)


def merged(mine: Match, theirs: Match) -> Match:
    """`mine` with the hands `theirs` has after them: the longer copy, mine's hands as they are."""
    return mine.with_hands(mine.hands + theirs.hands[len(mine.hands):])


def _pair(match: Match) -> str:
    return " and ".join(match.players)

"""A match's knocks reviewed on every core the machine lends (`match.review.Reviewer`).

This process first solves the chance table every knock asks (from 0, where each game starts), then forks
workers, which review the knocks after the first, in order, while it reviews the first: so the sheet, the model
and the solved table are theirs without being sent. Each knock's review is made from its own cards and seed, so the figures are the same, bit for bit, as one
after another. Only where a fork is safe (a system that forks, this process running no other thread) and worth
it (two or more cores, four or more knocks); else one after another here.
"""

from __future__ import annotations

import multiprocessing
import os
import sys
import threading
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

from ..game.odds import dealer_table, solvable
from ..match.review import each_here, hand_at

if TYPE_CHECKING:
    from ..game.outcomes import Outcomes
    from ..match.review import HandReview
    from ..match.tally import Sheet

FEWEST_KNOCKS = 4
"""Below this, starting the processes costs more than it saves."""

_HELD: list[tuple[Sheet, Outcomes]] = []
"""The sheet and model a forked process reviews the knocks of (set before the fork, so never sent)."""


def each_on_every_core(sheet: Sheet, outcomes: Outcomes, knocks: Sequence[int]) -> Iterator[HandReview]:
    """The knocks of the lines `knocks` reviewed on every core, in their order."""
    workers = min(cores(), len(knocks) - 1)
    if workers < 2 or len(knocks) < FEWEST_KNOCKS or not forks_safely():
        yield from each_here(sheet, outcomes, knocks)
        return
    rules = sheet.match.rules
    if solvable(rules.target, (0, 0)):  # the chance table every knock asks, from 0, where each game starts
        dealer_table(outcomes, rules.target, rules.next_dealer, 0)
    _HELD[:] = [(sheet, outcomes)]
    try:
        # Forked before the first knock is handed on: what is told of it may start a thread (a progress bar). What
        # is printed so far is written first, or each worker would write it again as it ends.
        sys.stdout.flush()
        sys.stderr.flush()
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            rest = pool.imap(_held_hand, knocks[1:])
            yield hand_at(sheet, outcomes, knocks[0])  # while the workers start on the others
            yield from rest
    finally:
        _HELD.clear()


def cores() -> int:
    """The cores this process may run on."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def forks_safely() -> bool:
    """Whether this process can fork workers: the system forks, and no other thread could hold a lock the fork
    would copy held."""
    return "fork" in multiprocessing.get_all_start_methods() and threading.active_count() == 1


def _held_hand(index: int) -> HandReview:
    sheet, outcomes = _HELD[0]
    return hand_at(sheet, outcomes, index)

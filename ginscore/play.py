"""Guided entry at the table: one question at a time, each hand saved as soon as it is complete.

The questions and answers go through callables, so the same loop serves a terminal and a test.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from .cards import parse_card
from .errors import GinscoreError, InputError
from .match import HandLine, HandRecord, Match, Sheet, canonical_cards, make_record

T = TypeVar("T")
CANCEL_WORDS = ("cancelled", "cancel", "c", "dead")
QUIT_WORDS = ("quit", "q", "exit")


class StopPlay(Exception):
    """End of input, or the player asked to stop: every complete hand is already saved."""


@dataclass
class Table:
    """How `play` talks to the people at the table, and how it saves."""

    ask: Callable[[str], str | None]
    """Show a question, return the answer, or None at the end of input."""
    tell: Callable[[str], None]
    show: Callable[[HandLine, Sheet], None]
    commit: Callable[[HandRecord], tuple[Match, Sheet]]
    """Save one more hand and return the match as it now stands on disk."""


def play(match: Match, sheet: Sheet, table: Table) -> Sheet:
    """Ask for hands until the match is over; raises StopPlay when the players stop early."""
    while not sheet.finished:
        score = ", ".join(f"{name} {total}" for name, total in sheet.summed("totals").items())
        table.tell(f"\nHand {len(sheet.lines) + 1}: {sheet.next_dealer} deals. Score: {score}.")
        try:
            record = make_record(match, **_ask_hand(match, table))
        except GinscoreError as error:
            table.tell(f"That hand cannot be recorded: {error}. Let's enter it again.")
            continue
        match, sheet = table.commit(record)
        table.show(sheet.lines[-1], sheet)
    return sheet


def _ask_hand(match: Match, table: Table) -> dict:
    a, b = match.players
    knocker = _ask(table, f"Who knocked? ({a}/{b}, or 'cancelled'; 'quit' to stop): ", lambda text: _knocker(match, text))
    if knocker is None:
        return {"cancelled": True}
    entry: dict = {"knocker": knocker}
    if match.rules.oklahoma:
        entry["upcard"] = str(_ask(table, "Up-card (the knock card): ", parse_card))
    cards = _ask(table, f"{knocker}'s cards (10 or 11, '|' between melds) or their count: ", _cards_or_count)
    if isinstance(cards, int):
        entry["deadwood"] = cards
        if cards == 0 and match.rules.big_gin:
            entry["big_gin"] = _ask(table, "Big gin, all 11 cards melded? (y/N): ", _yes_no)
    else:
        entry["cards"] = cards
        if "|" in cards and len(cards.replace("|", " ").split()) == 11:
            entry["discard"] = str(_ask(table, "The card discarded face down: ", parse_card))
    opponent = match.other(knocker)
    answer = _ask(table, f"{opponent}'s cards (10) or their count after lay-offs: ", _cards_or_count)
    entry["opponent_deadwood" if isinstance(answer, int) else "opponent_cards"] = answer
    return entry


def _ask(table: Table, question: str, parse: Callable[[str], T]) -> T:
    """Ask until the answer parses; a typo is explained, quoting it, and asked again."""
    while True:
        answer = table.ask(question)
        if answer is None or answer.strip().lower() in QUIT_WORDS:
            raise StopPlay
        try:
            return parse(answer.strip())
        except GinscoreError as error:
            table.tell(f"  {error}. Try again.")


def _knocker(match: Match, text: str) -> str | None:
    if text.lower() in CANCEL_WORDS:
        return None
    return match.player(text)


def _cards_or_count(text: str) -> str | int:
    if text.isdigit():
        return int(text)
    if not text:
        raise InputError("type the cards, like 3h 4h 5h ..., or a count like 7")
    return canonical_cards(text)


def _yes_no(text: str) -> bool:
    if text.lower() in ("y", "yes"):
        return True
    if text.lower() in ("", "n", "no"):
        return False
    raise InputError(f"{text!r} is not an answer: type y or n")

"""Guided entry at the table: one question at a time, each hand saved as soon as it is complete.

The questions and answers go through callables, so the same loop serves a terminal and a test.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from .cards import Card, parse_card, parse_cards
from .errors import GinscoreError, InputError
from .match import HandLine, HandRecord, Match, Sheet, canonical_cards, make_record
from .rules import Rules
from .scoring import score_cards, score_counts

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
        table.tell(f"\nHand {len(sheet.lines) + 1}: {sheet.next_dealer} deals. Score: {sheet.score_text()}.")
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
    upcard = parse_card(entry["upcard"]) if "upcard" in entry else None
    cards = _ask(
        table,
        f"{knocker}'s cards (10 or 11, '|' between melds) or their count: ",
        lambda text: _knock(text, match.rules, upcard),
    )
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
    """Ask until the answer parses; a typo is explained, quoting it, and asked again.

    A quit word stops play unless it is a real answer (a player may be called Q).
    """
    while True:
        answer = table.ask(question)
        if answer is None:
            raise StopPlay
        try:
            return parse(answer.strip())
        except GinscoreError as error:
            if answer.strip().lower() in QUIT_WORDS:
                raise StopPlay from None
            table.tell(f"  {error}. Try again.")


def _knocker(match: Match, text: str) -> str | None:
    """A player's name, or None for a cancelled hand; a name wins over the word."""
    try:
        return match.player(text)
    except InputError:
        if text.lower() in CANCEL_WORDS:
            return None
        raise


def _knock(text: str, rules: Rules, upcard: Card | None) -> str | int:
    """The knocker's cards or count, refused at once when they cannot knock under these rules.

    The knock is scored against a blank opponent: what it refuses now, the real hand would too.
    """
    answer = _cards_or_count(text)
    limit, multiplier = rules.knock_limit_for(upcard), rules.multiplier_for(upcard)
    if isinstance(answer, int):
        score_counts(answer, 0, rules, limit, multiplier)
    elif "|" not in answer:
        score_cards(parse_cards(answer), 0, rules, upcard=upcard)
    return answer


def _cards_or_count(text: str) -> str | int:
    if text.isascii() and text.isdigit():
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

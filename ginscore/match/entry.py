"""What a person enters: a hand, or a new match, as one typed value from every front end down.

The command line's options, a page's form and the API's JSON are each read into these at the edge, with the
same field names, and an error's `field` is one of those names. Nothing here is checked yet: the service
(`files.changes`) checks an entry against its match, and names the field of whatever it refuses.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

from ..game.rulebook import Rules


@dataclass(frozen=True)
class HandEntry:
    """One hand as entered: who knocked and either the cards or the counts, or a cancelled hand."""

    knocker: str | None = None
    """Who knocked, as typed: a name in any case, an initial or a number; None for a cancelled hand."""
    cancelled: bool = False
    """A dead hand: nobody scores and the same dealer deals again."""
    cards: str | None = None
    """The knocker's 10 or 11 cards, or their spread grouped with `|`."""
    discard: str | None = None
    """The card the knocker discarded face down, when 11 cards are given."""
    opponent_cards: str | None = None
    """The opponent's 10 cards, for the lay-offs to be worked out."""
    deadwood: int | None = None
    """The knocker's count, for a table that counts by hand (0 is gin)."""
    opponent_deadwood: int | None = None
    """The opponent's count after lay-offs."""
    big_gin: bool = False
    """With counts: all 11 cards melded."""
    upcard: str | None = None
    """The up-card (knock card) under Oklahoma rules."""
    note: str | None = None
    """Free text about the hand; None keeps an edited hand's note, and is no note for a new one."""
    spread: str | None = None
    """When the cards, given without groups, can be spread two ways that score differently: the one laid down,
    `best` (best for the knocker) or `lowest` (the least deadwood), kept grouped as laid down. None scores the
    best and keeps the cards as given."""


HAND_FIELDS = tuple(field.name for field in fields(HandEntry))
"""A hand's fields, named as the API's JSON, a page's form and an error's `field` name them."""


@dataclass(frozen=True)
class NewMatch:
    """A match to start: two players and the rules, as entered."""

    players: object
    """The two names as given (checked when the match starts)."""
    rules: Rules
    """Every knob, as the preset and its settings make them."""
    preset: str = "standard"
    """The preset the rules started from, for people."""
    dealer: str | None = None
    """Who deals first, as typed (a name, initial or number); None is the first player."""
    hollywood: bool = False
    """Three games scored at once on one sheet."""
    note: str = ""
    """Free text about the match."""


NEW_FIELDS = ("file", "players", "rules", "set", "dealer", "hollywood", "note")
"""A new match's fields, as the API's JSON and the page's form name them (`file` is its name in the folder)."""

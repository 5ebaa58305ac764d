"""What a person enters: a hand, or a new match, as one typed value from every front end down.

The command line's options, a page's form and the API's JSON are each read into these at the edge, with the
same field names, and an error's `field` is one of those names. Nothing here is checked yet: the service
(`files.changes`) checks an entry against its match, and names the field of whatever it refuses.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

from ..game.rulebook import Rules


@dataclass(frozen=True)
class Field:
    """What a hand's field is, said once: every list of a hand's fields (the command line's options, the form's
    ways, the request's readers, the file's keys, the JSON) is made from these."""

    doc: str
    """What the field holds, in words (the command line's `--help` for its option)."""
    kind: str
    """How a request gives it: `text`, `cards` (one text or a list of card texts), `count` (a whole number) or
    `flag` (true or false)."""
    ways: tuple[str, ...]
    """The ways of entering a hand that take it: `counts`, `cards`, `cancelled`."""
    file_key: str | None = None
    """Its key in a match file, when the file names it otherwise (it keeps the keys it has always had)."""


def _field(default: object, doc: str, kind: str, ways: str, file_key: str | None = None) -> Any:
    return field(default=default, metadata={"field": Field(doc, kind, tuple(ways.split()), file_key)})


@dataclass(frozen=True)
class HandEntry:
    """One hand as entered: who knocked and either the cards or the counts, or a cancelled hand.

    Each field's `Field` (in its metadata, `about(name)`) says what it is; the record keeps these names."""

    knocker: str | None = _field(None, "Who knocked: a player's name (any case), initial or number (1 or 2).", "text", "counts cards")
    cancelled: bool = _field(False, "A dead hand: nobody scores, the same dealer deals again.", "flag", "cancelled")
    cards: str | None = _field(None, "The knocker's 10 or 11 cards, or the spread grouped with '|'.", "cards", "cards",
                               file_key="knocker_cards")
    discard: str | None = _field(None, "The knocker's discard, when 11 cards are given.", "text", "cards")
    opponent_cards: str | None = _field(None, "The opponent's 10 cards.", "cards", "cards")
    deadwood: int | None = _field(None, "The knocker's count, for tables that count by hand (0 is gin).", "count", "counts",
                                  file_key="knocker_deadwood")
    opponent_deadwood: int | None = _field(None, "The opponent's count after lay-offs.", "count", "counts")
    big_gin: bool = _field(False, "With the knocker's count 0: all 11 cards melded.", "flag", "counts")
    upcard: str | None = _field(None, "The up-card (knock card), required under Oklahoma.", "text", "counts cards")
    note: str | None = _field(None, "Free text about the hand, kept in the file and shown by `show`.", "text", "counts cards cancelled")
    spread: str | None = _field(None, "With the knocker's cards given without groups: the spread laid down when two score "
                                "differently, best or lowest; it is kept grouped.", "text", "cards")


HAND_FIELDS = tuple(item.name for item in fields(HandEntry))
"""A hand's fields, named as the API's JSON, a page's form and an error's `field` name them."""


DERIVED = "derived"
"""The key of a hand's JSON that holds what the sheet derives from the hand (its number, dealer, result, points,
counts, lay-offs, columns and totals), beside the entry's fields: a request may carry it back as it was read,
and it is ignored, as everything derived is worked out again from the entry."""


def about(name: str) -> Field:
    """What hand field `name` is."""
    return _ABOUT[name]


_ABOUT = {item.name: item.metadata["field"] for item in fields(HandEntry)}


def fields_for(way: str) -> tuple[str, ...]:
    """The hand's fields a way of entering it (`counts`, `cards` or `cancelled`) takes."""
    return tuple(name for name in HAND_FIELDS if way in about(name).ways)


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

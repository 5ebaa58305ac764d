"""A match as records of what happened, and the checks on what a person typed into them.

A match stores the players, every rule knob, who dealt first and each hand's inputs. Totals,
boxes, bonuses, the dealer of each hand and who deals next are recomputed from those on every
load. A plain match is one game (one column); a Hollywood match scores three columns at once.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, replace

from ..errors import InputError, quote
from ..game.rulebook import Rules

COLUMNS_HOLLYWOOD = 3


def now() -> str:
    """The moment a hand or a match is recorded, in ISO 8601, UTC, to the second, as every front end writes it."""
    from datetime import UTC, datetime

    return datetime.now(UTC).replace(microsecond=0).isoformat()


def new_id() -> str:
    """A new match's id: a random UUID (version 4) in its canonical form, 36 characters."""
    import uuid

    return str(uuid.uuid4())


ID_SHAPE = "8 to 64 letters, digits and hyphens"
"""What a match id may be, in words: a UUID as ginscore writes it, or another program's name for the match."""


def check_id(text: str) -> str:
    """A stored match id, refused when it is not `ID_SHAPE`."""
    if 8 <= len(text) <= 64 and text.isascii() and all(char.isalnum() or char == "-" for char in text):
        return text
    raise InputError(f"{quote(text)} is not a match id: an id is {ID_SHAPE} (ginscore writes a UUID such as "
                     "8f14e45f-ceea-4e67-9a3b-6c1f1f1f2a7d); delete the line and the file falls back to players, rules "
                     "and start")


def same_id(mine: str | None, theirs: str | None) -> bool:
    """Whether two ids are one: equal, in any case (a UUID may be written in capitals)."""
    return mine is not None and theirs is not None and mine.lower() == theirs.lower()


STAMP_RANGE = ("0001-01-02", "9999-12-30")
"""The days a time stamp may fall on: a time there can be shown in any time zone (an offset is under a day), so
no reader, the folder's list included, meets a time it cannot convert."""


def check_stamp(stamp: str) -> str:
    """A stored time stamp (`recorded`, `created`), refused when it reads as a time that falls outside
    `STAMP_RANGE`; text that is no time at all is kept as text, shown as it is."""
    if stamp[4:5] == "-" == stamp[7:8] and STAMP_RANGE[0] <= stamp[:10] <= STAMP_RANGE[1]:
        return stamp  # a day in range, as every stamp ginscore writes starts: a time, or text that is none
    from datetime import datetime

    try:
        moment = datetime.fromisoformat(stamp)
    except ValueError:
        return stamp
    if not STAMP_RANGE[0] <= moment.date().isoformat() <= STAMP_RANGE[1]:  # four-digit years: text order is date order
        raise InputError(f"{quote(stamp)} is a time that cannot be shown in every time zone: a time stamp falls "
                         f"between {STAMP_RANGE[0]} and {STAMP_RANGE[1]} (ginscore writes them as 2026-11-30T23:11:03+00:00)")
    return stamp


@dataclass(frozen=True)
class HandRecord:
    """One hand as entered at the table. Cards are kept as canonical text, groups with `|`."""

    knocker: str | None = None
    """The knocker's name; None for a cancelled hand."""
    cancelled: bool = False
    """A dead hand: nobody scores and the same dealer deals again."""
    cards: str | None = None
    """The knocker's 10 or 11 cards, or their spread grouped with `|` (the file's key is `knocker_cards`)."""
    spread: str | None = None
    """The spread the knocker's cards were scored with, grouped with `|`, when the cards were given
    without groups; the card of `cards` not in it is the discard. Loading checks this spread
    (its melds, the knock limit, the opponent's best response) rather than searching again."""
    discard: str | None = None
    """The card the knocker discarded face down, when the spread was given with 11 cards."""
    opponent_cards: str | None = None
    """The opponent's 10 cards, for the lay-offs to be worked out."""
    deadwood: int | None = None
    """The knocker's typed count, for hands recorded without their cards (the file's key is `knocker_deadwood`)."""
    opponent_deadwood: int | None = None
    """Typed count after lay-offs, for hands recorded without the opponent's cards."""
    big_gin: bool = False
    """With counts only: all 11 cards melded."""
    upcard: str | None = None
    """The up-card (knock card) under Oklahoma."""
    recorded: str = ""
    """When the hand was entered, ISO 8601."""
    note: str = ""
    """Free text a person wrote about the hand; never read by the scoring."""


@dataclass(frozen=True)
class Match:
    """The score sheet's inputs: who plays, by which rules, and each hand in order."""

    players: tuple[str, str]
    rules: Rules
    first_dealer: str
    hands: tuple[HandRecord, ...] = ()
    hollywood: bool = False
    created: str = ""
    preset: str | None = None
    """The preset the rules started from, for people; the knobs themselves decide."""
    note: str = ""
    """Free text a person wrote about the match (where, what for); never read by the scoring."""
    id: str | None = None
    """The match's own name, random, written once when it starts (`new_id`): two files are copies of one match when
    their ids are equal (`merge.not_the_same`); None in a file written before ids (or by hand), which is never
    rewritten only to add one."""

    def player(self, name: str, *, short: bool = True) -> str:
        """A player's name as stored, from their name in any case and however its accents were typed, or
        (with `short`) their initial when it is theirs alone, or their number, 1 or 2; a name wins over the rest."""
        if name in self.players:
            return name
        typed = person_key(name)
        for player in self.players:
            if person_key(player) == typed:
                return player
        if short and typed in ("1", "2"):
            return self.players[int(typed) - 1]
        if short and len(typed) == 1:
            found = [player for player in self.players if person_key(player)[:1] == typed]
            if len(found) == 2:
                raise InputError(f"{quote(name.strip())} could be {found[0]} or {found[1]}: type the name")
            if found:
                return found[0]
        raise InputError(f"unknown player {quote(name)}: the players are {self.players[0]} and {self.players[1]}")

    def other(self, name: str) -> str:
        return self.players[1] if name == self.players[0] else self.players[0]

    def with_hands(self, hands: tuple[HandRecord, ...]) -> Match:
        return replace(self, hands=hands)


def person_key(name: str) -> str:
    """What makes two typed names one person, everywhere ginscore compares names: the same letters (NFC), in any
    case."""
    return unicodedata.normalize("NFC", name.strip()).casefold()


def pair_key(players: tuple[str, str]) -> tuple[str, str]:
    """What makes two pairs of names one pair of players: their `person_key`s, in either order."""
    a, b = sorted(person_key(name) for name in players)
    return a, b


def _found(names: object) -> str:
    """What was given instead of two names, in words: `3 were given: 'A', 'B' and 'C'`."""
    if not (isinstance(names, (list, tuple)) and names and all(isinstance(n, str) for n in names)):
        return f"found {quote(names)}"
    quoted = [quote(name) for name in names]
    listed = quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " and " + quoted[-1]
    return f"{len(names)} {'was' if len(names) == 1 else 'were'} given: {listed}"


NAME_MOST = 40
"""The most characters a player's name may have: a name fits on a phone's sheet and on the shared picture."""
NOTE_MOST = 500
"""The most characters a note may have: a few lines on a phone's sheet."""


def check_players(names: object) -> tuple[str, str]:
    """Two different, printable player names of at most `NAME_MOST` characters, with spaces trimmed and accents
    composed (NFC)."""
    if not (isinstance(names, (list, tuple)) and len(names) == 2 and all(isinstance(n, str) for n in names)):
        raise InputError(f"give two different player names, e.g. Ann Bob ({_found(names)})")
    a, b = (unicodedata.normalize("NFC", name.strip()) for name in names)
    for name in (a, b):
        if not name or _control_character(name):
            raise InputError(f"{quote(name)} cannot be a player's name: give two different player names without control characters")
        if len(name) > NAME_MOST:
            raise InputError(f"{quote(name)} cannot be a player's name: it has {len(name):,} characters, and a name has at "
                             f"most {NAME_MOST}, to fit on a phone's sheet")
    if person_key(a) == person_key(b):
        raise InputError(f"give two different player names, not {quote(a)} twice")
    return a, b


def _control_character(text: str, keep: Callable[[str], bool] = lambda char: False) -> str | None:
    """The first character of `text` that is not printed as itself (Unicode category C: a control character
    such as a tab, a line break or ESC, an invisible format character such as U+202E, which reverses the text
    after it; or a line or paragraph separator), unless `keep` keeps it; None when there is none."""
    return next((char for char in text if _hidden(unicodedata.category(char)) and not keep(char)), None)


def _hidden(category: str) -> bool:
    return category.startswith("C") or category in ("Zl", "Zp")


BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
"""The invisible controls that reorder the text shown around them (right-to-left marks, embeddings, overrides and
isolates): a note holding one could show a hand's words in another order than they were typed."""


def _kept_in_notes(char: str) -> bool:
    # A note keeps what a name refuses only where text needs it: a tab, and the format characters emoji and many
    # scripts join letters with (U+200D, U+200C), private and newer characters; never one that reorders the text.
    return char == "\t" or (unicodedata.category(char) in ("Cf", "Co", "Cn") and char not in BIDI_CONTROLS)


def check_note(note: str) -> str:
    """A note as typed, refused when it holds a character a player's name refuses, except a tab and the invisible
    characters text needs to join letters: a control character (`show` prints notes to a terminal, where an
    escape could recolour it or worse), a line or paragraph separator (a line break of any kind would break the
    sheet), or a control that reorders the text around it (U+202E and `BIDI_CONTROLS`); and a note longer than
    `NOTE_MOST` characters."""
    if len(note) > NOTE_MOST:
        raise InputError(f"a note has at most {NOTE_MOST} characters, to fit on a phone's sheet, and this one has {len(note):,}: "
                         "shorten it")
    char = _control_character(note, keep=_kept_in_notes)
    if char is not None and unicodedata.category(char) == "Cs":
        raise InputError(f"a note cannot hold {quote(char)} (U+{ord(char):04X}): it is not a character but a byte that was not "
                         "UTF-8 (typed in another encoding?) or half of one")
    if char in BIDI_CONTROLS:
        raise InputError(f"a note cannot hold the invisible control {quote(char)} (U+{ord(char):04X}), which reorders the "
                         "text around it: write it as plain text, without it")
    if char is not None:
        kind = "control character" if unicodedata.category(char) == "Cc" else "line or paragraph separator"
        raise InputError(f"a note cannot hold the {kind} {quote(char)} (U+{ord(char):04X}): write it as plain text on one line")
    return note

"""Whole numbers as ginscore reads them from every front end: a count, a limit, a knob's value, a hand's number.

A whole number is written with the digits 0-9 and nothing else: no underscore, no space inside, no digits of
another script (`３`), and a minus sign only where the field allows one (a count or a limit whose range is
then said in words). Leading zeros are fine and do not count, so a number may be any length: one of more than
`MOST_DIGITS` digits is refused as too large, naming its field, before Python's own limit on reading digits
(4,300) is ever reached.
"""

from __future__ import annotations

from ..errors import InputError, quote

MOST_DIGITS = 18
"""The most digits a number may have: no count, limit or hand number comes near."""

_DIGITS = frozenset("0123456789")


def read_whole(text: str, field: str | None = None, *, signed: bool = False) -> int | None:
    """`text` (spaces around it aside) as a whole number; None when it is not written as one; an `InputError`
    about `field` when it has more than `MOST_DIGITS` digits."""
    stripped = text.strip(" \t\r\n")
    negative = signed and stripped.startswith("-")
    digits = stripped[1:] if negative else stripped
    if not digits or not _DIGITS.issuperset(digits):
        return None
    significant = digits.lstrip("0") or "0"
    if len(significant) > MOST_DIGITS:
        shown = ("-" if negative else "") + significant  # its zeros would fill the quote and say nothing
        raise InputError(f"{quote(shown)} is too large a number (more than {MOST_DIGITS} digits)", field=field)
    number = int(significant)
    return -number if negative else number


def parse_whole(text: str, field: str | None = None, *, signed: bool = False) -> int:
    """`text` as a whole number; an `InputError` about `field` that says how to write one when it is not."""
    number = read_whole(text, field, signed=signed)
    if number is None:
        raise InputError(f"{quote(text)} is not a whole number: write it with the digits 0-9", field=field)
    return number


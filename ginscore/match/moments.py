"""A moment a person gives for a past night (`--at`), and a time stamp as ginscore writes it.

A paper sheet from last month is entered on its night: `new --at 2026-01-06T19:30` and `record --at 2026-01-06`
stamp the match's `created` and the hand's `recorded` with that moment rather than the present one. The moment is
an ISO date or date-time, with an offset (`+01:00`, `Z`) or without one, in the local zone then. A day alone is
noon of that day (the day stays the same day in UTC, where the standings date a game, for any zone within twelve
hours of it), or the present moment when that noon is still to come. A moment in the future, or before 1900, is
refused: it is a typo, not a night the club played.

A stamp read from a file is a time when `datetime.fromisoformat` reads it; `stamp_doubt` says why another is none
(an impossible day such as 2026-02-30, or other text), for `validate` and the standings.
"""

from __future__ import annotations

from datetime import UTC, datetime, time

from ..errors import InputError, quote

EARLIEST = datetime(1900, 1, 1, tzinfo=UTC)
"""The first moment `--at` takes."""
EXAMPLE = "2026-01-06 or 2026-01-06T19:30"


def stamp(moment: datetime) -> str:
    """The moment as a time stamp, the way every front end writes one: ISO 8601, UTC, to the second."""
    return moment.astimezone(UTC).replace(microsecond=0).isoformat()


def past_moment(text: str, field: str = "at", present: datetime | None = None) -> datetime:
    """The past moment `text` gives (see the module's words), with its zone; `InputError` about `field` for text
    that is no date, a moment after `present` (default: now) or before 1900."""
    present = present or datetime.now(UTC)
    given = text.strip()
    try:
        if len(given) == 10:
            day = datetime.fromisoformat(given).date()
            noon = datetime.combine(day, time(12)).astimezone()
            moment = min(noon, present) if day <= present.astimezone().date() else noon
        elif "T" in given or " " in given:
            moment = datetime.fromisoformat(given)
            moment = moment if moment.tzinfo is not None else moment.astimezone()
        else:
            raise ValueError
    except (ValueError, OverflowError):
        raise InputError(f"{quote(text)} is not a date or a time: type it as {EXAMPLE} (the local time, or add an "
                         "offset such as +01:00)", field=field) from None
    if moment > present:
        raise InputError(f"{quote(text)} is in the future: give the night the game was played, e.g. {EXAMPLE}", field=field)
    if moment < EARLIEST:
        raise InputError(f"{quote(text)} is before 1900: give the night the game was played, e.g. {EXAMPLE}", field=field)
    return moment


def stamp_doubt(text: str) -> str | None:
    """Why a stored time stamp (`created`, `recorded`) is no time, in words; None for a time, or for no stamp (`""`).
    A time is what `datetime.fromisoformat` reads: an impossible day (`2026-02-30`) or other text is none."""
    if not text:
        return None
    try:
        datetime.fromisoformat(text)
    except ValueError:
        pass
    else:
        return None
    why = ""
    if len(text) >= 10 and text[4] == "-" == text[7] and text[:4].isdigit() and text[5:7].isdigit() and text[8:10].isdigit():
        try:
            datetime.fromisoformat(text[:10])
        except ValueError:
            why = f" (there is no day {text[:10]})"
    return f"{quote(text)} is not a time{why}: write one as 2026-11-30T23:11:03+00:00, or leave the key out"

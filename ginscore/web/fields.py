"""Reading a request's fields, JSON values or form strings alike, into the typed entries the service takes.

A JSON number and a form's digits are the same number, `true` and a ticked checkbox (`on`) the same flag,
and an empty form box is a field not given. A refusal is an `InputError` whose `field` is the field's name.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ..errors import GinscoreError, InputError, quote
from ..game.numbers import MOST_DIGITS, parse_whole, read_whole
from ..game.rulebook import Rules
from ..match.entry import DERIVED, HAND_FIELDS, NEW_FIELDS, HandEntry, NewMatch, about, fields_for

_FORM_ONLY = {"csrf"}
"""Fields a page's form carries for the web layer itself, not for the hand."""


def refuse_unknown(fields: Mapping[str, Any], known: tuple[str, ...], what: str) -> None:
    for key in fields:
        if key not in known and key not in _FORM_ONLY:
            raise InputError(f"unknown field {quote(key)}: {what} takes {', '.join(known)}", field=str(key))


def text_field(name: str, value: Any, *, empty_is_missing: bool = True) -> str | None:
    """A text field; None when missing (an empty form box is a missing one, except where `empty_is_missing` is off)."""
    if value is None:
        return None
    if not isinstance(value, str):
        raise InputError(f"{quote(value)} is not text: write it in quotes", field=name)
    if empty_is_missing and not value.strip():
        return None
    return value


def number_field(name: str, value: Any, *, signed: bool = False) -> int | None:
    """A whole number given as a JSON number or as digits (a minus sign too where `signed` allows one); None
    when missing or an empty form box. A refusal names the field."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    if isinstance(value, int) and not isinstance(value, bool) and (signed or value >= 0):
        return value
    if isinstance(value, LongNumber):
        raise InputError(f"{quote(value.digits)} is too large a number (more than {MOST_DIGITS} digits)", field=name)
    if not isinstance(value, str):
        raise InputError(f"{quote(value)} is not a whole number: write it with the digits 0-9", field=name)
    return parse_whole(value, name, signed=signed)


@dataclass(frozen=True)
class LongNumber:
    """A JSON number of more digits than any field takes, kept as its digits: the field it is given for
    refuses it by name, and Python's limit on reading digits (4,300) is never met."""

    digits: str

    def __repr__(self) -> str:
        return self.digits


def json_integer(digits: str) -> int | LongNumber:
    """A JSON integer as `json.loads(..., parse_int=json_integer)` reads it: a `LongNumber` when too long."""
    try:
        number = read_whole(digits, signed=True)
    except InputError:
        number = None
    return LongNumber(digits) if number is None else number


def flag_field(name: str, value: Any) -> bool:
    """true or false, as JSON or as a form's checkbox (`on`); missing is false."""
    if value is None:
        return False
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in ("true", "on", "yes", "1"):
        return True
    if isinstance(value, str) and value.strip().lower() in ("false", "off", "no", "0", ""):
        return False
    raise InputError(f"{quote(value)} is not true or false", field=name)


def list_field(name: str, value: Any) -> list[str]:
    """A list of texts: a JSON list, one text (a form's single box), or nothing."""
    if value is None:
        return []
    if isinstance(value, str):
        return [value] if value.strip() else []
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        return list(value)
    raise InputError(f"{quote(value)} is not a list of texts", field=name)


ENTERED = {way: fields_for(way) for way in ("counts", "cards", "cancelled")}
"""The fields a page's hand form gives for each way it enters a hand (its `how`); the others it carries (the
picker's state, its buttons, the boxes of the other ways) are not the hand's."""


def hand_entry(fields: Mapping[str, Any], *, extra: tuple[str, ...] = ("expected_hands",),
               entered: str | None = None) -> tuple[HandEntry, int | None]:
    """A hand's fields, JSON values or form strings alike, as one `HandEntry`, and `expected_hands` (None
    when not given). An empty form box is a field not given, except a note, where empty clears it.

    A page's form says how the hand is `entered` (`counts`, `cards` or `cancelled`): only that way's fields are
    read (`ENTERED`), a form's note box is always given, and of its spread buttons only `lowest` is a choice (the
    best spread is the one found anyway, the cards kept as picked). Without it (the API), every field given is read,
    and one that is no hand's field is refused; a hand's JSON as the API gives it is taken as it is, its `derived`
    part ignored (everything derived is worked out again)."""
    if entered is None:
        refuse_unknown(fields, (*HAND_FIELDS, *extra, DERIVED), "a hand")
        if not isinstance(fields.get(DERIVED, {}), (dict, type(None))):
            raise InputError(f"{quote(fields[DERIVED])} is not what the API gives as a hand's {DERIVED}: give it as read, "
                             "or leave it out", field=DERIVED)
    taken = HAND_FIELDS if entered is None else ENTERED.get(entered, ENTERED["counts"])

    def given(name: str) -> Any:
        return fields.get(name) if name in taken else None

    read = {name: _READERS[about(name).kind](name, given(name)) for name in HAND_FIELDS}
    note = fields.get("note") if entered is None else fields.get("note", "")
    spread = given("spread") if entered is None else ("lowest" if given("spread") == "lowest" else None)
    entry = HandEntry(**{
        **read,
        "cancelled": entered == "cancelled" or read["cancelled"],
        "note": text_field("note", note, empty_is_missing=False),
        "spread": text_field("spread", spread),
    })
    expected = number_field("expected_hands", fields.get("expected_hands")) if "expected_hands" in extra else None
    return entry, expected


def cards_field(name: str, value: Any) -> str | None:
    """Cards as one text or a list of card texts."""
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        value = " ".join(value)
    return text_field(name, value)


def _count_field(name: str, value: Any) -> int | None:
    return number_field(name, value, signed=True)


_READERS: dict[str, Callable[[str, Any], Any]] = {
    "text": text_field, "cards": cards_field, "count": _count_field, "flag": flag_field,
}
"""Each kind of hand field (`entry.Field.kind`) and its reader."""


def rules_field(preset: Any, settings: Any, *, target: Any = None) -> tuple[str, Rules]:
    """The preset's name and the rules it makes with `set`'s knobs: a JSON object of knobs and values, a list of
    `knob=value` texts, or one such text; the new-match form's `target` box, when filled, sets that knob."""
    from ..game.rulebook import override_knobs, rules_from

    name = text_field("rules", preset) or "standard"
    if isinstance(settings, dict):
        rules = rules_from(name, [])
        try:
            rules = override_knobs(rules, settings)
        except GinscoreError as error:
            raise error.about("set") from None
    else:
        rules = rules_from(name, list_field("set", settings))
    target_text = text_field("target", target)
    if target_text is not None:
        try:
            rules = override_knobs(rules, {"target": target_text})
        except GinscoreError as error:
            raise error.about("target") from None
    return name, rules


def new_match_entry(fields: Mapping[str, Any], known: tuple[str, ...] = NEW_FIELDS) -> tuple[str | None, NewMatch]:
    """The file's name (None when not given) and the match a new-match request describes."""
    refuse_unknown(fields, known, "a new match")
    players = fields.get("players")
    preset, rules = rules_field(fields.get("rules"), fields.get("set"), target=fields.get("target"))
    new = NewMatch(
        players=players.split(",") if isinstance(players, str) else players,
        rules=rules,
        preset=preset,
        dealer=text_field("dealer", fields.get("dealer")),
        hollywood=flag_field("hollywood", fields.get("hollywood")),
        note=text_field("note", fields.get("note"), empty_is_missing=False) or "",
    )
    return text_field("file", fields.get("file")), new

"""Reading a request's fields, JSON values or form strings alike, with the command line's words.

A JSON number and a form's digits are the same number, `true` and a ticked checkbox (`on`) the same flag,
and an empty form box is a field not given. A refusal is an `InputError` naming the field.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..errors import InputError, quote, whole_number

HAND_FIELDS = (
    "knocker", "cards", "discard", "opponent_cards", "deadwood", "opponent_deadwood", "cancelled", "big_gin", "upcard", "note",
)
"""A hand's fields: `record`'s long options, with underscores."""
_TEXT = {"knocker", "cards", "discard", "opponent_cards", "upcard", "note"}
_NUMBERS = {"deadwood", "opponent_deadwood"}
_FORM_ONLY = {"csrf"}
"""Fields a page's form carries for the web layer itself, not for the hand."""


def refuse_unknown(fields: Mapping[str, Any], known: tuple[str, ...], what: str) -> None:
    for key in fields:
        if key not in known and key not in _FORM_ONLY:
            raise InputError(f"unknown field {quote(key)}: {what} takes {', '.join(known)}")


def text_field(name: str, value: Any, *, empty_is_missing: bool = True) -> str | None:
    """A text field; None when missing (an empty form box is a missing one, except where `empty_is_missing` is off)."""
    if value is None:
        return None
    if not isinstance(value, str):
        raise InputError(f"{name}: {quote(value)} is not text: write it in quotes")
    if empty_is_missing and not value.strip():
        return None
    return value


def number_field(name: str, value: Any) -> int | None:
    """A whole number given as a JSON number or as digits; None when missing or an empty form box."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    number = whole_number(value.strip()) if isinstance(value, str) else None
    if number is None:
        raise InputError(f"{name}: {quote(value)} is not a whole number: write it with the digits 0-9")
    return number


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
    raise InputError(f"{name}: {quote(value)} is not true or false")


def list_field(name: str, value: Any) -> list[str]:
    """A list of texts: a JSON list, one text (a form's single box), or nothing."""
    if value is None:
        return []
    if isinstance(value, str):
        return [value] if value.strip() else []
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        return list(value)
    raise InputError(f"{name}: {quote(value)} is not a list of texts")


def hand_fields(fields: Mapping[str, Any], *, extra: tuple[str, ...] = ("expected_hands",)) -> tuple[dict[str, Any], str | None, int | None]:
    """A hand's fields read as `record` reads its options: the typed fields `files.changes` takes, the note
    (None when not given) and `expected_hands` (None when not given)."""
    refuse_unknown(fields, (*HAND_FIELDS, *extra), "a hand")
    typed: dict[str, Any] = {}
    for name in HAND_FIELDS:
        value = fields.get(name)
        if name == "note":
            continue
        if name in _TEXT:
            typed[name] = text_field(name, value)
        elif name in _NUMBERS:
            typed[name] = number_field(name, value)
        else:
            typed[name] = flag_field(name, value)
    note = text_field("note", fields.get("note"), empty_is_missing=False)
    expected = number_field("expected_hands", fields.get("expected_hands")) if "expected_hands" in extra else None
    return typed, note, expected


def settings_field(value: Any) -> list[str]:
    """`--set` values: a list of `knob=value` texts, one such text, or an object of knobs and values."""
    if isinstance(value, dict):
        return [f"{knob}={_knob_text(setting)}" for knob, setting in value.items()]
    return list_field("set", value)


def _knob_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | str):
        return str(value)
    raise InputError(f"set: {quote(value)} is not a knob's value: give a number, true or false, or a word")

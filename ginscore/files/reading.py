"""Reading a match file: TOML to `Match`, with every problem found and its place.

The file is the score sheet. It stores inputs; the dealer and running totals written beside each
hand are for people reading the file, and on load they are recomputed and compared, never trusted.
A write reads its new bytes back with this same reader before they replace the file (see `storage`).
"""

from __future__ import annotations

import re
import sys
import unicodedata
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, fields, replace
from types import MappingProxyType
from typing import Any

from ..errors import DamagedText, GinscoreError, MatchFileError, quote
from ..game.rulebook import KNOBS, Rules, apply_knobs
from ..match.entry import HAND_FIELDS, about
from ..match.moments import stamp_doubt
from ..match.records import HandRecord, Match, check_id, check_note, check_players, check_stamp
from ..match.tally import HandLine, Sheet, tally
from . import plain_toml
from .folder import read_text
from .remembered import Remembered

FORMAT = 2
"""Format 2 adds each hand's `spread`; format 1 files are read as they are and become 2 when written."""
FORMATS_READ = (1, 2)
BOM = "\ufeff"
FILE_KEYS = {name: key for name in HAND_FIELDS if (key := about(name).file_key) is not None}
"""The record's fields whose key in the file is another word (`cards` is `knocker_cards`), as the entry declares
them: the file keeps the keys it has always had."""
HAND_KEYS = {FILE_KEYS.get(f.name, f.name): f for f in fields(HandRecord)}
"""A hand table's keys in the file, each with the record's field it holds."""
DERIVED = ("dealer", "totals")
_TYPE_WORDS = {int: "a whole number without quotes", str: "text in quotes", bool: "true or false"}
_TOP_KEYS = ("format", "created", "match", "rules", "hands")
_MATCH_KEYS = ("id", "players", "first_dealer", "hollywood", "preset", "note")


def file_key(field: str) -> str:
    """A record's field as the file names it (`cards` is `knocker_cards`)."""
    return FILE_KEYS.get(field, field)


@dataclass(frozen=True)
class Reading:
    """What a match file's text reads as: the document, the match, its sheet and every problem with its place."""

    data: dict[str, Any] | None
    """The parsed TOML; None when the text is not TOML."""
    match: Match | None
    """None when the players or rules cannot be read."""
    sheet: Sheet | None
    """None when there is no match, and for a write's read-back, which compares with the sheet it meant."""
    problems: tuple[str, ...] = ()
    plain: bool = False
    """Whether the text is in the plain layout ginscore writes (`plain_toml`), so that a hand appended to it
    can be read back alone."""
    damage: DamagedText | None = None
    """The one problem, as data, when the text is not TOML at all."""


_ATOMS = frozenset({str, int, bool, float})
"""The TOML values that cannot be changed and hold nothing (dates and times cannot be changed either)."""


class FrozenTable(Mapping[str, Any]):
    """A TOML table that cannot be changed, nor can anything in it: its tables are `FrozenTable`s too and its arrays
    tuples (`frozen`). A match file as read is remembered and shared by every reader (`REMEMBERED`, the table's
    files), so its document is this; `thawed` gives a copy to change. Equal to a plain table of the same values."""

    __slots__ = ("_items",)
    _items: Mapping[str, Any]

    def __init__(self, table: Mapping[str, Any]):
        items = {key: value if type(value) in _ATOMS else frozen(value) for key, value in table.items()}
        object.__setattr__(self, "_items", MappingProxyType(items))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"a FrozenTable cannot be changed (its {name!r})")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"a FrozenTable cannot be changed (its {name!r})")

    def __getitem__(self, key: str) -> Any:
        return self._items[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, FrozenTable):
            return self._items == other._items
        return isinstance(other, Mapping) and self._items == FrozenTable(other)._items

    __hash__ = None  # type: ignore[assignment]  # equal to a dict, which has none

    def __repr__(self) -> str:
        return f"FrozenTable({self._items!r})"


def frozen(value: Any) -> Any:
    """A TOML value that cannot be changed: tables as `FrozenTable`, arrays as tuples, all the way down; a
    `FrozenTable` is already so and is kept as it is (an appended hand's document shares the hands before it)."""
    kind = type(value)
    if kind in _ATOMS or kind is FrozenTable:
        return value
    if kind is dict or isinstance(value, Mapping):
        return FrozenTable(value)
    if kind is list or kind is tuple:
        return tuple([frozen(item) for item in value])
    return value


def thawed(value: Any) -> Any:
    """A fresh copy of a TOML value to change, as tomllib gives it: tables as dicts, arrays as lists."""
    if isinstance(value, Mapping):
        return {key: thawed(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [thawed(item) for item in value]
    return value


@dataclass(frozen=True)
class MatchFile:
    """A match file as read: its text and parsed TOML (so a write can keep what a person typed),
    the match and its sheet. It is remembered and shared (`REMEMBERED`), so it is read-only all the way down."""

    path: str
    text: str
    data: Mapping[str, Any]
    """The parsed TOML, read-only: given as any table, it is made a `FrozenTable` with the file."""
    match: Match
    sheet: Sheet
    plain: bool = False
    """Whether the text is in the plain layout (see `Reading.plain`)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "data", frozen(self.data))

    @property
    def doubts(self) -> tuple[str, ...]:
        """Its time stamps that are no time (`created`, `hands[3].recorded`: an impossible day, other text), each
        with its place: the score does not depend on them, so the file still loads for `show` and `record`, but
        `validate` refuses them (`checked`), and the standings cannot date a game by them."""
        return _doubts(self.match)

REMEMBERED: Remembered[MatchFile] = Remembered()
"""Each match file as read or written, by its exact text; its sheet is read-only, so every recall shares it."""


def load(path: str) -> tuple[Match, Sheet]:
    """Read a match file; any problem raises `MatchFileError` listing them all."""
    read = load_file(path)
    return read.match, read.sheet


def load_file(path: str) -> MatchFile:
    """Read a match file, keeping its text for a later write; problems raise `MatchFileError`."""
    return match_file(path, read_text(path))


def checked(path: str) -> MatchFile:
    """Read a match file as `validate` holds it: a time stamp that is no time (`MatchFile.doubts`) is a problem too."""
    read = load_file(path)
    if read.doubts:
        raise MatchFileError(path, list(read.doubts))
    return read


def match_file(path: str, text: str) -> MatchFile:
    """The match file at `path` holding `text`, parsed once for each text; problems raise `MatchFileError`."""
    known = REMEMBERED.recall(path, text)
    if known is not None:
        return known
    read = load_text(text)
    if read.problems or read.data is None or read.match is None or read.sheet is None:
        raise MatchFileError(path, [read.damage] if read.damage else list(read.problems))
    loaded = MatchFile(path, text, read.data, read.match, read.sheet, read.plain)
    REMEMBERED.remember(path, text, loaded)
    return loaded


def loads(text: str) -> tuple[Match | None, Sheet | None, list[str]]:
    """Read a match; returns the match, its sheet and every problem found (each with its place)."""
    read = load_text(text)
    return read.match, read.sheet, list(read.problems)


def load_text(text: str) -> Reading:
    """The document, the match, its sheet, every problem, and whether the text is in the plain layout."""
    read, tables, numbered = _read_hands_of(text)
    if read.match is None:
        return read
    hand_problems: list[tuple[int, GinscoreError]] = []
    sheet = tally(read.match, hand_problems)
    numbered += [(number, _hand_place(number, error.field) + f": {error}") for number, error in hand_problems]
    # Past the first bad hand the recomputed totals mean nothing, so written ones are checked only before it.
    first_bad = min((number for number, _ in numbered), default=len(read.match.hands) + 1)
    numbered += compare_derived(tables[: first_bad - 1], sheet.lines)
    problems = read.problems + tuple(problem for _, problem in sorted(numbered, key=lambda item: item[0]))
    return replace(read, sheet=sheet, problems=problems)


def _doubts(match: Match) -> tuple[str, ...]:
    """The match's time stamps that are no time, each with its place (`MatchFile.doubts`)."""
    stamps = [("created", match.created), *((f"hands[{number}].recorded", hand.recorded)
                                            for number, hand in enumerate(match.hands, start=1))]
    return tuple(f"{place}: {doubt}" for place, stamp in stamps if (doubt := stamp_doubt(stamp)) is not None)


def _read_hands_of(text: str) -> tuple[Reading, list[Any], list[tuple[int, str]]]:
    """The text parsed and its match read with its hands, not tallied: the reading (no match when the players,
    rules or hands cannot be read), the hand tables, and the hands' problems with their numbers."""
    try:
        data, plain = parse_layout(text.removeprefix(BOM))
    except UnreadableError as error:
        return Reading(None, None, None, (str(error),), damage=DamagedText(str(error), error.line)), [], []
    problems: list[str] = []
    match = _read_match(data, problems)
    if match is None:
        return Reading(data, None, None, tuple(problems)), [], []
    tables = data.get("hands", [])
    if not isinstance(tables, list):
        return Reading(data, None, None, (f"hands: expected [[hands]] tables, found {quote(tables)}",)), [], []
    numbered: list[tuple[int, str]] = []
    match = replace(match, hands=tuple(read_hands(tables, numbered)))
    return Reading(data, match, None, tuple(problems), plain), tables, numbered


def _hand_place(number: int, field: str | None) -> str:
    """Where in the file a hand's problem is: `hands[3]`, or its key, `hands[3].knocker_cards`."""
    return f"hands[{number}]" + (f".{file_key(field)}" if field else "")


class UnreadableError(ValueError):
    """Text that is not a TOML document Python can hold, in words, with the line where the reading stopped when
    the parser says."""

    def __init__(self, message: str, line: int | None = None):
        super().__init__(message)
        self.line = line
        """The line (from 1), or None."""


def parse(text: str) -> dict[str, Any]:
    """The TOML document in `text`: the plain layout ginscore writes is read quickly, the rest by tomllib
    (imported only then: most runs never need it)."""
    return parse_layout(text)[0]


def parse_layout(text: str) -> tuple[dict[str, Any], bool]:
    """`parse`, and whether the text is in the plain layout, ending with a line break, so that a hand appended
    to it can be read back alone."""
    plain = plain_toml.read(text)
    if plain is not None:
        return plain, text.endswith("\n")
    import tomllib

    try:
        return tomllib.loads(text), False
    except tomllib.TOMLDecodeError as error:
        raise UnreadableError(f"not valid TOML: {error}", getattr(error, "lineno", None)) from None
    except RecursionError:
        raise UnreadableError("a value is nested too deeply to be a match file (hundreds of levels of [ or {)") from None
    except ValueError as error:  # Python's limit on the digits of a whole number, or another value it cannot hold
        digits = sys.get_int_max_str_digits()
        if re.search(rf"[0-9_]{{{digits + 1}}}", text):  # the text says which, not the error's words
            raise UnreadableError(f"a number has more than {digits} digits, far too many for a match file") from None
        raise UnreadableError(f"a value cannot be read: {error}") from None


def _shown_key(key: str) -> str:
    """A key from the file (a name in `totals` too) as a message shows it: as it is (`match.venue`), or
    quoted and cut short when it is long or holds a character that cannot be printed."""
    return key if 0 < len(key) <= 40 and key.isprintable() else quote(key)


def _unknown_keys(table: dict[str, Any], known: tuple[str, ...], place: str, problems: list[str]) -> None:
    for key in table:
        if key not in known:
            problems.append(f"{place}{_shown_key(key)}: unknown key (known: {', '.join(known)})")


def _read_match(data: dict[str, Any], problems: list[str]) -> Match | None:
    """The match without its hands, or None when its players or rules cannot be read."""
    version = data.get("format")
    if type(version) is not int or version not in FORMATS_READ:
        problems.append(f"format: expected {' or '.join(map(str, FORMATS_READ))}, found {quote(data.get('format'))}; is this a ginscore match file?")
        return None
    _unknown_keys(data, _TOP_KEYS, "", problems)
    info = data.get("match")
    if not isinstance(info, dict):
        problems.append("match: missing the [match] table with players and first_dealer")
        return None
    _unknown_keys(info, _MATCH_KEYS, "match.", problems)
    players = info.get("players")
    try:
        players = check_players(players)
    except GinscoreError as error:
        problems.append(f"match.players: {error}")
        return None
    first_dealer = unicodedata.normalize("NFC", str(info.get("first_dealer")))
    if first_dealer not in players:
        problems.append(f"match.first_dealer: expected one of {quote(players[0])} or {quote(players[1])}, found {quote(first_dealer)}")
    hollywood, preset, note = info.get("hollywood", False), info.get("preset"), info.get("note", "")
    created = data.get("created", "")
    if not isinstance(hollywood, bool):
        problems.append(f"match.hollywood: expected true or false, found {quote(hollywood)}")
    if preset is not None and not isinstance(preset, str):
        problems.append(f"match.preset: expected a preset's name, found {quote(preset)}")
    if not isinstance(note, str):
        problems.append(f"match.note: expected text in quotes, found {quote(note)}")
    else:
        _check_note(note, "match.note", problems)
    match_id = info.get("id")
    if match_id is not None and not isinstance(match_id, str):
        problems.append(f"match.id: expected text in quotes, found {quote(match_id)}")
    elif match_id is not None:
        _check_text(check_id, match_id, "match.id", problems)
    if not isinstance(created, str):
        problems.append(f"created: expected text in quotes, found {quote(created)}")
    else:
        _check_text(check_stamp, created, "created", problems)
    rules = _read_rules(data.get("rules"), problems)
    if problems or rules is None:
        return None
    return Match(
        players=players,
        rules=rules,
        first_dealer=first_dealer,
        hollywood=hollywood,
        created=created,
        preset=preset,
        note=note,
        id=match_id,
    )


def _check_note(note: str, place: str, problems: list[str]) -> None:
    _check_text(check_note, note, place, problems)


def _check_text(check: Callable[[str], str], text: str, place: str, problems: list[str]) -> None:
    """A text field's own check (a note's, a time stamp's), its refusal noted at its place."""
    try:
        check(text)
    except GinscoreError as error:
        problems.append(f"{place}: {error}")


def _read_rules(values: Any, problems: list[str]) -> Rules | None:
    if not isinstance(values, dict):
        problems.append("rules: missing the [rules] table (every knob is stored in the file)")
        return None
    before = len(problems)
    for name in values:
        if name not in KNOBS:
            problems.append(f"rules.{_shown_key(name)}: unknown knob (known: {', '.join(KNOBS)})")
    for name in KNOBS:
        if name not in values:
            problems.append(f"rules.{name}: missing")
            continue
        try:
            apply_knobs(Rules(), {name: values[name]})
        except GinscoreError as error:
            problems.append(f"rules.{name}: {error}")
    if len(problems) > before:
        return None
    return Rules.from_dict(values)


def read_hands(tables: list[Any], numbered: list[tuple[int, str]]) -> list[HandRecord]:
    """The hand records; one that cannot be read is noted in `numbered` with its number and stands
    in as a cancelled hand, so that the others are still scored and checked."""
    records = []
    for number, table in enumerate(tables, start=1):
        place = f"hands[{number}]"
        if not isinstance(table, dict):
            numbered.append((number, f"{place}: expected a table"))
            records.append(HandRecord(cancelled=True))
            continue
        problems: list[str] = []
        values = {}
        for key, value in table.items():
            if key in DERIVED:
                continue
            known = HAND_KEYS.get(key)
            if known is None:
                problems.append(f"{place}.{_shown_key(key)}: unknown key (known: {', '.join([*HAND_KEYS, *DERIVED])})")
                continue
            expected = type(known.default) if known.default is not None else (int if "deadwood" in key else str)
            if not isinstance(value, expected) or (expected is int and isinstance(value, bool)):
                problems.append(f"{place}.{key}: expected {_TYPE_WORDS[expected]}, found {quote(value)}")
                continue
            if key == "note" and isinstance(value, str):
                _check_note(value, f"{place}.note", problems)
            if key == "recorded" and isinstance(value, str):
                _check_text(check_stamp, value, f"{place}.recorded", problems)
            values[known.name] = value
        numbered += [(number, problem) for problem in problems]
        records.append(HandRecord(**(values if not problems else {"cancelled": True})))
    return records


def compare_derived(tables: list[Any], lines: tuple[HandLine, ...] | list[HandLine]) -> list[tuple[int, str]]:
    """A dealer or total written in the file is an assertion: report where it disagrees."""
    problems = []
    for line, table in zip(lines, tables):
        place = f"hands[{line.number}]"
        dealer = table.get("dealer")
        if dealer is not None and dealer != line.dealer and _nfc(dealer) != line.dealer:
            problems.append((line.number, f"{place}.dealer: the file says {quote(dealer)} but by the hands before it {quote(line.dealer)} dealt"))
        totals = table.get("totals")
        if totals is not None and totals != line.totals and _nfc(totals) != line.totals:
            said = ", ".join(f"{_shown_key(k)} {quote(v)}" for k, v in totals.items()) if isinstance(totals, dict) else quote(totals)
            real = ", ".join(f"{k} {v}" for k, v in line.totals.items())
            problems.append((line.number, f"{place}.totals: the file says {said} but the hands add up to {real}"))
    return problems


def _nfc(value: Any) -> Any:
    """A name, or a table keyed by names, with the names composed as `check_players` stores them."""
    if isinstance(value, str):
        return unicodedata.normalize("NFC", value)
    if isinstance(value, dict):
        return {_nfc(key): item for key, item in value.items()}
    return value


def read_back(text: str, sheet: Sheet) -> Reading:
    """Text about to be written, read as `load_text` reads it, but for the tally: a write compares the match with
    the one it meant, whose sheet `sheet` is, so the hands are not tallied again (the reading has no sheet); its
    dealers and totals are compared with `sheet`'s."""
    read, tables, numbered = _read_hands_of(text)
    if read.match is not None and len(tables) == len(sheet.lines):
        numbered += compare_derived(tables, sheet.lines)
    return replace(read, problems=read.problems + tuple(problem for _, problem in numbered))

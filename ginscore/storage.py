"""Match files: TOML to `Match` and back, atomic writes, a lock for writers, and load problems with their place.

The file is the score sheet. It stores inputs; the dealer and running totals written beside each
hand are for people reading the file, and on load they are recomputed and compared, never trusted.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
import tomllib
from collections.abc import Iterator
from dataclasses import fields, replace
from typing import Any

from .errors import GinscoreError, MatchFileError
from .match import HandRecord, Match, Sheet, check_players, tally
from .rules import KNOBS, Rules, apply_knobs

FORMAT = 1
HEADER = (
    "# ginscore match file: the score sheet. Edit it by hand if you like, then run\n"
    "# `ginscore validate` on it. Each hand's dealer and totals are recomputed on load.\n\n"
)
_RECORD_FIELDS = {f.name: f for f in fields(HandRecord)}
_DERIVED = ("dealer", "totals")


def dumps(match: Match, sheet: Sheet | None = None) -> str:
    """The match as TOML text, with each hand's dealer and running totals for readers."""
    import tomli_w

    sheet = sheet or tally(match)
    lines = {line.number: line for line in sheet.lines}
    hands = []
    for number, record in enumerate(match.hands, start=1):
        entry: dict[str, Any] = {"dealer": lines[number].dealer}
        for name in _RECORD_FIELDS:
            value = getattr(record, name)
            if value is not None and value != _RECORD_FIELDS[name].default:
                entry[name] = value
        entry["totals"] = dict(lines[number].totals)
        hands.append(entry)
    document = {
        "format": FORMAT,
        "created": match.created,
        "match": {
            "players": list(match.players),
            "first_dealer": match.first_dealer,
            "hollywood": match.hollywood,
            **({"preset": match.preset} if match.preset else {}),
            **({"note": match.note} if match.note else {}),
        },
        "rules": match.rules.to_dict(),
        "hands": hands,
    }
    return HEADER + tomli_w.dumps(document)


def loads(text: str) -> tuple[Match | None, Sheet | None, list[str]]:
    """Read a match; returns the match, its sheet and every problem found (each with its place)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        return None, None, [f"not valid TOML: {error}"]
    problems: list[str] = []
    match = _read_match(data, problems)
    if match is None:
        return None, None, problems
    entries = data.get("hands", [])
    if not isinstance(entries, list):
        return None, None, [f"hands: expected [[hands]] tables, found {entries!r}"]
    found: list[tuple[int, str]] = []
    match = replace(match, hands=tuple(_read_hands(entries, found)))
    hand_problems: list[tuple[int, GinscoreError]] = []
    sheet = tally(match, hand_problems)
    found += [(number, f"hands[{number}]" + (f".{error.field}" if error.field else "") + f": {error}") for number, error in hand_problems]
    # Past the first bad hand the recomputed totals mean nothing, so written ones are checked only before it.
    first_bad = min((number for number, _ in found), default=len(match.hands) + 1)
    found += _compare_derived(entries[: first_bad - 1], sheet)
    problems += [text for _, text in sorted(found, key=lambda item: item[0])]
    return match, sheet, problems


def _read_match(data: dict[str, Any], problems: list[str]) -> Match | None:
    """The match without its hands, or None when its players or rules cannot be read."""
    version = data.get("format")
    if type(version) is not int or version != FORMAT:
        problems.append(f"format: expected {FORMAT}, found {data.get('format')!r}; is this a ginscore match file?")
        return None
    info = data.get("match")
    if not isinstance(info, dict):
        problems.append("match: missing the [match] table with players and first_dealer")
        return None
    players = info.get("players")
    try:
        players = check_players(players)
    except GinscoreError as error:
        problems.append(f"match.players: {error}")
        return None
    first_dealer = str(info.get("first_dealer"))
    if first_dealer not in players:
        problems.append(f"match.first_dealer: expected one of {players[0]!r} or {players[1]!r}, found {first_dealer!r}")
    hollywood, preset, note = info.get("hollywood", False), info.get("preset"), info.get("note", "")
    if not isinstance(hollywood, bool):
        problems.append(f"match.hollywood: expected true or false, found {hollywood!r}")
    if preset is not None and not isinstance(preset, str):
        problems.append(f"match.preset: expected a preset's name, found {preset!r}")
    if not isinstance(note, str):
        problems.append(f"match.note: expected text in quotes, found {note!r}")
    rules = _read_rules(data.get("rules"), problems)
    if problems or rules is None:
        return None
    return Match(
        players=players,
        rules=rules,
        first_dealer=first_dealer,
        hollywood=hollywood,
        created=str(data.get("created", "")),
        preset=preset,
        note=note,
    )


def _read_rules(values: Any, problems: list[str]) -> Rules | None:
    if not isinstance(values, dict):
        problems.append("rules: missing the [rules] table (every knob is stored in the file)")
        return None
    before = len(problems)
    for name in values:
        if name not in KNOBS:
            problems.append(f"rules.{name}: unknown knob (known: {', '.join(KNOBS)})")
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


def _read_hands(entries: list[Any], found: list[tuple[int, str]]) -> list[HandRecord]:
    """The hand records; one that cannot be read is noted in `found` with its number and stands
    in as a cancelled hand, so that the others are still scored and checked."""
    records = []
    for number, entry in enumerate(entries, start=1):
        place = f"hands[{number}]"
        if not isinstance(entry, dict):
            found.append((number, f"{place}: expected a table"))
            records.append(HandRecord(cancelled=True))
            continue
        problems: list[str] = []
        values = {}
        for key, value in entry.items():
            if key in _DERIVED:
                continue
            known = _RECORD_FIELDS.get(key)
            if known is None:
                problems.append(f"{place}.{key}: unknown key (known: {', '.join([*_RECORD_FIELDS, *_DERIVED])})")
                continue
            expected = type(known.default) if known.default is not None else (int if "deadwood" in key else str)
            if not isinstance(value, expected) or (expected is int and isinstance(value, bool)):
                problems.append(f"{place}.{key}: expected {expected.__name__}, found {value!r}")
                continue
            values[key] = value
        found += [(number, problem) for problem in problems]
        records.append(HandRecord(**(values if not problems else {"cancelled": True})))
    return records


def _compare_derived(entries: list[Any], sheet: Sheet) -> list[tuple[int, str]]:
    """A dealer or total written in the file is an assertion: report where it disagrees."""
    problems = []
    for line, entry in zip(sheet.lines, entries):
        place = f"hands[{line.number}]"
        dealer = entry.get("dealer")
        if dealer is not None and dealer != line.dealer:
            problems.append((line.number, f"{place}.dealer: the file says {dealer!r} but by the hands before it {line.dealer!r} dealt"))
        totals = entry.get("totals")
        if totals is not None and totals != line.totals:
            said = ", ".join(f"{k} {v}" for k, v in totals.items()) if isinstance(totals, dict) else repr(totals)
            real = ", ".join(f"{k} {v}" for k, v in line.totals.items())
            problems.append((line.number, f"{place}.totals: the file says {said} but the hands add up to {real}"))
    return problems


def load(path: str) -> tuple[Match, Sheet]:
    """Read a match file; any problem raises `MatchFileError` listing them all."""
    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
    except FileNotFoundError:
        raise MatchFileError(path, ["no such file: create a match with `ginscore new FILE PLAYER PLAYER`"]) from None
    except (OSError, UnicodeDecodeError) as error:
        raise MatchFileError(path, [f"cannot read: {error}"]) from None
    match, sheet, problems = loads(text)
    if problems or match is None or sheet is None:
        raise MatchFileError(path, problems)
    return match, sheet


def save(path: str, match: Match, sheet: Sheet | None = None) -> None:
    write_atomic(path, dumps(match, sheet).encode("utf-8"))


def write_atomic(path: str, data: bytes) -> None:
    """Write a temporary file beside `path`, flush and fsync it, then rename it over `path`.

    A crash or a full disk at any point leaves either the old file or the new one, whole.
    """
    try:
        _replace_with(path, data)
    except OSError as error:
        reason = error.strerror or str(error)
        raise MatchFileError(path, [f"cannot write: {reason}; nothing was changed"]) from None


def _replace_with(path: str, data: bytes) -> None:
    folder = os.path.dirname(os.path.abspath(path))
    handle, temporary = tempfile.mkstemp(prefix=f".{os.path.basename(path)}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        if os.path.exists(path):
            os.chmod(temporary, os.stat(path).st_mode & 0o777)
        else:
            os.chmod(temporary, 0o644)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    with contextlib.suppress(OSError):
        directory = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(directory)
        finally:
            os.close(directory)


@contextlib.contextmanager
def locked(path: str) -> Iterator[None]:
    """Hold the match file's lock (a hidden `.NAME.lock` beside it) so writers take turns."""
    import fcntl

    folder, name = os.path.split(os.path.abspath(path))
    lock_path = os.path.join(folder, f".{name}.lock")
    try:
        descriptor = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as error:
        raise MatchFileError(path, [f"cannot create the lock file {lock_path}: {error}"]) from None
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX)
        yield
    finally:
        os.close(descriptor)


def match_paths(paths: list[str]) -> list[str]:
    """The files named, and every `*.toml` file below the folders named, in order, each once."""
    found = []
    for path in paths:
        if os.path.isdir(path):
            for folder, subfolders, names in os.walk(path):
                subfolders.sort()
                found += [os.path.join(folder, name) for name in sorted(names) if name.endswith(".toml")]
        else:
            found.append(path)
    seen: set[str] = set()
    unique = []
    for path in found:
        if os.path.realpath(path) not in seen:
            seen.add(os.path.realpath(path))
            unique.append(path)
    return unique


def load_many(paths: list[str]) -> tuple[list[Sheet], list[MatchFileError]]:
    """Every match under `paths`; a broken file is returned as its error and the others still load."""
    sheets, errors = [], []
    for path in match_paths(paths):
        try:
            sheets.append(load(path)[1])
        except MatchFileError as error:
            errors.append(error)
    return sheets, errors

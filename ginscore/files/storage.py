"""Match files: TOML to `Match` and back, and load problems with their place (the file's folder,
atomic writes and the writers' lock are in `folder`).

The file is the score sheet. It stores inputs; the dealer and running totals written beside each
hand are for people reading the file, and on load they are recomputed and compared, never trusted.

What a person put in the file stays: a write changes only the hand blocks it must (`record`
appends one, `undo` drops the last, `edit` rewrites one and the derived lines after it), so
comments and layout elsewhere survive.
"""

from __future__ import annotations

import re
import sys
import unicodedata
from dataclasses import fields, replace
from typing import Any, NamedTuple

from ..errors import GinscoreError, MatchFileError, quote
from ..game.rulebook import KNOBS, Rules, apply_knobs
from ..match.records import HandRecord, Match, check_note, check_players
from ..match.tally import HandLine, Sheet, tally, with_spreads
from . import plain_toml
from .folder import read_text, write_atomic

FORMAT = 2
"""Format 2 adds each hand's `spread`; format 1 files are read as they are and become 2 when written."""
FORMATS_READ = (1, 2)
HEADER = (
    "# ginscore match file: the score sheet. Edit it by hand if you like, then run\n"
    "# `ginscore validate` on it. Each hand's dealer and totals are recomputed on load.\n\n"
)
_BOM = "\ufeff"
_RECORD_FIELDS = {f.name: f for f in fields(HandRecord)}
_DERIVED = ("dealer", "totals")
_TYPE_WORDS = {int: "a whole number without quotes", str: "text in quotes", bool: "true or false"}
_TOP_KEYS = ("format", "created", "match", "rules", "hands")
_MATCH_KEYS = ("players", "first_dealer", "hollywood", "preset", "note")
_HAND_HEADER = re.compile(r"(?m)^[ \t]*\[\[[ \t]*hands[ \t]*\]\][ \t]*(#[^\r\n]*)?\r?$")
_BLANK_OR_COMMENT = re.compile(r"[ \t\r]*(#.*)?\n?")


class MatchFile(NamedTuple):
    """A match file as read: its text and parsed TOML (so a write can keep what a person typed),
    the match and its sheet."""

    path: str
    text: str
    data: dict[str, Any]
    match: Match
    sheet: Sheet


# --- reading -------------------------------------------------------------------------------------------


def load(path: str) -> tuple[Match, Sheet]:
    """Read a match file; any problem raises `MatchFileError` listing them all."""
    found = load_file(path)
    return found.match, found.sheet


def load_file(path: str) -> MatchFile:
    """Read a match file, keeping its text for a later write; problems raise `MatchFileError`."""
    text = read_text(path)
    data, match, sheet, problems = _load_text(text)
    if problems or data is None or match is None or sheet is None:
        raise MatchFileError(path, problems)
    return MatchFile(path, text, data, match, sheet)


def loads(text: str) -> tuple[Match | None, Sheet | None, list[str]]:
    """Read a match; returns the match, its sheet and every problem found (each with its place)."""
    _, match, sheet, problems = _load_text(text)
    return match, sheet, problems


def _load_text(text: str) -> tuple[dict[str, Any] | None, Match | None, Sheet | None, list[str]]:
    text = text.removeprefix(_BOM)
    try:
        data = _parse(text)
    except UnreadableError as error:
        return None, None, None, [str(error)]
    problems: list[str] = []
    match = _read_match(data, problems)
    if match is None:
        return data, None, None, problems
    entries = data.get("hands", [])
    if not isinstance(entries, list):
        return data, None, None, [f"hands: expected [[hands]] tables, found {quote(entries)}"]
    found: list[tuple[int, str]] = []
    match = replace(match, hands=tuple(_read_hands(entries, found)))
    hand_problems: list[tuple[int, GinscoreError]] = []
    sheet = tally(match, hand_problems)
    found += [(number, f"hands[{number}]" + (f".{error.field}" if error.field else "") + f": {error}") for number, error in hand_problems]
    # Past the first bad hand the recomputed totals mean nothing, so written ones are checked only before it.
    first_bad = min((number for number, _ in found), default=len(match.hands) + 1)
    found += _compare_derived(entries[: first_bad - 1], sheet.lines)
    problems += [text for _, text in sorted(found, key=lambda item: item[0])]
    return data, match, sheet, problems


class UnreadableError(ValueError):
    """Text that is not a TOML document Python can hold, in words."""


def _parse(text: str) -> dict[str, Any]:
    """The TOML document in `text`: the plain layout ginscore writes is read quickly, the rest by tomllib
    (imported only then: most runs never need it)."""
    found = plain_toml.read(text)
    if found is not None:
        return found
    import tomllib

    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise UnreadableError(f"not valid TOML: {error}") from None
    except RecursionError:
        raise UnreadableError("a value is nested too deeply to be a match file (hundreds of levels of [ or {)") from None
    except ValueError as error:  # Python's limit on the digits of a whole number, or another value it cannot hold
        digits = sys.get_int_max_str_digits()
        if "digits" in str(error):
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
    if not isinstance(created, str):
        problems.append(f"created: expected text in quotes, found {quote(created)}")
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
    )


def _check_note(note: str, place: str, problems: list[str]) -> None:
    try:
        check_note(note)
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
                problems.append(f"{place}.{_shown_key(key)}: unknown key (known: {', '.join([*_RECORD_FIELDS, *_DERIVED])})")
                continue
            expected = type(known.default) if known.default is not None else (int if "deadwood" in key else str)
            if not isinstance(value, expected) or (expected is int and isinstance(value, bool)):
                problems.append(f"{place}.{key}: expected {_TYPE_WORDS[expected]}, found {quote(value)}")
                continue
            if key == "note" and isinstance(value, str):
                _check_note(value, f"{place}.note", problems)
            values[key] = value
        found += [(number, problem) for problem in problems]
        records.append(HandRecord(**(values if not problems else {"cancelled": True})))
    return records


def _compare_derived(entries: list[Any], lines: tuple[HandLine, ...] | list[HandLine]) -> list[tuple[int, str]]:
    """A dealer or total written in the file is an assertion: report where it disagrees."""
    problems = []
    for line, entry in zip(lines, entries):
        place = f"hands[{line.number}]"
        dealer = entry.get("dealer")
        if dealer is not None and dealer != line.dealer and _nfc(dealer) != line.dealer:
            problems.append((line.number, f"{place}.dealer: the file says {quote(dealer)} but by the hands before it {quote(line.dealer)} dealt"))
        totals = entry.get("totals")
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


# --- writing -------------------------------------------------------------------------------------------


def dumps(match: Match, sheet: Sheet | None = None) -> str:
    """The match as TOML text, with each hand's dealer and running totals for readers."""
    import tomli_w

    sheet = sheet or tally(match)
    match = with_spreads(match, sheet)
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
    }
    blocks = [_hand_block(record, line.dealer, line.totals) for record, line in zip(match.hands, sheet.lines)]
    return HEADER + tomli_w.dumps(document) + "".join("\n" + block for block in blocks)


def _hand_block(record: HandRecord, dealer: str, totals: dict[str, int]) -> str:
    """One `[[hands]]` block: the dealer, the record's inputs, then the running totals."""
    import tomli_w

    entry: dict[str, Any] = {"dealer": dealer}
    for name, known in _RECORD_FIELDS.items():
        value = getattr(record, name)
        if value is not None and value != known.default:
            entry[name] = value
    return "[[hands]]\n" + tomli_w.dumps(entry) + "\n[hands.totals]\n" + tomli_w.dumps(totals)


def save(path: str, match: Match, sheet: Sheet | None = None, before: MatchFile | None = None) -> None:
    """Write the match to `path`. Given the file as it was read (`before`), only the hand blocks
    that changed are rewritten, and everything else in the text is kept as it was."""
    sheet = sheet or tally(match)
    text = dumps(match, sheet) if before is None else edited_text(before, match, sheet)
    write_atomic(path, text.encode("utf-8"))


def edited_text(before: MatchFile, match: Match, sheet: Sheet) -> str:
    """The file's text with its hands changed to `match`'s, keeping the rest of it as typed.

    Hands are compared with those read: a new one is appended, a removed one dropped, a changed
    one rewritten, and an unchanged one keeps its text, with its dealer and totals lines updated
    when they changed. If the text cannot be edited so (a layout this does not follow), or the
    result does not read back as `match`, the whole file is written anew.

    The result is read back to check it, except when hands were only appended: then each new
    block is read back alone, which keeps `record` on a long match as quick as on a short one.
    """
    match = with_spreads(match, sheet)
    head, blocks = _split_hands(before.text)
    text, checked = None, False
    if len(blocks) == len(before.match.hands):
        kept = len(match.hands)
        edited = [
            _edited_block(block, before.match.hands[index], before.data["hands"][index], record, sheet.lines[index])
            for index, (block, record) in enumerate(zip(blocks, match.hands))
        ]
        edited += [("", gap) for _, gap in blocks[kept:]]
        added = list(zip(match.hands[len(blocks) :], sheet.lines[len(blocks) :]))
        new_blocks = [_hand_block(record, line.dealer, line.totals) for record, line in added]
        upgraded = _upgraded(head)
        text = _join(upgraded, edited, new_blocks)
        appended = upgraded == head and kept >= len(blocks) and all(new[0] is old[0] for new, old in zip(edited, blocks))
        checked = appended and _appends_cleanly(before.data, len(blocks), new_blocks, added)
    if text is None or not (checked or _reads_as(text, before.data, match, sheet)):
        text = dumps(match, sheet)
        if before.text.startswith(_BOM):
            text = _BOM + text
    return text


def _split_hands(text: str) -> tuple[str, list[tuple[str, str]]]:
    """The text before the first `[[hands]]` line, and each hand as (its block, the blank and
    comment lines after it, which belong to no hand and are always kept)."""
    starts = [found.start() for found in _HAND_HEADER.finditer(text)]
    if not starts:
        return text, []
    return text[: starts[0]], [_split_gap(text[start:end]) for start, end in zip(starts, [*starts[1:], len(text)])]


def _split_gap(chunk: str) -> tuple[str, str]:
    """A hand's text as (its block, the blank and comment lines at its end); the header line stays in the block."""
    first = chunk.find("\n") + 1 or len(chunk)
    end = len(chunk)
    while end > first:
        start = max(chunk.rfind("\n", first, end - 1) + 1, first)
        if not _BLANK_OR_COMMENT.fullmatch(chunk, start, end):
            break
        end = start
    return chunk[:end], chunk[end:]


def _join(head: str, kept: list[tuple[str, str]], added: list[str]) -> str:
    """The head, the kept blocks each followed by its gap, then the new blocks after a blank line."""
    text = head + "".join(body + gap for body, gap in kept)
    for block in added:
        text = text.rstrip("\n") + "\n\n" + block
    return text.rstrip("\n") + "\n"


def _upgraded(head: str) -> str:
    return re.sub(r"(?m)^(\s*format\s*=\s*)\d+", lambda found: f"{found.group(1)}{FORMAT}", head, count=1)


def _edited_block(
    block: tuple[str, str], old: HandRecord, entry: dict[str, Any], record: HandRecord, line: HandLine
) -> tuple[str, str]:
    """A hand's block (and the gap after it) for `record`, keeping its text where the record did not change."""
    body: str | None
    body, gap = block
    if record != old:
        if old.spread is None and replace(old, spread=record.spread) == record:
            body = _with_line_after(body, "knocker_cards", "spread", record.spread)
        else:
            body = None
    if "dealer" in entry and entry["dealer"] != line.dealer:
        body = _with_value(body, "dealer", line.dealer)
    if "totals" in entry and entry["totals"] != line.totals:
        body = _with_totals(body, line.totals)
    return (body if body is not None else _hand_block(record, line.dealer, line.totals).rstrip("\n") + "\n"), gap


def _toml_value(value: Any) -> str:
    import tomli_w

    return tomli_w.dumps({"v": value})[len("v = ") : -1]


def _with_line_after(body: str | None, key: str, new_key: str, value: Any) -> str | None:
    """`body` with `new_key = value` on the line after `key`'s, or None when there is no such line."""
    if body is None:
        return None
    found = re.search(rf"(?m)^\s*{key}\s*=.*\n", body)
    if found is None:
        return None
    return body[: found.end()] + f"{new_key} = {_toml_value(value)}\n" + body[found.end() :]


def _with_value(body: str | None, key: str, value: Any) -> str | None:
    """`body` with the quoted value of its `key = "..."` line replaced, or None when it has none."""
    if body is None:
        return None
    pattern = rf"(?m)^(\s*{key}\s*=\s*)(\"(?:[^\"\\\n]|\\.)*\"|'[^'\n]*')"
    edited, count = re.subn(pattern, lambda found: found.group(1) + _toml_value(value), body, count=1)
    return edited if count else None


def _with_totals(body: str | None, totals: dict[str, int]) -> str | None:
    """`body` with the numbers under its `[hands.totals]` header replaced, or None when it has none."""
    if body is None:
        return None
    header = re.search(r"(?m)^\s*\[\s*hands\s*\.\s*totals\s*\]\s*(#.*)?$", body)
    if header is None:
        return None
    lines = body[header.end() :].splitlines(keepends=True)
    for index, text in enumerate(lines):
        found = re.match(r"(\s*)([^=#\[]+?)(\s*=\s*)(-?\d+)", text)
        if found is None:
            continue
        try:
            name = next(iter(_parse(f"{found.group(2)} = 0")))
        except UnreadableError:
            return None
        if name not in totals:
            return None
        lines[index] = "".join(found.group(1, 2, 3)) + str(totals[name]) + text[found.end() :]
    return body[: header.end()] + "".join(lines)


def _appends_cleanly(data: dict[str, Any], blocks: int, new_blocks: list[str], added: list[tuple[HandRecord, HandLine]]) -> bool:
    """Whether `[[hands]]` blocks appended to a file that read as `data` (with `blocks` hand blocks
    found in its text) give its hands plus these: its hands are `[[hands]]` tables (not one inline
    array) and each new block reads back alone as its hand."""
    hands = data.get("hands")
    if hands is not None and not (isinstance(hands, list) and len(hands) == blocks > 0):
        return False
    for block, (record, line) in zip(new_blocks, added):
        entries = _parse(block)["hands"]
        found: list[tuple[int, str]] = []
        if _read_hands(entries, found) != [record] or found or _compare_derived(entries, [line]):
            return False
    return True


def _reads_as(text: str, data: dict[str, Any], match: Match, sheet: Sheet) -> bool:
    """Whether edited text reads back as `match`, with the file's other tables as they were."""
    try:
        written = _parse(text.removeprefix(_BOM))
    except UnreadableError:
        return False
    others = {key: value for key, value in data.items() if key not in ("format", "hands")}
    if written.get("format") != FORMAT or {k: v for k, v in written.items() if k not in ("format", "hands")} != others:
        return False
    entries = written.get("hands", [])
    found: list[tuple[int, str]] = []
    if not isinstance(entries, list) or _read_hands(entries, found) != list(match.hands) or found:
        return False
    return not _compare_derived(entries, sheet.lines)

"""Match files: reading them (see `reading`) and writing a match back, proven before it lands.

What a person put in the file stays. `record` appends a hand block after every byte already there; `edit`,
`undo` and the upgrade of a format-1 file change the file through tomlkit, which keeps comments and layout
(see `layout`). Whatever made the new bytes, they are read back with the reader a later load uses, and must
give exactly the match meant, with the file's other tables as they were, before they replace the file. Bytes
not so proven are never written: the next way is tried; a whole rewrite comes last and only when the file
has no comment to lose; when no way is left, the write is refused with one line and nothing changes. In a
file whose lines end with CRLF (as its first line's does), the lines a change adds end with CRLF too.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator, Mapping
from typing import TYPE_CHECKING, Any

from ..errors import MatchFileError, quote
from ..match.records import HandRecord, Match
from ..match.tally import HandLine, Sheet, as_stored, tally, with_spreads
from . import layout, plain_toml
from .folder import check_size, exists_for_write, locked, write_atomic
from .reading import (
    BOM,
    FORMAT,
    HAND_KEYS,
    REMEMBERED,
    FrozenTable,
    MatchFile,
    compare_derived,
    load_file,
    match_file,
    read_back,
    read_hands,
)

if TYPE_CHECKING:
    from contextlib import AbstractContextManager

    from .table_io import Storage

HEADER = (
    "# ginscore match file: the score sheet. Edit it by hand if you like, then run\n"
    "# `ginscore validate` on it. Each hand's dealer and totals are recomputed on load.\n\n"
)


def dumps(match: Match, sheet: Sheet | None = None) -> str:
    """The match as TOML text, with each hand's dealer and running totals for readers."""
    import tomli_w

    sheet = sheet or tally(match)
    match = with_spreads(match, sheet)
    document = {
        "format": FORMAT,
        "created": match.created,
        "match": {
            **({"id": match.id} if match.id is not None else {}),
            "players": list(match.players),
            "first_dealer": match.first_dealer,
            "hollywood": match.hollywood,
            **({"preset": match.preset} if match.preset else {}),
            **({"note": match.note} if match.note else {}),
        },
        "rules": match.rules.to_dict(),
    }
    blocks = [_hand_block(record, line) for record, line in zip(match.hands, sheet.lines)]
    return HEADER + tomli_w.dumps(document) + "".join("\n" + block for block in blocks)


def _hand_table(record: HandRecord, line: HandLine) -> dict[str, Any]:
    """One hand as a table, under the file's keys: the dealer, the record's inputs, then the running totals."""
    table: dict[str, Any] = {"dealer": line.dealer}
    for key, known in HAND_KEYS.items():
        value = getattr(record, known.name)
        if value is not None and value != known.default:
            table[key] = value
    table["totals"] = dict(line.totals)
    return table


def _hand_block(record: HandRecord, line: HandLine) -> str:
    """One `[[hands]]` block, its totals under `[hands.totals]`."""
    import tomli_w

    table = _hand_table(record, line)
    totals = table.pop("totals")
    return "[[hands]]\n" + tomli_w.dumps(table) + "\n[hands.totals]\n" + tomli_w.dumps(totals)


def save(path: str, match: Match, sheet: Sheet | None = None, before: MatchFile | None = None,
         storage: Storage | None = None) -> MatchFile:
    """Write the match to `path` and return the file as written. Given the file as it was read (`before`), what
    a person typed in it is kept (see the module's words). The new bytes are proven to read back as `match`
    before they land. With `storage` (the file's folder, the file directly inside it), the bytes are written
    through it; else on the disk at `path`."""
    sheet = sheet or tally(match)
    if before is None:
        text = dumps(match, sheet)
        proven = _proven(text, None, with_spreads(match, sheet), sheet)
        if proven is None:
            raise MatchFileError(path, ["the text made for this match does not read back as it (a bug in ginscore); nothing was changed"])
        data, plain = proven
    else:
        text, data, plain = edited(before, match, sheet)
    write(path, readable_bytes(path, text), storage)
    stored, stored_sheet = as_stored(match, sheet)
    written = MatchFile(path, text, data, stored, stored_sheet, plain)
    REMEMBERED.remember(path, text, written)
    return written


def write(path: str, data: bytes, storage: Storage | None = None) -> None:
    """A match file's new bytes written at once: through its folder's `storage` when given, else at `path`."""
    if storage is None:
        write_atomic(path, data)
    else:
        storage.write(os.path.basename(path), data)


def read(path: str, storage: Storage | None = None) -> MatchFile:
    """A match file as it is now: through its folder's `storage` when given (the file directly inside it), else
    from the disk at `path`; problems raise `MatchFileError`."""
    if storage is None:
        return load_file(path)
    return match_file(path, storage.text(os.path.basename(path)))


def exists(path: str, storage: Storage | None = None) -> bool:
    """Whether a write to `path` would replace something: asked of its folder's `storage` when given, else of the
    disk (`folder.exists_for_write`)."""
    if storage is None:
        return exists_for_write(path)
    return storage.exists(os.path.basename(path))


def lock(path: str, storage: Storage | None = None, *, existing: bool = False) -> AbstractContextManager[None]:
    """A match file's lock: through its folder's `storage` when given, else beside `path` (`folder.locked`)."""
    if storage is None:
        return locked(path, existing=existing)
    return storage.lock(os.path.basename(path), existing=existing)


def readable_bytes(path: str, text: str) -> bytes:
    """`text` as the bytes a later read will take: UTF-8, and no more than the reader reads (`folder.check_size`);
    refused with one line otherwise. The read-back proof works on text, so these two limits of the reader are
    applied here."""
    try:
        data = text.encode("utf-8")
    except UnicodeEncodeError as error:
        char = text[error.start]
        raise MatchFileError(path, [
            f"cannot write {quote(char)} (U+{ord(char):04X}): it is not a character but a byte that was not UTF-8 (typed "
            "in another encoding?) or half of one, and no later command could read the file; nothing was changed"
        ]) from None
    check_size(path, len(data), writing=True)
    return data


def edited(before: MatchFile, match: Match, sheet: Sheet) -> tuple[str, dict[str, Any], bool]:
    """The file's text with its hands changed to `match`'s, keeping what a person typed; proven to read
    back as `match` (with the file's other tables as they were), or `MatchFileError` with one line. With the
    text, the document it reads as and whether it is in the plain layout."""
    match = with_spreads(match, sheet)
    crlf = _uses_crlf(before.text)
    appended = _appended(before, match, sheet)
    if appended is not None and before.plain and not crlf:  # a plain file has LF endings only
        data = _proven_append(before, appended, match, sheet)
        if data is not None:
            return before.text + appended, data, True
    for make in _ways(before, appended, match, sheet, crlf):
        text = make()
        proven = _proven(text, before.data, match, sheet) if text is not None else None
        if text is not None and proven is not None:
            return text, *proven
    raise MatchFileError(
        before.path,
        [
            "cannot make this change and keep the comments and layout typed in the file (the edited text would not "
            "read back as the match); nothing was changed: remove the comments, or make the change by hand"
        ],
    )


_BARE_LF = re.compile(r"(?<!\r)\n")


def _uses_crlf(text: str) -> bool:
    """Whether a file's lines end with CRLF, as its first line's does: then the lines a change adds end so too."""
    first, newline, _ = text.partition("\n")
    return bool(newline) and first.endswith("\r")


def _ways(before: MatchFile, appended: str | None, match: Match, sheet: Sheet, crlf: bool) -> Iterator[Callable[[], str | None]]:
    """The ways to write the change, safest for what a person typed first: `appended` (the hand blocks an append
    adds, when the change only adds hands) after the text, an edit, a rewrite. In a CRLF file the lines a way adds
    end with CRLF: an append's own lines only; an edit's or a rewrite's, every line."""
    yield lambda: _with_appended(before, appended, crlf)
    yield lambda: _ended(layout.edited(before, match, sheet, _hand_table), crlf)
    if "#" not in before.text:
        yield lambda: _ended((BOM if before.text.startswith(BOM) else "") + dumps(match, sheet), crlf)


def _ended(text: str | None, crlf: bool) -> str | None:
    return _BARE_LF.sub("\r\n", text) if text is not None and crlf else text


def _with_appended(before: MatchFile, appended: str | None, crlf: bool) -> str | None:
    if appended is None:
        return None
    newline = "\r\n" if crlf else "\n"
    text = before.text if before.text.endswith("\n") or not before.text.removeprefix(BOM) else before.text + newline
    return text + (_ended(appended, crlf) or "")


def _appended(before: MatchFile, match: Match, sheet: Sheet) -> str | None:
    """The hand blocks to add after every byte already there, when the change only adds hands."""
    count = len(before.match.hands)
    if before.data.get("format") != FORMAT or len(match.hands) <= count or match.hands[:count] != before.match.hands:
        return None
    blocks = [_hand_block(record, line) for record, line in zip(match.hands[count:], sheet.lines[count:])]
    return "".join("\n" + block for block in blocks)


def _proven_append(before: MatchFile, appended: str, match: Match, sheet: Sheet) -> dict[str, Any] | None:
    """The document `before`'s plain text with `appended` after it reads as, when it gives exactly `match`; the
    hands before were proven when they were read, so only the added ones are read back and compared."""
    document = plain_toml.read_after(before.data, appended)
    if document is None:
        return None
    count = len(before.match.hands)
    tables = document.get("hands")
    if not isinstance(tables, list) or len(tables) != len(match.hands):
        return None
    problems: list[tuple[int, str]] = []
    added = read_hands(tables[count:], problems)
    if problems or tuple(added) != match.hands[count:]:
        return None
    if compare_derived(tables[count:], sheet.lines[count:]):
        return None
    if not _same_tables(document, before.data, ("hands",)):
        return None
    return document


def _same_tables(written: dict[str, Any], data: Mapping[str, Any], apart: tuple[str, ...]) -> bool:
    """Whether the document written holds every table of `data` as it was, but those `apart` (`data` is a file's
    as read, read-only: both are compared frozen, an array as a tuple)."""
    return FrozenTable({k: v for k, v in written.items() if k not in apart}) == {k: v for k, v in data.items() if k not in apart}


def _proven(text: str, data: Mapping[str, Any] | None, match: Match, sheet: Sheet) -> tuple[dict[str, Any], bool] | None:
    """The document `text` reads as and whether it is in the plain layout, when, read as a later load reads it, it
    gives exactly `match` with `sheet`'s dealers and totals, in the current format, with every table but the hands
    as in `data` (when given)."""
    read = read_back(text, sheet)
    written = read.data
    if read.problems or read.match != match or written is None or written.get("format") != FORMAT:
        return None
    if data is not None and not _same_tables(written, data, ("format", "hands")):
        return None
    return written, read.plain

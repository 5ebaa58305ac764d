"""Edits that keep a person's layout: the hands of a match file changed through tomlkit, which keeps every
comment, key spelling, number spelling and table order it does not have to touch.

`record` needs none of this (a new hand is appended after every byte already there); `edit`, `undo`, the
upgrade of a format-1 file and a file whose hands are one inline array come here. The result is only a
candidate: `storage` reads it back and proves it before it replaces the file.
"""

from __future__ import annotations

import unicodedata
from collections.abc import MutableMapping, MutableSequence
from typing import Any

from ..match.records import HandRecord, Match
from ..match.tally import HandLine, Sheet
from .reading import BOM, DERIVED, FORMAT, MatchFile


def edited(before: MatchFile, match: Match, sheet: Sheet, table_of: Any) -> str | None:
    """`before`'s text with its format and hands made `match`'s, or None when tomlkit cannot read or edit it.

    `table_of(record, line)` gives the table of a new hand, as a fresh file would hold it.
    """
    import tomlkit
    from tomlkit.exceptions import TOMLKitError

    try:
        document = tomlkit.parse(before.text.removeprefix(BOM))
        if before.data.get("format") != FORMAT:
            document["format"] = FORMAT
        _edit_hands(document, before.match.hands, match.hands, sheet, table_of)
        text = tomlkit.dumps(document)
    except (TOMLKitError, ValueError, TypeError, KeyError, IndexError, AttributeError, RecursionError):
        return None
    return BOM + text if before.text.startswith(BOM) else text


def _edit_hands(document: Any, old: tuple[HandRecord, ...], new: tuple[HandRecord, ...], sheet: Sheet, table_of: Any) -> None:
    import tomlkit

    hands = document.get("hands")
    if hands is None:
        if not new:
            return
        document["hands"] = hands = tomlkit.aot()
    if not isinstance(hands, MutableSequence) or len(hands) != len(old):
        raise ValueError("the hands are not a list of tables")
    for index in range(min(len(old), len(new))):
        _edit_hand(hands[index], old[index], new[index], sheet.lines[index], table_of)
    while len(hands) > len(new):
        _remove_last(document, hands)
    for record, line in zip(new[len(old) :], sheet.lines[len(old) :]):
        _append(hands, table_of(record, line))


def _plain(item: Any) -> Any:
    return item.unwrap() if hasattr(item, "unwrap") else item


def _edit_hand(table: Any, old: HandRecord, record: HandRecord, line: HandLine, table_of: Any) -> None:
    """One hand changed in place: its inputs where the record changed, its dealer and totals where the sheet did."""
    if not isinstance(table, MutableMapping):
        raise ValueError("a hand is not a table")
    if record != old:
        wanted = {key: value for key, value in table_of(record, line).items() if key not in DERIVED}
        for key in [key for key in table if key not in DERIVED and key not in wanted]:
            _delete_keeping_comment(table, key)
        for key, value in wanted.items():
            if key not in table or _plain(table[key]) != value:
                table[key] = value
    if "dealer" in table and _plain(table["dealer"]) != line.dealer:
        table["dealer"] = line.dealer
    totals = table.get("totals")
    if isinstance(totals, MutableMapping):
        for name in list(totals):
            wanted_total = line.totals.get(unicodedata.normalize("NFC", name))
            if wanted_total is not None and _plain(totals[name]) != wanted_total:
                totals[name] = wanted_total


def _delete_keeping_comment(table: Any, key: str) -> None:
    """Delete a key; a comment after its value stays, on a line of its own where the key was."""
    from tomlkit.items import Comment, Null, Trivia

    container = table.value
    trivia = container.item(key).trivia
    index = next(i for i, (found, _) in enumerate(container.body) if found is not None and found.key == key)
    del table[key]
    if not trivia.comment or not isinstance(container.body[index][1], Null):
        return
    # tomlkit leaves a Null where a deleted key was, so the comment takes its place and no index moves.
    container.body[index] = (None, Comment(Trivia(indent=trivia.indent, comment_ws="", comment=trivia.comment, trail=trivia.trail)))


def _remove_last(document: Any, hands: Any) -> None:
    """Drop the last hand; the comments after its last value belong to no hand, and stay where they were."""
    from tomlkit.items import Comment, Table

    last = hands[-1]
    trail = _trailing_trivia(last.value) if hasattr(last, "value") and hasattr(last.value, "body") else []
    del hands[-1]
    if not any(isinstance(item, Comment) for item in trail):
        return
    if len(hands) and hasattr(hands[-1], "value"):
        container = _deepest(hands[-1].value)
    else:
        keys = [key.key if key is not None else None for key, _ in document.body]
        at = keys.index("hands") if "hands" in keys else len(keys)
        before = [item for _, item in document.body[:at] if isinstance(item, Table)]
        container = _deepest(before[-1].value) if before else document
    for item in trail:
        container.add(item)


def _trailing_trivia(container: Any) -> list[Any]:
    """The comments and blank lines at the end of a table (after its last sub-table's values too), taken out of it."""
    from tomlkit.items import Comment, Table, Whitespace

    body = container.body
    end = len(body)
    while end and body[end - 1][0] is None and isinstance(body[end - 1][1], (Comment, Whitespace)):
        end -= 1
    found = [item for _, item in body[end:]]
    del body[end:]
    if end and isinstance(body[end - 1][1], Table):
        return _trailing_trivia(body[end - 1][1].value) + found
    return found


def _deepest(container: Any) -> Any:
    """The container whose text comes last in a table: the table's own, or its last sub-table's."""
    from tomlkit.items import Table

    body = container.body
    while body and isinstance(body[-1][1], Table):
        container = body[-1][1].value
        body = container.body
    return container


def _append(hands: Any, values: dict[str, Any]) -> None:
    import tomlkit
    from tomlkit.items import AoT

    if isinstance(hands, AoT):
        if len(hands):
            _deepest(hands[-1].value).add(tomlkit.nl())
        table = tomlkit.table()
        for key, value in values.items():
            table[key] = value
        hands.append(table)
    else:
        inline = tomlkit.inline_table()
        inline.update(values)
        hands.append(inline)

"""A fast reader for the plain TOML layout that ginscore writes.

tomllib is exact but is most of the time it takes to load a long match. A match file as written
here uses a small part of TOML: `[table]`, `[[hands]]` and `[hands.totals]` headers, and
`key = value` lines whose values are plain strings, whole numbers, booleans or a list of plain
strings. `read` parses just that part and returns None for anything else: a file outside it is
left to tomllib, which then gives its exact answer or its exact error.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

_STRING = r'"[^"\\\x00-\x08\x0a-\x1f\x7f]*"'
_KEY = rf"[A-Za-z0-9_-]+|{_STRING}"
_COMMENT = r"(?:#[^\x00-\x08\x0a-\x1f\x7f]*)?"
_PAIR = re.compile(
    rf"[ \t]*({_KEY})[ \t]*=[ \t]*(?:({_STRING})|(-?(?:0|[1-9][0-9]{{0,17}}))|(true|false)|(\[))[ \t]*{_COMMENT}"
)
_TABLE = re.compile(rf"[ \t]*\[[ \t]*({_KEY})[ \t]*\][ \t]*{_COMMENT}")
_SKIP = re.compile(rf"[ \t]*{_COMMENT}")
_ITEM = re.compile(rf"[ \t]*({_STRING})[ \t]*(,?)[ \t]*{_COMMENT}")
_CLOSE = re.compile(rf"[ \t]*\][ \t]*{_COMMENT}")
_HANDS = "[[hands]]"
_TOTALS = "[hands.totals]"


def read(text: str) -> dict[str, Any] | None:
    """The document `text` holds, exactly as tomllib reads it, or None when it is not plain."""
    return _read(text, {}, None)


def read_after(document: Mapping[str, Any], text: str) -> dict[str, Any] | None:
    """The document that `text` added after a plain file makes, given what that file read as (`document`, from
    `read`, of a text ending in a line break; read-only when it is a remembered file's); None when the whole is
    not plain. Only `text` is read, so an appended hand is read back without reading every hand before it; the
    tables before it are shared, not copied."""
    hands = document.get("hands")
    if hands is not None and not isinstance(hands, (list, tuple)):
        return None
    root = dict(document)
    if hands is not None:
        root["hands"] = list(hands)
    return _read(text, root, root.get("hands"), after=True)


def _read(text: str, root: dict[str, Any], hands: list[dict[str, Any]] | None, after: bool = False) -> dict[str, Any] | None:
    # After a file, the table a key would belong to is the file's last one, which only the whole file knows:
    # the added text must open its own table before any key.
    table: dict[str, Any] | None = None if after else root
    lines = iter(text.split("\n"))
    for line in lines:
        pair = _PAIR.fullmatch(line)
        if pair is not None:
            if table is None:
                return None
            key, string, number, boolean, array = pair.groups()
            if array is not None:
                value: Any = _array(lines)
                if value is None:
                    return None
            elif string is not None:
                value = string[1:-1]
            elif number is not None:
                value = int(number)
            else:
                value = boolean == "true"
            key = key.strip('"') if key.startswith('"') else key
            if key in table or (table is root and key == "hands"):  # ginscore writes hands only as [[hands]] tables
                return None
            table[key] = value
        elif line.strip(" \t") == _HANDS:
            if hands is None:
                if "hands" in root:
                    return None
                hands = root["hands"] = []
            table = {}
            hands.append(table)
        elif line.strip(" \t") == _TOTALS:
            if not hands or table is None or table is not hands[-1] or "totals" in table:
                return None
            table = hands[-1]["totals"] = {}
        elif (header := _TABLE.fullmatch(line)) is not None:
            name = header.group(1)
            name = name.strip('"') if name.startswith('"') else name
            if name in root:
                return None
            table = root[name] = {}
        elif _SKIP.fullmatch(line) is None:
            return None
    return root


def _array(lines: Any) -> list[str] | None:
    """The strings of a list written one to a line, up to its closing `]`; None if it is not so."""
    items: list[str] = []
    comma = True
    for line in lines:
        item = _ITEM.fullmatch(line)
        if item is not None:
            if not comma:
                return None
            items.append(item.group(1)[1:-1])
            comma = item.group(2) == ","
        elif _CLOSE.fullmatch(line) is not None:
            return items
        elif _SKIP.fullmatch(line) is None:
            return None
    return None

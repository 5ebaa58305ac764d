"""Which names may be a table's match files, and which two names are one on a phone.

A match file's name ends in `.toml`, is not hidden, has no slash and no character that does not show
(`name_problem`). A phone, and a file system that folds case, holds a name under NFC and case folding
(`phone_name`): of two names equal so, the first in sorted order counts and the other is its twin
(`twins_among`, `twin_problem`).
"""

from __future__ import annotations

import unicodedata

from ..errors import MatchFileError, quote


def name_problem(name: str) -> str | None:
    """Why `name` cannot be a match file directly inside a table's folder, in words that end before an example
    name; None when it can be one."""
    if name.endswith(".toml") and name[0] != "." and name.isascii() and name.isprintable() and "/" not in name and (
            "\\" not in name and len(name) <= 255):
        return None  # the names of nearly every folder, told at once
    if not name.endswith(".toml") or name == ".toml":
        return "a match file's name ends in .toml"
    if name.startswith("."):
        return "a name that starts with a dot is hidden: start it with a letter or a digit"
    if any(bad in name for bad in ("/", "\\", "\x00")):
        return "the file goes straight into this folder, so its name has no / or \\ in it"
    if len(name.encode("utf-8", "replace")) > 255:
        return "the name is too long: make it shorter"
    if any(not char.isprintable() or unicodedata.category(char) in ("Cf", "Cs") for char in name):
        # a line break or a right-to-left mark would let a name pass for another in the listing
        return "the name holds a character that does not show (a line break, a direction mark): type it again"
    return None


def twin_problem(path: str, twin: str) -> MatchFileError:
    """Why the file at `path` does not count: its name is `twin`'s, the name before it, on a phone."""
    return MatchFileError(path, [f"its name is {quote(twin)}'s on a phone (the same letters in another case or form): rename one"])


def phone_name(name: str) -> str:
    """What a phone, or a file system that folds case, holds a name as."""
    return unicodedata.normalize("NFC", name).casefold()


def twins_among(names: list[str]) -> dict[str, str]:
    """Each name that is an earlier name's on a phone (equal under NFC and case folding), with that name."""
    first: dict[str, str] = {}
    found = {}
    for name in names:
        key = phone_name(name)
        if key in first:
            found[name] = first[key]
        else:
            first[key] = name
    return found


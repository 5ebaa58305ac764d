"""Match files remembered by their exact text: a server reads a file on every request and parses it once.

A file is remembered under its path and its whole text, so any change to it, by anyone (the command line
included), is a different text and is read afresh. What a write proved is remembered under the text it wrote.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .reading import MatchFile

MOST = 16
"""How many files' texts are remembered at once: the matches a table has open, and a few more."""

_remembered: OrderedDict[tuple[str, str], MatchFile] = OrderedDict()
_lock = threading.Lock()


def recall(path: str, text: str) -> MatchFile | None:
    """The file as read before, when `path` held exactly `text` then; None otherwise."""
    with _lock:
        found = _remembered.get((path, text))
        if found is not None:
            _remembered.move_to_end((path, text))
        return found


def remember(found: MatchFile) -> None:
    """Keep `found` for the next read of the same path and text; the oldest is forgotten past `MOST`."""
    with _lock:
        for key in [key for key in _remembered if key[0] == found.path]:
            del _remembered[key]  # one text per file: the one it holds now
        _remembered[(found.path, found.text)] = found
        while len(_remembered) > MOST:
            _remembered.popitem(last=False)

"""Files remembered by their exact text: a server reads a file on every request and parses each text once.

A file is remembered under its path and its whole text, so any change to it, by anyone (the command line
included), is a different text and is read afresh. A write remembers what it proved under the text it wrote.
Many threads recall one file at once and share what it was read as: that is read-only all the way down.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Generic, TypeVar

T = TypeVar("T")

MOST = 16
"""How many files' texts are remembered at once: the matches a table has open, and a few more."""
MOST_TEXT = 32 * 2**20
"""How much text is remembered at most, so that a folder of very large files cannot fill the memory."""


class Remembered(Generic[T]):
    """What each file's text was read as, for the files read last; one text a file, the one it holds now."""

    def __init__(self, most: int = MOST, most_text: int = MOST_TEXT):
        self.most, self.most_text = most, most_text
        self._known: OrderedDict[tuple[str, str], T] = OrderedDict()
        self._lock = threading.Lock()

    def recall(self, path: str, text: str) -> T | None:
        """What `path` was read as when it held exactly `text`; None when that is not known."""
        with self._lock:
            known = self._known.get((path, text))
            if known is None:
                return None
            self._known.move_to_end((path, text))
        return known

    def remember(self, path: str, text: str, read: T) -> None:
        """Keep `read` for the next read of `path` holding `text`; the oldest is forgotten past `most`."""
        with self._lock:
            for key in [key for key in self._known if key[0] == path]:
                del self._known[key]
            if len(text) > self.most_text:
                return
            self._known[(path, text)] = read
            while len(self._known) > self.most or sum(len(key[1]) for key in self._known) > self.most_text:
                self._known.popitem(last=False)

    def forget(self) -> None:
        """Forget every file (for tests and benchmarks that read afresh)."""
        with self._lock:
            self._known.clear()

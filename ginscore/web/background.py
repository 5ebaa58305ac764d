"""Work a page starts and shows the progress of (a review): run in a thread of its own, once, while the page says
how far it has got and reloads itself until it is done; without threads, a turn of it at each visit (`TURN_S`)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Generic, TypeVar

T = TypeVar("T")

TURN_S = 5.0
"""How long one visit of such a page works where there are no threads (Pyodide, the app) before it answers with
how far it has got, to go on at the next: well within the app's deadline for a page (20 s)."""
Progress = Callable[[int, int], None]
"""What work says as it goes: how much is done, of how much."""


@dataclass
class Background(Generic[T]):
    """Work under way in a thread of its own, or done: how much is done, and what it found or that it failed."""

    total: int = 0
    done: int = 0
    found: T | None = None
    failed: bool = False
    finished: threading.Event = field(default_factory=threading.Event)

    def progress(self, done: int, total: int) -> None:
        self.done, self.total = done, total

    def start(self, work: Callable[[Progress], T | None], name: str) -> None:
        """`work` run in a thread named `name`, told to say its progress; what it returns kept as `found`."""
        threading.Thread(target=self._run, args=(work,), daemon=True, name=name).start()

    def _run(self, work: Callable[[Progress], T | None]) -> None:
        try:
            self.found = work(self.progress)
        except Exception:  # said on the page: the work could not be done
            self.failed = True
            raise
        finally:
            self.finished.set()

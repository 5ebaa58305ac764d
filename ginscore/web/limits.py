"""How many requests `serve` answers at once: one kind of limit for the server's cap and for `advise`'s turns.

A `Limit` lets `at_once` requests in, lets `waiting` more wait their turn in the event loop (holding no thread),
and turns the rest away at once with `Busy`, which the guard answers 503 with `Retry-After`: a short answer now
beats a long wait on a phone. A request holds a place only while it is being answered: its body is read whole
before (`security.Guard`), so a client trickling a body holds its own connection and nothing else.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field

MOST_REQUESTS = 64
"""Requests answered at once; more get 503 at once rather than a long wait."""
MOST_WAITING_ADVICE = 8
"""Requests for advice that may wait for their turn (one advises at a time); more get 503 at once."""


class Busy(Exception):
    """A request turned away because a limit is full: answered 503, with `retry_after` seconds to wait."""

    def __init__(self, message: str, retry_after: int):
        super().__init__(message)
        self.retry_after = retry_after


class Limit:
    """At most `at_once` requests inside, `waiting` more waiting their turn, the rest `Busy` at once."""

    def __init__(self, at_once: int, waiting: int, busy: str, retry_after: int = 1):
        self.waiting, self.busy, self.retry_after = waiting, busy, retry_after
        self._free = asyncio.Semaphore(at_once)
        self._queued = 0

    @asynccontextmanager
    async def turn(self) -> AsyncIterator[None]:
        """Inside the limit for the `async with` block, after waiting for a turn if need be; `Busy` when full."""
        if self._free.locked():
            if self._queued >= self.waiting:
                raise Busy(self.busy, self.retry_after)
            self._queued += 1
            try:
                await self._free.acquire()
            finally:
                self._queued -= 1
        else:
            await self._free.acquire()  # at once: a place is free
        try:
            yield
        finally:
            self._free.release()


@dataclass(frozen=True)
class Limits:
    """One app's limits: every request, and the requests for advice within them."""

    requests: Limit = field(default_factory=lambda: Limit(
        MOST_REQUESTS, 0, "the server is answering too many requests at once: try again in a moment"))
    advice: Limit = field(default_factory=lambda: Limit(
        1, MOST_WAITING_ADVICE, "the server is busy advising other hands: try again in a moment", retry_after=2))

"""A review's knocks shared with helpers: other Web Workers of the app, each running a Pyodide of its own.

The app cannot start a thread, and its one worker would review a 30-hand match's knocks one after another. Where
the browser lends more cores, the app's shell starts helpers (`pocket/shell/helpers.js`), each given the match's
text, the chance's model and the table this worker solved, once a review (`pocket/reviewer.py`), then asked for
knocks two at a time: this worker takes the knocks from the first, the helpers from the last, until they meet or
the visit's turn ends. Every knock is reviewed from its own cards and seed, so its figures are the same, bit for
bit, wherever it is reviewed.
"""

from __future__ import annotations

import asyncio
import pickle
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

from ..game.odds import dealer_table, solvable, table_bytes
from ..match.review import HandReview, hand_at

if TYPE_CHECKING:
    from ..game.outcomes import Outcomes
    from ..match.tally import Sheet

FEWEST_KNOCKS = 4
"""Below this, starting a helper (a Pyodide of its own, about a second) costs more than it saves."""
WAKE_S = 0.1
"""How long the first review waits for the page to say its helpers are there (a few ms when it is idle)."""


class Helpers(Protocol):
    """The helpers a review may share its knocks with (the app's shell gives them, `pocket/shell/helpers.js`). The
    knocks are a list there: this worker takes them from the front, the helpers from the back, and their answers
    wait there until collected, so a helper goes on while this worker is busy with a knock."""

    def count(self) -> int:
        """How many helpers there are: 0 where the browser lends no other core."""

    async def wake(self, wait: float) -> None:
        """The helpers asked to start (a Pyodide each, under a second where the runtime is handed over), and
        waited for at most `wait` seconds to be ready to be asked: their answer comes only while this worker
        pauses, and it is about to solve the chance table without a pause."""

    def share(self, text: str, model: bytes, table: bytes, knocks: Sequence[int]) -> None:
        """The knocks `knocks` shared out: each helper given the match file's text, the chance's model (pickled)
        and its table solved from 0 (`odds.table_bytes`, empty where none is), then knocks from the back."""

    def next(self) -> int | None:
        """The next knock for this worker, from the front; None once none is left."""

    def collect(self) -> list[tuple[int, bytes]]:
        """The helpers' answers so far (a knock's index, its `HandReview` pickled), each handed over once."""

    async def finish(self) -> None:
        """No knock handed out more; done once the helpers' knocks under way are answered (or a few seconds have
        passed: a knock not answered is left to the page's own turn)."""


async def share(
    helpers: Helpers, text: str, sheet: Sheet, outcomes: Outcomes, knocks: Sequence[int], kept: dict[int, HandReview],
    stop: float,
) -> None:
    """Review the knocks of `knocks` not yet in `kept` into it, here and on the helpers, until all are done or the
    clock (`time.monotonic`) passes `stop`. A helper that fails leaves its knock to the others."""
    left = [index for index in knocks if index not in kept]
    if len(left) < FEWEST_KNOCKS or not helpers.count():
        return
    await helpers.wake(WAKE_S)
    rules = sheet.match.rules
    table = b""
    if solvable(rules.target, (0, 0)):  # the chance table every knock asks, solved once here for all
        table = table_bytes(dealer_table(outcomes, rules.target, rules.next_dealer, 0))
    helpers.share(text, pickle.dumps(outcomes), table, left)

    def collect() -> None:
        for index, review in helpers.collect():
            kept[index] = pickle.loads(review)  # bytes our own helper pickled

    while time.monotonic() < stop and (index := helpers.next()) is not None:
        kept[index] = hand_at(sheet, outcomes, index)
        collect()
        await asyncio.sleep(0)  # the helpers' answers come in, and each is asked for its next knock
    await helpers.finish()
    collect()

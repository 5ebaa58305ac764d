"""Start-up's objects and the garbage collector.

What a run imports (Typer, a command's modules, the core under them) makes tens of thousands of objects that last
as long as the process. The collector would walk them again and again and find nothing to free: about a tenth of
`ginscore show`'s start-up (benchmarks/bench_startup.py). `lasting` makes them with the collector off and then
leaves them out of its later collections (`gc.freeze`); what a command makes after that is collected as usual.

Only a process that the `ginscore` command started freezes its objects: a program that runs a command in its own
process (the tests, through Typer's runner) keeps its collector as it was, since freezing would also keep
whatever garbage it held at that moment.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

_started_frozen = False
"""Whether this process's start froze its objects. Kept here, not asked of the collector: `gc.get_freeze_count()`
walks every frozen object (some 25,000 once `show` has imported its modules), about 2 ms a walk on this project's
machine, and every `lasting()` after the start would ask."""


@contextmanager
def lasting(process_start: bool = False) -> Iterator[None]:
    """Objects made in this block, imports above all, live as long as the process: the collector is off while
    they are made (as it was before, after it) and, at the `ginscore` command's start (`process_start`) and
    after it, later collections leave them out."""
    global _started_frozen
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if process_start or _started_frozen:
            gc.freeze()
            _started_frozen = True
        if collecting:
            gc.enable()

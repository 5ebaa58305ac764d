"""Start-up's objects and the garbage collector.

What a run imports (Typer, a command's modules, the core under them) makes tens of thousands of objects that last
as long as the process. The collector would walk them again and again and find nothing to free: about a tenth of
`ginscore show`'s start-up (benchmarks/bench_startup.py). `lasting` makes them with the collector off and then
leaves them out of its later collections (`gc.freeze`); what a command makes after that is collected as usual.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def lasting() -> Iterator[None]:
    """Objects made in this block, imports above all, live as long as the process: the collector is off while
    they are made (as it was before, after it), and later collections leave them out."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        if collecting:
            gc.enable()

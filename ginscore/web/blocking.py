"""How the web layer runs its blocking calls (file reads and writes through `service`): in Starlette's thread pool,
off the event loop, under a server; inline where there are no threads, as under Pyodide in `ginscore app`."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")

INLINE = sys.platform == "emscripten"
"""True under Pyodide (WebAssembly), which cannot start a thread: each call runs on the one there is."""


async def blocking(function: Callable[..., T], *args: Any) -> T:
    """`function(*args)`, in a worker thread when threads exist, else inline."""
    if INLINE:
        return function(*args)
    from starlette.concurrency import run_in_threadpool

    return await run_in_threadpool(function, *args)

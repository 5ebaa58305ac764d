"""A pytest plugin for `bench_suite.py --by-file`: each test's wall time and the processor time of every process
its worker has started, Chromium's renderers included, and when it began and ended.

A renderer's time never reaches its worker's own count: Chromium's zygote does not wait for it as a parent does.
So every process below the worker is read from /proc ten times a second, and the last reading of each one, the
dead kept, is what it spent. Each test's row goes to a file of its worker's in `GINSCORE_CPU_BY_TEST` (a folder).
"""

from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from procfs import TICKS, stat_of, ticks

SPENT: dict[tuple[int, str], int] = {}
"""Each process seen below this worker, by its pid and start time, and the ticks it had spent when last read."""
READING = threading.Lock()


def _processes() -> dict[int, tuple[int, int, str]]:
    """Every process now: its parent, its ticks (user and system) and its start time."""
    found = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                fields = stat_of(f"/proc/{name}/stat")[1]
            except OSError:
                continue
            found[int(name)] = (int(fields[1]), ticks(fields), fields[19])
    return found


def _read() -> float:
    """Seconds spent so far by this worker and every process below it, the dead included."""
    processes = _processes()
    children: dict[int, list[int]] = {}
    for pid, (parent, _, _) in processes.items():
        children.setdefault(parent, []).append(pid)
    below = [os.getpid()]
    with READING:
        while below:
            pid = below.pop()
            if pid in processes:
                SPENT[(pid, processes[pid][2])] = processes[pid][1]
                below += children.get(pid, [])
        return sum(SPENT.values()) / TICKS


def _keep_reading() -> None:
    while True:
        time.sleep(0.1)
        _read()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: Any) -> Iterator[None]:
    if not SPENT:  # the first test of a process that runs tests (not xdist's controller)
        threading.Thread(target=_keep_reading, daemon=True).start()
    spent, began = _read(), time.monotonic()
    yield
    ended = time.monotonic()  # the system's one clock: the workers' rows line up with bench_suite.py's samples
    row = {"test": item.nodeid, "cpu": _read() - spent, "wall": ended - began, "began": began, "ended": ended}
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    with open(os.path.join(os.environ["GINSCORE_CPU_BY_TEST"], f"{worker}.jsonl"), "a") as rows:
        rows.write(json.dumps(row) + "\n")

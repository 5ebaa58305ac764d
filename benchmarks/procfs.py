"""Processor time as Linux's /proc counts it, for the suite's benchmarks (`bench_suite.py`, `cpu_by_test.py`)."""

from __future__ import annotations

import os

TICKS = os.sysconf("SC_CLK_TCK")
"""Clock ticks a second: the unit of a stat file's times."""


def stat_of(path: str) -> tuple[str, list[str]]:
    """A process's or thread's stat file (`/proc/PID/stat`, `/proc/PID/task/TID/stat`): the name in its brackets,
    and the fields after it, the state first; so `fields[1]` is the parent, `ticks(fields)` its time, and
    `fields[19]` its start time. Raises OSError once it is gone."""
    with open(path) as stat:
        line = stat.read()
    return line[line.index("(") + 1:line.rindex(")")], line[line.rindex(")") + 2:].split()


def ticks(fields: list[str]) -> int:
    """The ticks a process or thread has spent itself, in user and system mode (`stat_of`'s fields)."""
    return int(fields[11]) + int(fields[12])

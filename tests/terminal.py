"""The tests' one pseudo-terminal: a command run on one and all it wrote read back, or a session typed into.

A pseudo-terminal is read until the other side is gone (EOF, or EIO on Linux), in a thread while the command runs,
so that a command writing more than the terminal holds never waits on a reader that has not started.
"""

from __future__ import annotations

import fcntl
import os
import pty
import select
import struct
import subprocess
import termios
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

WAIT = 20
"""How long a session waits for what it expects, in seconds, before the test fails with what it saw."""


@dataclass(frozen=True)
class Ran:
    """A command run on a pseudo-terminal: its exit status, what it wrote to the terminal, and its stderr when that
    was kept apart."""

    returncode: int
    output: bytes
    stderr: bytes = b""


def _size(fd: int, columns: int | None, rows: int) -> None:
    if columns is not None:
        fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))


def _drain(fd: int, chunks: list[bytes]) -> None:
    """Read `fd` to its end: EOF, or EIO once the other side is closed."""
    while True:
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            return
        if not chunk:
            return
        chunks.append(chunk)


def run_on_terminal(command: Sequence[str] | str, env: Mapping[str, str], *, columns: int | None = None, rows: int = 40,
                    stderr_too: bool = True, cwd: str | os.PathLike[str] | None = None, timeout: float = 120) -> Ran:
    """Run `command` (a shell line when it is a string) with stdout, and stderr unless `stderr_too` is off, on a
    pseudo-terminal `columns` wide; stdin is empty."""
    main, side = pty.openpty()
    _size(side, columns, rows)
    chunks: list[bytes] = []
    reader = threading.Thread(target=_drain, args=(main, chunks), daemon=True)
    reader.start()
    try:
        process = subprocess.Popen(command, shell=isinstance(command, str), cwd=cwd, env=dict(env), stdin=subprocess.DEVNULL,
                                   stdout=side, stderr=side if stderr_too else subprocess.PIPE)
        os.close(side)
        _, stderr = process.communicate(timeout=timeout)
        reader.join(timeout=10)
    finally:
        os.close(main)
    return Ran(process.returncode, b"".join(chunks), stderr or b"")


class Session:
    """A command on a pseudo-terminal that a test types into, waiting for each prompt before it types."""

    def __init__(self, argv: Sequence[str], env: Mapping[str, str], *, columns: int | None = None, rows: int = 24,
                 cwd: str | os.PathLike[str] | None = None):
        self.seen, self._start = b"", 0
        self.pid, self.terminal = pty.fork()
        if self.pid == 0:  # the child: its terminal sized before the command starts
            _size(0, columns, rows)
            if cwd is not None:
                os.chdir(cwd)
            os.execve(argv[0], list(argv), dict(env))

    def until(self, marker: bytes, seconds: float = WAIT) -> bytes:
        """Wait for `marker` after the last one waited for, and return what came up to its end. Keys are typed only
        once a prompt shows: readline may discard what was typed ahead while it sets the terminal up."""
        deadline = time.monotonic() + seconds
        while marker not in self.seen[self._start:]:
            ready, _, _ = select.select([self.terminal], [], [], max(0.0, deadline - time.monotonic()))
            assert ready, self.seen
            self.seen += os.read(self.terminal, 65536)
        before, self._start = self._start, self.seen.index(marker, self._start) + len(marker)
        return self.seen[before:self._start]

    def type(self, keys: bytes) -> None:
        os.write(self.terminal, keys)

    def finish(self) -> int:
        """Read to the end (the command closes its terminal when it exits) and return its exit status."""
        try:
            while select.select([self.terminal], [], [], WAIT)[0]:
                try:
                    chunk = os.read(self.terminal, 65536)
                except OSError:  # EIO: the other end is closed
                    break
                if not chunk:
                    break
                self.seen += chunk
        finally:
            os.close(self.terminal)
            _, status = os.waitpid(self.pid, 0)
        return os.waitstatus_to_exitcode(status)

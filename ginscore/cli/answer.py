"""How `check` prints its answer: one JSON line, plain text when piped (rich is not even imported), rich on a terminal."""

from __future__ import annotations

import os
import sys

from ..check import Answer, json_line, plain_report


def print_answer(answer: Answer, limit: int, as_json: bool) -> None:
    """Write one hand's answer to standard output."""
    if as_json:
        sys.stdout.write(json_line(answer, limit))
    elif piped():
        sys.stdout.write(plain_report(answer, limit))
    else:
        from ..render import console
        from ..render.hand import check_report

        check_report(answer, limit, console())


def piped() -> bool:
    """Whether standard output is plain text for another program: not a terminal, and no variable tells rich
    to treat it as one (where one is set, rich decides, as it always did)."""
    if "FORCE_COLOR" in os.environ or "TTY_COMPATIBLE" in os.environ:
        return False
    isatty = getattr(sys.stdout, "isatty", None)
    try:
        return isatty is not None and not isatty()
    except ValueError:  # a closed stream
        return False

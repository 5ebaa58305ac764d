"""How `check` prints its answers: JSON lines, plain text when piped (rich is not even imported), rich on a terminal."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable

from ..game.check import Answer, json_line, plain_report


def answer_printer(limit: int, as_json: bool) -> Callable[[Answer], None]:
    """A function that writes one hand's answer to standard output, chosen once for a stream of hands."""
    write = sys.stdout.write
    if as_json:

        def show_json(answer: Answer) -> None:
            write(json_line(answer, limit))

        return show_json
    if piped():

        def show_plain(answer: Answer) -> None:
            write(plain_report(answer, limit))

        return show_plain

    def show(answer: Answer) -> None:
        from ..render import console
        from ..render.hand import check_report

        check_report(answer, limit, console())

    return show


def piped() -> bool:
    """Whether standard output is plain text for another program: not a terminal, and no variable that
    tells rich to treat it as one (where one is set, rich decides, as it always did)."""
    if "FORCE_COLOR" in os.environ or "TTY_COMPATIBLE" in os.environ:
        return False
    isatty = getattr(sys.stdout, "isatty", None)
    try:
        return isatty is not None and not isatty()
    except ValueError:  # a closed stream
        return False

"""How `check` prints its answers: JSON lines, plain text when piped (rich is not even imported), rich on a terminal."""

from __future__ import annotations

import sys
from collections.abc import Callable

from ..game.check import Answer, json_line, plain_report
from ..render.lines import piped


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
        from ..render.console import console
        from ..render.hand import check_report

        check_report(answer, limit, console())

    return show

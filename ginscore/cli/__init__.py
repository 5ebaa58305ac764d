"""The `ginscore` command: thin commands that parse, call the core and render.

Each module holds a group of commands and registers them on `app` when imported; the order of the
imports below is the order `ginscore --help` lists them in.
"""

from __future__ import annotations

import copy
import os
import sys

import typer

# isort: off
from . import hand, advise, records, sheet, table, serve, pocket  # noqa: F401  (registers the commands, in this order)
# isort: on
from .app import COMPLETE_VARIABLE, app

__all__ = ["app", "main"]


def main() -> None:
    """Entry point of the `ginscore` console script."""
    _app_for(sys.argv[1:])()


def _app_for(args: list[str]) -> typer.Typer:
    """The app with only the command named first, when one is: Typer builds every command's parameters on each run
    (about a tenth of `ginscore check`'s start-up), and one command is all a run uses. Help, `--version`, a
    mistyped command and shell completion get the whole app."""
    if not args or COMPLETE_VARIABLE in os.environ:
        return app
    for info in app.registered_commands:
        callback_name = info.callback.__name__ if info.callback is not None else ""
        if args[0] == (info.name or typer.main.get_command_name(callback_name)):
            one = copy.copy(app)
            one.registered_commands = [info]
            return one
    return app

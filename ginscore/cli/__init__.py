"""The `ginscore` command: thin commands that parse, call the core and render.

Each module holds a group of commands and registers them on the app when imported; the order of `MODULES` is
the order `ginscore --help` lists them in. A run that names its command imports only the module holding it
(`COMMAND_MODULES`): the others' options and imports are about a tenth of `ginscore show`'s start-up.
`ginscore.cli.app` is the whole Typer app, every command registered, for tests and anyone else who wants it;
`command.py` holds what every command shares.
"""

from __future__ import annotations

import copy
import importlib
import os
import sys
from typing import TYPE_CHECKING, Any

from .startup import lasting

if TYPE_CHECKING:
    import typer

__all__ = ["app", "main"]

MODULES = ("hand", "advise", "review", "records", "sheet", "standings", "odds", "table", "merge", "qr", "serve", "pocket")
"""The command modules, in the order `--help` lists their commands."""
COMMAND_MODULES = {
    "check": "hand", "score": "hand", "rules": "hand", "advise": "advise", "review": "review",
    "new": "records", "record": "records", "edit": "records", "undo": "records",
    "show": "sheet", "validate": "sheet", "stats": "sheet", "standings": "standings", "odds": "odds", "play": "table",
    "merge": "merge", "backup": "merge", "restore": "merge", "qr": "qr", "serve": "serve", "app": "pocket",
}
"""The module that registers each command (tests/test_cli_interface.py checks it against the whole app)."""

def whole_app() -> typer.Typer:
    """The app with every command registered, in `MODULES` order."""
    from .command import app as _app

    for module in MODULES:
        importlib.import_module(f"{__name__}.{module}")
    return _app


def __getattr__(name: str) -> Any:
    if name == "app":
        return whole_app()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def main() -> None:
    """Entry point of the `ginscore` console script."""
    if sys.stdout is None:  # started with its output closed (`>&-`): Python then has no stream to print to
        if sys.stderr is not None:
            sys.stderr.write("error: standard output is closed, so ginscore could print nothing and did nothing: "
                             "send its output to a terminal, a file or a pipe\n")
        sys.exit(2)
    with lasting(process_start=True):  # Typer and the command's module
        app = _app_for(sys.argv[1:])
    app()


def _app_for(args: list[str]) -> typer.Typer:
    """The app with only the command named first, when one is: Typer builds every command's parameters on each run
    (about a tenth of `ginscore check`'s start-up), and one command is all a run uses, so only its module is
    imported. Help, `--version`, a mistyped command and shell completion get the whole app."""
    import typer

    from .command import COMPLETE_VARIABLE
    from .command import app as _app

    if not args or COMPLETE_VARIABLE in os.environ or args[0] not in COMMAND_MODULES:
        return whole_app()
    importlib.import_module(f"{__name__}.{COMMAND_MODULES[args[0]]}")
    for info in _app.registered_commands:
        callback_name = info.callback.__name__ if info.callback is not None else ""
        if args[0] == (info.name or typer.main.get_command_name(callback_name)):
            one = copy.copy(_app)
            one.registered_commands = [info]
            return one
    return whole_app()

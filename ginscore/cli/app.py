"""The `ginscore` app and what its commands share: one error line and an exit status, never a traceback."""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Callable
from datetime import UTC
from typing import Any

import typer

from ..errors import GinscoreError

app = typer.Typer(
    name="ginscore",
    help="Scorekeeper and hand checker for Gin Rummy played with a real deck.",
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode=None,
    pretty_exceptions_enable=False,
)


def fail(message: str, code: int) -> None:
    """One line on stderr, then exit with `code` (1 refused, 2 bad input); on a terminal it wraps at words."""
    line = f"error: {message}"
    if sys.stderr.isatty():
        import shutil
        import textwrap

        line = textwrap.fill(line, shutil.get_terminal_size().columns, subsequent_indent="  ", break_on_hyphens=False)
    sys.stderr.write(line + "\n")
    raise typer.Exit(code)


def reports_errors(func: Callable[..., Any]) -> Callable[..., Any]:
    """Turn ginscore's errors into one line and an exit status; never a traceback."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except GinscoreError as error:
            fail(str(error), error.exit_code)
        except KeyboardInterrupt:
            sys.stderr.write("\ninterrupted\n")
            raise typer.Exit(130) from None
        except BrokenPipeError:
            # The reader went away (e.g. `| head -1`): stop quietly, as other command-line tools do.
            sys.stdout = open(os.devnull, "w")
            raise typer.Exit(1) from None
        except OSError as error:
            fail(f"{error.filename or 'file'}: {error.strerror or error}", 1)

    return wrapper


def command(**kwargs: Any) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    def register(func: Callable[..., Any]) -> Callable[..., Any]:
        return app.command(**kwargs)(reports_errors(func))

    return register


def print_json(data: Any) -> None:
    import json

    sys.stdout.write(json.dumps(data, ensure_ascii=False) + "\n")


def now() -> str:
    """The moment a hand or a match is recorded, in ISO 8601, UTC, to the second."""
    from datetime import datetime

    return datetime.now(UTC).replace(microsecond=0).isoformat()

"""The `ginscore` command: thin commands that parse, call the core and render.

Each module holds a group of commands and registers them on `app` when imported; the order of the
imports below is the order `ginscore --help` lists them in.
"""

from . import hand, advise, records, sheet, table  # noqa: F401, I001  (registers the commands, in this order)
from .app import app

__all__ = ["app", "main"]


def main() -> None:
    """Entry point of the `ginscore` console script."""
    app()

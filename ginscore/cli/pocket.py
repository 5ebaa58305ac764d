"""`ginscore app`: write the offline phone app as a static folder (docs/app.md).

Only the options are read here; the builder lives in `ginscore.pocket.build`, imported inside the command.
"""

from __future__ import annotations

import sys

import typer

from .command import command


@command(name="app", short_help="Write the offline phone app into a folder.")
def build_app(
    folder: str = typer.Argument(..., help="The folder to write the app into, e.g. site."),
    runtime: str | None = typer.Option(
        None, "--runtime", metavar="DIR", help="An unpacked pyodide npm package to use, for a machine without Node (default: fetched through npm once, then cached)."
    ),
    force: bool = typer.Option(False, "--force", help="Replace a folder that is not empty and holds no earlier app build."),
) -> None:
    """Write the phone app: serve's pages run by ginscore's own Python (Pyodide) in the browser, offline.

    Put the folder on any static host over HTTPS (or open it from localhost); once opened, it keeps its matches
    on the phone and works in airplane mode. The runtime, Pyodide, is fetched through npm on first use and
    checked against the integrity pinned in ginscore.

    \b
    Examples:
      ginscore app site
      ginscore app site --runtime node_modules/pyodide
    """
    from ..pocket.build import build

    info = build(folder, runtime=runtime, force=force)
    files = info["files"]
    count = len(files) if isinstance(files, list) else 0
    sys.stdout.write(f"Wrote the app (version {info['version']}, {count - 1} files) into {folder}\n")
    sys.stdout.write(f"Serve it over HTTPS, or try it here: python3 -m http.server --bind 127.0.0.1 --directory {folder}\n")

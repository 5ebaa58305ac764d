"""`ginscore app`: write the offline phone app as a static folder (docs/app.md).

Only the options are read here; the builder lives in `ginscore.pocket.build`, imported inside the command.
"""

from __future__ import annotations

import sys

import typer

from .command import command

TRY_PORT = 8000
"""The port of the command `ginscore app` suggests to try a build on this computer."""


@command(name="app", short_help="Write the offline phone app into a folder.")
def build_app(
    folder: str = typer.Argument(..., help="The folder to write the app into (or a link to one), e.g. site."),
    runtime: str | None = typer.Option(
        None, "--runtime", metavar="DIR", help="An unpacked pyodide npm package to use, for a machine without Node (default: fetched through npm once, then cached)."
    ),
    force: bool = typer.Option(
        False, "--force", help="Write into a non-empty folder that holds no earlier app build, and replace what stands at a name the app writes."
    ),
) -> None:
    """Write the phone app: serve's pages run by ginscore's own Python (Pyodide) in the browser, offline.

    Put the folder on any static host over HTTPS (or open it from localhost); once opened, it keeps its matches
    on the phone and works in airplane mode. The runtime, Pyodide, is fetched through npm on first use and
    checked against the integrity pinned in ginscore; every build checks each of its files again.

    Building again into the folder replaces only the files the earlier build wrote (its build.json lists them,
    with what each held) while they hold what it wrote, and keeps the rest: CNAME, .nojekyll, .git. A name the
    app writes that holds something else (your own index.html, or one of the app's files you edited since), or a
    non-empty folder that was never a build (hidden entries aside), is refused unless --force; even then only the
    names the app writes are replaced. A link is built through, and stays a link.

    \b
    Examples:
      ginscore app site
      ginscore app site --runtime node_modules/pyodide
      ginscore app my-pages-repo --force   # README.md there is kept
    """
    from ..pocket.build import build

    built = build(folder, runtime=runtime, force=force)
    written = built.info["written"]
    count = len(written) if isinstance(written, list) else 0
    sys.stdout.write(f"Wrote the app (version {built.info['version']}, {count} files) into {folder}\n")
    if built.not_compiled:
        sys.stdout.write(f"Its Python is shipped uncompiled, as {built.not_compiled}: the app works, but compiles it at "
                         "every start, seconds slower on a phone\n")
    if built.plan.replaced:
        sys.stdout.write(f"Replaced, as --force asks: {_few(built.plan.replaced)}\n")
    if built.plan.changed:
        sys.stdout.write(f"Kept, as they were changed since ginscore wrote them: {_few(built.plan.changed)}\n")
    if built.plan.kept:
        sys.stdout.write(f"Kept what ginscore did not write: {_few(built.plan.kept)}\n")
    import shlex

    # the exact command, its port and the address it serves: a newcomer copies the line and opens the address
    sys.stdout.write(f"Serve it over HTTPS, or try it here: python3 -m http.server --bind 127.0.0.1 --directory {shlex.quote(str(folder))} {TRY_PORT}\n")
    sys.stdout.write(f"Then open http://127.0.0.1:{TRY_PORT}/ in a browser on this computer.\n")


def _few(names: tuple[str, ...], most: int = 8) -> str:
    """`a, b, c`, or the first `most` and how many more: one line, however full the folder."""
    return ", ".join(names[:most]) + (f" and {len(names) - most} more" if len(names) > most else "")

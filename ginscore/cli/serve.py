"""`ginscore serve`: the folder's matches as a small web app for the phones at the table (docs/serve.md).

Only the options are read here; the server lives in the web layer (`ginscore.web.server`), imported inside
the command so that no other command loads starlette, uvicorn or segno.
"""

from __future__ import annotations

import typer

from .command import command


@command(short_help="Serve the matches to phones at the table.")
def serve(
    folder: str = typer.Argument(".", help="The folder of match files to serve (default: this one)."),
    host: str = typer.Option("127.0.0.1", "--host", help="The address to listen on."),
    port: int = typer.Option(8000, "--port", metavar="PORT", help="The port to listen on; 0 picks a free one."),
    lan: bool = typer.Option(False, "--lan", help="Listen on every address, and print the URL and a QR code for a phone on the same network."),
    token: str | None = typer.Option(
        None, "--token", envvar="GINSCORE_TOKEN", show_envvar=True, help="A fixed access token, for scripts and tests (default: a random one)."
    ),
) -> None:
    """Serve a folder's matches as a web app: record hands from a phone while the files stay the truth.

    The printed URL carries the access token; opening it once is enough for that browser.

    \b
    Examples:
      ginscore serve
      ginscore serve matches --lan
    """
    from ..web.server import serve as run

    run(folder, host=host, port=port, lan=lan, token=token)

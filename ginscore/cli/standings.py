"""`ginscore standings`: every player of a folder rated by Glicko-2, best first, and whether the ratings predict."""

from __future__ import annotations

import sys

import typer

from .command import command, print_json
from .mend import mended
from .options import JSON


@command(short_help="Every player rated, the best first.")
def standings(
    folder: str = typer.Argument(".", help="The folder of match files (those directly in it, as serve counts them); default: here."),
    since: str | None = typer.Option(None, "--since", metavar="DATE", help="Only games that ended on this day (YYYY-MM-DD) or later."),
    until: str | None = typer.Option(None, "--until", metavar="DATE", help="Only games that ended on this day (YYYY-MM-DD) or earlier."),
    as_json: bool = JSON,
    no_cache: bool = typer.Option(False, "--no-cache", help="Read every file in full and remember nothing."),
) -> None:
    """The club's standings: each player's Glicko-2 rating ± 2 RD, best first, with games, wins, gins, undercuts,
    net points a game and the day last played; `?` marks a rating still provisional.

    A game counts on the day (UTC) its last hand was recorded; --since and --until keep the games of that window
    and rate them alone. --json adds how well the ratings predicted each game from the day before (log-loss and
    Brier score beside a coin flip's), with the ratings unrounded. A broken file, or a finished game with no date
    (no time stamp on its last hand nor on the match), is reported on stderr and skipped; the exit status is then 1.
    Two files of one match (a copy, a link) count once: the copy is said on stderr with the `merge` that settles it.
    docs/standings.md says every parameter.

    \b
    Examples:
      ginscore standings sample_matches/
      ginscore standings ~/gin --since 2026-01-01 --until 2026-12-31 --json
    """
    import os

    from ..errors import InputError, shown_path
    from ..files.standings_source import folder_games
    from ..files.stats_cache import cache_folder
    from ..match.standings import Skipped, parse_day, undated_games, window_of
    from ..match.standings import standings as standings_of
    from .merge import copies_json, copy_lines

    if not os.path.isdir(folder):
        raise InputError(f"{shown_path(folder)} is not a folder: give the folder of your match files, e.g. `ginscore standings ~/gin`")
    first = parse_day(since, "since") if since is not None else None
    last = parse_day(until, "until") if until is not None else None
    window_of(first, last)
    read = folder_games(folder, None if no_cache else cache_folder())
    for error in read.skipped:
        sys.stderr.write(f"{mended(error, None)} (skipped)\n")
    sys.stderr.write(copy_lines(read.copies))
    undated = undated_games(zip(read.paths, read.sheets))
    for game in undated:
        sys.stderr.write(f"{shown_path(game.file)}: {game.reason} (skipped)\n")
    table = standings_of(read.sheets, first, last)
    if as_json:
        skipped = [Skipped(error.path, error.one_line()) for error in read.skipped] + list(undated)
        print_json({"files": read.files, "skipped": [item.as_json() for item in skipped], "copies": copies_json(read.copies),
                    **table.as_json()})
    else:
        from ..render.console import console
        from ..render.standings import standings_view

        standings_view(table, read.files, console())
    if read.skipped or undated:
        raise typer.Exit(1)

"""Commands that read match files: `show` (the sheet, its chart and exports), `validate` and `stats`."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import typer

from ..errors import InputError
from .command import command, print_json
from .mend import mended
from .startup import lasting

if TYPE_CHECKING:
    from ..render.lines import Line


@command(short_help="Print the score sheet, or export it.")
def show(
    file: str = typer.Argument(..., help="The match file."),
    as_json: bool = typer.Option(False, "--json", help="The whole sheet as one JSON object."),
    chart: bool = typer.Option(False, "--chart", help="Also draw the running totals hand by hand."),
    export: str | None = typer.Option(
        None, "--export", help="Write the sheet to a file: .html (a page to print or send, with the chart), .svg (the chart and the final result), .csv or .md."
    ),
    export_terminal: str | None = typer.Option(
        None, "--export-terminal", help="Write what `show` prints on a terminal (with --chart, the text chart too) as a .svg or .html capture."
    ),
    force: bool = typer.Option(False, "--force", help="With --export or --export-terminal: replace an existing file."),
) -> None:
    """Print the score sheet: every hand, running totals, boxes, bonuses and who deals next.

    \b
    Examples:
      ginscore show match.toml
      ginscore show match.toml --chart
      ginscore show match.toml --export sheet.html
    """
    with lasting():
        from ..files.table import table_of

    table = table_of(file)
    sheet = table.sheet_at(file)  # read once, as one of its table's files
    if export is not None or export_terminal is not None:
        _export(sheet, export, export_terminal, chart, force)
        return
    if as_json:
        print_json(table.show(sheet))
        return
    with lasting():
        from ..render.lines import PIPED_WIDTH, piped, standard_output, write_plain
        from ..render.sheet_lines import odds_lines, series_lines, sheet_lines

    odds, series = table.beside(sheet, finished_odds=False)  # a finished match prints no chance

    def lines(width: int, terminal: bool) -> list[Line]:
        return sheet_lines(sheet, width, terminal) + odds_lines(odds) + series_lines(series)

    if piped() and not chart:
        write_plain(lines(PIPED_WIDTH, False), standard_output())  # rich is not even imported
        return
    with lasting():
        from ..render.console import console, print_lines

    out = console()
    print_lines(lines(out.width, out.is_terminal), out)
    if chart:
        from ..render.chart import chart_view

        out.print()
        chart_view(sheet, out)


def _export(sheet: Any, path: str | None, terminal: str | None, chart: bool, force: bool) -> None:
    from ..sheets.export import EXPORT_KINDS, export_text

    if path is not None and terminal is not None:
        raise InputError("give --export or --export-terminal, not both")
    if path is not None:
        _write_export(path, EXPORT_KINDS, force, lambda kind: export_text(sheet, kind))
    elif terminal is not None:
        from ..render.sheet import TERMINAL_KINDS, terminal_capture

        _write_export(terminal, TERMINAL_KINDS, force, lambda kind: terminal_capture(sheet, kind, chart))


def _write_export(path: str, kinds: tuple[str, ...], force: bool, text: Callable[[str], str], what: str = "the score sheet") -> None:
    """Write an export whose kind the file's name gives; an existing file is replaced only with --force."""

    from ..files.changes import already_exists
    from ..files.folder import exists_for_write, write_atomic

    kind = path.rsplit(".", 1)[-1].lower() if "." in path else ""
    if kind not in kinds:
        raise InputError(f"cannot tell the format of {path!r}: end the name in {', '.join('.' + k for k in kinds)}")
    if not force and exists_for_write(path):
        raise already_exists(path)
    write_atomic(path, text(kind).encode("utf-8"))
    sys.stdout.write(f"Wrote {what} to {path}\n")


@command(short_help="Check match files and report every problem.")
def validate(files: list[str] = typer.Argument(..., help="Match files to check, or folders: each match file directly in a folder.")) -> None:
    """Reload match files, recompute everything, and report every problem with its place.

    A folder stands for its match files, those directly in it, as serve and `standings` count them. Two files of
    one match (a copy, a link) are said on stderr, with the `merge` that settles them: every figure counts them once.

    \b
    Examples:
      ginscore validate sample_matches/*.toml
      ginscore validate ~/gin
    """
    import os

    from ..errors import MatchFileError, shown_path
    from ..files.copies import path_copies
    from ..files.reading import checked
    from ..files.table import Table
    from ..match.gives import match_gives
    from .merge import copy_lines

    bad, good = 0, {}
    named = []
    for given in files:
        if not os.path.isdir(given):
            named.append(given)
            continue
        found = [os.path.normpath(os.path.join(given, name)) for name in Table(given).names()]
        if not found:
            bad += 1
            sys.stderr.write(f"{shown_path(given)}: is a folder with no match file in it (a name ending in .toml); nothing was read\n")
        named += found
    for file in named:
        try:
            sheet = checked(file).sheet
        except MatchFileError as error:
            bad += 1
            sys.stderr.write(f"{mended(error, None)}\n")
            continue
        state = "finished" if sheet.finished else "in play"
        sys.stdout.write(f"{file}: ok ({len(sheet.lines)} hands, {state})\n")
        good[file] = match_gives(sheet)
    sys.stderr.write(copy_lines(tuple(path_copies(good).items())))
    if bad:
        raise typer.Exit(1)


@command(short_help="Head-to-head figures over many matches.")
def stats(
    paths: list[str] = typer.Argument(..., help="Match files, or folders of match files: each folder's own, not those in folders below it."),
    as_json: bool = typer.Option(False, "--json", help="The figures as one JSON object."),
    export: str | None = typer.Option(
        None, "--export", help="Write the figures as a standalone .html page, with each pair's margin match by match."
    ),
    force: bool = typer.Option(False, "--force", help="With --export: replace an existing file."),
    no_cache: bool = typer.Option(
        False, "--no-cache", help="Read every file in full and remember nothing (the cache is in $GINSCORE_CACHE_DIR, else $XDG_CACHE_HOME/ginscore, else ~/.cache/ginscore)."
    ),
    with_review: bool = typer.Option(
        False, "--review", help="Also each player's mean chance lost over their knocks recorded with cards, each match reviewed as `ginscore review` reviews it: slow the first time, then kept in the cache."
    ),
) -> None:
    """Head-to-head history over many matches: games, margins, gins, undercuts, knocks, lay-offs.

    A folder's match files are those the pages count: its own (not those in folders below it), none hidden.
    A broken file is reported on stderr with its place and skipped; the exit status is then 1. Two files of one
    match (a copy, a link) count once: the copy is said on stderr with the `merge` that settles it.
    Each file is read in full the first time its exact bytes are seen; its figures are then
    remembered in a cache outside the match folder, so later runs over the same files are quick.

    \b
    Examples:
      ginscore stats sample_matches/
      ginscore stats sample_matches/ --review
      ginscore stats sample_matches/ --export stats.html
    """
    from ..errors import MatchFileError
    from ..files.cache_kinds import FIGURES, GAMES, GIVES
    from ..files.copies import path_copies
    from ..files.stats_cache import StatsCache, cache_folder
    from ..files.table import named_paths
    from ..match.stats import HeadToHead
    from .merge import copies_json, copy_lines

    head_to_head, skipped, games, given = HeadToHead(), [], [], {}
    kinds = (FIGURES, GAMES, GIVES)  # the games for the pairs' odds, and what tells copies apart, remembered alike
    with StatsCache(None if no_cache else cache_folder()) as cache:
        for path in named_paths(paths):
            try:
                if isinstance(path, MatchFileError):
                    raise path
                given[path] = cache.given_all(path, kinds)
            except MatchFileError as error:
                skipped.append(error.path)
                sys.stderr.write(f"{mended(error, None)} (skipped)\n")
        copies = path_copies({path: found[2] for path, found in given.items()})
        sys.stderr.write(copy_lines(tuple(copies.items())))
        counted = [path for path in given if path not in copies]
        for path in counted:
            head_to_head.add(given[path][0])
            games.append(given[path][1])
        files = len(counted)
        if with_review:
            from ..files.review_source import review_sums
            from .cores import each_on_every_core

            reviewed = review_sums(counted, cache, each_on_every_core)
    pairs = head_to_head.pairs()
    if export is not None:
        _export_stats(pairs, head_to_head.margins(), files, export, force)
    elif as_json:
        from ..match.standings import standings as standings_of

        rated = standings_of(games)
        odds = [rated.pair(*p.players) for p in pairs]
        print_json({"files": files, "skipped": skipped, "copies": copies_json(tuple(copies.items())), "pairs": [{**p.as_dict(), "odds": o.as_json() if o else None} for p, o in zip(pairs, odds)],
                    "never_met": [o.as_json() for o in rated.never_met()],
                    **({"review": [each.as_json() for each in reviewed]} if with_review else {})})
    else:
        from ..render.console import console
        from ..render.stats import stats_view

        stats_view(pairs, files, console())
        if with_review:
            from ..render.stats import review_view

            review_view(reviewed, console())
    if skipped:
        raise typer.Exit(1)


def _export_stats(pairs: list[Any], margins: dict[tuple[str, str], list[int]], files: int, path: str, force: bool) -> None:
    from ..sheets.html_page import stats_page

    _write_export(path, ("html",), force, lambda _: stats_page(pairs, margins, files), "the head-to-head page")

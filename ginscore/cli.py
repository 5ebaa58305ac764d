"""The `ginscore` command: thin commands that parse, call the core and render."""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Callable
from typing import Any, Optional

import typer

from .cards import EXAMPLE_HAND, parse_card, parse_cards, parse_spread, require_count
from .errors import GinscoreError, InputError, RefusedError

app = typer.Typer(
    name="ginscore",
    help="Scorekeeper and hand checker for Gin Rummy played with a real deck.",
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode=None,
    pretty_exceptions_enable=False,
)


def fail(message: str, code: int) -> None:
    """One line on stderr, then exit with `code` (1 refused, 2 bad input)."""
    sys.stderr.write(f"error: {message}\n")
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
            raise typer.Exit(130)
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


@command(no_args_is_help=True)
def check(
    cards: list[str] = typer.Argument(..., help="10 or 11 cards, e.g. 3h 4h 5h KS KC KD 7c 8c 9c 2d; '-' reads one hand a line from stdin."),
    knock_limit: Optional[int] = typer.Option(None, "--knock-limit", help="Most deadwood a knock may have (default 10)."),
    upcard: Optional[str] = typer.Option(None, "--upcard", help="Oklahoma: the up-card's value is the limit; an ace means gin only."),
    as_json: bool = typer.Option(False, "--json", help="One JSON object (a line each with '-')."),
) -> None:
    """Can I knock with this? Arrange a hand into melds and count its deadwood.

    \b
    Example:
      ginscore check 3h 4h 5h KS KC KD 7c 8c 9c 2d
    """
    from .melds import solve
    from .rules import check_limit

    limit = check_limit(knock_limit, None if upcard is None else parse_card(upcard))
    if cards == ["-"]:
        raise typer.Exit(_check_lines(sys.stdin, limit, as_json))
    hand = parse_cards(cards)
    require_count(hand, (10, 11), "a hand to check")
    _show_check(solve(hand), limit, as_json)


def _show_check(solution: Any, limit: int, as_json: bool) -> None:
    if as_json:
        from .melds import check_dict

        print_json(check_dict(solution, limit))
        return
    from .render import check_report, console

    check_report(solution, limit, console())


def _check_lines(lines: Any, limit: int, as_json: bool) -> int:
    from .melds import solve

    status, first, seen = 0, True, False
    for number, line in enumerate(lines, start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        seen = True
        try:
            hand = parse_cards(line)
            require_count(hand, (10, 11), "a hand to check")
        except GinscoreError as error:
            sys.stderr.write(f"error: line {number}: {error}\n")
            status = 2
            continue
        if not as_json and not first:
            sys.stdout.write("\n")
        _show_check(solve(hand), limit, as_json)
        first = False
    if not seen:
        raise InputError(f"no hands on standard input: type one hand a line, like '{EXAMPLE_HAND}'")
    return status


@command(no_args_is_help=True)
def score(
    knocker: str = typer.Option(..., "--knocker", help="The knocker's 10 or 11 cards, or the spread grouped with '|'."),
    opponent: str = typer.Option(..., "--opponent", help="The opponent's 10 cards."),
    discard: Optional[str] = typer.Option(None, "--discard", help="The card discarded face down, when 11 are given."),
    upcard: Optional[str] = typer.Option(None, "--upcard", help="The up-card (knock card) under Oklahoma."),
    rules_name: str = typer.Option("standard", "--rules", help="standard, tournament or oklahoma."),
    settings: list[str] = typer.Option([], "--set", help="Override a rule knob, e.g. --set gin_bonus=25 (repeatable)."),
    as_json: bool = typer.Option(False, "--json", help="One JSON object."),
) -> None:
    """Score one knock from both hands: lay-offs, counts, undercut, gin, points.

    Given only cards, the knocker's best legal spread is scored (it may not be the lowest count).

    \b
    Example:
      ginscore score --knocker "7s 8s 9s 9c 10c Jc 5h 5d 5c 2d 9h" --opponent "Kh Kd Ks 6s Qc 8d 4c 2h Ac 9d"
    """
    from .rules import rules_from
    from .scoring import knock_dict, score_cards

    rules = rules_from(rules_name, settings)
    knocker_cards, groups = parse_spread(knocker)
    scored = score_cards(
        knocker_cards,
        parse_cards(opponent),
        rules,
        upcard=None if upcard is None else parse_card(upcard),
        discard=None if discard is None else parse_card(discard),
        groups=groups,
    )
    if as_json:
        print_json(knock_dict(scored))
        return
    from .render import console, score_report

    score_report(scored, console())


@command(name="rules")
def rules_command(
    name: Optional[str] = typer.Argument(None, help="A preset: standard, tournament or oklahoma."),
    settings: list[str] = typer.Option([], "--set", help="Override a knob, e.g. --set target=250."),
    as_json: bool = typer.Option(False, "--json", help="The rules as one JSON object."),
) -> None:
    """Show the rule presets side by side, or one preset with every knob.

    \b
    Example:
      ginscore rules oklahoma --set target=250
    """
    from .rules import PRESETS, rules_from

    if name is None and not settings:
        if as_json:
            print_json({preset: rules.to_dict() for preset, rules in PRESETS.items()})
            return
        from .render import console, rules_table

        rules_table(list(PRESETS), console())
        return
    rules = rules_from(name or "standard", settings)
    if as_json:
        print_json(rules.to_dict())
        return
    from .render import console, rules_detail

    rules_detail((name or "standard").lower(), rules, console())


def _now() -> str:
    from datetime import datetime, timezone

    return datetime.now(timezone.utc).replace(microsecond=0).isoformat()


@command(no_args_is_help=True)
def new(
    file: str = typer.Argument(..., help="The match file to create, e.g. match.toml."),
    players: list[str] = typer.Argument(..., help="The two players' names."),
    rules_name: str = typer.Option("standard", "--rules", help="standard, tournament or oklahoma."),
    settings: list[str] = typer.Option([], "--set", help="Override a rule knob, e.g. --set target=250 (repeatable)."),
    dealer: Optional[str] = typer.Option(None, "--dealer", help="Who deals the first hand (default: the first player)."),
    hollywood: bool = typer.Option(False, "--hollywood", help="Score three games at once on one sheet."),
    force: bool = typer.Option(False, "--force", help="Overwrite an existing file."),
) -> None:
    """Start a match file with every rule knob spelled out.

    \b
    Example:
      ginscore new match.toml Ann Bob --rules oklahoma --dealer Bob
    """
    from dataclasses import replace

    from .match import Match, check_players
    from .rules import rules_from
    from .storage import locked, save

    names = check_players(players)
    rules = rules_from(rules_name, settings)
    match = Match(names, rules, names[0], hollywood=hollywood, created=_now(), preset=rules_name.lower())
    if dealer:
        match = replace(match, first_dealer=match.player(dealer))
    with locked(file):
        if os.path.exists(file) and not force:
            raise RefusedError(f"{file} already exists: pick another name, or add --force to replace it")
        save(file, match)
    from .render import console

    kind = "Hollywood match" if hollywood else "match"
    console().print(f"Started {file}: a {kind} of {names[0]} and {names[1]}, {rules_name.lower()} rules, target {rules.target}; {match.first_dealer} deals first.")


def _record_options(
    knocker: Optional[str],
    cancelled: bool,
    cards: Optional[str],
    discard: Optional[str],
    opponent_cards: Optional[str],
    deadwood: Optional[int],
    opponent_deadwood: Optional[int],
    big_gin: bool,
    upcard: Optional[str],
) -> dict[str, Any]:
    return dict(
        knocker=knocker,
        cancelled=cancelled,
        cards=cards,
        discard=discard,
        opponent_cards=opponent_cards,
        deadwood=deadwood,
        opponent_deadwood=opponent_deadwood,
        big_gin=big_gin,
        upcard=upcard,
    )


KNOCKER = typer.Option(None, "--knocker", help="Who knocked (a player's name, any case).")
CANCELLED = typer.Option(False, "--cancelled", help="A dead hand: nobody scores, the same dealer deals again.")
CARDS = typer.Option(None, "--cards", help="The knocker's 10 or 11 cards, or the spread grouped with '|'.")
DISCARD = typer.Option(None, "--discard", help="The knocker's discard, when 11 cards are given.")
OPPONENT_CARDS = typer.Option(None, "--opponent-cards", help="The opponent's 10 cards.")
DEADWOOD = typer.Option(None, "--deadwood", help="The knocker's count, for tables that count by hand (0 is gin).")
OPPONENT_DEADWOOD = typer.Option(None, "--opponent-deadwood", help="The opponent's count after lay-offs.")
BIG_GIN = typer.Option(False, "--big-gin", help="With --deadwood 0: all 11 cards melded.")
UPCARD = typer.Option(None, "--upcard", help="The up-card (knock card), required under Oklahoma.")


@command(no_args_is_help=True)
def record(
    file: str = typer.Argument(..., help="The match file."),
    knocker: Optional[str] = KNOCKER,
    cancelled: bool = CANCELLED,
    cards: Optional[str] = CARDS,
    discard: Optional[str] = DISCARD,
    opponent_cards: Optional[str] = OPPONENT_CARDS,
    deadwood: Optional[int] = DEADWOOD,
    opponent_deadwood: Optional[int] = OPPONENT_DEADWOOD,
    big_gin: bool = BIG_GIN,
    upcard: Optional[str] = UPCARD,
) -> None:
    """Record one hand, check it, and print its result and the running score.

    \b
    Examples:
      ginscore record match.toml --knocker Ann --cards "3h 4h 5h Ks Kc Kd 7c 8c 9c 2d 9h" --opponent-cards "Qh Qd 5s 6s 7s Jc 4d 8h 2c Ac"
      ginscore record match.toml --knocker Bob --deadwood 6 --opponent-deadwood 31
      ginscore record match.toml --cancelled
    """
    from .match import add_hand, make_record
    from .storage import load, locked, save

    options = _record_options(knocker, cancelled, cards, discard, opponent_cards, deadwood, opponent_deadwood, big_gin, upcard)
    with locked(file):
        match, _ = load(file)
        match, sheet = add_hand(match, make_record(match, **options, recorded=_now()))
        save(file, match, sheet)
    from .render import console, hand_view

    hand_view(sheet.lines[-1], sheet, console())


@command(no_args_is_help=True)
def edit(
    file: str = typer.Argument(..., help="The match file."),
    number: int = typer.Argument(..., help="The hand to replace, numbered as `show` numbers them."),
    knocker: Optional[str] = KNOCKER,
    cancelled: bool = CANCELLED,
    cards: Optional[str] = CARDS,
    discard: Optional[str] = DISCARD,
    opponent_cards: Optional[str] = OPPONENT_CARDS,
    deadwood: Optional[int] = DEADWOOD,
    opponent_deadwood: Optional[int] = OPPONENT_DEADWOOD,
    big_gin: bool = BIG_GIN,
    upcard: Optional[str] = UPCARD,
) -> None:
    """Replace hand N with what really happened, and show the totals before and after.

    \b
    Example:
      ginscore edit match.toml 3 --knocker Bob --deadwood 4 --opponent-deadwood 19
    """
    from .match import make_record, replace_hand
    from .storage import load, locked, save

    options = _record_options(knocker, cancelled, cards, discard, opponent_cards, deadwood, opponent_deadwood, big_gin, upcard)
    with locked(file):
        match, before = load(file)
        recorded = match.hands[number - 1].recorded if 1 <= number <= len(match.hands) else _now()
        match, after = replace_hand(match, number, make_record(match, **options, recorded=recorded))
        save(file, match, after)
    from .render import console, totals_change

    totals_change(before, after, number, console())


@command(no_args_is_help=True)
def undo(
    file: str = typer.Argument(..., help="The match file."),
    yes: bool = typer.Option(False, "--yes", "-y", help="Do not ask for confirmation."),
) -> None:
    """Remove the last hand, after confirming.

    \b
    Example:
      ginscore undo match.toml --yes
    """
    from .match import remove_last_hand
    from .render import console, describe_line
    from .storage import load, locked, save

    with locked(file):
        match, sheet = load(file)
        if not match.hands:
            raise RefusedError(f"{file} has no hands to undo")
        last = describe_line(sheet.lines[-1])
        if not yes and not _confirm(f"Remove hand {len(match.hands)} ({last})?"):
            raise RefusedError("nothing removed (add --yes to remove without asking)")
        match, sheet = remove_last_hand(match)
        save(file, match, sheet)
    console().print(f"Removed hand {len(match.hands) + 1} ({last}). Score: {sheet.score_text()}. Next dealer: {sheet.next_dealer}.")


def _confirm(question: str) -> bool:
    """Ask on stderr and read a y/n from stdin; end of input means no."""
    sys.stderr.write(f"{question} [y/N]: ")
    sys.stderr.flush()
    answer = sys.stdin.readline()
    if not sys.stdin.isatty():
        sys.stderr.write("\n")  # the answer was not echoed, so end the prompt's line
    return answer.strip().lower() in ("y", "yes")


@command(no_args_is_help=True)
def show(
    file: str = typer.Argument(..., help="The match file."),
    as_json: bool = typer.Option(False, "--json", help="The whole sheet as one JSON object."),
    chart: bool = typer.Option(False, "--chart", help="Also draw the running totals hand by hand."),
    export: Optional[str] = typer.Option(
        None, "--export", help="Write the sheet to a .svg, .html, .csv or .md file (with --chart, SVG and HTML include it)."
    ),
) -> None:
    """Print the score sheet: every hand, running totals, boxes, bonuses and who deals next.

    \b
    Examples:
      ginscore show match.toml
      ginscore show match.toml --chart
      ginscore show match.toml --export sheet.svg
    """
    from .storage import load

    _, sheet = load(file)
    if export is not None:
        _export(sheet, export, chart)
        return
    if as_json:
        from .match import sheet_dict

        print_json(sheet_dict(sheet))
        return
    from .render import chart_view, console, sheet_view

    out = console()
    sheet_view(sheet, out)
    if chart:
        out.print()
        chart_view(sheet, out)


def _export(sheet: Any, path: str, chart: bool) -> None:
    from .export import EXPORT_KINDS, to_csv, to_markdown
    from .storage import write_atomic

    kind = path.rsplit(".", 1)[-1].lower() if "." in path else ""
    if kind not in EXPORT_KINDS:
        raise InputError(f"cannot tell the format of {path!r}: end the name in {', '.join('.' + k for k in EXPORT_KINDS)}")
    if kind in ("svg", "html"):
        from .render import export_sheet

        text = export_sheet(sheet, kind, chart)
    else:
        text = to_csv(sheet) if kind == "csv" else to_markdown(sheet)
    write_atomic(path, text.encode("utf-8"))
    sys.stdout.write(f"Wrote the score sheet to {path}\n")


@command(no_args_is_help=True)
def validate(files: list[str] = typer.Argument(..., help="Match files to check.")) -> None:
    """Reload match files, recompute everything, and report every problem with its place.

    \b
    Example:
      ginscore validate sample_matches/*.toml
    """
    from .errors import MatchFileError
    from .storage import load

    bad = 0
    for file in files:
        try:
            _, sheet = load(file)
        except MatchFileError as error:
            bad += 1
            sys.stderr.write(f"{error}\n")
            continue
        state = "finished" if sheet.finished else "in play"
        sys.stdout.write(f"{file}: ok ({len(sheet.lines)} hands, {state})\n")
    if bad:
        raise typer.Exit(1)


@command(no_args_is_help=True)
def stats(
    paths: list[str] = typer.Argument(..., help="Match files, or folders to search for *.toml files."),
    as_json: bool = typer.Option(False, "--json", help="The figures as one JSON object."),
) -> None:
    """Head-to-head history over many matches: games, margins, gins, undercuts, knocks, lay-offs.

    A broken file is reported on stderr with its place and skipped; the exit status is then 1.

    \b
    Example:
      ginscore stats sample_matches/
    """
    from .stats import collect
    from .storage import load_many

    sheets, errors = load_many(paths)
    for error in errors:
        sys.stderr.write(f"{error} (skipped)\n")
    pairs = collect(sheets)
    if as_json:
        print_json({"files": len(sheets), "skipped": [e.path for e in errors], "pairs": [p.as_dict() for p in pairs]})
    else:
        from .render import console, stats_view

        stats_view(pairs, len(sheets), console())
    if errors:
        raise typer.Exit(1)


@command(no_args_is_help=True)
def play(file: str = typer.Argument(..., help="The match file (start one with `ginscore new`).")) -> None:
    """Walk a whole game at the table: it asks for each hand and saves it at once.

    Answer each question and press Enter. A typo in a card is asked again. Ctrl-C or Ctrl-D
    stops, with every hand entered so far saved; the next `play` carries on.

    \b
    Example:
      ginscore play match.toml
    """
    from .match import add_hand
    from .play import StopPlay, Table
    from .play import play as play_hands
    from .render import console, hand_view
    from .storage import load, locked, save

    out = console()

    def ask(question: str) -> Optional[str]:
        sys.stdout.write(question)
        sys.stdout.flush()
        line = sys.stdin.readline()
        return line.rstrip("\n") if line else None

    def commit(record: Any) -> Any:
        with locked(file):
            match, _ = load(file)
            match, sheet = add_hand(match, record)
            save(file, match, sheet)
        return match, sheet

    match, sheet = load(file)
    table = Table(ask=ask, tell=out.print, show=lambda line, sheet: hand_view(line, sheet, out), commit=commit)
    try:
        play_hands(match, sheet, table)
    except (StopPlay, KeyboardInterrupt) as stop:
        _, sheet = load(file)
        saved = "1 hand is" if len(sheet.lines) == 1 else f"{len(sheet.lines)} hands are"
        out.print(f"\nStopped. {saved} saved in {file}; run `ginscore play {file}` to carry on.")
        raise typer.Exit(130 if isinstance(stop, KeyboardInterrupt) else 0)
    out.print(f"\nThe match is over. `ginscore show {file}` prints the whole sheet.")


def main() -> None:
    """Entry point of the `ginscore` console script."""
    app()




"""The `ginscore` command: thin commands that parse, call the core and render."""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from typing import Any, Optional

import typer

from .cards import parse_card, parse_cards, parse_groups, require_count
from .errors import GinscoreError, InputError

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

    return wrapper


def command(**kwargs: Any) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    def register(func: Callable[..., Any]) -> Callable[..., Any]:
        return app.command(**kwargs)(reports_errors(func))

    return register


def print_json(data: Any) -> None:
    import json

    sys.stdout.write(json.dumps(data, ensure_ascii=False) + "\n")


def _limit(knock_limit: Optional[int], upcard: Optional[str]) -> int:
    if knock_limit is not None and upcard is not None:
        raise InputError("give --knock-limit or --upcard, not both")
    if upcard is not None:
        from .rules import PRESETS

        return PRESETS["oklahoma"].knock_limit_for(parse_card(upcard))
    if knock_limit is not None and not 0 <= knock_limit <= 10:
        raise InputError(f"--knock-limit must be from 0 to 10, not {knock_limit}")
    return 10 if knock_limit is None else knock_limit


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

    limit = _limit(knock_limit, upcard)
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

    status, first = 0, True
    for number, line in enumerate(lines, start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
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
    scored = score_cards(
        parse_cards(knocker.replace("|", " ")),
        parse_cards(opponent),
        rules,
        upcard=parse_card(upcard) if upcard else None,
        discard=parse_card(discard) if discard else None,
        groups=parse_groups(knocker) if "|" in knocker else None,
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

    rules_detail(name or "standard", rules, console())


def main() -> None:
    """Entry point of the `ginscore` console script."""
    app()




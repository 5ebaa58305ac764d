"""Commands that write a match file: `new`, `record`, `edit` and `undo`."""

from __future__ import annotations

import functools
import inspect
import sys
import typing
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import typer

from ..errors import InputError, RefusedError
from .command import command
from .options import RULES, SETTINGS, complete_player

if TYPE_CHECKING:
    from datetime import datetime

    from ..match.entry import HandEntry

AT = typer.Option(None, "--at", metavar="WHEN", help="The night it was played, for a paper sheet entered later: an ISO "
                  "date or date-time such as 2026-01-06 or 2026-01-06T19:30, in the local zone unless an offset is given "
                  "(a day alone is its noon); not in the future, nor before 1900. Default: now.")
"""`--at`: the past moment a match was started or a hand played (`moments.past_moment`)."""


def past(at: str | None) -> datetime | None:
    """The moment `--at` gives, checked; None when it is not given (now)."""
    from ..match.moments import past_moment

    return past_moment(at, "at") if at is not None else None


@command(short_help="Start a match file for two players.")
def new(
    file: str = typer.Argument(..., help="The match file to create, e.g. match.toml."),
    players: list[str] | None = typer.Argument(None, help="The two players' names (none with --next)."),
    rules_name: str = RULES,
    settings: list[str] = SETTINGS,
    dealer: str | None = typer.Option(None, "--dealer", help="Who deals the first hand (default: the first player)."),
    hollywood: bool = typer.Option(False, "--hollywood", help="Score three games at once on one sheet."),
    force: bool = typer.Option(False, "--force", help="Overwrite an existing file (a regular file only)."),
    note: str = typer.Option("", "--note", help="Free text about the match, e.g. where it was played."),
    next_of: str | None = typer.Option(
        None, "--next", metavar="FINISHED", help="Start the next game of this finished match: its players and rules, and "
        "the dealer its rules choose unless --dealer names another."),
    at: str | None = AT,
) -> None:
    """Start a match file with every rule knob spelled out, or the next game of a finished match.

    \b
    Examples:
      ginscore new match.toml Ann Bob --rules oklahoma --dealer Bob
      ginscore new match.toml Ann Bob --note "Friday club"
      ginscore new friday-2.toml --next friday.toml
      ginscore new jan-06.toml Ann Bob --at 2026-01-06T19:30
    """
    from ..files.changes import start
    from ..game.rulebook import rules_from
    from ..match.entry import NewMatch

    when = past(at)
    if next_of is not None:
        _start_next(file, next_of, dealer, bool(players), when)
        return
    if not players:
        raise InputError("give two different player names, e.g. Ann Bob, or --next FINISHED for the next game of a match",
                         field="players")
    rules = rules_from(rules_name, settings)
    sheet = start(file, NewMatch(players, rules, rules_name, dealer, hollywood, note), force=force, at=when)
    match = sheet.match
    names = match.players
    from ..render.console import console, print_wrapped

    kind = "Hollywood match" if hollywood else "match"
    print_wrapped(console(), f"Started {file}: a {kind} of {names[0]} and {names[1]}, {rules_name.lower()} rules, target {rules.target}; {match.first_dealer} deals first.")


def _start_next(file: str, finished: str, dealer: str | None, with_players: bool, at: datetime | None = None) -> None:
    """`new FILE --next FINISHED`: the next game of a finished match, as the pages' "Start the next game" starts it."""
    from typer._click.core import ParameterSource
    from typer._click.globals import get_current_context

    from ..files.changes import next_game
    from ..render.console import console, print_wrapped

    context = get_current_context()
    typed = [option for name, option in (("rules_name", "--rules"), ("settings", "--set"), ("hollywood", "--hollywood"),
                                         ("force", "--force"), ("note", "--note"))
             if context.get_parameter_source(name) == ParameterSource.COMMANDLINE]
    if with_players or typed:
        given = " or ".join(["players", *typed] if with_players else typed)
        raise InputError(f"the next game takes its players and rules from {finished}: give no {given} with it", field="next_of")
    sheet = next_game(finished, file, dealer, at=at)
    match = sheet.match
    kind = "Hollywood match" if match.hollywood else "match"
    print_wrapped(console(), f"Started {file}, the next game after {finished}: a {kind} of {match.players[0]} and "
                             f"{match.players[1]}, {(match.preset or 'custom').lower()} rules, target {match.rules.target}; "
                             f"{match.first_dealer} deals first.")


_OPTION_EXTRAS: dict[str, dict[str, Any]] = {"knocker": {"autocompletion": complete_player}}
"""What the command line adds to a hand field's option: the knocker's name completes from the file's players."""


def _hand_options() -> dict[str, tuple[Any, Any]]:
    """A hand's options, one per `HandEntry` field, made from the field: its name (`--opponent-deadwood`), type,
    default and words (`entry.about`)."""
    from dataclasses import fields

    from ..match.entry import HandEntry, about

    hints = typing.get_type_hints(HandEntry)
    return {
        item.name: (hints[item.name], typer.Option(item.default, "--" + item.name.replace("_", "-"), help=about(item.name).doc,
                                                   **_OPTION_EXTRAS.get(item.name, {})))
        for item in fields(HandEntry)
    }


HAND_OPTIONS = _hand_options()
"""A hand's options, one per `HandEntry` field and named as it is: `record` and `edit` both take them."""


def takes_a_hand(func: Callable[..., None]) -> Callable[..., None]:
    """Give a command the hand's options after its own parameters, and pass them to it as one `HandEntry`,
    `entry`: the options are defined once for `record` and `edit`."""
    from ..match.entry import HAND_FIELDS, HandEntry

    own = [param for name, param in inspect.signature(func).parameters.items() if name != "entry"]
    hand = [inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=option, annotation=kind)
            for name, (kind, option) in HAND_OPTIONS.items()]

    @functools.wraps(func)
    def command_body(*args: Any, **kwargs: Any) -> None:
        entry = HandEntry(**{name: kwargs.pop(name) for name in HAND_FIELDS})
        func(*args, entry=entry, **kwargs)

    hints = {name: eval(hint, func.__globals__) if isinstance(hint, str) else hint  # noqa: S307 - our own annotations
             for name, hint in func.__annotations__.items() if name != "entry"}
    command_body.__annotations__ = {**hints, **{name: kind for name, (kind, _) in HAND_OPTIONS.items()}}
    command_body.__signature__ = inspect.Signature([*own, *hand])  # type: ignore[attr-defined]
    return command_body


@command(short_help="Record one hand and show the running score.")
@takes_a_hand
def record(file: str = typer.Argument(..., help="The match file."), at: str | None = AT, *, entry: HandEntry) -> None:
    """Record one hand, check it, and print its result and the running score.

    \b
    Examples:
      ginscore record match.toml --knocker Ann \\
          --cards "3h 4h 5h Ks Kc Kd 7c 8c 9c 2d 9h" \\
          --opponent-cards "Qh Qd 5s 6s 7s Jc 4d 8h 2c Ac"
      ginscore record match.toml --knocker Bob --deadwood 6 --opponent-deadwood 31
      ginscore record match.toml --cancelled --note "Bob's phone rang"
      ginscore record jan-06.toml --at 2026-01-06T21:10 \\
          --knocker Ann --deadwood 3 --opponent-deadwood 40
    """
    from ..files import changes

    sheet = changes.record(file, entry, at=past(at)).sheet
    from ..render.console import console
    from ..render.sheet import hand_view

    hand_view(sheet.lines[-1], sheet, console())


@command(short_help="Replace a hand that was entered wrong.")
@takes_a_hand
def edit(
    file: str = typer.Argument(..., help="The match file."),
    number: int = typer.Argument(..., help="The hand to replace, numbered as `show` numbers them."),
    *,
    entry: HandEntry,
) -> None:
    """Replace hand N with what really happened, and show the totals before and after.

    The hand keeps its note unless --note gives a new one (--note "" clears it).

    \b
    Example:
      ginscore edit match.toml 3 --knocker Bob --deadwood 4 --opponent-deadwood 19
    """
    from ..files import changes

    change = changes.edit(file, number, entry)
    from ..render.console import console
    from ..render.sheet import totals_change

    totals_change(change.before.sheet, change.sheet, number, console())


@command(short_help="Remove the last hand.")
def undo(
    file: str = typer.Argument(..., help="The match file."),
    yes: bool = typer.Option(False, "--yes", "-y", help="Do not ask for confirmation."),
) -> None:
    """Remove the last hand, after asking (answering no, or no answer, removes nothing and exits with status 1).

    Other writers may go on while the question waits; if the last hand has changed by the time
    it is answered, nothing is removed.

    \b
    Example:
      ginscore undo match.toml --yes
    """
    from ..files import changes
    from ..files.table import file_at
    from ..render.console import console, print_wrapped
    from ..render.sheet import describe_line

    asked = file_at(file)
    hands = asked.match.hands
    if not hands:
        raise RefusedError("has no hands to undo", file=file)
    last = describe_line(asked.sheet.lines[-1])
    if not yes and not _confirm(f"Remove hand {len(hands)} ({last})?"):
        sys.stderr.write("Nothing removed.\n")  # the action asked for was not done: a script must not read it as done
        raise typer.Exit(1)
    change = changes.undo(file, expected=hands)
    sheet = change.sheet
    print_wrapped(console(), f"Removed hand {len(hands)} ({last}). Score: {sheet.score_text()}. Next dealer: {sheet.next_dealer}.")


def _confirm(question: str) -> bool:
    """Ask on stderr and read a y/n from stdin; end of input means no."""
    sys.stderr.write(f"{question} [y/N]: ")
    sys.stderr.flush()
    answer = sys.stdin.readline()
    if not sys.stdin.isatty():
        sys.stderr.write("\n")  # the answer was not echoed, so end the prompt's line
    return answer.strip().lower() in ("y", "yes")

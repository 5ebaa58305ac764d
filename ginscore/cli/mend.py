"""How the command line says to mend a refusal: the option its field names, and what to type instead.

The layers below speak words that fit every front end and name the field an error is about as data; only here
do those become the command line's own words (`--opponent-deadwood: ...`, `or add --force`).
"""

from __future__ import annotations

import os
import re
import typing

from typer._click.core import Command

from ..errors import ExistsError, GameOverError, GinscoreError, InputError, MatchFileError, MissingFileError, StaleError

PARAMETER_OF = {"set": "settings", "rules": "rules_name"}
"""Fields whose command-line parameter has another name in the commands' signatures."""


def mended(error: GinscoreError, command: Command | None) -> str:
    """The error's line for the command line: its message after the option that mends it, with what to type."""
    text = str(error)
    if isinstance(error, MissingFileError):
        close = _near_miss(error.path)
        text = f"{text}; did you mean {close}?" if close else f"{text}: create a match with `ginscore new FILE PLAYER PLAYER`"
    elif isinstance(error, ExistsError) and _option(command, "force") and not _given("next_of"):
        text += ", or add --force to replace it"
    elif isinstance(error, GameOverError):
        finished = _given("file")
        text += f"; start the next one with: {next_match_command(error, finished if isinstance(finished, str) else None)}"
    elif isinstance(error, StaleError):
        text += " (look again, then retry)"
    option = _option(command, error.field) if error.field else None
    if option and isinstance(error, InputError) and _not_given(error.field):
        return f"{option} is missing: {text}"
    return f"{option}: {text}" if option else text


def _not_given(field: str | None) -> bool:
    """Whether the running command's option for `field` was left out: the refusal is then that it is missing."""
    from typer._click.globals import get_current_context

    context = get_current_context(silent=True)
    if context is None or field is None:
        return False
    name = PARAMETER_OF.get(field, field)
    return name in context.params and context.params[name] is None


def _given(name: str) -> object:
    """The value the running command's parameter `name` was given; None when it has none."""
    from typer._click.globals import get_current_context

    context = get_current_context(silent=True)
    return context.params.get(name) if context is not None else None


def _option(command: Command | None, field: str | None) -> str | None:
    """The command's option for `field`, as typed (`--opponent-deadwood`); None when it takes none."""
    if command is None or field is None:
        return None
    name = PARAMETER_OF.get(field, field)
    for param in command.params:
        if param.name == name and param.param_type_name == "option" and param.opts:
            return param.opts[0]
    return None


def next_match_command(error: GameOverError, finished: str | None = None) -> str:
    """The `ginscore new` that starts the next match of a finished one, in a free file, with the dealer its rules
    choose: `new FREE --next FINISHED` when the finished file is known, else with its players and rules."""
    import shlex

    from ..game.rulebook import rules_options
    from ..match.records import Match
    from ..match.tally import tally

    match = typing.cast(Match, error.match)
    dealer = f" --dealer {shlex.quote(tally(match).next_dealer)}"
    if finished is not None:
        return f"ginscore new {shlex.quote(free_name(finished))} --next {shlex.quote(finished)}{dealer}"
    options = [*rules_options(match.rules, match.preset), *(["hollywood"] if match.hollywood else [])]
    names = " ".join(shlex.quote(name) for name in match.players)
    return f"ginscore new {free_name('next.toml')} {names}" + "".join(f" --{option}" for option in options) + dealer


_NUMBERED = re.compile(r"(.+)-([1-9][0-9]{0,2})")
"""A match file's stem numbered as `free_name` numbers it (`friday-2`): a number of up to three digits, without a
leading 0, so that a day (`friday-2026-12-05`) is not taken for one."""


def free_name(path: str) -> str:
    """The first free name for the next match after `path`, in its folder: `friday.toml` -> `friday-2.toml` (or
    `friday-3.toml` when that is taken), `friday-2.toml` -> `friday-3.toml`."""
    folder, name = os.path.split(path)
    stem, dot, ending = name.rpartition(".")
    if not dot:
        stem, ending = name, "toml"
    numbered = _NUMBERED.fullmatch(stem)
    base, number = (numbered[1], int(numbered[2]) + 1) if numbered else (stem, 2)
    while os.path.lexists(os.path.join(folder, f"{base}-{number}.{ending}")):
        number += 1
    return os.path.join(folder, f"{base}-{number}.{ending}")


def _near_miss(path: str) -> str | None:
    """For a match file that does not exist, the file in its folder whose name is closest, when one is close."""
    if os.path.lexists(path):
        return None
    import difflib

    folder, name = os.path.split(path)
    from ..files.table import Table

    try:
        names = Table(folder or ".").names()
    except MatchFileError:
        return None
    close = difflib.get_close_matches(name, names, n=1, cutoff=0.75)
    return os.path.join(folder, close[0]) if close else None

"""How the command line says to mend a refusal: the option its field names, and what to type instead.

The layers below speak words that fit every front end and name the field an error is about as data; only here
do those become the command line's own words (`--opponent-deadwood: ...`, `or add --force`).
"""

from __future__ import annotations

import os

from typer._click.core import Command

from ..errors import ExistsError, GameOverError, GinscoreError, InputError, MissingFileError, StaleError

PARAMETER_OF = {"set": "settings", "rules": "rules_name"}
"""Fields whose command-line parameter has another name in the commands' signatures."""


def mended(error: GinscoreError, command: Command | None) -> str:
    """The error's line for the command line: its message after the option that mends it, with what to type."""
    text = str(error)
    if isinstance(error, MissingFileError):
        close = _near_miss(error.path)
        text = f"{text}; did you mean {close}?" if close else f"{text}: create a match with `ginscore new FILE PLAYER PLAYER`"
    elif isinstance(error, ExistsError) and _option(command, "force"):
        text += ", or add --force to replace it"
    elif isinstance(error, GameOverError):
        text += f"; start the next one with: {next_match_command(error)}"
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


def _option(command: Command | None, field: str | None) -> str | None:
    """The command's option for `field`, as typed (`--opponent-deadwood`); None when it takes none."""
    if command is None or field is None:
        return None
    name = PARAMETER_OF.get(field, field)
    for param in command.params:
        if param.name == name and param.param_type_name == "option" and param.opts:
            return param.opts[0]
    return None


def next_match_command(error: GameOverError) -> str:
    """The `ginscore new` that starts the next match of a finished one, with its players and rules."""
    import shlex

    from ..game.rulebook import rules_options

    match = error.match
    options = [*rules_options(match.rules, match.preset), *(["hollywood"] if match.hollywood else [])]  # type: ignore[attr-defined]
    names = " ".join(shlex.quote(name) for name in match.players)  # type: ignore[attr-defined]
    return f"ginscore new next.toml {names}" + "".join(f" --{option}" for option in options)


def _near_miss(path: str) -> str | None:
    """For a match file that does not exist, the file in its folder whose name is closest, when one is close."""
    if os.path.lexists(path):
        return None
    import difflib

    folder, name = os.path.split(path)
    try:
        names = [entry for entry in os.listdir(folder or ".") if entry.endswith(".toml") and os.path.isfile(os.path.join(folder, entry))]
    except OSError:
        return None
    close = difflib.get_close_matches(name, names, n=1, cutoff=0.75)
    return os.path.join(folder, close[0]) if close else None

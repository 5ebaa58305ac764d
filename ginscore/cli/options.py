"""What several commands share, defined once so that each option means the same thing everywhere: the rule
options of every command that judges a hand, the placeholders help shows, the one rule for numbers, and what
the shell completes."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

import typer
from typer._click.core import Context, Parameter
from typer._click.types import ParamType

from ..errors import InputError
from ..game.numbers import parse_whole

if TYPE_CHECKING:
    from ..game.cards import Card
    from ..game.rulebook import Rules

TYPED_WORDS = "ginscore.typed_words"
"""Where a command keeps the words typed so far while the shell asks for completions."""


def complete_preset(incomplete: str) -> list[str]:
    """The preset names, for `--rules` and `rules NAME`."""
    from ..game.rulebook import PRESETS

    return [name for name in PRESETS if name.startswith(incomplete.lower())]


def complete_setting(incomplete: str) -> list[str]:
    """`knob=` for each knob after `--set`, and the values a knob with choices takes after its `=`."""
    from ..game.rulebook import KNOBS

    name, equals, value = incomplete.partition("=")
    if not equals:
        return [f"{knob}=" for knob in KNOBS if knob.startswith(name)]
    knob = KNOBS.get(name)
    if knob is None:
        return []
    choices = ("true", "false") if knob.type == "bool" else knob.metadata["choices"]
    return [f"{name}={choice}" for choice in choices if choice.startswith(value)]


def complete_player(ctx: Context, incomplete: str) -> list[str]:
    """The players named in the match file given before `--knocker`; nothing when it cannot be read."""
    from .completion import players_in

    # While completing, an option still waiting for its value stops the parse before FILE is read, so the file
    # is found among the words typed so far (saved by the command for completion).
    typed = [ctx.params.get("file"), *ctx.meta.get(TYPED_WORDS, [])]
    return [name for name in players_in(typed) if name.lower().startswith(incomplete.lower())]


def complete_match_file(ctx: Context, param: Parameter, incomplete: str) -> list[str]:
    """The `.toml` files and the folders (to go into) whose names start with what is typed."""
    folder, start = os.path.split(incomplete)
    try:
        names = sorted(os.listdir(folder or "."))
    except OSError:
        return []
    found = []
    for name in names:
        if not name.startswith(start) or (name.startswith(".") and not start.startswith(".")):
            continue
        path = os.path.join(folder, name)
        if os.path.isdir(path):
            found.append(path + os.sep)
        elif name.endswith(".toml"):
            found.append(path)
    return found


class WholeNumber(ParamType):
    """A count or a hand number: ASCII digits only, as `play` and the match file read them."""

    name = "integer"

    def convert(self, value: Any, param: Parameter | None, ctx: Context | None) -> int:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        try:
            return parse_whole(str(value), signed=True)
        except InputError as error:
            self.fail(str(error), param, ctx)


WHOLE_NUMBER = WholeNumber()

PLACEHOLDERS = {
    "cards": "CARDS",
    "opponent_cards": "CARDS",
    "discard": "CARD",
    "upcard": "CARD",
    "knocker": "NAME",
    "dealer": "NAME",
    "players": "NAME",
    "rules_name": "PRESET",
    "name": "PRESET",
    "settings": "KNOB=VALUE",
    "paths": "PATH",
    "files": "FILE",
    "export": "FILE",
    "export_terminal": "FILE",
    "note": "TEXT",
    "number": "N",
}
"""The placeholder each parameter shows in help (`--cards CARDS`), by its name in the command's signature."""

RULES = typer.Option(
    "standard", "--rules", autocompletion=complete_preset, help="The preset: standard, tournament or oklahoma."
)
SETTINGS = typer.Option(
    [], "--set", autocompletion=complete_setting, help="Override a rule knob, e.g. --set gin_bonus=25 (repeatable)."
)
UPCARD = typer.Option(
    None, "--upcard", help="The up-card (knock card): its value is the knock limit, as in Oklahoma; an ace means gin only."
)
KNOCK_LIMIT = typer.Option(None, "--knock-limit", help="Most deadwood a knock may have: short for --set knock_limit=N.")
JSON = typer.Option(False, "--json", help="One JSON object.")


def judged_rules(rules_name: str, settings: list[str], knock_limit: int | None, upcard: str | None) -> tuple[Rules, Card | None]:
    """The rules a command that judges a hand uses, and the up-card it was given, from the shared options.

    A knob given twice (`--set` twice, or `--set knock_limit` beside `--knock-limit`) is refused, never settled
    by the order it was typed in.
    """
    from ..game.rulebook import judged_rules as judged

    return judged(rules_name, settings, knock_limit, upcard)

"""Options that more than one command takes, defined once so that each means the same thing everywhere."""

from __future__ import annotations

import typer

RULES = typer.Option("standard", "--rules", help="standard, tournament or oklahoma.")
SETTINGS = typer.Option([], "--set", help="Override a rule knob, e.g. --set gin_bonus=25 (repeatable).")
UPCARD = typer.Option(None, "--upcard", help="The up-card (knock card) under Oklahoma.")
JSON = typer.Option(False, "--json", help="One JSON object.")

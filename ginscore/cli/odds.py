"""`ginscore odds`: each player's chance to win the game in play, and where the model came from."""

from __future__ import annotations

import sys

import typer

from .command import command, print_json
from .options import JSON


@command(short_help="Each player's chance to win the game in play.")
def odds(
    file: str = typer.Argument(..., help="The match file."),
    history: str | None = typer.Option(
        None, "--history", metavar="FOLDER", help="The folder of this table's match files to learn from (default: the match file's folder)."
    ),
    prior: int = typer.Option(
        200, "--prior", metavar="HANDS", help="How many hands the built-in model counts for beside the table's own (0: the table's hands alone)."
    ),
    as_json: bool = JSON,
) -> None:
    """Each player's chance to win the game in play, solved exactly from a model of how hands end.

    The model blends the built-in simulated hands (counted as --prior hands) with the hands of this table's
    match files played by the same rules. In Hollywood, each game still in play has its own chance.

    \b
    Examples:
      ginscore odds match.toml
      ginscore odds match.toml --history ~/gin --prior 0 --json
    """
    from ..files.table import match_odds
    from ..sheets.odds_words import chances_text

    found = match_odds(file, history, prior)
    if as_json:
        print_json(found.as_dict())
        return
    match = found.sheet.match
    lines = []
    for game in found.games:
        label = f"Game {game.number}: " if match.hollywood else ""
        scores = ", ".join(f"{name} {total}" for name, total in game.scores.items())
        if game.finished:
            winner = max(game.chance, key=lambda name: game.chance[name])
            lines.append(f"{label}over: {winner} reached {match.rules.target} ({scores})")
            continue
        lines.append(f"{label}{chances_text(game.chance)} ({scores}, to {match.rules.target})")
    if not found.sheet.finished:
        lines.append(f"{found.sheet.next_dealer} deals next.")
    lines.append(f"From {found.model.source}.")
    sys.stdout.write("\n".join(lines) + "\n")

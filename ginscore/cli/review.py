"""`ginscore review`: every knock recorded with the knocker's eleven cards, judged by the game chance it cost."""

from __future__ import annotations

import typer

from .command import command, print_json
from .options import JSON


@command(short_help="Each recorded knock judged by its game chance.")
def review(
    file: str = typer.Argument(..., help="The match file, or a folder: every match in it, and each player's sums over them."),
    player: str | None = typer.Option(None, "--player", metavar="NAME", help="Show this player's knocks and sums only."),
    as_json: bool = JSON,
) -> None:
    """Review a match: each knock recorded with the knocker's eleven cards (the discard included), judged by the
    chance to win the game it gave away against the best play, with the numbers `advise --match` gives at that
    hand's score; then each player's hands reviewed, chance lost and worst hand.

    Given a folder, every match file in it is reviewed (the broken ones left out, as `stats` leaves them), and
    each player's hands reviewed and mean chance lost are summed over the folder.

    \b
    Examples:
      ginscore review sample_matches/oklahoma.toml
      ginscore review friday.toml --player Ann --json
      ginscore review sample_matches/ --player Raj
    """
    import os

    from ..files.table import solvable, table_of
    from ..match.review import review as review_of
    from ..match.review_json import review_dict
    from .cores import each_on_every_core

    if os.path.isdir(file):
        _folder(file, player, as_json)
        return
    table = table_of(file)
    sheet = table.sheet_at(file)
    name = None
    if player is not None:
        from ..errors import GinscoreError

        try:
            name = sheet.match.player(player)
        except GinscoreError as error:
            raise error.about("player") from None
    if not solvable(sheet):
        table.odds(sheet)  # refused, in the chance's own words
    outcomes = table.model(sheet.match.rules).outcomes  # not the chance now, which no knock is reviewed at
    if as_json:
        print_json(review_dict(review_of(sheet, outcomes, each=each_on_every_core), name))
        return
    from ..render.console import console
    from ..render.review import review_progress, review_report

    out = console()
    with review_progress(out) as progress:
        found = review_of(sheet, outcomes, progress, each_on_every_core)
    review_report(found, out, name)


def _folder(folder: str, player: str | None, as_json: bool) -> None:
    """`review FOLDER`: each readable match of the folder reviewed, and each player's sums over them."""
    from ..files.table import table_at
    from ..match.review import over_folder, review
    from ..match.review_json import folder_dict
    from .cores import each_on_every_core

    table = table_at(folder)
    sheets = table.named_sheets()
    if player is not None:
        from ..errors import InputError
        from ..match.records import person_key

        if not any(person_key(player) == person_key(name) for _, sheet in sheets for name in sheet.match.players):
            raise InputError(f"nobody called {player!r} plays in a match in {folder}", field="player")
    found = over_folder((name, review(sheet, table.model(sheet.match.rules).outcomes, each=each_on_every_core))
                        for name, sheet in sheets)
    if as_json:
        from ..match.records import person_key

        data = folder_dict(found)
        if player is not None:
            data["players"] = [each for each in data["players"] if person_key(each["player"]) == person_key(player)]
        print_json(data)
        return
    from ..render.console import console
    from ..render.review import folder_report

    folder_report(found, console(), player)

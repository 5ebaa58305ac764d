"""`ginscore review`: every knock recorded with the knocker's eleven cards, judged by the game chance it cost."""

from __future__ import annotations

import typer

from .command import command, print_json
from .options import JSON


@command(short_help="Each recorded knock judged by its game chance.")
def review(
    file: str = typer.Argument(..., help="The match file."),
    player: str | None = typer.Option(None, "--player", metavar="NAME", help="Show this player's knocks and sums only."),
    as_json: bool = JSON,
) -> None:
    """Review a match: each knock recorded with the knocker's eleven cards (the discard included), judged by the
    chance to win the game it gave away against the best play, with the numbers `advise --match` gives at that
    hand's score; then each player's hands reviewed, chance lost and worst hand.

    \b
    Examples:
      ginscore review sample_matches/oklahoma.toml
      ginscore review friday.toml --player Ann --json
    """
    from ..files.table import table_of
    from ..match.review import review as review_of
    from ..match.review import review_dict

    table = table_of(file)
    sheet = table.sheet_at(file)
    name = None
    if player is not None:
        from ..errors import GinscoreError

        try:
            name = sheet.match.player(player)
        except GinscoreError as error:
            raise error.about("player") from None
    outcomes = table.odds(sheet).model.outcomes
    if as_json:
        print_json(review_dict(review_of(sheet, outcomes), name))
        return
    from ..render.console import console
    from ..render.review import review_progress, review_report

    out = console()
    with review_progress(out) as progress:
        found = review_of(sheet, outcomes, progress)
    review_report(found, out, name)

"""The chance to win the game in play, as `show` prints it under the sheet."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.console import Console
from rich.text import Text

from ..sheets.odds_words import chances_text

if TYPE_CHECKING:
    from ..match.odds import MatchOdds
    from ..match.series import Series


def odds_view(odds: MatchOdds | None, out: Console) -> None:
    """One line a game in play: `Chances: Ann 73% to win this game, Bob 27%`, then where the model came from;
    nothing for None, which `show` passes for a finished match (it makes no model for one) or a chance not solved."""
    if odds is None:
        return
    hollywood = odds.sheet.match.hollywood
    for game in odds.games:
        if game.finished:
            continue
        label = f"Game {game.number} chances: " if hollywood else "Chances: "
        out.print(Text.assemble((label, "bold"), chances_text(game.chance)))
    out.print(Text(f"(from {odds.model.source})", style="dim"))


def series_view(series: Series, out: Console) -> None:
    """The players' series over the folder's matches, `Series: Ann 3 – Bob 2`, once a game between them is over."""
    from ..sheets.words import series_words

    if series.games:
        out.print(Text(series_words(series), style="bold"))

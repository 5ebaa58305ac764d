"""What `standings` prints: one line a player, best first, and how well the ratings predicted the games."""

from __future__ import annotations

from rich.console import Console
from rich.text import Text

from ..match.standings import Standings
from ..sheets.standings_words import PROVISIONAL_WORDS, margin_text, percent, prediction_text, rating_text
from .console import count, new_table, print_wrapped


def standings_view(table: Standings, files: int, out: Console) -> None:
    """The standings as a table, then the prediction's sentence."""
    if not table.rows:
        out.print("No finished games found.")
        return
    view = new_table(out)
    for name, justify in (("#", "right"), ("player", "left"), ("rating", "right"), ("games", "right"), ("won", "right"),
                          ("win %", "right"), ("gins", "right"), ("undercuts", "right"), ("margin", "right"), ("last played", "left")):
        view.add_column(name, justify=justify, no_wrap=name != "player")  # type: ignore[arg-type]
    for place, row in enumerate(table.rows, start=1):
        view.add_row(
            str(place), row.player, rating_text(row), str(row.games), str(row.won), percent(row.win_share),
            str(row.gins), str(row.undercuts), margin_text(row.average_margin), row.last_played,
        )
    out.print(view)
    print_wrapped(out, prediction_text(table.prediction))
    window = ""
    if table.since or table.until:
        window = f", from {table.since or 'the first game'} to {table.until or 'the last'}"
    out.print(Text(f"{count(table.games, 'game', 'games')} in {count(files, 'file', 'files')}{window}. Rating ± 2 RD. {PROVISIONAL_WORDS}. Margin: net points a game.", style="dim"))

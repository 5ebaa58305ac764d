"""What `standings` prints: one line a player, best first, and how well the ratings predicted the games."""

from __future__ import annotations

from rich.cells import cell_len
from rich.console import Console
from rich.text import Text

from ..match.standings import Standings
from ..sheets.standings_words import PROVISIONAL_WORDS, margin_text, percent, prediction_text, rating_text
from .console import count, new_table, print_wrapped

COLUMNS = (("#", "right"), ("player", "left"), ("rating", "right"), ("games", "right"), ("won", "right"),
           ("win %", "right"), ("gins", "right"), ("undercuts", "right"), ("margin", "right"), ("last played", "left"))
STACKED = {"undercuts": "under\ncuts", "last played": "last\nplayed"}
"""Headings set on two lines where the table would not fit the terminal on one: never cut to `play…`."""


def standings_view(table: Standings, files: int, out: Console) -> None:
    """The standings as a table, then the prediction's sentence."""
    if not table.rows:
        out.print("No finished games found.")
        return
    rows = [
        [str(place), row.player, rating_text(row), str(row.games), str(row.won), percent(row.win_share),
         str(row.gins), str(row.undercuts), margin_text(row.average_margin), row.last_played]
        for place, row in enumerate(table.rows, start=1)
    ]
    view = new_table(out)
    stack = fitted_width([name for name, _ in COLUMNS], rows) > out.width
    for name, justify in COLUMNS:
        heading = STACKED.get(name, name) if stack else name
        view.add_column(heading, justify=justify, no_wrap=name != "player",  # type: ignore[arg-type]
                        min_width=len(name) if name == "player" else None)
    for row in rows:
        view.add_row(*row)
    out.print(view)
    print_wrapped(out, prediction_text(table.prediction))
    window = ""
    if table.since or table.until:
        window = f", from {table.since or 'the first game'} to {table.until or 'the last'}"
    print_wrapped(out, Text(f"{count(table.games, 'game', 'games')} in {count(files, 'file', 'files')}{window}. Rating ± 2 RD. "
                            f"{PROVISIONAL_WORDS}. Margin: net points a game.", style="dim"))


def fitted_width(headings: list[str], rows: list[list[str]]) -> int:
    """The cells a `new_table` of these headings and rows takes on a terminal with every cell on one line: each
    column its widest heading line or cell and two of padding."""
    return sum(max(cell_len(line) for cell in (heading, *(row[index] for row in rows)) for line in cell.split("\n")) + 2
               for index, heading in enumerate(headings))

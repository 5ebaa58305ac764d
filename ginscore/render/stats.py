"""What `stats` prints: one table a pair of players, each figure side by side."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.console import Console
from rich.text import Text

from ..stats import STAT_ROWS, stat_text
from .console import count, new_table

if TYPE_CHECKING:
    from ..stats import PairStats


def stats_view(pairs: list[PairStats], files: int, out: Console) -> None:
    """One table a pair of players: each figure side by side."""
    if not pairs:
        out.print("No matches found.")
        return
    for pair in pairs:
        data = pair.as_dict()
        title = f"{pair.players[0]} vs {pair.players[1]}: {count(pair.matches, 'match', 'matches')}, {count(pair.games, 'game', 'games')} finished, {count(pair.hands, 'hand', 'hands')}"
        table = new_table(out, title=title, title_justify="left")
        table.add_column("")
        for name in pair.players:
            table.add_column(name, justify="right")
        for label, key in STAT_ROWS:
            values = [data["by_player"][name][key] for name in pair.players]
            table.add_row(label, *(stat_text(key, value) for value in values))
        out.print(table)
    out.print(Text(f"{count(files, 'file', 'files')} read. * hands recorded with cards only.", style="dim"))



_KIND_MARKS = {"knock": "K", "undercut": "U", "gin": "G", "big_gin": "B", "tie": "T", "cancelled": "×"}
_PLAYER_MARKS = (("●", "bold cyan"), ("▲", "bold yellow"))

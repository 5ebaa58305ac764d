"""What `stats` prints: one table a pair of players, each figure side by side."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.console import Console
from rich.text import Text

from .console import count, new_table
from .hand import print_wrapped
from .sheet import short_names

if TYPE_CHECKING:
    from ..stats import PairStats

_STAT_ROWS = (
    ("games won", "games_won"),
    ("net margin", "margin"),
    ("hands won", "hands_won"),
    ("gins", "gins"),
    ("undercuts given", "undercuts_given"),
    ("undercuts suffered", "undercuts_suffered"),
    ("average hand won", "average_hand"),
    ("biggest hand", "biggest_hand"),
    ("knocks", "knocks"),
    ("knocked in (share of hands)", "knock_rate"),
    ("average knock count", "average_knock_count"),
    ("cards laid off", "layoffs"),
    ("average deadwood when losing*", "average_deadwood_when_losing"),
)
_LABEL_WIDTH = max(len(label) for label, _ in _STAT_ROWS)


def stats_view(pairs: list[PairStats], files: int, out: Console) -> None:
    """One table a pair of players: each figure side by side; long names are cut to fit the width."""
    if not pairs:
        out.print("No matches found.")
        return
    for pair in pairs:
        data = pair.as_dict()
        title = f"{pair.players[0]} vs {pair.players[1]}: {count(pair.matches, 'match', 'matches')}, {count(pair.games, 'game', 'games')} finished, {count(pair.hands, 'hand', 'hands')}"
        print_wrapped(out, Text(title, style="italic"))
        table = new_table(out)
        table.add_column("", no_wrap=True)
        names = short_names(pair.players, max((out.width - _LABEL_WIDTH - 6) // 2, 6))
        for name in pair.players:
            table.add_column(names[name], justify="right", no_wrap=True)
        for label, key in _STAT_ROWS:
            values = [data["by_player"][name][key] for name in pair.players]
            table.add_row(label, *(_stat_text(key, value) for value in values))
        out.print(table)
    out.print(Text(f"{count(files, 'file', 'files')} read. * hands recorded with cards only.", style="dim"))


def _stat_text(key: str, value: object) -> str:
    if value is None:
        return "-"
    if key == "knock_rate" and isinstance(value, float):
        return f"{value:.0%}"
    if key == "margin" and isinstance(value, int) and value > 0:
        return f"+{value}"
    return str(value)

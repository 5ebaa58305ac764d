"""What `stats` prints: one table a pair of players, each figure side by side."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.console import Console
from rich.text import Text

from ..match.stats import STAT_ROWS, stat_text
from .console import count, new_table, print_wrapped

if TYPE_CHECKING:
    from ..files.review_source import ReviewSums
    from ..match.stats import PairStats

_LABEL_WIDTH = max(len(label) for label, _ in STAT_ROWS)


def stats_view(pairs: list[PairStats], files: int, out: Console) -> None:
    """One table a pair of players: each figure side by side; a long name's heading takes more lines to fit the
    width."""
    if not pairs:
        out.print("No matches found.")
        return
    for pair in pairs:
        data = pair.as_dict()
        title = f"{pair.players[0]} vs {pair.players[1]}: {count(pair.matches, 'match', 'matches')}, {count(pair.games, 'game', 'games')} finished, {count(pair.hands, 'hand', 'hands')}"
        print_wrapped(out, Text(title, style="italic"))
        table = new_table(out)
        table.add_column("", no_wrap=True)
        for name in pair.players:  # a long name takes two lines (or more) in its heading, never cut
            table.add_column(name, justify="right", overflow="fold", max_width=max((out.width - _LABEL_WIDTH - 6) // 2, 6))
        for label, key in STAT_ROWS:
            values = [data["by_player"][name][key] for name in pair.players]
            table.add_row(label, *(stat_text(key, value) for value in values))
        out.print(table)
    out.print(Text(f"{count(files, 'file', 'files')} read. * hands recorded with cards only.", style="dim"))


def review_view(sums: tuple[ReviewSums, ...], out: Console) -> None:
    """Each player's mean chance lost over their knocks reviewed (`stats --review`), most knocks first."""
    if not sums:
        out.print("Review: no knock has the knocker's eleven cards recorded, so none could be reviewed.")
        return
    print_wrapped(out, Text("Mean chance lost a knock (`ginscore review`), close hands counting none:", style="italic"))
    for each in sums:
        print_wrapped(out, Text(f"  {each.player}: {each.mean:.1f} points over {count(each.hands, 'knock', 'knocks')}"))

"""What `show` says, as lines of styled text: the score sheet, each game's summary, the chance and the series.

The same lines go to a terminal through rich and down a pipe as plain text (`lines`); nothing here imports
rich's console.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..sheets.odds_words import chances_text
from ..sheets.words import flat_shutout, late_winner_note, series_words, sheet_title, win_words
from .lines import Line, prose, tabs_as_spaces, text_line
from .sheet_table import fitted_table

if TYPE_CHECKING:
    from ..game.rulebook import Rules
    from ..match.odds import MatchOdds
    from ..match.series import Series
    from ..match.tally import Game, Sheet


def sheet_lines(sheet: Sheet, width: int, terminal: bool) -> list[Line]:
    """The score sheet: one row a hand, the running totals of each game, boxes, bonuses and who deals next.

    The table fits `width`: long names are cut in headings and cells (the title keeps them whole), and the
    dealer, then the knocker, give way before a hand number, a result, a count or points would.
    """
    match = sheet.match
    lines = [prose((sheet_title(sheet), "italic"))]
    if match.note:
        lines.append(prose(("Note: ", "bold"), tabs_as_spaces(match.note, len("Note: "))))
    lines += fitted_table(sheet, width).lines(sheet, terminal)
    lines += _hand_notes(sheet)
    for index, game in enumerate(sheet.games):
        lines += summary_lines(game, match.rules, f"Game {index + 1}: " if match.hollywood else "")
    if not sheet.finished:
        lines.append(text_line(("Next dealer: ", "bold"), sheet.next_dealer))
    elif match.hollywood:
        lines.append(_verdict(sheet.winner, sheet.summed("final"), sheet.margin, "over the three games"))
    return lines


def _hand_notes(sheet: Sheet) -> list[Line]:
    """Each hand's note under the table, by hand number; on a terminal a long one wraps under itself."""
    noted = [(line.number, sheet.match.hands[line.number - 1].note) for line in sheet.lines]
    noted = [(number, note) for number, note in noted if note]
    if not noted:
        return []
    width = len(str(noted[-1][0]))
    indent = 2 + width + 2
    lines = [text_line("Notes:")]
    for number, note in noted:
        prefix = f"  {number:>{width}}  "
        for paragraph in note.splitlines() or [""]:
            lines.append(text_line(prefix + paragraph, wrap=indent))
            prefix = " " * indent
    return lines


def summary_lines(game: Game, rules: Rules, label: str = "") -> list[Line]:
    """A game's totals and boxes, and once it is over its bonuses and who won by how much, after `label` in bold."""
    a, b = game.players
    boxes = f"boxes {a} {game.boxes[a]}, {b} {game.boxes[b]}"
    if not game.finished:
        return [prose((label, "bold"), f"{a} {game.totals[a]}, {b} {game.totals[b]} ({boxes}); first to {rules.target}")]
    lines = [prose((label, "bold"), f"{game.reached} reached {rules.target}. {boxes[0].upper()}{boxes[1:]}.")]
    for name in game.players:
        bonus = game.bonuses[name]
        parts = [f"{game.totals[name]} points"]
        if bonus["game"]:
            kind = "shutout bonus (the other player scored nothing)" if flat_shutout(game, rules) else "game bonus"
            parts.append(f"{bonus['game']} {kind}")
        if bonus["boxes"]:
            parts.append(f"{bonus['boxes']} for boxes")
        if bonus["shutout"]:
            parts.append(f"{bonus['shutout']} for the shutout (total doubled)")
        lines.append(prose(f"  {name}: {' + '.join(parts)} = {game.final[name]}"))
    lines.append(_verdict(game.winner, game.final, game.margin, level_note=f"({game.reached} reached the target)"))
    note = late_winner_note(game)
    if note:
        lines.append(prose((f"  {note}", "yellow")))
    return lines


def _verdict(winner: str | None, final: dict[str, int], margin: int, where: str = "", level_note: str = "") -> Line:
    """The verdict in `win_words`, indented, with who won by how much in bold green."""
    words = win_words(winner, final, margin, where, level_note)
    if winner is None:
        return prose(f"  {words}")
    bold = len(f"{winner} wins by {margin}")
    return prose("  ", (words[:bold], "bold green"), words[bold:])


def odds_lines(odds: MatchOdds | None) -> list[Line]:
    """One line a game in play: `Chances: Ann 73% to win this game, Bob 27%`, then where the model came from;
    nothing for None, which `show` passes for a finished match (it makes no model for one) or a chance not solved."""
    if odds is None:
        return []
    hollywood = odds.sheet.match.hollywood
    lines = [
        text_line((f"Game {game.number} chances: " if hollywood else "Chances: ", "bold"), chances_text(game.chance))
        for game in odds.games
        if not game.finished
    ]
    return [*lines, prose((f"(from {odds.model.source})", "dim"))]  # wrapped at words on a terminal


def series_lines(series: Series) -> list[Line]:
    """The players' series over the folder's matches, `Series: Ann 3 – Bob 2`, once a game between them is over."""
    return [text_line((series_words(series), "bold"))] if series.games else []

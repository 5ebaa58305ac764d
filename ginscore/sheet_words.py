"""The score sheet's words, shared by the terminal and the exports: result names, the title, a hand's result, a game's end, the verdict."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # `check` reads RESULT_WORDS; the match stays out of its start-up
    from .match import Game, Sheet
    from .rules import Rules

RESULT_WORDS = {
    "knock": "knock",
    "undercut": "undercut",
    "gin": "gin",
    "big_gin": "big gin",
    "tie": "tie: equal counts, nobody scores",
    "cancelled": "cancelled",
}


def result_name(result: str) -> str:
    """A result's name alone, as a sheet's column gives it: `tie`, not the sentence after it."""
    return RESULT_WORDS[result].split(":")[0]


def sheet_title(sheet: Sheet) -> str:
    """`Ann vs Bob (Hollywood, standard rules with gin_bonus=25, target 100)`."""
    from .rules import changes_from

    match = sheet.match
    kind = "Hollywood, " if match.hollywood else ""
    preset, changes = changes_from(match.rules, match.preset)
    changes = [change for change in changes if not change.startswith("target=")]  # the target is named anyway
    changed = f" with {', '.join(changes)}" if changes else ""
    return f"{match.players[0]} vs {match.players[1]} ({kind}{preset} rules{changed}, target {match.rules.target})"


def hand_words(result: str, winner: str | None, points: int) -> str:
    """A hand's result in the sheet's words: `gin: Tom scores 31`, `cancelled`."""
    if winner is None:
        return RESULT_WORDS[result]
    return f"{result_name(result)}: {winner} scores {points}"


def verdict(sheet: Sheet) -> str:
    """Who won and by how much, or who deals next while the match is in play."""
    if not sheet.finished:
        return f"In play. Next dealer: {sheet.next_dealer}."
    where = " over the three games" if sheet.match.hollywood else ""
    if sheet.winner is None:
        totals = ", ".join(f"{name} {total}" for name, total in sheet.summed("final").items())
        return f"Final totals are level{where}: {totals}."
    return f"{sheet.winner} wins by {sheet.margin}{where}."


def game_end(game: Game, rules: Rules) -> str:
    """`Tom reached 100.`, and a note when the other player has the higher final total."""
    words = f"{game.reached} reached {rules.target}."
    a, b = game.players
    if game.winner is not None and game.winner != game.reached and game.final[a] != game.final[b]:
        words += f" Note: {game.reached} reached the target first, but {game.winner} has the higher final total after the bonuses."
    return words

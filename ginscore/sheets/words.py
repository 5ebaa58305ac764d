"""The score sheet's words, shared by the terminal and the exports: result names, the title, a hand's result, a game's end, the verdict."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # `check` reads RESULT_WORDS; the match stays out of its start-up
    from collections.abc import Iterable

    from ..files.merging import Merged, Outcome
    from ..game.cards import Card
    from ..game.melds import Arrangement
    from ..game.rulebook import Rules
    from ..game.scoring import ScoredKnock
    from ..match.series import Series
    from ..match.tally import Game, HandLine, Sheet

RESULT_WORDS = {
    "knock": "knock",
    "undercut": "undercut",
    "gin": "gin",
    "big_gin": "big gin",
    "tie": "tie: equal counts, nobody scores",
    "cancelled": "cancelled",
}

RESULT_LETTERS = {"knock": "K", "undercut": "U", "gin": "G", "big_gin": "B", "tie": "T", "cancelled": "×"}
"""Each result's one-letter mark on a chart."""


def letters_key(results: Iterable[str], separator: str) -> str:
    """What the chart letters of `results` stand for: `G gin, U undercut`."""
    return separator.join(f"{RESULT_LETTERS[result]} {result_name(result)}" for result in results)


def result_name(result: str) -> str:
    """A result's name alone, as a sheet's column gives it: `tie`, not the sentence after it."""
    return RESULT_WORDS[result].split(":")[0]


def sheet_title(sheet: Sheet, spoken: bool = False) -> str:
    """`Ann vs Bob (Hollywood, standard rules with gin_bonus=25, target 100)`; `spoken`, each change in a player's
    words, as the pad's form takes them: `with gin bonus 25`."""
    from ..game.rulebook import changes_from

    match = sheet.match
    kind = "Hollywood, " if match.hollywood else ""
    preset, changes = changes_from(match.rules, match.preset)
    changes = [change for change in changes if not change.startswith("target=")]  # the target is named anyway
    if spoken:
        changes = [" ".join(change.replace("_", " ").split("=")) for change in changes]
    changed = f" with {', '.join(changes)}" if changes else ""
    return f"{match.players[0]} vs {match.players[1]} ({kind}{preset} rules{changed}, target {match.rules.target})"


def counts_words(line: HandLine) -> str:
    """A hand's two counts as a sheet's column gives them, `4 / 23`; empty for a cancelled hand."""
    return "" if line.knocker_deadwood is None else f"{line.knocker_deadwood} / {line.opponent_deadwood}"


def points_words(line: HandLine, name: str | None = None) -> str:
    """Who scored and how much, `Tom 22`, with `×2` for a doubled hand; empty when nobody scored.

    `name` stands in for the winner's, such as a name cut to fit a terminal.
    """
    if line.winner is None:
        return ""
    doubled = " ×2" if line.multiplier > 1 else ""
    return f"{line.winner if name is None else name} {line.points}{doubled}"


def hand_words(result: str, winner: str | None, points: int) -> str:
    """A hand's result in the sheet's words: `gin: Tom scores 31`, `cancelled`."""
    if winner is None:
        return RESULT_WORDS[result]
    return f"{result_name(result)}: {winner} scores {points}"


def verdict(sheet: Sheet) -> str:
    """Who won and by how much, or who deals next while the match is in play."""
    if not sheet.finished:
        return f"In play. Next dealer: {sheet.next_dealer}."
    where = "over the three games" if sheet.match.hollywood else ""
    return win_words(sheet.winner, sheet.summed("final"), sheet.margin, where)


def win_words(winner: str | None, final: dict[str, int], margin: int, where: str = "", level_note: str = "") -> str:
    """`Ann wins by 12.`, or `Final totals are level: Ann 130, Bob 130.` when neither final total is higher.

    `where` follows the margin or the word level (`over the three games`); `level_note` ends a level verdict.
    """
    where = f" {where}" if where else ""
    if winner is None:
        totals = ", ".join(f"{name} {total}" for name, total in final.items())
        note = f" {level_note}" if level_note else ""
        return f"Final totals are level{where}: {totals}{note}."
    return f"{winner} wins by {margin}{where}."


def won_words(winner: str | None, final: dict[str, int]) -> str:
    """A finished game's result in a line, the winner's final first: `Ann won 301 – 118`, or `drawn 150 – 150`."""
    ordered = sorted(final.items(), key=lambda pair: pair[0] != winner)
    points = " – ".join(str(total) for _, total in ordered)
    return f"{winner} won {points}" if winner is not None else f"drawn {points}"


def series_words(series: Series) -> str:
    """A pair's series in a line: `Series: Ann 3 – Bob 2`, with the rules named where they were not all one."""
    (a, b), (won_a, won_b) = series.players, series.wins
    drawn = len(series.games) - won_a - won_b
    level = f", {drawn} drawn" if drawn else ""
    mixed = f" ({', '.join(series.rules)} rules)" if len(series.rules) > 1 else ""
    return f"Series: {a} {won_a} – {b} {won_b}{level}{mixed}"


BONUS_WORDS = {"game": "game bonus", "boxes": "box bonus", "shutout": "shutout bonus"}
"""The sheet's names for `bonus_columns`' kinds."""


def flat_shutout(game: Game, rules: Rules) -> bool:
    """Whether the game's winner takes the flat shutout bonus, which replaces the game bonus."""
    return game.shutout and rules.shutout == "flat"


def bonus_columns(game: Game, name: str, rules: Rules) -> dict[str, int]:
    """A player's bonuses in a game as the sheet words them: the game bonus, the box bonus, and the
    shutout bonus (the flat bonus that replaces the game bonus, or what doubling the total added)."""
    bonus = game.bonuses[name]
    flat = flat_shutout(game, rules)
    return {"game": 0 if flat else bonus["game"], "boxes": bonus["boxes"], "shutout": bonus["shutout"] + (bonus["game"] if flat else 0)}


def game_end(game: Game, rules: Rules) -> str:
    """`Tom reached 100.`, and a note when the other player has the higher final total."""
    note = late_winner_note(game)
    return f"{game.reached} reached {rules.target}." + (f" {note}" if note else "")


def late_winner_note(game: Game) -> str:
    """A note when the player who reached the target ends with the lower final total after the bonuses; else empty."""
    a, b = game.players
    if game.winner is None or game.winner == game.reached or game.final[a] == game.final[b]:
        return ""
    return f"Note: {game.reached} reached the target first, but {game.winner} has the higher final total after the bonuses."


def summary_rows(sheet: Sheet) -> list[list[str]]:
    """Per player: points, boxes, the bonuses of `bonus_columns` and the final total, summed over the games."""
    totals, boxes, final = sheet.summed("totals"), sheet.summed("boxes"), sheet.summed("final")
    rows = []
    for name in sheet.match.players:
        columns = [bonus_columns(game, name, sheet.match.rules) for game in sheet.games if game.finished]
        bonuses = [sum(column[kind] for column in columns) for kind in BONUS_WORDS]
        rows.append([name, str(totals[name]), str(boxes[name]), *map(str, bonuses), str(final[name])])
    return rows


def target_words(rules: Rules, hollywood: bool = False) -> str:
    """What a game is played to: `first to 100`, or `first to 100 in each game` on a Hollywood sheet."""
    return f"first to {rules.target}" + (" in each game" if hollywood else "")


def lead_words(totals: Mapping[str, int], finished: bool = False) -> str:
    """Who is ahead and by how much, `Ann is ahead by 12` (`Ann won by 12` once over), or `level`."""
    (a, first), (b, second) = totals.items()
    if first == second:
        return "level"
    leader, margin = (a, first - second) if first > second else (b, second - first)
    return f"{leader} {'won' if finished else 'is ahead'} by {margin}"


def upcard_words(upcard: str | None, face: Callable[[str], str] = str) -> str:
    """An Oklahoma hand's up-card as the sheet names it, `up-card 7h` (or with `face`, a phone's `up-card 7♥`);
    empty for a hand without one."""
    return f"up-card {face(upcard)}" if upcard else ""


def knock_sentence(deadwood: int, big_gin: bool, limit: int) -> str:
    """Whether a hand can knock, as a sentence a player reads: `You can knock: 2 deadwood, limit 10`."""
    if big_gin:
        return "Big gin: all 11 cards meld"
    if deadwood == 0:
        return "Gin: every card melds"
    if limit == 0:
        return f"You cannot knock: gin only, and {deadwood} deadwood is left"
    if deadwood <= limit:
        return f"You can knock: {deadwood} deadwood, limit {limit}"
    return f"You cannot knock: {deadwood} deadwood, limit {limit}"


@dataclass(frozen=True)
class LaidDown:
    """A knocker's spread as a sheet shows it: each meld's cards, the deadwood, and the card discarded face down,
    all in card notation (`3h`), for a page to draw as chips or `words` to say."""

    melds: tuple[tuple[str, ...], ...]
    """Each meld's cards, runs in rank order."""
    deadwood: tuple[str, ...]
    """The cards in no meld."""
    discard: str | None = None
    """The card discarded face down, for 11 cards; None for a big gin or 10 cards."""

    def words(self, face: Callable[[str], str] = str) -> str:
        """As `score` prints it: `3h 4h 5h | 7c 8c 9c | (2d) (discarded 9h)`, each card through `face` (a phone's
        `3♥`)."""
        groups = [" ".join(face(code) for code in meld) for meld in self.melds]
        if self.deadwood:
            groups.append("(" + " ".join(face(code) for code in self.deadwood) + ")")
        said = " | ".join(groups) if groups else "-"
        return f"{said} (discarded {face(self.discard)})" if self.discard else said


def laid_down(spread: Arrangement, discard: Card | None = None) -> LaidDown:
    """A spread, and the card discarded with it, as `LaidDown`."""
    return LaidDown(tuple(tuple(meld) for meld in spread.card_lists()),
                    tuple(str(card) for card in spread.deadwood_cards.sorted()), None if discard is None else str(discard))


def sides_words(scored: ScoredKnock | None, knocker: str, opponent: str, face: Callable[[str], str] = str) -> list[str]:
    """Both sides of a hand scored from the players' cards, as a sheet shows them under the hand: the knocker's
    spread (its deadwood in brackets, and the discard), the opponent's own melds, what they laid off and their count
    after it (the last three only when the opponent's cards were given); empty for a hand recorded by counts.
    Each card goes through `face`, as `upcard_words`' does."""
    if scored is None:
        return []
    words = [f"{knocker} laid down {laid_down(scored.spread, scored.discard).words(face)}"]
    response = scored.response
    if response is None:
        return words
    melds = " | ".join(" ".join(face(str(card)) for card in meld.sorted()) for meld in response.spread.melds)
    laid = " ".join(face(str(card)) for card in response.layoffs.sorted())
    words.append(f"{opponent} melded {melds}" if melds else f"{opponent} had no meld")
    words.append(f"{opponent} laid off {laid}" if laid else f"{opponent} laid off nothing")
    words.append(f"{opponent}'s count after lay-offs: {response.deadwood}")
    return words


NO_HAND = "—"
"""A copy's side of a hand it does not have."""


def told_hand(sheet: Sheet, number: int) -> str:
    """How a copy of a match tells hand `number`, for two copies side by side: the result and counts, the cards,
    up-card and note where given; `NO_HAND` when it has no such hand. (When each was entered is left out: two
    phones never agree on it, and the rule does not compare it.)"""
    if not 1 <= number <= len(sheet.lines):
        return NO_HAND
    line, record = sheet.lines[number - 1], sheet.match.hands[number - 1]
    parts = [hand_words(line.result, line.winner, line.points), counts_words(line)]
    if record.cards:
        parts.append(record.cards)
    if record.upcard:
        parts.append(f"up-card {record.upcard}")
    if record.note:
        parts.append(f"“{record.note}”")
    return " · ".join(part for part in parts if part)


def hand_numbers(numbers: tuple[int, ...]) -> str:
    """Hand numbers as a person reads them: `hand 3`, `hands 3 and 5`, `hands 3 to 7`, `hands 2, 5 to 7`."""
    runs: list[list[int]] = []
    for number in sorted(numbers):
        if runs and number == runs[-1][-1] + 1:
            runs[-1].append(number)
        else:
            runs.append([number])
    parts = [part for run in runs for part in ([f"{run[0]} to {run[-1]}"] if len(run) > 2 else map(str, run))]
    if len(parts) < 2:
        return f"hand {parts[0]}" if len(numbers) == 1 else f"hands {parts[0]}" if parts else "a hand"
    return "hands " + ", ".join(parts[:-1]) + " and " + parts[-1]


def hand_count(hands: int) -> str:
    """`1 hand`, `3 hands`."""
    return f"{hands} hand{'' if hands == 1 else 's'}"


def merged_words(done: Merged, said: Mapping[Outcome, str], **more: str) -> str:
    """One merge's outcome in a front end's own words: `said[outcome]`, filled in with the file's `name`, the
    `hands` the copy added, the hands that `differ` in a conflict, the `reason` a member was refused, and `more`."""
    return said[done.outcome].format(name=done.name, hands=hand_count(done.added), differ=hand_numbers(done.differing),
                                     reason=done.reason, **more)

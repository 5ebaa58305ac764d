"""The standings' words, shared by the terminal and the pages: a rating with its mark, a share, and how well the
ratings predicted the games, said as a player would say it."""

from __future__ import annotations

from ..match.ratings import Prediction
from ..match.standings import PairOdds, Row

PROVISIONAL_MARK = "?"
"""After a provisional rating (RD 110 or more), as Lichess marks it."""
PROVISIONAL_WORDS = "? provisional: too few games yet to be sure (RD 110 or more)"
ROOM_WORDS = "The ± is the room for doubt: about 95% sure a player's true strength is within it."
"""The legend of a page: the same as `Rating ± 2 RD` in a player's words."""


def rating_text(row: Row) -> str:
    """`1612 ± 142`, with `?` after a provisional rating: `1500? ± 700`."""
    mark = PROVISIONAL_MARK if row.rating.provisional else ""
    return f"{row.rating.rating:.0f}{mark} ± {2 * row.rating.rd:.0f}"


def percent(share: float) -> str:
    return f"{share:.0%}"


def margin_text(value: float) -> str:
    """A signed average, one decimal: `+12.5`, `-3.0`, `0.0`."""
    return f"{value:+.1f}" if round(value, 1) != 0 else "0.0"


def prediction_text(prediction: Prediction, scores: bool = True) -> str:
    """`The ratings called 61% of 40 games right, ...; a coin flip calls 50%.`, then (with `scores`) the log-loss
    and Brier score beside a coin's."""
    if not prediction.games or prediction.called is None or prediction.log_loss is None or prediction.brier is None:
        return "No games yet to test the ratings on."
    games = f"{prediction.games} game{'' if prediction.games == 1 else 's'}"
    called = f"The ratings called {percent(prediction.called)} of {games} right, each from the ratings of the day before; a coin flip calls 50%."
    if not scores:
        return called
    return f"{called} Log-loss {prediction.log_loss:.3f} (a coin: 0.693), Brier {prediction.brier:.3f} (a coin: 0.250); lower is better."


def odds_text(odds: PairOdds) -> list[str]:
    """Two lines: the head-to-head share with its interval, and what the ratings expect."""
    a, b = odds.players
    record = odds.head_to_head
    low, high = record.interval
    games = record.wins + record.losses
    if games:
        first = (
            f"{a} won {record.wins} of {games} game{'' if games == 1 else 's'} against {b} "
            f"({percent(record.share or 0)}; 95% sure it is between {percent(low)} and {percent(high)})."
        )
    else:
        first = f"{a} and {b} have not played each other yet."
    second = f"By the ratings, {a} wins {percent(odds.expected)} of their games against {b}."
    return [first, second]

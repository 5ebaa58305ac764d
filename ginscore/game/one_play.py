"""The one play `advise --match` ends in: the hand's own advice (the most points) where the game's chance agrees
with it or is even with it within their error, else the game's best play; and that play in one sentence, saying
which it follows and why, once."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .advise_game import GameAdvice, GameChoice
from .cards import Card
from .estimate import gap_interval


@dataclass(frozen=True)
class FinalAdvice:
    """The one play `advise --match` ends in: the hand's own advice (the most points) or the game's best play, and
    why."""

    discard: Card
    knocks: bool
    """Knock now with `discard`, or discard it and play on."""
    follows: str
    """`both` when the points and the game's chance agree; `game` when the game's chance is ahead beyond its error
    and decides; `points` when the two chances are even within their error, so the points decide."""
    chance: float
    """The game's chance of the play chosen."""
    interval: tuple[float, float] | None
    other: GameChoice | None = None
    """Where the two differ: the choice of the play not taken."""
    other_knocks: bool = True
    """Whether the play not taken knocks (with `other.discard`) or plays on."""


def final_advice(game: GameAdvice) -> FinalAdvice | None:
    """The one play to make, from the game's best play and the hand's own advice (knock with `hand_best`): the game's
    where its chance is ahead of the hand's play beyond their error (the difference's 95% interval above 0, the
    luck the two share taken out, as a review judges a hand close), the hand's where it is not (even for the
    game, so the points decide); None when no discard may knock or the hand's advice is unknown."""
    best, hand_best = game.best, game.hand_best
    if best is None or hand_best is None:
        return None
    points = next((choice for choice in game.choices if choice.discard == hand_best), None)
    if points is None:
        return None
    game_chance, game_interval, game_values = ((best.knock_now, best.knock_interval, best.knock_values) if best.knocks
                                               else (best.play_on, best.play_on_interval, best.play_on_values))
    if best.discard == hand_best and best.knocks:
        return FinalAdvice(hand_best, True, "both", game_chance, game_interval)
    ahead = gap_interval((game_chance, game_interval, game_values),
                         (points.knock_now, points.knock_interval, points.knock_values))
    if game_chance <= points.knock_now or (ahead is not None and ahead[0] <= 0):
        return FinalAdvice(hand_best, True, "points", points.knock_now, points.knock_interval, best, best.knocks)
    return FinalAdvice(best.discard, best.knocks, "game", game_chance, game_interval, points, True)


def _chance_words(chance: float, interval: tuple[float, float] | None) -> str:
    return f"{chance:.0%}" + ("" if interval is None else f" ({interval[0]:.0%}–{interval[1]:.0%})")


def final_words(game: GameAdvice, face: Callable[[str], str] = str) -> str | None:
    """`final_advice` in one sentence, each card through `face`: the play, and which it follows and why, once."""
    final = final_advice(game)
    if final is None:
        return None
    card = face(str(final.discard))
    play = f"discard {card} and knock" if final.knocks else f"play on, discarding {card}"
    chosen = _chance_words(final.chance, final.interval)
    other = final.other
    if final.follows == "both" or other is None:
        return f"{play}: the most points, and the best chance to win the game, {chosen}."
    same = other.discard == final.discard
    if final.other_knocks:
        other_play = "knocking now" if same else f"knocking with {face(str(other.discard))}"
        other_chance = _chance_words(other.knock_now, other.knock_interval)
    else:
        other_play = "playing on" if same else f"playing on after {face(str(other.discard))}"
        other_chance = _chance_words(other.play_on, other.play_on_interval)
    if final.knocks:
        this_play = "knocking now" if same or not final.other_knocks else f"knocking with {card}"
    else:
        this_play = "playing on"
    if final.follows == "points":
        return (f"{play}, for the most points; for the game the two are even within their error: {this_play} wins it "
                f"{chosen}, {other_play} {other_chance}.")
    return (f"{play}, for the game rather than the points: {this_play} wins it {chosen}, {other_play} {other_chance}, "
            "beyond their error; the points a knock brings now matter less here.")

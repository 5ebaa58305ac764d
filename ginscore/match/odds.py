"""Each player's chance to win the game in play, from a sheet and a model of a hand's outcome.

The model's history is every hand of the table's matches played by the same rules (every knob equal), each seen
from the hand's dealer (`match.gives.history`). A Hollywood sheet has a chance for each game: the
first game still open takes every win, so its chance is exact for the model; a later game takes a player's wins
once they have an entry in the game before it, and is solved as if it took every win from now on: exact once
both players have an entry there, an approximation (`exact` False) until then.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..game.odds import chance_to_win
from ..game.outcomes import Outcomes
from ..game.rulebook import PRESETS, Rules
from .tally import Sheet


@dataclass(frozen=True)
class GameChance:
    """One game's state and each player's chance to win it."""

    number: int
    """The game's number: 1, or 1 to 3 on a Hollywood sheet."""
    scores: dict[str, int]
    """Each player's total in this game: what decides who reaches the target."""
    chance: dict[str, float]
    """Each player's chance to win the game (reach the target first); 1 and 0 once it is over."""
    finished: bool
    exact: bool
    """False for a later Hollywood game that a player's next win may not enter (they have no entry in the game
    before it yet), solved as if every win from now on entered it."""


def game_chances(sheet: Sheet, outcomes: Outcomes) -> tuple[GameChance, ...]:
    """The chance of each game on the sheet, the next dealer dealing next."""
    match = sheet.match
    first, second = match.players
    rules = match.rules
    dealer = 0 if sheet.next_dealer == first else 1
    chances = []
    first_open = True
    before = None
    for index, game in enumerate(sheet.games):
        # every win from now on enters the game: the first open one, or a later one where both have an entry before
        takes_all = first_open or (before is not None and all(before.entries[name] for name in match.players))
        before = game
        scores = {first: game.totals[first], second: game.totals[second]}
        if game.finished:
            p = 1.0 if game.reached == first else 0.0
            chances.append(GameChance(index + 1, scores, {first: p, second: 1.0 - p}, True, True))
            continue
        p = chance_to_win(outcomes, rules.target, rules.next_dealer, (scores[first], scores[second]), dealer)
        chances.append(GameChance(index + 1, scores, {first: p, second: 1.0 - p}, False, takes_all))
        first_open = False
    return tuple(chances)


def in_play(chances: tuple[GameChance, ...]) -> GameChance:
    """The game the sheet is playing now: the first still open, or the last once all are over."""
    return next((game for game in chances if not game.finished), chances[-1])


@dataclass(frozen=True)
class Model:
    """The outcome distribution a chance is solved from, and where it came from."""

    outcomes: Outcomes
    rules: Rules
    history_hands: int
    """The table's own hands in the model: those of the folder's matches with the same rules."""
    history_matches: int
    prior_hands: int
    """The built-in model's weight, in hands (0: the table's hands alone)."""
    baseline: str
    """The preset whose simulated play the built-in model is: standard, tournament or oklahoma."""
    baseline_hands: int
    """Simulated hands behind the built-in model."""
    exact_play: bool
    """Whether the built-in hands were played exactly as these rules play (knock limit, up-card, big gin)."""

    @property
    def source(self) -> str:
        """Where the model came from, in a sentence's words, saying what was counted: `the built-in model for
        standard rules, and 214 hands of 3 matches in this folder with these rules`."""
        parts = []
        if self.prior_hands:
            scored = "" if PRESETS[self.baseline] == self.rules else ", scored under these rules"
            played = "" if self.exact_play else " (its hands played by other knock rules)"
            parts.append(f"the built-in model for {self.baseline} rules{scored}{played}")
        if self.history_hands or not self.prior_hands:
            hands = f"{self.history_hands} hand{'s' if self.history_hands != 1 else ''}"
            matches = f"{self.history_matches} match{'es' if self.history_matches != 1 else ''}"
            parts.append(f"{hands} of {matches} in this folder with these rules")
        return ", and ".join(parts)

    def as_dict(self) -> dict[str, Any]:
        """The `model` object of `odds --json`."""
        return {
            "history_hands": self.history_hands,
            "history_matches": self.history_matches,
            "prior_hands": self.prior_hands,
            "baseline": self.baseline,
            "baseline_hands": self.baseline_hands,
            "exact_play": self.exact_play,
            "source": self.source,
            "rules": self.rules.to_dict(),
        }


@dataclass(frozen=True)
class MatchOdds:
    """A match's chances: each game's, the game in play's, and the model they were solved from."""

    sheet: Sheet
    games: tuple[GameChance, ...]
    model: Model

    @property
    def now(self) -> GameChance:
        """The game in play: the first still open, or the last once all are over."""
        return in_play(self.games)

    def as_dict(self) -> dict[str, Any]:
        """The `odds --json` object: the game in play's `chance`, `scores`, and every game on a Hollywood sheet."""
        match, now = self.sheet.match, self.now
        data: dict[str, Any] = {
            "players": list(match.players),
            "chance": now.chance,
            "scores": now.scores,
            "game": now.number,
            "finished": now.finished,
            "next_dealer": None if self.sheet.finished else self.sheet.next_dealer,
            "target": match.rules.target,
            "model": self.model.as_dict(),
        }
        if match.hollywood:
            data["games"] = [
                {"game": g.number, "scores": g.scores, "chance": g.chance, "finished": g.finished, "exact": g.exact}
                for g in self.games
            ]
        return data

"""The model a match's chances are solved from: the built-in simulated hands, and the table's own hands.

The built-in hands ship with the package (`game/data/outcomes.json`, made by `benchmarks/make_outcomes.py`) and
are read once, when first asked for. The table's hands are those of the match files in a folder (by default the
match file's own; its subfolders are not searched) played by the same rules, every knob equal. The distribution used is
`(history counts + prior x baseline) / (history hands + prior)`: the built-in model counts as `prior` hands.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from importlib import resources
from typing import TYPE_CHECKING, Any

from ..errors import GinscoreError, InputError, RefusedError
from ..game.baseline import Knock, play_of, rescored, same_play
from ..game.outcomes import Outcomes, blend
from ..game.rulebook import PRESETS, Rules
from ..match.odds import GameChance, game_chances, history, in_play
from ..match.tally import Sheet
from .history import folder_of, folder_sheets

if TYPE_CHECKING:
    from ..game.advise_game import GameState

DEFAULT_PRIOR = 200
"""The built-in model's weight, in hands: a table's own hands count for more as they pass it."""
MAX_PRIOR = 1_000_000


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


@functools.lru_cache(maxsize=1)
def _data() -> dict[str, Any]:
    text = resources.files("ginscore.game").joinpath("data/outcomes.json").read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


@functools.lru_cache(maxsize=4)
def knocks(preset: str) -> dict[Knock, int]:
    """The built-in simulated hands of a preset's play, counted by what decided them."""
    rows = _data()["presets"][preset]["knocks"]
    return {Knock(k, kd, od, big, spade): n for k, kd, od, big, spade, n in rows}


def data_about() -> dict[str, Any]:
    """The built-in model's seed, policies and hands a preset, as the data file says them."""
    data = _data()
    return {
        "seed": data["seed"],
        "policies": data["policies"],
        "policy_choice": data["policy_choice"],
        "hands": {name: preset["hands"] for name, preset in data["presets"].items()},
    }


@functools.lru_cache(maxsize=8)
def baseline(rules: Rules) -> Outcomes:
    """The built-in model under these rules: the simulated hands of their play, scored by their bonuses."""
    return rescored(knocks(play_of(rules)), rules).shares()


def model_from(rules: Rules, sheets: list[Sheet], prior: int) -> Model:
    """The model from the sheets' hands (those with these rules) and the built-in one weighed as `prior` hands."""
    if not 0 <= prior <= MAX_PRIOR:
        raise InputError(f"the prior must be from 0 to {MAX_PRIOR} hands, not {prior}", field="prior")
    counts, matches = history(sheets, rules)
    if prior == 0 and not counts.hands:
        raise RefusedError(
            "with a prior of 0 the chance comes from this table's hands alone, and no match there has these rules "
            "and a hand: give a prior, e.g. 200, or a folder of matches played by these rules",
            field="prior",
        )
    preset = play_of(rules)
    base = baseline(rules) if prior else Outcomes(0.0, (), ())
    outcomes = blend(counts, base, prior)
    simulated = sum(knocks(preset).values()) if prior else 0
    return Model(outcomes, rules, counts.hands, matches, prior, preset, simulated, same_play(rules))


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


def sheet_odds(sheet: Sheet, sheets: list[Sheet], prior: int = DEFAULT_PRIOR) -> MatchOdds:
    """The sheet's chances, the model made from `sheets` (the table's history) and the built-in hands."""
    from ..game.odds import MAX_SPAN, MAX_TARGET, solvable

    target = sheet.match.rules.target
    for game in sheet.games:
        if not game.finished and not solvable(target, tuple(game.totals.values())):  # type: ignore[arg-type]
            raise RefusedError(
                f"the chance is solved for targets up to {MAX_TARGET}, at most {MAX_SPAN} points from the lower score, "
                f"and this game is to {target}",
                field="target",
            )
    model = model_from(sheet.match.rules, sheets, prior)
    return MatchOdds(sheet, game_chances(sheet, model.outcomes), model)


def match_odds(path: str, folder: str | None = None, prior: int = DEFAULT_PRIOR) -> MatchOdds:
    """The chances of the match in a file, the table's history read from `folder` (by default the file's own)."""
    import os

    from .reading import load

    _, sheet = load(path)
    history_folder = folder if folder is not None else (os.path.dirname(path) or ".")
    if not os.path.isdir(history_folder):
        raise InputError(f"{history_folder!r} is not a folder: give the folder of this table's match files", field="history")
    return sheet_odds(sheet, folder_sheets(history_folder), prior)


def file_odds(path: str, sheet: Sheet, prior: int = DEFAULT_PRIOR, sheets: list[Sheet] | None = None) -> MatchOdds | None:
    """The chances of a match file already read as `sheet`, learning from the match files of its folder (`sheets`,
    when they are read already); None where they are not solved (a target too far off), for views that show them
    beside the sheet."""
    from ..game.odds import solvable

    target = sheet.match.rules.target
    if any(not game.finished and not solvable(target, tuple(game.totals.values())) for game in sheet.games):  # type: ignore[arg-type]
        return None
    return sheet_odds(sheet, folder_sheets(folder_of(path)) if sheets is None else sheets, prior)


def show_dict(path: str, sheet: Sheet) -> dict[str, Any]:
    """The `show --json` object of a match file: the sheet, under `odds` its chances as `odds --json`, and under
    `series` the players' series over the folder's matches."""
    from ..match.series import series_as_of
    from ..match.tally import sheet_dict

    sheets = folder_sheets(folder_of(path))
    data = sheet_dict(sheet)
    odds = file_odds(path, sheet, sheets=sheets)
    data["odds"] = None if odds is None else odds.as_dict()
    data["series"] = series_as_of(sheet, sheets).as_json()
    return data


def advice_state(path: str, player: str, prior: int = DEFAULT_PRIOR) -> tuple[Rules, GameState, Model]:
    """What `advise --match` weighs: the match's rules, the game in play from `player`'s side (the scores, whether
    they dealt this hand), and the model of the file's folder."""
    from ..game.advise_game import GameState

    found = match_odds(path, None, prior)
    sheet = found.sheet
    if sheet.finished:
        raise RefusedError("the match is over: there is no game left to play for", field="match")
    try:
        me = sheet.match.player(player)
    except GinscoreError as error:
        raise error.about("player") from None
    other = sheet.match.other(me)
    now = found.now
    rules = sheet.match.rules
    state = GameState(now.scores[me], now.scores[other], sheet.next_dealer == me, rules.target, rules.next_dealer)
    return rules, state, found.model

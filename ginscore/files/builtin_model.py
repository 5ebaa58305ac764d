"""The built-in model of a hand's outcome, as the package ships it, and the model a chance is solved from.

The simulated hands ship in `game/data/outcomes.json` (made by `benchmarks/make_outcomes.py`), counted by what
decided them, so that they can be scored under any rules. Scoring 20,000 hands is most of what a chance costs a
command that starts afresh, so each preset's hands also ship already scored under the preset's own rules
(`game/data/scored.json`, made from the same file): a table playing a preset reads only that small file; other
rules score the hands once per process.

The chance's own modules (the outcomes, the match's odds) are imported where a model is made: a table that only
shows a finished match, whose sheet prints no chance, never loads them.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from ..errors import InputError, RefusedError
from ..game.rulebook import PRESETS, Rules, play_of, same_play

if TYPE_CHECKING:
    from ..game.baseline import Knock
    from ..game.outcomes import OutcomeCounts, Outcomes
    from ..match.gives import TableGives
    from ..match.odds import Model

DEFAULT_PRIOR = 200
"""The built-in model's weight, in hands: a table's own hands count for more as they pass it."""
MAX_PRIOR = 1_000_000


def _read(name: str) -> dict[str, Any]:
    import json

    from .. import (
        game,  # the data lies beside the game's modules, in every install (importlib.resources costs a start-up more)
    )

    with open(os.path.join(os.path.dirname(game.__file__), "data", name), encoding="utf-8") as handle:
        data: dict[str, Any] = json.load(handle)
    return data


@functools.lru_cache(maxsize=1)
def _data() -> dict[str, Any]:
    return _read("outcomes.json")


@functools.lru_cache(maxsize=1)
def _scored() -> dict[str, Any]:
    return _read("scored.json")


@functools.lru_cache(maxsize=4)
def knocks(preset: str) -> dict[Knock, int]:
    """The built-in simulated hands of a preset's play, counted by what decided them."""
    from ..game.baseline import Knock  # the simulated hands themselves: only for rules no preset has

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


def scored_counts(preset: str) -> OutcomeCounts:
    """A preset's simulated hands as shipped, scored under the preset's own rules."""
    from ..game.outcomes import OutcomeCounts

    row = _scored()["presets"][preset]
    return OutcomeCounts(row["dead"], tuple(map(tuple, row["dealer"])), tuple(map(tuple, row["non_dealer"])))


def scored_data(presets: Iterable[str]) -> dict[str, Any]:
    """What `game/data/scored.json` holds: each preset's simulated hands scored under its own rules."""
    from ..game.baseline import rescored

    rows = {}
    for preset in presets:
        counts = rescored(knocks(preset), PRESETS[preset])
        rows[preset] = {"dead": counts.dead, "dealer": counts.dealer, "non_dealer": counts.non_dealer}
    return {"about": "outcomes.json's hands of each preset scored under its rules; made by benchmarks/make_outcomes.py",
            "presets": rows}


@functools.lru_cache(maxsize=8)
def baseline(rules: Rules) -> Outcomes:
    """The built-in model under these rules: the simulated hands of their play, scored by their bonuses."""
    preset = play_of(rules)
    if rules == PRESETS[preset]:
        return scored_counts(preset).shares()
    from ..game.baseline import rescored

    return rescored(knocks(preset), rules).shares()


def model_from(rules: Rules, table: TableGives, prior: int) -> Model:
    """The model from the hands of the table's matches played by these rules and the built-in one weighed as
    `prior` hands."""
    from ..game.outcomes import Outcomes, blend
    from ..match.odds import Model

    if not 0 <= prior <= MAX_PRIOR:
        raise InputError(f"the prior must be from 0 to {MAX_PRIOR} hands, not {prior}", field="prior")
    counts, matches = table.history(rules)
    if prior == 0 and not counts.hands:
        raise RefusedError(
            "with a prior of 0 the chance comes from this table's hands alone, and no match there has these rules "
            "and a hand: give a prior, e.g. 200, or a folder of matches played by these rules",
            field="prior",
        )
    preset = play_of(rules)
    base = baseline(rules) if prior else Outcomes(0.0, (), ())
    outcomes = blend(counts, base, prior)
    simulated = scored_counts(preset).hands if prior else 0
    return Model(outcomes, rules, counts.hands, matches, prior, preset, simulated, same_play(rules))

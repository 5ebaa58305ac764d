"""`advise --json`: the advice as one JSON object, unrounded; with `--match`, its `game` object too."""

from __future__ import annotations

from .advise import Advice, Option, Outs, recommendation
from .advise_game import GameAdvice
from .one_play import final_advice, final_words


def _outs_dict(outs: Outs) -> dict:
    return {"knock": [str(c) for c in outs.knock], "gin": [str(c) for c in outs.gin]}


def _option_dict(option: Option) -> dict:
    knock = option.knock
    errors = knock.errors if knock else None
    intervals = knock.intervals if knock else None
    return {
        "discard": str(option.discard),
        "deadwood": option.deadwood,
        "can_knock": option.can_knock,
        "gin": option.gin,
        "spread": knock.spread.card_lists() if knock else None,
        "win": knock.win if knock else None,
        "undercut": knock.undercut if knock else None,
        "tie": knock.tie if knock else None,
        "expected_points": knock.expected_points if knock else None,
        "standard_error": None if errors is None else {
            "win": errors.win, "undercut": errors.undercut, "tie": errors.tie, "expected_points": errors.expected_points
        },
        "interval": None if intervals is None else {
            "win": list(intervals.win), "undercut": list(intervals.undercut), "tie": list(intervals.tie),
            "expected_points": list(intervals.expected_points),
        },
        "outs": _outs_dict(option.outs),
    }


def advice_dict(advice: Advice) -> dict:
    """The `advise --json` object."""
    data: dict = {
        "cards": [str(card) for card in advice.cards],
        "knock_limit": advice.knock_limit,
        "unseen": advice.unseen,
        "model": advice.model if advice.samples else None,  # no opponent hand was needed: no model ran
        "samples": advice.samples,
        "exact": advice.exact if advice.samples else None,
        "seed": advice.seed,
        "opponent_turns": advice.turns,
        "stock": advice.stock,
        "stock_assumed": advice.stock_assumed,
    }
    if advice.outs is not None:
        data["deadwood"] = advice.deadwood
        data["outs"] = _outs_dict(advice.outs)
        return data
    data["options"] = [_option_dict(option) for option in advice.options]
    play = recommendation(advice)
    data["play"] = play.kind if play else None
    knocking = play is not None and play.option is not None and play.kind != "keep"
    data["recommended"] = str(play.option.discard) if knocking and play and play.option else None
    data["big_gin"] = advice.big_gin
    data["big_gin_points"] = advice.big_gin_value.expected_points if advice.big_gin_value else None
    return data


def game_dict(game: GameAdvice) -> dict:
    """`advise --match --json`'s `game` object: the state, and for each discard that may knock its chances, with the
    outcomes weighed for knocking now (who scores, the points, the share of worlds, the chance they leave)."""
    state = game.state
    return {
        "scores": {"you": state.mine, "opponent": state.theirs},
        "you_dealt": state.dealing,
        "target": state.target,
        "next_dealer": state.next_dealer,
        "chance_now": game.now,
        "options": [
            {
                "discard": str(choice.discard),
                "knock_now": choice.knock_now,
                "knock_now_interval": list(choice.knock_interval) if choice.knock_interval else None,
                "play_on": choice.play_on,
                "play_on_interval": list(choice.play_on_interval) if choice.play_on_interval else None,
                "rollouts": choice.rollouts,
                "play_on_careless": choice.play_on_careless,
                "play_on_careless_interval": (
                    list(choice.play_on_careless_interval) if choice.play_on_careless_interval else None
                ),
                "best": "knock" if choice.knocks else "play_on",
                "outcomes": [
                    {"winner": o.winner, "points": o.points, "share": o.share, "chance": o.chance}
                    for o in choice.outcomes
                ],
            }
            for choice in game.choices
        ],
        "best": None if game.best is None else {
            "discard": str(game.best.discard), "play": "knock" if game.best.knocks else "play_on"
        },
        "differs": game.differs,
        "final": _final_dict(game),
    }


def _final_dict(game: GameAdvice) -> dict | None:
    """`game.final`: the one play `advise --match` ends in, which it follows (`both`, `game` or `points`), and why."""
    final = final_advice(game)
    if final is None:
        return None
    return {"discard": str(final.discard), "play": "knock" if final.knocks else "play_on", "follows": final.follows,
            "words": final_words(game)}

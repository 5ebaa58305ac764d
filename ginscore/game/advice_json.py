"""`advise --json`: the advice as one JSON object, unrounded."""

from __future__ import annotations

from .advise import Advice, Option, Outs, recommendation


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

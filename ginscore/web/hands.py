"""One hand judged without a match file: `check` and `advise`, as their `--json` commands answer.

Both take `cards` (a text or a list of card texts) and the rule fields `rules`, `set`, `knock_limit` and
`upcard`, read as the CLI's judging commands read them; `advise` takes its own options besides.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from ..errors import InputError
from .fields import number_field, refuse_unknown, settings_field, text_field

JUDGE_FIELDS = ("cards", "rules", "set", "upcard", "knock_limit")
ADVISE_FIELDS = (*JUDGE_FIELDS, "seen", "opponent_took", "stock", "model", "samples", "seed")
MOST_SAMPLES = 20_000
"""The most opponent hands one `advise` request may draw: ten times the default, so that one phone cannot
keep the server busy for minutes."""


def _judged(fields: Mapping[str, Any]) -> tuple[Any, Any]:
    """The rules and up-card from `rules`, `set`, `knock_limit` and `upcard`, as the CLI's judging commands read them."""
    from ..game.rulebook import judged_rules

    return judged_rules(
        text_field("rules", fields.get("rules")) or "standard",
        settings_field(fields.get("set")),
        number_field("knock_limit", fields.get("knock_limit")),
        text_field("upcard", fields.get("upcard")),
    )


def _cards_text(value: Any, name: str = "cards") -> str:
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        value = " ".join(value)
    text = text_field(name, value)
    if text is None:
        raise InputError(f"{name}: give the cards, e.g. 3h 4h 5h KS KC KD 7c 8c 9c 2d")
    return text


def check(fields: Mapping[str, Any]) -> dict[str, Any]:
    """`ginscore check --json` for one hand: `cards` (text or a list) and the rule fields."""
    from ..game.check import check_hand, json_line

    refuse_unknown(fields, JUDGE_FIELDS, "check")
    rules, card = _judged(fields)
    answer = check_hand(_cards_text(fields.get("cards")))
    result: dict[str, Any] = json.loads(json_line(answer, rules.knock_limit_for(card)))
    return result


def advise(fields: Mapping[str, Any]) -> dict[str, Any]:
    """`ginscore advise --json`: `cards` and advise's options (`seen`, `opponent_took`, `stock`, `model`,
    `samples` up to `MOST_SAMPLES`, `seed`) with the rule fields."""
    import random

    from ..game.advice_json import advice_dict
    from ..game.advise import advise as advise_on
    from ..game.cards import parse_cards

    refuse_unknown(fields, ADVISE_FIELDS, "advise")
    rules, card = _judged(fields)
    hand = parse_cards(_cards_text(fields.get("cards")))
    seen = text_field("seen", fields.get("seen"))
    took = text_field("opponent_took", fields.get("opponent_took"))
    samples = number_field("samples", fields.get("samples"))
    if samples is not None and samples > MOST_SAMPLES:
        raise InputError(f"samples: {samples} is more than the server draws for one answer (at most {MOST_SAMPLES})")
    seed = number_field("seed", fields.get("seed"))
    advice = advise_on(
        hand,
        rules,
        seed=random.SystemRandom().randrange(1_000_000) if seed is None else seed,
        seen=parse_cards(seen) if seen else (),
        opponent_took=parse_cards(took) if took else (),
        stock=number_field("stock", fields.get("stock")),
        upcard=card,
        model=text_field("model", fields.get("model")) or "improved",
        samples=2000 if samples is None else samples,
    )
    result: dict[str, Any] = advice_dict(advice)
    return result


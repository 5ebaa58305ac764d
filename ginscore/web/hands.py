"""One hand judged without a match file: `check` and `advise`, answered as their `--json` commands answer.

The pages call `check` and `advise` with the rules object (a match's own, or a preset's); the API reads its
fields into the same rules first (`judged`), as the CLI's judging commands read their options.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ..errors import GinscoreError, InputError
from .fields import LongNumber, cards_field, list_field, number_field, refuse_unknown, text_field

if TYPE_CHECKING:
    from ..files.table import Table
    from ..game.advise_game import GameAdvice
    from ..game.cards import Card
    from ..game.rulebook import Rules
    from ..match.tally import Sheet

JUDGE_FIELDS = ("cards", "rules", "set", "upcard", "knock_limit")
ADVISE_FIELDS = (*JUDGE_FIELDS, "seen", "opponent_took", "stock", "model", "samples", "seed")
MOST_SAMPLES = 20_000
"""The most opponent hands one `advise` request may draw: ten times the default, so that one phone cannot
keep the server busy for minutes."""


def hand_seed(cards: list[str], upcard: Card | None) -> int:
    """The seed the pages draw a hand's opponent hands with: made from the cards (in any order) and the up-card,
    so that the live answer, Check and a reload give the same figures for the same hand."""
    from ..game import advise
    from ..game.cards import parse_cards

    try:
        faces = [str(card) for card in parse_cards(" ".join(cards))]
    except GinscoreError:
        faces = cards
    return advise.hand_seed(faces, upcard)


def judged(fields: Mapping[str, Any]) -> tuple[Rules, Card | None]:
    """The rules and up-card from `rules`, `set`, `knock_limit` and `upcard`, as the CLI's judging commands read them."""
    from ..game.rulebook import judged_rules

    settings = fields.get("set")
    if isinstance(settings, dict):
        settings = [f"{knob}={_knob_text(value)}" for knob, value in settings.items()]
    return judged_rules(
        text_field("rules", fields.get("rules")) or "standard",
        list_field("set", settings),
        number_field("knock_limit", fields.get("knock_limit"), signed=True),
        text_field("upcard", fields.get("upcard")),
    )


def _knob_text(value: Any) -> str:
    """A knob's JSON value as `--set` takes it, so that a knob given twice is told apart from the others."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | str):
        return str(value)
    if isinstance(value, LongNumber):
        return value.digits
    raise InputError("a knob's value is a number, true or false, or a word", field="set")


def _cards(value: Any) -> str:
    text = cards_field("cards", value)
    if text is None:
        raise InputError("give the cards, e.g. 3h 4h 5h KS KC KD 7c 8c 9c 2d", field="cards")
    return text


def check(cards: Any, rules: Rules, upcard: Card | None) -> dict[str, Any]:
    """`ginscore check --json` for one hand (a text, or a list of card texts) under these rules."""
    from ..game.cards import parse_cards, require_count
    from ..game.melds import check_dict, solve

    try:
        hand = parse_cards(_cards(cards))
        require_count(hand, (10, 11), "a hand to check")
    except GinscoreError as error:
        raise error.about("cards") from None
    result: dict[str, Any] = check_dict(solve(hand), rules.knock_limit_for(upcard))
    return result


def check_fields(fields: Mapping[str, Any]) -> dict[str, Any]:
    """`check` for the API's fields: `cards` and the rule fields."""
    refuse_unknown(fields, JUDGE_FIELDS, "check")
    rules, card = judged(fields)
    return check(fields.get("cards"), rules, card)


def advise(cards: Any, rules: Rules, upcard: Card | None, fields: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """`ginscore advise --json` for one hand under these rules, with advise's own fields (`seen`, `opponent_took`,
    `stock`, `model`, `samples` up to `MOST_SAMPLES`, `seed`); what is not given is advise's default."""
    from ..game.advice_json import advice_dict
    from ..game.advise import advise as advise_on
    from ..game.cards import parse_cards

    fields = fields or {}
    options: dict[str, Any] = {}
    for name in ("seen", "opponent_took"):
        text = text_field(name, fields.get(name))
        if text:
            try:
                options[name] = parse_cards(text)
            except GinscoreError as error:
                raise error.about(name) from None
    for name in ("stock", "samples", "seed"):
        number = number_field(name, fields.get(name), signed=True)
        if number is not None:
            options[name] = number
    if options.get("samples", 0) > MOST_SAMPLES:
        raise InputError(f"{options['samples']} is more than the server draws for one answer (at most {MOST_SAMPLES})", field="samples")
    model = text_field("model", fields.get("model"))
    if model is not None:
        options["model"] = model
    try:
        hand = parse_cards(_cards(cards))
    except GinscoreError as error:
        raise error.about("cards") from None
    result: dict[str, Any] = advice_dict(advise_on(hand, rules, upcard=upcard, **options))
    return result


def advise_fields(fields: Mapping[str, Any]) -> dict[str, Any]:
    """`advise` for the API's fields: `cards`, advise's options and the rule fields."""
    refuse_unknown(fields, ADVISE_FIELDS, "advise")
    rules, card = judged(fields)
    return advise(fields.get("cards"), rules, card, fields)


def advise_for_game(
    cards: list[str], upcard: Card | None, table: Table, sheet: Sheet, player: str, seed: int | None
) -> tuple[dict[str, Any], GameAdvice]:
    """`advise --match FILE --player PLAYER` at its defaults, for the match `sheet` of `table`: the hand's advice as
    `--json` gives it, and the game's side (`weigh_game`), from the same sampled worlds; `seed` makes it
    repeatable, as `--seed` does."""
    from ..game.advice_json import advice_dict
    from ..game.advise import advise as advise_on
    from ..game.advise_game import weigh_game
    from ..game.cards import parse_cards

    rules, state, model = table.advice_state(sheet, player)
    try:
        hand = parse_cards(_cards(cards))
    except GinscoreError as error:
        raise error.about("cards") from None
    advice = advise_on(hand, rules, seed=seed, upcard=upcard, keep_worlds=True)
    return advice_dict(advice), weigh_game(advice, rules, model.outcomes, state)

"""`ginscore advise`: which card to discard, whether to knock now, and what it is worth."""

from __future__ import annotations

import typer

from ..game.cards import parse_cards
from .command import command, print_json
from .options import JSON, KNOCK_LIMIT, RULES, SETTINGS, UPCARD, judged_rules


@command(short_help="Should I knock, and with which discard?")
def advise(
    cards: list[str] = typer.Argument(..., help="Your 11 cards after the draw, or 10 before it."),
    seen: str | None = typer.Option(
        None, "--seen", metavar="CARDS", help="Cards in neither the opponent's hand nor the stock: the discard pile."
    ),
    opponent_took: str | None = typer.Option(
        None, "--opponent-took", metavar="CARDS", help="Cards the opponent picked up and still holds."
    ),
    stock: int | None = typer.Option(None, "--stock", help="Cards left in the stock (31 after the deal); default: mid-hand."),
    rules_name: str = RULES,
    settings: list[str] = SETTINGS,
    upcard: str | None = UPCARD,
    knock_limit: int | None = KNOCK_LIMIT,
    model: str = typer.Option(
        "improved", "--model", metavar="MODEL", help="The opponent: 'deal' (dealt at random) or 'improved' (has drawn since)."
    ),
    samples: int = typer.Option(2000, "--samples", help="Opponent hands to draw (all of them, once each, when fewer exist)."),
    seed: int | None = typer.Option(None, "--seed", help="Makes the run repeatable; the seed used is printed with the model, and in --json."),
    wide: bool = typer.Option(False, "--wide", help="Add each knock's melds, and the range of each figure, to the table."),
    as_json: bool = JSON,
) -> None:
    """Should I knock, and with which discard and spread? Estimates each option against the opponent's likely hands.

    The headline gives the play and its whole spread; the table compares every discard.

    \b
    Examples:
      ginscore advise 3h 4h 5h Ks Kc Kd 7c 8c 9c 2d Qs --seen "Jd 6s" --stock 20
      ginscore advise 3h 4h 5h Ks Kc Kd 7c 8c 9c 2d Qs --wide
    """
    from ..game.advise import Advice, ProgressCallback
    from ..game.advise import advise as advise_on

    rules, up = judged_rules(rules_name, settings, knock_limit, upcard)
    hand = parse_cards(cards)
    known = parse_cards(seen) if seen else ()
    took = parse_cards(opponent_took) if opponent_took else ()

    def run(progress: ProgressCallback | None = None) -> Advice:
        return advise_on(
            hand, rules, seed=seed, seen=known, opponent_took=took, stock=stock, upcard=up,
            model=model, samples=samples, progress=progress,
        )

    if as_json:
        from ..game.advice_json import advice_dict

        print_json(advice_dict(run()))
        return
    from ..render import console
    from ..render.advise import advice_report, progress_bar

    out = console()
    with progress_bar(out) as progress:
        advice = run(progress)
    advice_report(advice, out, wide)

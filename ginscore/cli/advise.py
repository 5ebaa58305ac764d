"""`ginscore advise`: which card to discard, whether to knock now, and what it is worth."""

from __future__ import annotations

from typing import Any

import typer

from ..errors import InputError
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
    match_file: str | None = typer.Option(
        None, "--match", metavar="FILE", help="Weigh the game: the chance to win it if you knock now or play on, by this match's score and rules."
    ),
    player: str | None = typer.Option(None, "--player", metavar="NAME", help="With --match: who you are in it."),
    rollouts: int = typer.Option(100, "--rollouts", help="With --match: sampled hands played on to their end for each discard that may knock."),
    as_json: bool = JSON,
) -> None:
    """Should I knock, and with which discard and spread? Estimates each option against the opponent's likely hands.

    The headline gives the play and its whole spread; the table compares every discard.

    \b
    Examples:
      ginscore advise 3h 4h 5h Ks Kc Kd 7c 8c 9c 2d Qs --seen "Jd 6s" --stock 20
      ginscore advise 3h 4h 5h Ks Kc Kd 7c 8c 9c 2d Qs --wide
      ginscore advise 3h 4h 5h Ks Kc Kd 7c 8c 9c 2d Qs \\
          --match friday.toml --player Ann
    """
    from ..game.advise import Advice, ProgressCallback
    from ..game.advise import advise as advise_on

    game_state, game_model = None, None
    if match_file is not None:
        from ..files.table import advice_state
        from ..game.cards import parse_card

        if player is None:
            raise InputError("say who you are in the match, e.g. --player Ann", field="player")
        rules, game_state, game_model = advice_state(match_file, player)
        up = None if upcard is None else parse_card(upcard)
    else:
        if player is not None:
            raise InputError("--player names you in a match: give the match with --match FILE", field="player")
        rules, up = judged_rules(rules_name, settings, knock_limit, upcard)
    hand = parse_cards(cards)
    known = parse_cards(seen) if seen else ()
    took = parse_cards(opponent_took) if opponent_took else ()

    def run(progress: ProgressCallback | None = None) -> Advice:
        return advise_on(
            hand, rules, seed=seed, seen=known, opponent_took=took, stock=stock, upcard=up,
            model=model, samples=samples, progress=progress, keep_worlds=game_state is not None,
        )

    def weighed(advice: Advice) -> Any:
        from ..game.advise_game import weigh_game

        if game_state is None or game_model is None:
            return None
        return weigh_game(advice, rules, game_model.outcomes, game_state, rollouts)

    if as_json:
        from ..game.advice_json import advice_dict

        advice = run()
        data = advice_dict(advice)
        game = weighed(advice)
        if game is not None:
            from ..game.advice_json import game_dict

            data["game"] = game_dict(game)
        print_json(data)
        return
    from ..render.advise import advice_report, progress_bar
    from ..render.console import console

    out = console()
    with progress_bar(out) as progress:
        advice = run(progress)
    advice_report(advice, out, wide, "advice" if game_state is None else "for points")
    game = weighed(advice)
    if game is not None:
        from ..render.advise_game import game_report

        game_report(game, out)

"""Where playing for the game changes the advice: one hand, at many scores, knocking now against playing on.

    .venv/bin/python benchmarks/game_advice_states.py [--samples 400] [--rollouts 100] [--seed 1]

The hand is advise's example (3h 4h 5h Ks Kc Kd 7c 8c 9c 2d Qs: discard Qs to knock with 2, or 2d with 10),
standard rules to 100, you dealing, the built-in model. For each pair of scores it prints, for each discard that
may knock, the chance to win the game by knocking now and by playing on, and the play that wins it more often.
"""

from __future__ import annotations

import argparse

from ginscore.files.builtin_model import baseline
from ginscore.game.advise import advise
from ginscore.game.advise_game import GameChoice, GameState, weigh_game
from ginscore.game.cards import parse_cards
from ginscore.game.rulebook import PRESETS

CARDS = "3h 4h 5h Ks Kc Kd 7c 8c 9c 2d Qs"
SCORES = (0, 50, 75, 90)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--samples", type=int, default=400)
    parser.add_argument("--rollouts", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rules = PRESETS["standard"]
    model = baseline(rules)
    advice = advise(parse_cards(CARDS), rules, seed=args.seed, samples=args.samples, keep_worlds=True)
    print(f"{CARDS}; {args.samples} worlds, {args.rollouts} played on; you deal")
    print("knock now / play on against a careful opponent (± its 95% half-width) / against a careless one")
    print("you  them  " + "  ".join(f"discard {str(o.discard):<28}" for o in advice.options if o.knock))
    for mine in SCORES:
        for theirs in SCORES:
            game = weigh_game(advice, rules, model, GameState(mine, theirs, True, 100, "winner"), args.rollouts)
            cells = [_cell(c) for c in game.choices]
            print(f"{mine:>3}  {theirs:>4}  " + "  ".join(cells))


def _cell(choice: GameChoice) -> str:
    low, high = choice.play_on_interval or (choice.play_on, choice.play_on)
    play = "knock" if choice.knocks else "play on"
    return f"{choice.knock_now:>4.0%} / {choice.play_on:>4.0%} ±{(high - low) / 2:.0%} / {choice.play_on_careless:>4.0%} {play:<8}"


if __name__ == "__main__":
    main()

"""Calibration of the chance to win a game: whole games played by the hand simulator, the chance predicted by the
built-in model at the start of each hand, grouped in tenths, against how often that player won.

    .venv/bin/python benchmarks/calibrate_odds.py [--games 10000] [--seed 2030] [--svg docs/odds-calibration.svg]

Games are standard rules to 100, the winner dealing next, the simulator's hands (its two policies drawn at random
for each player and hand, as in the built-in model) from a seed of their own, never the model's. Before each
hand the first player's chance is solved from the scores and the dealer; the game's winner is who reached 100.
Prints each tenth: predictions, their mean, the observed share of wins, the difference; writes the plot as SVG.
"""

from __future__ import annotations

import argparse
import random
from multiprocessing import Pool
from pathlib import Path

from ginscore.files.builtin_model import baseline
from ginscore.game.odds import chance_to_win
from ginscore.game.outcomes import DEAD, DEALER
from ginscore.game.rulebook import PRESETS
from ginscore.game.simulate import simulate_hand

RULES = PRESETS["standard"]


def play_games(job: tuple[int, int, int]) -> list[tuple[float, bool]]:
    """(the first player's predicted chance, whether they won) before every hand of `games` games."""
    seed, start, games = job
    model = baseline(RULES)
    found = []
    for game in range(start, start + games):
        rng = random.Random(f"calibrate:{seed}:{game}")
        scores, dealer, predictions = [0, 0], rng.randrange(2), []
        while max(scores) < RULES.target:
            predictions.append(chance_to_win(model, RULES.target, RULES.next_dealer, (scores[0], scores[1]), dealer, 0))
            hand = simulate_hand(RULES, rng)
            if hand.side == DEAD:
                continue
            winner = dealer if hand.side == DEALER else 1 - dealer
            scores[winner] += hand.points
            dealer = winner
        won = scores[0] >= RULES.target
        found += [(p, won) for p in predictions]
    return found


def svg(rows: list[tuple[int, float, float]]) -> str:
    """Predicted against observed, a point a tenth, on the diagonal where the two agree."""
    size, pad = 360, 48
    span = size - 2 * pad

    def x(v: float) -> float:
        return pad + v * span

    def y(v: float) -> float:
        return size - pad - v * span

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size}" viewBox="0 0 {size} {size}" '
        'role="img" aria-labelledby="t"><title id="t">Predicted chance against observed win rate, by tenths</title>',
        f'<rect width="{size}" height="{size}" fill="#fff"/>',
        f'<line x1="{x(0)}" y1="{y(0)}" x2="{x(1)}" y2="{y(1)}" stroke="#999" stroke-dasharray="4 3"/>',
        f'<line x1="{x(0)}" y1="{y(0)}" x2="{x(1)}" y2="{y(0)}" stroke="#222"/>',
        f'<line x1="{x(0)}" y1="{y(0)}" x2="{x(0)}" y2="{y(1)}" stroke="#222"/>',
    ]
    for tick in range(0, 11, 2):
        v = tick / 10
        parts.append(f'<text x="{x(v)}" y="{y(0) + 16}" font-size="11" text-anchor="middle" font-family="sans-serif">{tick * 10}%</text>')
        parts.append(f'<text x="{x(0) - 6}" y="{y(v) + 4}" font-size="11" text-anchor="end" font-family="sans-serif">{tick * 10}%</text>')
    parts.append(f'<text x="{size / 2}" y="{size - 10}" font-size="12" text-anchor="middle" font-family="sans-serif">predicted at the start of a hand</text>')
    parts.append(f'<text x="14" y="{size / 2}" font-size="12" text-anchor="middle" font-family="sans-serif" transform="rotate(-90 14 {size / 2})">observed win rate</text>')
    for _, predicted, observed in rows:
        parts.append(f'<circle cx="{x(predicted):.1f}" cy="{y(observed):.1f}" r="4" fill="#1f5fa8"/>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=2030)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--svg", type=Path, default=None)
    args = parser.parse_args()
    step = 250
    jobs = [(args.seed, start, min(step, args.games - start)) for start in range(0, args.games, step)]
    with Pool(args.processes) as pool:
        pairs = [pair for chunk in pool.map(play_games, jobs) for pair in chunk]
    print(f"{args.games} games, {len(pairs)} hands; standard rules to 100, seed {args.seed}")
    print("tenth      hands  predicted  observed  difference")
    rows = []
    for tenth in range(10):
        group = [(p, won) for p, won in pairs if min(int(p * 10), 9) == tenth]
        if not group:
            continue
        predicted = sum(p for p, _ in group) / len(group)
        observed = sum(won for _, won in group) / len(group)
        rows.append((len(group), predicted, observed))
        print(f"{tenth * 10:>3}-{tenth * 10 + 10:<3}%  {len(group):>7}  {predicted:>8.1%}  {observed:>8.1%}  {100 * (observed - predicted):>+8.1f} points")
    if args.svg is not None:
        args.svg.write_text(svg(rows), encoding="utf-8")
        print(f"wrote {args.svg}")


if __name__ == "__main__":
    main()

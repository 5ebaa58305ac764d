"""Wall time of `ginscore advise` (the default: `improved`, 2000 samples) against `ginscore check` on the same hand.

Run from the repository root, with ginscore installed in the interpreter's environment:

    .venv/bin/python benchmarks/bench_advise.py [--hands 8] [--runs 3] [--seed 1]

The hands are seeded, 11 cards, and can knock after some discard (so every discard's spreads are
scored against every sampled opponent hand). Each hand runs `ginscore advise HAND --seed 1` and
`ginscore check HAND` `--runs` times, interleaved; each run is timed around the whole process
(start-up included); then `advise()` alone is timed in this process. The target is about a second
for `advise`. The machine is shared: the load average is printed, and the ratio to `check`, taken
side by side, is the figure to compare between runs.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench_startup import wall_ms  # noqa: E402
from deals import knocker_hand  # noqa: E402

from ginscore.game.advise import advise  # noqa: E402
from ginscore.game.cards import Hand, format_cards, parse_cards  # noqa: E402
from ginscore.game.melds import arrangements, min_after_discard  # noqa: E402
from ginscore.game.rulebook import PRESETS  # noqa: E402

TARGET_MS = 1000.0


def knockable_hands(count: int, seed: int) -> list[str]:
    """Seeded 11-card hands whose best discard leaves at most 10."""
    rng, hands = random.Random(seed), []
    while len(hands) < count:
        cards = knocker_hand(rng, 3)
        if min_after_discard(Hand.of(cards).mask)[0] <= 10:
            hands.append(format_cards(sorted(cards)))
    return hands


def spreads(hand: str) -> int:
    """How many spreads within the limit the advice scores, over every discard."""
    cards = Hand.parse(hand)
    return sum(len(list(arrangements(cards - Hand.of([c]), 10))) for c in cards)


def core_ms(hand: str, runs: int) -> float:
    """The advice alone, in this process: the median of `runs` calls."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        advise(parse_cards(hand), PRESETS["standard"], seed=1)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main() -> None:
    """Time both commands on each hand and print the medians, the ratios and the verdict."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=8)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    ginscore = Path(sys.executable).parent / "ginscore"
    if not ginscore.exists():
        sys.exit(f"no ginscore executable next to {sys.executable}: install ginscore in this environment")
    print(f"ginscore advise (improved, 2000 samples) against ginscore check, {args.runs} interleaved runs a hand, seed {args.seed}")
    print(f"Python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}")
    print("wall time of the whole command, median of the runs; core: advise() alone, in process")
    advise_all, check_all, core_all = [], [], []
    for hand in knockable_hands(args.hands, args.seed):
        advise_cmd = [str(ginscore), "advise", *hand.split(), "--seed", "1"]
        check_cmd = [str(ginscore), "check", *hand.split()]
        wall_ms(advise_cmd), wall_ms(check_cmd)  # warm the page cache and .pyc files
        advise_ms, check_ms = [], []
        for _ in range(args.runs):
            advise_ms.append(wall_ms(advise_cmd))
            check_ms.append(wall_ms(check_cmd))
        a, c = statistics.median(advise_ms), statistics.median(check_ms)
        core = core_ms(hand, args.runs)
        advise_all.append(a)
        check_all.append(c)
        core_all.append(core)
        print(f"  {hand:<36} {spreads(hand):>3} spreads   advise {a:5.0f} ms   check {c:4.0f} ms   ratio {a / c:4.1f}   core {core:4.0f} ms")
    a, c = statistics.median(advise_all), statistics.median(check_all)
    verdict = "met" if max(advise_all) <= TARGET_MS * 1.5 and a <= TARGET_MS else "MISSED"
    print(
        f"  median over the hands: advise {a:.0f} ms, check {c:.0f} ms, ratio {a / c:.1f}, core {statistics.median(core_all):.0f} ms;"
        f" slowest advise {max(advise_all):.0f} ms"
    )
    print(f"  target: about {TARGET_MS:.0f} ms (median at most {TARGET_MS:.0f}, slowest at most {TARGET_MS * 1.5:.0f}): {verdict}")


if __name__ == "__main__":
    main()

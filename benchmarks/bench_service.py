"""Time the service's writes in one process: `changes.record` and `changes.preview` on a match of `--hands` hands.

Run from the repository root, in each tree to compare (a copy of main, and this one):

    .venv/bin/python benchmarks/bench_service.py [--hands 300] [--reps 150]

It starts a match in a temporary folder, records `--hands` hands (by cards and by counts in turn, the target too
high to reach), then times `--reps` records and `--reps` previews of a hand by cards (one whose cards allow a
single spread, and one whose two spreads score differently, as a phone's spread question has them). It prints
the fastest and the median of each, in milliseconds: a record's median is mostly the disk's fsync, its fastest
what the code costs. Standard library only.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from collections.abc import Callable
from dataclasses import replace

from ginscore.files import changes
from ginscore.game.rulebook import PRESETS
from ginscore.match.entry import HandEntry, NewMatch

CARDS = {"knocker": "Ann", "cards": "3h 4h 5h Ks Kc Kd 7c 8c 9c 2d 9h", "opponent_cards": "Qh Qd 5s 6s 7s Jc 4d 8h 2c Ac"}
COUNTS = {"knocker": "Bob", "deadwood": 3, "opponent_deadwood": 20}
TWO_SPREADS = {"knocker": "Ann", "cards": "Ac 6c 6h 3c 2s 6d 3h 2c Ah 2h", "opponent_cards": "2d 5s As 5h 3d 4c 3s 4d 4s 4h"}


def timed(step: Callable[[int], object], reps: int) -> tuple[float, float]:
    """The fastest and the median of `reps` calls, in milliseconds."""
    times = []
    for rep in range(reps):
        began = time.perf_counter()
        step(rep)
        times.append((time.perf_counter() - began) * 1000)
    return min(times), statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=300)
    parser.add_argument("--reps", type=int, default=150)
    args = parser.parse_args()
    path = os.path.join(tempfile.mkdtemp(), "m.toml")
    changes.start(path, NewMatch(["Ann", "Bob"], replace(PRESETS["standard"], target=100_000)))
    for number in range(args.hands):
        changes.record(path, HandEntry(**(CARDS if number % 2 else COUNTS)))
    rows = {
        "record": timed(lambda rep: changes.record(path, HandEntry(**(CARDS if rep % 2 else COUNTS))), args.reps),
        "preview": timed(lambda rep: changes.preview(path, HandEntry(**CARDS)), args.reps),
        "preview, two spreads": timed(lambda rep: changes.preview(path, HandEntry(**TWO_SPREADS)), args.reps),
    }
    print(f"{args.hands} hands, {args.reps} each; milliseconds")
    for name, (fastest, median) in rows.items():
        print(f"{name:22} fastest {fastest:6.2f}   median {median:6.2f}")


if __name__ == "__main__":
    main()

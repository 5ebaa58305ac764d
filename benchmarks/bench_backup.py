"""The size of a backup (`Folder.backup`, the app's and serve's `/backup.zip`) of `--matches` matches.

Run from the repository root (docs/app.md quotes what it printed):

    .venv/bin/python benchmarks/bench_backup.py [--matches 50] [--hands 12]

It starts `--matches` matches in a temporary folder, each of two of six players, records `--hands` hands in each
(by cards and by counts in turn, as a phone records them: the cards dealt at random, seeded, until the knocker
can knock, and random counts), and prints the match files' bytes, the zip's and the
time to make it and to restore it into an empty folder (every match new) and into the same folder again (every
match unchanged), in milliseconds: each the fastest of `--reps`. Standard library only.
"""

from __future__ import annotations

import argparse
import os
import random
import tempfile
import time
from collections.abc import Callable
from dataclasses import replace

from ginscore.api import solve
from ginscore.files import changes
from ginscore.files.served import Folder
from ginscore.game.cards import DECK
from ginscore.game.rulebook import PRESETS
from ginscore.match.entry import HandEntry, NewMatch

PLAYERS = ("Ann", "Bob", "Cy", "Di", "Ed", "Flo")


def dealt(chance: random.Random, knocker: str) -> HandEntry:
    """A hand as a phone records it: every other one by cards (11 for the knocker, dealt until they can knock
    after a discard), the rest by counts."""
    if chance.random() < 0.5:
        return HandEntry(knocker=knocker, deadwood=chance.randint(0, 10), opponent_deadwood=chance.randint(0, 60))
    while True:
        cards = chance.sample(DECK, 21)
        if solve(cards[:11]).deadwood <= 10:
            return HandEntry(knocker=knocker, cards=" ".join(map(str, cards[:11])), opponent_cards=" ".join(map(str, cards[11:])))


def fastest(step: Callable[[], object], reps: int) -> float:
    """The fastest of `reps` calls, in milliseconds."""
    times = []
    for _ in range(reps):
        began = time.perf_counter()
        step()
        times.append((time.perf_counter() - began) * 1000)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=50)
    parser.add_argument("--hands", type=int, default=12)
    parser.add_argument("--reps", type=int, default=5)
    args = parser.parse_args()
    here = tempfile.mkdtemp()
    rules = replace(PRESETS["standard"], target=100_000)
    chance = random.Random(38)
    for number in range(args.matches):
        pair = [PLAYERS[number % len(PLAYERS)], PLAYERS[(number + 1 + number // len(PLAYERS)) % len(PLAYERS)]]
        if pair[0] == pair[1]:
            pair[1] = PLAYERS[(number + 2) % len(PLAYERS)]
        path = os.path.join(here, f"match-{number:02}.toml")
        changes.start(path, NewMatch(pair, rules))
        for hand in range(args.hands):
            changes.record(path, dealt(chance, pair[hand % 2]))
    folder = Folder(here)
    files = sum(os.path.getsize(os.path.join(here, name)) for name in folder.names())
    made = fastest(folder.backup, args.reps)
    data = folder.backup()

    def fresh() -> None:
        Folder(tempfile.mkdtemp()).restore(data)

    into_empty = fastest(fresh, args.reps)
    again = fastest(lambda: folder.restore(data), args.reps)
    print(f"{args.matches} matches of {args.hands} hands: files {files:,} bytes, backup {len(data):,} bytes "
          f"({len(data) / files:.0%} of the files)")
    print(f"make {made:.1f} ms, restore into an empty folder {into_empty:.1f} ms, into the same folder {again:.1f} ms")


if __name__ == "__main__":
    main()

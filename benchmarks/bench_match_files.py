"""Time the match-file commands on small and big files, as a person runs them, ratios taken in one run.

Run from the repository root:

    .venv/bin/python benchmarks/bench_match_files.py [--small 10] [--big 1000] [--repeats 5] [--build 1000]

It writes two matches of seeded random hands (half by cards: the knocker's 11 cards and the
opponent's 10, the knocker's best spread found when the hand is recorded; half by counts), with a
target too high to be reached, one of `--small` hands and one of `--big`. Then it times, as
subprocesses of the `ginscore` beside this Python, interleaved, the median of `--repeats`:

- `record` of one more hand (by cards) on a fresh copy of each file;
- `validate` and `show --json` on each file.

and prints each big/small ratio. With `--build N` it also builds a match of N hands one `record`
at a time from an empty file, and compares the time of the last tenth of the hands with the first.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from deals import knocker_hand  # noqa: E402

from ginscore.game.cards import DECK, Hand, format_cards  # noqa: E402
from ginscore.game.melds import min_after_discard  # noqa: E402
from ginscore.match.entry import HandEntry  # noqa: E402

GINSCORE = str(Path(sys.executable).with_name("ginscore"))


def hand_options(rng: random.Random, players: tuple[str, str]) -> list[str]:
    """The `record` options of one legal hand: by cards one time in two, else by counts."""
    knocker = rng.choice(players)
    if rng.random() < 0.5:
        return ["--knocker", knocker, "--deadwood", str(rng.randint(0, 10)), "--opponent-deadwood", str(rng.randint(0, 60))]
    while True:
        cards = knocker_hand(rng, 4)
        if min_after_discard(Hand.of(cards).mask)[0] <= 10:
            break
    opponent = rng.sample([c for c in DECK if c not in cards], 10)
    return ["--knocker", knocker, "--cards", format_cards(sorted(cards)), "--opponent-cards", format_cards(opponent)]


def ginscore(*args: str) -> float:
    """Run one command; its wall time in seconds."""
    start = time.perf_counter()
    subprocess.run([GINSCORE, *args], check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def write_match(path: str, hands: list[list[str]], created: str = "2026-01-01T00:00:00+00:00") -> None:
    """A match of these hands, written through the core in one save, as `record` would leave it. Matches of the
    same players and rules are one match when `created` is the same (merging's rule): give each its own."""
    from dataclasses import replace

    from ginscore.files.storage import save
    from ginscore.game.rulebook import PRESETS
    from ginscore.match.records import Match
    from ginscore.match.scored import make_record

    match = Match(("Ann", "Bob"), replace(PRESETS["standard"], target=100000), "Ann", created=created, preset="standard")
    records = []
    for options in hands:
        named = dict(zip(options[0::2], options[1::2]))
        records.append(make_record(match, HandEntry(knocker=named["--knocker"], cards=named.get("--cards"), opponent_cards=named.get("--opponent-cards"), deadwood=int(named["--deadwood"]) if "--deadwood" in named else None, opponent_deadwood=int(named["--opponent-deadwood"]) if "--opponent-deadwood" in named else None), recorded="2026-01-01T00:00:00+00:00").record)
    save(path, match.with_hands(tuple(records)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--small", type=int, default=10)
    parser.add_argument("--big", type=int, default=1000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--build", type=int, default=0)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    players = ("Ann", "Bob")
    folder = tempfile.mkdtemp(prefix="bench_match_files.")
    try:
        sizes = {"small": args.small, "big": args.big}
        files = {}
        for name, size in sizes.items():
            files[name] = os.path.join(folder, f"{name}.toml")
            write_match(files[name], [hand_options(rng, players) for _ in range(size)])
        extra = hand_options(random.Random(args.seed + 1), players)
        while "--cards" not in extra:
            extra = hand_options(rng, players)
        times: dict[tuple[str, str], list[float]] = {}
        for _ in range(args.repeats):
            for name, path in files.items():
                copy = os.path.join(folder, f"copy-{name}.toml")
                shutil.copyfile(path, copy)
                times.setdefault(("record", name), []).append(ginscore("record", copy, *extra))
                times.setdefault(("validate", name), []).append(ginscore("validate", path))
                times.setdefault(("show --json", name), []).append(ginscore("show", path, "--json"))
        print(f"median of {args.repeats}, seconds; hands: small {args.small}, big {args.big}")
        print(f"{'command':<14}{'small':>9}{'big':>9}{'big/small':>11}   goal <= 2x")
        for command in ("record", "validate", "show --json"):
            small, big = (statistics.median(times[(command, name)]) for name in ("small", "big"))
            print(f"{command:<14}{small:>9.3f}{big:>9.3f}{big / small:>10.2f}x   {'met' if big / small <= 2 else 'MISSED'}")
        if args.build:
            build(folder, args.build, rng, players)
    finally:
        shutil.rmtree(folder)


def build(folder: str, count: int, rng: random.Random, players: tuple[str, str]) -> None:
    """Build a match of `count` hands one `record` at a time; compare the last tenth with the first."""
    path = os.path.join(folder, "built.toml")
    subprocess.run([GINSCORE, "new", path, *players, "--set", "target=100000"], check=True, stdout=subprocess.DEVNULL)
    spent = [ginscore("record", path, *hand_options(rng, players)) for _ in range(count)]
    tenth = max(count // 10, 1)
    first, last = sum(spent[:tenth]), sum(spent[-tenth:])
    print(f"building {count} hands one record at a time: hands 1-{tenth} {first:.2f} s, "
          f"hands {count - tenth + 1}-{count} {last:.2f} s, ratio {last / first:.2f}x "
          f"(goal <= 2x: {'met' if last / first <= 2 else 'MISSED'}), all {sum(spent):.1f} s")


if __name__ == "__main__":
    main()

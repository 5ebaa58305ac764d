"""Time `ginscore stats` over many finished match files, as a command and in process.

Run from the repository root:

    .venv/bin/python benchmarks/bench_stats.py [--files 300] [--seed 1] [--repeats 5]

It writes N finished matches into a temporary folder through the core (`make_record`, `add_hand`,
`storage.save`), as `ginscore record` would: six players in random pairs, mostly standard rules,
some tournament and Oklahoma, one match in ten Hollywood. Each hand is cancelled now and then
(1 in 25); of the others about half are legal knocks given by their cards (11 cards, the knocker's
best spread found on load; the up-card drawn from the rest of the deck under Oklahoma) and the rest
by counts. Then it times, with the median of the repeats:

- `ginscore stats FOLDER --json` as a subprocess (the `ginscore` next to this Python), wall time,
  start-up included: with `--no-cache` (every file read in full), and a second run with the cache
  (in a temporary folder) filled by the first; and the same command on an empty folder, which is
  that start-up alone;
- every file read in full and folded into the figures in this process, as `stats --no-cache` does.

`bench_cli.py` times `stats` over 1,000 and 10,000 files with peak memory; this script is the
quick look at one folder.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from deals import knocker_hand, random_meld  # noqa: E402

from ginscore.files.stats_cache import StatsCache  # noqa: E402
from ginscore.files.storage import save  # noqa: E402
from ginscore.files.table import named_paths  # noqa: E402
from ginscore.game.cards import DECK, Card, Hand  # noqa: E402
from ginscore.game.melds import min_after_discard  # noqa: E402
from ginscore.game.rulebook import PRESETS, Rules  # noqa: E402
from ginscore.match.entry import HandEntry  # noqa: E402
from ginscore.match.records import Match  # noqa: E402
from ginscore.match.scored import make_record  # noqa: E402
from ginscore.match.stats import HeadToHead  # noqa: E402
from ginscore.match.tally import add_hand, tally  # noqa: E402

GINSCORE = str(Path(sys.executable).with_name("ginscore"))
PLAYERS = ("Ann", "Bob", "Cy", "Dee", "Eve", "Finn")


def opponent_hand(rng: random.Random, rest: list[Card]) -> list[Card]:
    """Ten of the remaining cards, holding a meld or two as a real hand at a knock does."""
    hand: set[Card] = set()
    for _ in range(rng.choice((0, 1, 1, 2, 2, 2))):
        for _ in range(20):
            meld = random_meld(rng)
            if meld <= set(rest) and not meld & hand and len(hand | meld) <= 7:
                hand |= meld
                break
    others = [c for c in rest if c not in hand]
    low = [c for c in others if c.rank <= 6]
    while len(hand) < 10:
        hand.add(rng.choice(low) if rng.random() < 0.5 else rng.choice(others))
    cards = list(hand)
    rng.shuffle(cards)
    return cards


def text(cards) -> str:
    return " ".join(str(c) for c in cards)


def knock_with_cards(rng: random.Random, rules: Rules) -> dict:
    """A legal knock given by both hands' cards (and the up-card under Oklahoma)."""
    while True:
        knocker = knocker_hand(rng, 4)
        deadwood = min_after_discard(Hand.of(knocker).mask)[0]
        rest = [c for c in DECK if c not in knocker]
        entry: dict = {}
        if rules.oklahoma:
            fitting = [c for c in rest if rules.knock_limit_for(c) >= deadwood]
            if not fitting:
                continue
            upcard = rng.choice(fitting)
            rest.remove(upcard)
            entry["upcard"] = str(upcard)
        elif deadwood > rules.knock_limit:
            continue
        cards = list(knocker)
        rng.shuffle(cards)
        return {**entry, "cards": text(cards), "opponent_cards": text(opponent_hand(rng, rest))}


def knock_with_counts(rng: random.Random, rules: Rules) -> dict:
    """A knock given by counts: mostly small knocker counts, opponent counts spread like real ones."""
    entry: dict = {}
    limit = rules.knock_limit
    if rules.oklahoma:
        upcard = rng.choice(DECK)
        entry["upcard"] = str(upcard)
        limit = rules.knock_limit_for(upcard)
    deadwood = 0 if rng.random() < 0.12 else rng.randint(0, limit)
    opponent = max(0, min(98, round(rng.gauss(20, 10))))
    return {**entry, "deadwood": deadwood, "opponent_deadwood": opponent}


def random_match(rng: random.Random) -> tuple[Match, int]:
    """A finished match and how many of its hands were given by cards."""
    a, b = rng.sample(PLAYERS, 2)
    preset = rng.choices(["standard", "tournament", "oklahoma"], weights=[7, 1.5, 1.5])[0]
    rules = PRESETS[preset]
    if preset == "standard" and rng.random() < 0.3:
        rules = replace(rules, gin_bonus=25, undercut_bonus=20)
    match = Match((a, b), rules, rng.choice((a, b)), hollywood=rng.random() < 0.1, created="2026-01-01T20:00:00+00:00", preset=preset)
    sheet, with_cards = tally(match), 0
    while not sheet.finished:
        if rng.random() < 0.04:
            entry: dict = {"cancelled": True}
        else:
            by_cards = rng.random() < 0.5
            with_cards += by_cards
            entry = (knock_with_cards if by_cards else knock_with_counts)(rng, rules)
            entry["knocker"] = rng.choice((a, b))
        match, sheet = add_hand(match, make_record(match, HandEntry(**entry), recorded="2026-01-01T20:00:00+00:00"))
    return match, with_cards


def write_matches(folder: str, count: int, seed: int) -> tuple[int, int]:
    rng = random.Random(seed)
    hands = cards = 0
    for number in range(count):
        match, with_cards = random_match(rng)
        hands += len(match.hands)
        cards += with_cards
        save(os.path.join(folder, f"match-{number:04d}.toml"), match)
    return hands, cards


def median_time(run, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="ginscore-stats-") as folder, tempfile.TemporaryDirectory() as empty:
        start = time.perf_counter()
        hands, cards = write_matches(folder, args.files, args.seed)
        made = time.perf_counter() - start
        size = sum(entry.stat().st_size for entry in os.scandir(folder))

        environment = {**os.environ, "GINSCORE_CACHE_DIR": os.path.join(empty, "cache")}

        def command(path: str, *options: str) -> None:
            result = subprocess.run([GINSCORE, "stats", path, "--json", *options], capture_output=True, text=True, env=environment)
            if result.returncode != 0:
                raise SystemExit(f"ginscore stats failed ({result.returncode}): {result.stderr}")
            data = json.loads(result.stdout)
            if path == folder and (data["files"] != args.files or data["skipped"]):
                raise SystemExit(f"ginscore stats read {data['files']} files, skipped {data['skipped']}")

        def in_process() -> int:
            head_to_head = HeadToHead()
            with StatsCache(None) as nothing_remembered:
                for path in (found for found in named_paths([folder]) if isinstance(found, str)):
                    head_to_head.add(nothing_remembered.figures(path))
            return len(head_to_head.pairs())

        command(folder)  # warm the file cache and the bytecode, and fill the stats cache
        whole = median_time(lambda: command(folder, "--no-cache"), args.repeats)
        cached = median_time(lambda: command(folder), args.repeats)
        startup = median_time(lambda: command(empty), args.repeats)
        core = median_time(in_process, args.repeats)
        pairs = in_process()

    print(f"ginscore stats: {args.files} finished matches, seed {args.seed}, median of {args.repeats} runs")
    print(f"Python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} CPUs")
    print(
        f"  files: {hands} hands ({cards} by cards, {cards / hands:.0%}), {hands / args.files:.1f} a match, "
        f"{size / args.files / 1024:.1f} KiB a file, {pairs} pairs of players; written in {made:.1f} s"
    )
    print(f"  start-up (an empty folder)                  {startup * 1000:7.0f} ms")
    for name, seconds in (("ginscore stats FOLDER --json --no-cache", whole), ("the same with the cache, a second run", cached)):
        beyond = max(seconds - startup, 1e-6)
        print(f"  {name:42}{seconds * 1000:7.0f} ms   {args.files / beyond:7.0f} files/s beyond start-up")
    print(f"  every file read in full, in process      {core * 1000:8.0f} ms   {args.files / core:7.0f} files/s   {core * 1000 / args.files:5.2f} ms/file")


if __name__ == "__main__":
    main()

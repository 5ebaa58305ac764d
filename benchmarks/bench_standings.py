"""Time `ginscore standings` against `ginscore stats` over the same folder of finished match files.

Run from the repository root:

    .venv/bin/python benchmarks/bench_standings.py [--files 1000] [--days 120] [--seed 1] [--repeats 3]

It writes N finished matches as `bench_stats.py` does (six players in random pairs, mostly standard rules, one in
ten Hollywood, hands by cards and by counts), each match then moved to one of `--days` days in turn, so that the
ratings walk over many rating periods. Then it times each command as a subprocess (the `ginscore` next to this
Python), wall time, start-up included, the median of the repeats:

- with the caches filled by a first run (a second run, as a club's archive is read day after day): `standings
  FOLDER --json`, `stats FOLDER` (the table) and `stats FOLDER --json` (which now reads the games for the pairs'
  odds too);
- with `--no-cache` (every file read in full): the same three.

The goal (issue 37): `standings` within 1.5x `stats` on the same folder, with the caches.
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
from datetime import date, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_stats import random_match  # noqa: E402

from ginscore.files.storage import save  # noqa: E402

GINSCORE = str(Path(sys.executable).with_name("ginscore"))


def write_matches(folder: str, count: int, days: int, seed: int) -> int:
    """`count` finished matches, the k-th on day k mod `days` from 2026-01-01; the hands they hold."""
    rng = random.Random(seed)
    hands = 0
    for number in range(count):
        match, _ = random_match(rng)
        stamp = f"{date(2026, 1, 1) + timedelta(days=number % days)}T20:00:00+00:00"
        match = replace(match, created=stamp).with_hands(tuple(replace(hand, recorded=stamp) for hand in match.hands))
        hands += len(match.hands)
        save(os.path.join(folder, f"match-{number:04d}.toml"), match)
    return hands


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=1000)
    parser.add_argument("--days", type=int, default=120)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="ginscore-standings-") as folder, tempfile.TemporaryDirectory() as cache:
        start = time.perf_counter()
        hands = write_matches(folder, args.files, args.days, args.seed)
        made = time.perf_counter() - start
        environment = {**os.environ, "GINSCORE_CACHE_DIR": cache}

        def command(*words: str) -> float:
            begun = time.perf_counter()
            result = subprocess.run([GINSCORE, *words], capture_output=True, text=True, env=environment)
            taken = time.perf_counter() - begun
            if result.returncode != 0:
                raise SystemExit(f"ginscore {' '.join(words)} failed ({result.returncode}): {result.stderr}")
            if words[0] == "standings" and "--json" in words:
                data = json.loads(result.stdout)
                if data["files"] != args.files or data["skipped"]:
                    raise SystemExit(f"standings read {data['files']} files, skipped {data['skipped']}")
            return taken

        def median(*words: str) -> float:
            return statistics.median(command(*words) for _ in range(args.repeats))

        runs = {
            "standings FOLDER --json": ("standings", folder, "--json"),
            "stats FOLDER": ("stats", folder),
            "stats FOLDER --json": ("stats", folder, "--json"),
        }
        for words in runs.values():
            command(*words)  # fill the caches, warm the file cache and the bytecode
        warm = {name: median(*words) for name, words in runs.items()}
        cold = {name: median(*words, "--no-cache") for name, words in runs.items()}
        games = json.loads(subprocess.run([GINSCORE, "standings", folder, "--json"], capture_output=True, text=True, env=environment).stdout)["games"]

    print(f"ginscore standings against stats: {args.files} finished matches over {args.days} days, seed {args.seed}, median of {args.repeats} runs")
    print(f"Python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} CPUs; {hands} hands, {games} games; written in {made:.0f} s")
    for label, times in (("with the caches (a second run)", warm), ("--no-cache (every file read in full)", cold)):
        print(f"  {label}")
        for name, seconds in times.items():
            print(f"    ginscore {name:28}{seconds * 1000:7.0f} ms")
        print(f"    standings / stats: {times['standings FOLDER --json'] / times['stats FOLDER']:.2f}x; "
              f"standings / stats --json: {times['standings FOLDER --json'] / times['stats FOLDER --json']:.2f}x")


if __name__ == "__main__":
    main()

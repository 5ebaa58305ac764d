"""Time `edit` on hand-edited files whose lines are long and many: the time should grow with the file's size, no faster.

Run from the repository root (nothing to install beyond ginscore itself):

    .venv/bin/python benchmarks/bench_edit.py [--sizes 1000,2000,4000,8000] [--hands 20] [--repeats 3]

For each size S it writes a match of `--hands` count-only hands, then makes three files of it:

- `spaces`: a line of S*3 spaces between each hand's two totals (the layout that once took 78 s at 3,000);
- `blanks`: S*25 blank lines inside each hand, after its inputs (once 45 s at 100,000 in one hand);
- `both`: the two together, lines long and many.

It times `edit 1` (which changes hand 1 and the totals of every hand after it), in process, through
`ginscore.files.changes.edit` (the part that holds the lock: read, edit, prove, write), on a fresh copy of
each file, the median of `--repeats`. It prints each file's size, the time, the time per megabyte, and the
ratio of each time to the one before: with sizes doubling, a ratio near 2 is linear (4 would be quadratic).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import tempfile
import time
from dataclasses import replace
from pathlib import Path

from ginscore.files import changes, reading, storage
from ginscore.game.rulebook import PRESETS
from ginscore.match.entry import HandEntry
from ginscore.match.records import Match
from ginscore.match.scored import make_record
from ginscore.match.tally import add_hand

NOW = "2026-01-02T03:04:05+00:00"


def base_text(hands: int) -> str:
    rules = replace(PRESETS["standard"], target=100_000)
    match = Match(("Ann", "Bob"), rules, "Ann", created=NOW, preset="standard")
    sheet = None
    for number in range(hands):
        knocker = ("Ann", "Bob")[number % 2]
        match, sheet = add_hand(match, make_record(match, HandEntry(knocker=knocker, deadwood=5, opponent_deadwood=5), recorded=NOW), sheet)
    return storage.dumps(match, sheet)


def layouts(text: str, size: int) -> dict[str, str]:
    spaces = " " * (size * 3)
    blanks = "\n" * (size * 25)
    spaced = text.replace("\nBob = ", "\n" + spaces + "\nBob = ")
    return {
        "spaces": spaced,
        "blanks": text.replace('\nrecorded = "', blanks + '\nrecorded = "'),
        "both": spaced.replace('\nrecorded = "', blanks + '\nrecorded = "'),
    }


def timed_edit(source: Path, folder: Path) -> float:
    path = folder / "m.toml"
    shutil.copyfile(source, path)
    start = time.perf_counter()
    changes.edit(str(path), 1, HandEntry(knocker="Bob", deadwood=3, opponent_deadwood=9))
    elapsed = time.perf_counter() - start
    assert len(reading.load(str(path))[0].hands) > 0
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,2000,4000,8000")
    parser.add_argument("--hands", type=int, default=20)
    parser.add_argument("--repeats", type=int, default=3)
    options = parser.parse_args()
    sizes = [int(size) for size in options.sizes.split(",")]
    text = base_text(options.hands)
    print(f"edit 1 on a match of {options.hands} hands; median of {options.repeats}; in process (the time under the lock)")
    print(f"{'layout':8} {'size':>6} {'bytes':>11} {'seconds':>9} {'s/MB':>7} {'ratio':>6}")
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary)
        for name in ("spaces", "blanks", "both"):
            previous = None
            for size in sizes:
                source = folder / f"{name}-{size}.toml"
                source.write_text(layouts(text, size)[name])
                work = folder / "work"
                work.mkdir(exist_ok=True)
                seconds = statistics.median(timed_edit(source, work) for _ in range(options.repeats))
                megabytes = os.path.getsize(source) / 2**20
                ratio = f"{seconds / previous:6.2f}" if previous else "     -"
                print(f"{name:8} {size:>6} {os.path.getsize(source):>11,} {seconds:>9.3f} {seconds / megabytes:>7.3f} {ratio}")
                previous = seconds


if __name__ == "__main__":
    main()

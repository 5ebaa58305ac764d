"""Whole `ginscore` commands, timed side by side in one run, with the goals of issue 10 beside each ratio.

Run from the repository root (the `ginscore` executable next to this Python is the one timed):

    .venv/bin/python benchmarks/bench_cli.py [--peer-python /tmp/peer-venv/bin/python] [--repeats 3]

Every figure is the median wall time of `--repeats` runs of a whole process (start-up included), the
commands of a row interleaved so that a busy machine slows both sides alike. Peak memory is the
process's largest resident set (`os.wait4`, taken by a small launcher process). Rows:

- `check --json -` on `--hands` (default 100,000) random 10-card hands, and as many 11-card ones,
  against `benchmarks/openspiel_check.py`, which does the same work with OpenSpiel and prints the
  same JSON. It runs in `--peer-python`, an interpreter of a throwaway virtualenv that can import
  `pyspiel` (`pip install open-spiel`); without it the row is skipped. The outputs are compared:
  the least deadwood, discards and verdicts must agree line by line; which of several equally good
  arrangements is shown may differ.
- `record`, `validate` and `show --json` on match files of 10, 1,000 and 10,000 hands, written
  through the core (`make_record`, `storage.save`): about a third of the hands given by both
  players' cards (legal knocks), the rest by counts, a few cancelled. `record` adds one hand to a
  fresh copy each time.
- `stats --json` over 1,000 and 10,000 match files (`--stats-files`): a first run with an empty
  cache, a second run over the same folder, and `--no-cache`, with files a second beyond start-up
  (an empty folder's time) and peak memory. The matches are `bench_stats.py`'s finished random
  matches; the 10,000-file folder holds each of 1,000 of them ten times with a different `created`
  line, so that every file's bytes differ and a first run reads every file in full.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT.parent))
sys.path.insert(0, str(ROOT))

from bench_stats import knock_with_cards, random_match  # noqa: E402

from ginscore.files.storage import dumps, save  # noqa: E402
from ginscore.game.cards import DECK  # noqa: E402
from ginscore.game.rulebook import PRESETS  # noqa: E402
from ginscore.match.entry import HandEntry  # noqa: E402
from ginscore.match.records import Match  # noqa: E402
from ginscore.match.scored import make_record  # noqa: E402
from ginscore.match.tally import tally  # noqa: E402

GINSCORE = str(Path(sys.executable).with_name("ginscore"))
PEER_SCRIPT = str(ROOT / "openspiel_check.py")
STAMP = "2026-01-01T20:00:00+00:00"


@dataclass
class Run:
    """One whole process: wall time, peak resident memory, exit status and what it printed."""

    seconds: float
    peak_mib: float
    status: int
    stdout: bytes
    stderr: bytes


# The peak memory of a process forked from this one would count this process's own peak too (Linux
# carries the old peak across exec), so each command is started by a small launcher that times it.
LAUNCHER = """
import os, subprocess, sys, time
start = time.perf_counter()
process = subprocess.Popen(sys.argv[2:])
_, status, usage = os.wait4(process.pid, 0)
seconds = time.perf_counter() - start
with open(sys.argv[1], "w") as report:
    report.write(f"{seconds} {usage.ru_maxrss} {os.waitstatus_to_exitcode(status)}")
"""


def run(command: list[str], stdin: str | None = None, env: dict[str, str] | None = None, expect: int = 0) -> Run:
    """Run `command` to the end, timing the whole process; stop the benchmark if it fails."""
    with open(stdin or os.devnull, "rb") as source, tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        with tempfile.NamedTemporaryFile("r") as report:
            subprocess.run([sys.executable, "-c", LAUNCHER, report.name, *command], stdin=source, stdout=out, stderr=err, env=env, check=True)
            seconds, peak_kib, status = report.read().split()
        out.seek(0)
        err.seek(0)
        done = Run(float(seconds), int(peak_kib) / 1024, int(status), out.read(), err.read())
    if done.status != expect:
        sys.exit(f"{' '.join(command)} exited with {done.status}, not {expect}: {done.stderr.decode()[:500]}")
    return done


def interleaved(commands: dict[str, Callable[[], Run]], repeats: int) -> dict[str, list[Run]]:
    """Each command `repeats` times, taking turns, after one untimed run of each (page cache, .pyc files)."""
    for command in commands.values():
        command()
    runs: dict[str, list[Run]] = {name: [] for name in commands}
    for _ in range(repeats):
        for name, command in commands.items():
            if runs[name]:
                runs[name][-1].stdout = b""  # only the last output is compared; keep this process small
            runs[name].append(command())
    return runs


def median(runs: list[Run]) -> float:
    return statistics.median(r.seconds for r in runs)


def verdict(met: bool) -> str:
    return "met" if met else "not met"


# --- check --json - --------------------------------------------------------------------------------


def write_hands(path: str, size: int, count: int, seed: int) -> None:
    rng = random.Random(seed)
    with open(path, "w", encoding="utf-8") as out:
        for _ in range(count):
            out.write(" ".join(str(card) for card in rng.sample(DECK, size)) + "\n")


def compare_check(ours: bytes, peer: bytes) -> str:
    """How far the two outputs agree: every verdict must; the arrangement shown may differ among equals."""
    mine, theirs = ours.decode().splitlines(), peer.decode().splitlines()
    if len(mine) != len(theirs):
        sys.exit(f"check printed {len(mine)} lines and the peer {len(theirs)}")
    same = arranged_differently = 0
    for a, b in zip(mine, theirs):
        if a == b:
            same += 1
            continue
        x, y = json.loads(a), json.loads(b)
        for key in ("melds", "deadwood_cards"):
            x.pop(key), y.pop(key)
        if x != y:
            sys.exit(f"check and the peer disagree:\n  ours {a}\n  peer {b}")
        arranged_differently += 1
    return f"same JSON on {same:,} of {len(mine):,} lines; the other {arranged_differently:,} show another arrangement with the same deadwood"


def bench_check(args: argparse.Namespace, folder: str) -> None:
    print(f"\n`check --json -` on {args.hands:,} random hands a row, against {Path(PEER_SCRIPT).name} (OpenSpiel)")
    if not args.peer_python:
        print("  skipped: give --peer-python, an interpreter that can import pyspiel (pip install open-spiel in a throwaway venv)")
        return
    stretch = {10: 0.5}
    for size in (10, 11):
        hands = os.path.join(folder, f"hands-{size}.txt")
        write_hands(hands, size, args.hands, args.seed + size)
        ginscore = partial(run, [GINSCORE, "check", "--json", "-"], stdin=hands)
        runs = interleaved({"ginscore": ginscore, "peer": partial(run, [args.peer_python, PEER_SCRIPT], stdin=hands)}, args.repeats)
        ours, peer = median(runs["ginscore"]), median(runs["peer"])
        print(
            f"  {size} cards: ginscore {ours:6.2f} s ({args.hands / ours:7,.0f} hands/s), "
            f"OpenSpiel script {peer:6.2f} s ({args.hands / peer:7,.0f} hands/s): "
            f"ratio {ours / peer:4.2f}x   goal <= 1.0x: {verdict(ours / peer <= 1.0)}"
            + (f", stretch <= {stretch[size]}x: {verdict(ours / peer <= stretch[size])}" if size in stretch else "")
        )
        print(f"    {compare_check(runs['ginscore'][-1].stdout, runs['peer'][-1].stdout)}")


# --- record, validate, show --json on long matches ----------------------------------------------------


def long_match(hands: int, seed: int) -> Match:
    """A match of `hands` hands that is not over: a third by cards, most of the rest by counts."""
    rng = random.Random(seed)
    rules = replace(PRESETS["standard"], target=100000)
    match = Match(("Ann", "Bob"), rules, "Ann", created=STAMP)
    records = []
    for _ in range(hands):
        draw = rng.random()
        if draw < 0.03:
            entry: dict = {"cancelled": True}
        elif draw < 0.36:
            entry = {**knock_with_cards(rng, rules), "knocker": rng.choice(match.players)}
        else:
            deadwood = rng.randint(1, 10)
            entry = {"knocker": rng.choice(match.players), "deadwood": deadwood, "opponent_deadwood": deadwood + rng.randint(1, 8)}
        records.append(make_record(match, HandEntry(**entry), recorded=STAMP).record)
    return match.with_hands(tuple(records))


def bench_files(args: argparse.Namespace, folder: str) -> None:
    sizes = (10, 1000, 10000)
    print(f"\nmatch-file commands on files of {', '.join(f'{n:,}' for n in sizes)} hands, median of {args.repeats} interleaved runs")
    originals = {}
    for size in sizes:
        match = long_match(size, args.seed)
        sheet = tally(match)
        if sheet.finished:
            sys.exit(f"the {size}-hand match finished early: lower the points per hand")
        originals[size] = os.path.join(folder, f"match-{size}.toml")
        save(originals[size], match, sheet)

    def record(size: int) -> Run:
        work = os.path.join(folder, f"work-{size}.toml")
        shutil.copyfile(originals[size], work)
        return run([GINSCORE, "record", work, "--knocker", "Ann", "--deadwood", "4", "--opponent-deadwood", "30"])

    commands: dict[str, Callable[[int], Run]] = {
        "record": record,
        "validate": lambda size: run([GINSCORE, "validate", originals[size]]),
        "show --json": lambda size: run([GINSCORE, "show", originals[size], "--json"]),
    }
    print(f"  {'':12}{'10 hands':>10}{'1,000':>10}{'10,000':>10}   1,000/10 (goal <= 2x)   10,000/10")
    for name, command in commands.items():
        runs = interleaved({str(size): partial(command, size) for size in sizes}, args.repeats)
        times = {size: median(runs[str(size)]) for size in sizes}
        small = times[10]
        print(
            f"  {name:12}" + "".join(f"{times[size] * 1000:8.0f}ms" for size in sizes)
            + f"   {times[1000] / small:5.2f}x {verdict(times[1000] / small <= 2):>8}          {times[10000] / small:6.2f}x"
        )


# --- stats over many files -----------------------------------------------------------------------------


def write_stats_folders(folder: str, counts: list[int], seed: int) -> dict[int, str]:
    """A folder per count; the larger ones repeat the first 1,000 matches with another `created` line."""
    distinct = min(counts[0], 1000)
    rng = random.Random(seed)
    texts = [dumps(random_match(rng)[0]) for _ in range(distinct)]
    folders = {}
    for count in counts:
        folders[count] = os.path.join(folder, f"stats-{count}")
        os.mkdir(folders[count])
        for number in range(count):
            copy, text = divmod(number, distinct)
            created = f'created = "2026-01-01T20:00:{copy:02d}+00:00"' if copy < 60 else f'created = "copy {copy}"'
            text = texts[text].replace(f'created = "{STAMP}"', created, 1)
            Path(folders[count], f"match-{number:05d}.toml").write_text(text, encoding="utf-8")
    return folders


def stats_runs(matches: str, empty: str, cache: str, repeats: int) -> dict[str, list[Run]]:
    env = {**os.environ, "GINSCORE_CACHE_DIR": cache}
    command = [GINSCORE, "stats", matches, "--json"]

    def first() -> Run:
        shutil.rmtree(cache, ignore_errors=True)
        return run(command, env=env)

    return interleaved(
        {
            "first run, empty cache": first,
            "second run": partial(run, command, env=env),
            "--no-cache": partial(run, [*command, "--no-cache"], env=env),
            "start-up": partial(run, [GINSCORE, "stats", empty, "--json"], env=env),
        },
        repeats,
    )


def bench_stats(args: argparse.Namespace, folder: str) -> None:
    counts = sorted(args.stats_files)
    print(f"\n`stats --json` over {' and '.join(f'{n:,}' for n in counts)} match files, median of {args.repeats} interleaved runs")
    start = time.perf_counter()
    folders = write_stats_folders(folder, counts, args.seed)
    print(f"  (the files were written in {time.perf_counter() - start:.0f} s)")
    empty = os.path.join(folder, "empty")
    os.mkdir(empty)
    peaks: dict[int, float] = {}
    for count in counts:
        runs = stats_runs(folders[count], empty, os.path.join(folder, f"cache-{count}"), args.repeats)
        data = json.loads(runs["second run"][-1].stdout)
        if data["files"] != count or data["skipped"] or runs["first run, empty cache"][-1].stdout != runs["--no-cache"][-1].stdout:
            sys.exit(f"stats over {count} files: read {data['files']}, skipped {data['skipped']}, or the runs disagree")
        startup = median(runs["start-up"])
        print(f"  {count:,} files, {sum(p['hands'] for p in data['pairs']):,} hands (start-up, an empty folder: {startup * 1000:.0f} ms)")
        for name in ("first run, empty cache", "second run", "--no-cache"):
            seconds, peak = median(runs[name]), max(r.peak_mib for r in runs[name])
            beyond = seconds - startup
            rate = f"{count / beyond:8,.0f} files/s beyond start-up" if beyond > 0.01 else "   within start-up noise         "
            goal = f"   goal >= 2,000 files/s: {verdict(beyond <= count / 2000)}" if name == "second run" else ""
            print(f"    {name:24}{seconds:7.2f} s  {rate}   peak {peak:5.0f} MiB{goal}")
        peaks[count] = max(r.peak_mib for name in runs for r in runs[name])
    if len(counts) > 1:
        low, high = counts[0], counts[-1]
        growth = peaks[high] / peaks[low]
        print(f"  peak memory, {high:,} files against {low:,}: {peaks[high]:.0f} / {peaks[low]:.0f} MiB = {growth:.2f}x   goal flat (within 1.2x): {verdict(growth <= 1.2)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--peer-python", help="an interpreter that can import pyspiel, for the check row")
    parser.add_argument("--hands", type=int, default=100_000, help="hands for check, each of 10 and 11 cards (default 100,000)")
    parser.add_argument("--stats-files", type=int, nargs="+", default=[1000, 10000], help="folder sizes for stats (default 1000 10000)")
    parser.add_argument("--repeats", type=int, default=3, help="timed runs of each command (default 3)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", choices=("check", "files", "stats"), action="append", help="run only these rows")
    args = parser.parse_args()
    if not Path(GINSCORE).exists():
        sys.exit(f"no ginscore executable next to {sys.executable}: install ginscore in this environment")

    print(f"ginscore commands, whole processes; Python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} CPUs")
    rows = {"check": bench_check, "files": bench_files, "stats": bench_stats}
    with tempfile.TemporaryDirectory(prefix="ginscore-bench-cli-") as folder:
        for name, bench in rows.items():
            if not args.only or name in args.only:
                bench(args, folder)


if __name__ == "__main__":
    main()

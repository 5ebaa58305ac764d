"""Time `ginscore show` on long match files: piped, on an 80-column terminal, and with `--chart`.

Run from the repository root:

    .venv/bin/python benchmarks/bench_show.py [--hands 10 1000 10000] [--repeats 3] [--before DIR]

It writes one counts-only match a size into a temporary folder through the core (`make_record`,
`storage.save`), with long names (Christopher and Elizabeth), a cancelled hand now and then and a
note on one hand in ten, under a target high enough that the match never ends. Then it runs the
`ginscore` next to this Python as a subprocess and takes the median wall time (start-up included)
of the repeats, for each case side by side:

- `show --json FILE`: loading and scoring alone, the floor for the others;
- `show FILE` piped;
- `show FILE` and `show FILE --chart` on a pseudo-terminal 80 columns wide.

With `--before DIR`, a folder that holds another version's `ginscore` package (for example
`git archive 96cc7c1 ginscore | tar -x -C /tmp/before`), each case is also run with that package first
on PYTHONPATH, interleaved with this one, and the ratio before/now is printed.
"""

from __future__ import annotations

import argparse
import os
import platform
import pty
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ginscore.files.storage import save  # noqa: E402
from ginscore.game.rulebook import Rules  # noqa: E402
from ginscore.match.entry import HandEntry  # noqa: E402
from ginscore.match.records import Match  # noqa: E402
from ginscore.match.scored import make_record  # noqa: E402

GINSCORE = str(Path(sys.executable).with_name("ginscore"))
PLAYERS = ("Christopher", "Elizabeth")


def write_match(path: Path, hands: int, seed: int = 1) -> None:
    """A match of `hands` counts-only hands that never reaches its target."""
    match = Match(PLAYERS, replace(Rules(), target=100000), PLAYERS[0], preset="standard")
    rng = random.Random(seed)
    records = []
    for _ in range(hands):
        if rng.random() < 0.04:
            records.append(make_record(match, HandEntry(cancelled=True)).record)
            continue
        note = "counted twice, agreed" if rng.random() < 0.1 else ""
        knocker = rng.choice(PLAYERS)
        deadwood = rng.choice((0, 1, 2, 3, 5, 7, 9, 10))
        records.append(make_record(match, HandEntry(knocker=knocker, deadwood=deadwood, opponent_deadwood=rng.randint(0, 20), note=note)).record)
    save(str(path), match.with_hands(tuple(records)))


def piped(args: list[str], env: dict[str, str]) -> float:
    """Wall time of one run with stdout thrown away, as through a pipe."""
    start = time.perf_counter()
    subprocess.run([GINSCORE, *args], stdout=subprocess.DEVNULL, env=env, check=True)
    return time.perf_counter() - start


def on_terminal(args: list[str], env: dict[str, str], columns: int = 80) -> float:
    """Wall time of one run with stdout on a pseudo-terminal `columns` wide, its output drained."""
    main, child = pty.openpty()
    env = {**env, "COLUMNS": str(columns), "LINES": "50"}
    env.pop("NO_COLOR", None)

    def drain() -> None:
        while True:
            try:
                if not os.read(main, 65536):
                    return
            except OSError:
                return

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    start = time.perf_counter()
    subprocess.run([GINSCORE, *args], stdout=child, stderr=subprocess.DEVNULL, env=env, check=True)
    elapsed = time.perf_counter() - start
    os.close(child)
    reader.join(timeout=5)
    os.close(main)
    return elapsed


def main() -> None:
    """Time each command on each size of match, this version and perhaps `--before`'s, and print a table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, nargs="+", default=[10, 1000, 10000])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--before", help="a folder holding another version's ginscore package, timed side by side")
    options = parser.parse_args()
    print(f"Python {platform.python_version()}, {os.cpu_count()} cores; median of {options.repeats} runs, seconds")
    cases = {
        "show --json": lambda f, env: piped(["show", "--json", f], env),
        "show, piped": lambda f, env: piped(["show", f], env),
        "show, 80-col tty": lambda f, env: on_terminal(["show", f], env),
        "show --chart, 80-col tty": lambda f, env: on_terminal(["show", f, "--chart"], env),
    }
    versions = {"now": dict(os.environ)}
    if options.before:
        versions = {"before": {**os.environ, "PYTHONPATH": options.before}, **versions}
    print(f"{'hands':>7}  {'':>6}  " + "  ".join(f"{name:>24}" for name in cases))
    with tempfile.TemporaryDirectory() as folder:
        for hands in options.hands:
            path = Path(folder) / f"m{hands}.toml"
            write_match(path, hands)
            times: dict[str, list[list[float]]] = {version: [[] for _ in cases] for version in versions}
            for _ in range(options.repeats):
                for index, case in enumerate(cases.values()):
                    for version, env in versions.items():
                        times[version][index].append(case(str(path), env))
            medians = {version: [statistics.median(runs) for runs in figures] for version, figures in times.items()}
            for version, figures in medians.items():
                print(f"{hands:>7}  {version:>6}  " + "  ".join(f"{figure:>24.2f}" for figure in figures), flush=True)
            if options.before:
                ratios = [b / n for b, n in zip(medians["before"], medians["now"])]
                print(f"{hands:>7}  {'ratio':>6}  " + "  ".join(f"{ratio:>23.1f}x" for ratio in ratios), flush=True)


if __name__ == "__main__":
    main()

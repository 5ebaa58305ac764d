"""Start-up time of `ginscore check` against a five-line Typer app that prints one line with rich.

Measure a normal (not editable) install: an editable install adds an import hook that slows
start-up. From the repository root:

    python3 -m venv /tmp/bench-venv
    /tmp/bench-venv/bin/pip install .
    /tmp/bench-venv/bin/python benchmarks/bench_startup.py [--runs 30]

The `ginscore` executable next to the interpreter and the baseline app run interleaved, each
`--runs` times; the wall time of each run is taken around the whole process.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from importlib.metadata import version
from pathlib import Path

HAND = "3h 4h 5h KS KC KD 7c 8c 9c 2d".split()
TARGET_RATIO = 1.2
BASELINE = """\
import typer
from rich import print
app = typer.Typer()
app.command()(lambda: print("[bold]hello[/bold] from a five-line Typer app"))
app()
"""


def wall_ms(command: list[str]) -> float:
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True)
    elapsed = (time.perf_counter() - start) * 1000
    if done.returncode != 0:
        sys.exit(f"{' '.join(command)} failed ({done.returncode}): {done.stderr.strip()}")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=30)
    args = parser.parse_args()

    ginscore = Path(sys.executable).parent / "ginscore"
    if not ginscore.exists():
        sys.exit(f"no ginscore executable next to {sys.executable}: install ginscore in this environment")
    with tempfile.TemporaryDirectory() as tmp:
        app = Path(tmp) / "hello.py"
        app.write_text(BASELINE)
        ours_cmd, base_cmd = [str(ginscore), "check", *HAND], [sys.executable, str(app)]
        wall_ms(ours_cmd), wall_ms(base_cmd)  # one untimed run each: warm the page cache and .pyc files
        ours, base = [], []
        for _ in range(args.runs):
            ours.append(wall_ms(ours_cmd))
            base.append(wall_ms(base_cmd))
    ours_median, base_median = statistics.median(ours), statistics.median(base)
    ratio = ours_median / base_median
    print(f"start-up, {args.runs} interleaved runs each, Python {sys.version.split()[0]}, typer {version('typer')}, rich {version('rich')}")
    print(f"  ginscore check {' '.join(HAND)}: median {ours_median:.0f} ms")
    print(f"  five-line Typer app printing with rich: median {base_median:.0f} ms")
    verdict = "met" if ratio <= TARGET_RATIO else "MISSED"
    print(f"  ratio {ratio:.2f} (target <= {TARGET_RATIO}): {verdict}")


if __name__ == "__main__":
    main()

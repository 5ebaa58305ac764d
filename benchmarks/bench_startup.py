"""Start-up time of `ginscore check HAND` and `ginscore show FILE` against a five-line Typer app printing with rich.

Measure a normal (not editable) install: an editable install adds an import hook that slows
start-up. From the repository root:

    python3 -m venv /tmp/bench-venv
    /tmp/bench-venv/bin/pip install .
    /tmp/bench-venv/bin/python benchmarks/bench_startup.py [--runs 30]

The `ginscore` executable next to the interpreter and the baseline app run interleaved, each
`--runs` times, output piped; the wall time of each run is taken around the whole process, and
each ratio is the median of ginscore's runs over the median of the baseline's; the same by the CPU time
(user and system) of each process, which other work on the machine disturbs less. `show` reads
`sample_matches/standard.toml` (nine hands, a finished match), and again its first seven hands, then its first
hand, each alone in a folder of their own: a game in play, whose chance to win `show` prints under the sheet. The targets are
issue 10's goals, the chance included (issue 35).
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from importlib.metadata import version
from pathlib import Path

HAND = "3h 4h 5h KS KC KD 7c 8c 9c 2d".split()
MATCH = Path(__file__).resolve().parent.parent / "sample_matches" / "standard.toml"
IN_PLAY = {"in play": 7, "early": 1}
"""The hands of `MATCH` that make a match in play: Maria 64, Tom 60, to 100; and early in the game, 28 to 0, where
the chance is solved from 0 points."""
TARGETS = {"check": 1.0, "show": 1.2, "in play": 1.2, "early": 1.2}
BASELINE = """\
import typer
from rich import print
app = typer.Typer()
app.command()(lambda: print("[bold]hello[/bold] from a five-line Typer app"))
app()
"""


def timed_ms(command: list[str]) -> tuple[float, float]:
    """The wall time of one run of `command` and the CPU time (user and system) its process took."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True)
    elapsed = (time.perf_counter() - start) * 1000
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        sys.exit(f"{' '.join(command)} failed ({done.returncode}): {done.stderr.strip()}")
    cpu = (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) * 1000
    return elapsed, cpu


def in_play(text: str, hands: int) -> str:
    """The match file `text` cut after its first `hands` hands."""
    return "\n[[hands]]\n".join(text.split("\n[[hands]]\n")[: hands + 1])


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
        commands = {"check": [str(ginscore), "check", *HAND], "show": [str(ginscore), "show", str(MATCH)]}
        for name, hands in IN_PLAY.items():
            playing = Path(tmp) / name.replace(" ", "-") / "friday.toml"
            playing.parent.mkdir()
            playing.write_text(in_play(MATCH.read_text(encoding="utf-8"), hands), encoding="utf-8")
            commands[name] = [str(ginscore), "show", str(playing)]
            if "Chances: " not in subprocess.run(commands[name], capture_output=True, text=True).stdout:
                sys.exit(f"ginscore show printed no chance for the first {hands} hands of {MATCH.name}")
        commands["baseline"] = [sys.executable, str(app)]
        for command in commands.values():
            timed_ms(command)  # one untimed run each: warm the page cache and .pyc files
        times: dict[str, list[tuple[float, float]]] = {name: [] for name in commands}
        for _ in range(args.runs):
            for name, command in commands.items():
                times[name].append(timed_ms(command))
    medians = {name: statistics.median(wall for wall, _ in runs) for name, runs in times.items()}
    cpus = {name: statistics.median(cpu for _, cpu in runs) for name, runs in times.items()}
    print(f"start-up, {args.runs} interleaved runs each, Python {sys.version.split()[0]}, typer {version('typer')}, rich {version('rich')}")
    print(f"  five-line Typer app printing with rich: median {medians['baseline']:.0f} ms (CPU {cpus['baseline']:.0f} ms)")
    shown = f"show {MATCH.parent.name}/{MATCH.name}"
    rows = [("check", f"check {' '.join(HAND)}"), ("show", shown)]
    rows += [(name, f"{shown}, its first {f'{hands} hands' if hands > 1 else 'hand'} (the chance printed)") for name, hands in IN_PLAY.items()]
    for name, words in rows:
        ratio = medians[name] / medians["baseline"]
        verdict = "met" if ratio <= TARGETS[name] else "MISSED"
        by_cpu = cpus[name] / cpus["baseline"]
        print(f"  ginscore {words}: median {medians[name]:.0f} ms, ratio {ratio:.2f} (target <= {TARGETS[name]:g}): {verdict};"
              f" CPU {cpus[name]:.0f} ms, ratio {by_cpu:.2f}")


if __name__ == "__main__":
    main()

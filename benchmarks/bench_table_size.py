"""Whether a command costs more because the folder holds more games (issue 55): `show` and `odds` on one match in
folders of 1, 100, 1,000 and 10,000 match files, first and warm, beside the five-line Typer app printing with rich
(`bench_startup.py`'s floor); and `stats`, `standings` and serve's first list page on the largest folder.

Measure a normal (not editable) install, as `bench_startup.py` says. From the repository root:

    python3 -m venv /tmp/bench-venv && /tmp/bench-venv/bin/pip install -q .
    /tmp/bench-venv/bin/python benchmarks/bench_table_size.py [--sizes 1 100 1000 10000] [--runs 11]

Each folder holds `friday.toml` (the first seven hands of `sample_matches/standard.toml`: a game in play, whose
chance `show` prints) and finished matches of six players, as a club's archive holds them: each with its own id
and start. 300 distinct matches are written through the core (`bench_stats.write_matches`) and copied with a new id
and start to fill the larger folders. Each folder has a cache folder of its own (`GINSCORE_CACHE_DIR`).

- first: the cache emptied before each run (`--first-runs` runs), so every file is read in full;
- warm: the cache as the run before left it; `--runs` runs of each command, interleaved with the floor.

Each figure is the median wall time of the whole process; the ratio is over the floor's median of the same
round. In process, the table's own work for `show --json` (`Table.show` on a table made afresh, the cache warm) is
timed too.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench_serve import TOKEN, Server  # noqa: E402
from bench_startup import BASELINE, MATCH, in_play, timed_ms  # noqa: E402
from bench_stats import write_matches  # noqa: E402

GINSCORE = str(Path(sys.executable).parent / "ginscore")
DISTINCT = 300


def fill(folder: Path, size: int, distinct: Path) -> None:
    """`friday.toml` and `size - 1` finished matches, each with its own id and start."""
    folder.mkdir()
    (folder / "friday.toml").write_text(in_play(MATCH.read_text(encoding="utf-8"), 7), encoding="utf-8")
    texts = [path.read_text(encoding="utf-8") for path in sorted(distinct.glob("*.toml"))]
    for number in range(size - 1):
        text = texts[number % len(texts)]
        day, minute = divmod(number, 50)
        start = f"2025-{1 + day // 28 % 12:02d}-{1 + day % 28:02d}T{18 + minute // 60 % 6:02d}:{minute % 60:02d}:{number % 60:02d}+00:00"
        text = re.sub(r'^created = "[^"]*"', f'created = "{start}"', text, count=1, flags=re.M)
        text = text.replace("[match]\n", f'[match]\nid = "{uuid.UUID(int=number + 1, version=4)}"\n', 1)
        (folder / f"match-{number:05d}.toml").write_text(text, encoding="utf-8")


def run_ms(command: list[str], cache: Path, empty: bool) -> float:
    if empty:
        shutil.rmtree(cache, ignore_errors=True)
    os.environ["GINSCORE_CACHE_DIR"] = str(cache)
    return timed_ms(command)[0]


def in_process_ms(folder: Path, cache: Path, runs: int) -> float:
    """The table's work for `show --json` in this process: a table made afresh each time, the cache warm."""
    os.environ["GINSCORE_CACHE_DIR"] = str(cache)
    from ginscore.files.table import table_at

    spent = []
    for _ in range(runs):
        start = time.perf_counter()
        table = table_at(str(folder))
        table.show(table.sheet_at(str(folder / "friday.toml")))
        spent.append((time.perf_counter() - start) * 1000)
    return statistics.median(spent)


def first_page_ms(folder: Path, cache: Path) -> tuple[float, float]:
    """Serve's list page: the first request after start, and the next."""
    os.environ["GINSCORE_CACHE_DIR"] = str(cache)
    server = Server(str(folder))
    try:
        with httpx.Client(base_url=server.base, timeout=600, follow_redirects=True) as client:
            spent = []
            for _ in range(2):
                start = time.perf_counter()
                response = client.get(f"/?token={TOKEN}")
                spent.append((time.perf_counter() - start) * 1000)
                if response.status_code != 200:
                    sys.exit(f"serve's list page answered {response.status_code}")
    finally:
        server.stop()
    return spent[0], spent[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1, 100, 1000, 10000])
    parser.add_argument("--runs", type=int, default=11)
    parser.add_argument("--first-runs", type=int, default=3)
    args = parser.parse_args()
    if not Path(GINSCORE).exists():
        sys.exit(f"no ginscore executable next to {sys.executable}: install ginscore in this environment")
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        distinct = root / "distinct"
        distinct.mkdir()
        write_matches(str(distinct), DISTINCT, 1)
        app = root / "hello.py"
        app.write_text(BASELINE)
        floor = [sys.executable, str(app)]
        print(f"{sys.version.split()[0]}; median wall ms of {args.runs} warm runs, {args.first_runs} first runs; ratio over the floor")
        print(f"{'files':>6} {'command':<16} {'first':>8} {'warm':>7} {'floor':>6} {'warm/floor':>10} {'in process':>10}")
        for size in args.sizes:
            folder, cache = root / f"table-{size}", root / f"cache-{size}"
            fill(folder, size, distinct)
            friday = str(folder / "friday.toml")
            commands = {"show": [GINSCORE, "show", friday], "show --json": [GINSCORE, "show", "--json", friday],
                        "odds --json": [GINSCORE, "odds", "--json", friday]}
            first = {name: statistics.median(run_ms(command, cache, True) for _ in range(args.first_runs))
                     for name, command in commands.items()}
            run_ms(commands["show"], cache, False)  # the cache filled
            warm: dict[str, list[float]] = {name: [] for name in commands}
            floors = []
            for _ in range(args.runs):
                floors.append(run_ms(floor, cache, False))
                for name, command in commands.items():
                    warm[name].append(run_ms(command, cache, False))
            base = statistics.median(floors)
            inside = in_process_ms(folder, cache, args.runs)
            for name in commands:
                median = statistics.median(warm[name])
                print(f"{size:>6} {name:<16} {first[name]:>8.0f} {median:>7.0f} {base:>6.0f} {median / base:>10.2f}"
                      + (f" {inside:>10.1f}" if name == "show --json" else ""))
            json_ratio = statistics.median(warm["odds --json"]) / statistics.median(warm["show --json"])
            print(f"{size:>6} odds --json / show --json: {json_ratio:.2f}")
        largest = max(args.sizes)
        folder, cache = root / f"table-{largest}", root / f"cache-{largest}"
        for name, command in {"stats --json": [GINSCORE, "stats", "--json", str(folder)],
                              "standings": [GINSCORE, "standings", str(folder)]}.items():
            first_ms = run_ms(command, cache, True)
            warm_ms = statistics.median(run_ms(command, cache, False) for _ in range(3))
            print(f"{largest:>6} {name:<16} {first_ms:>8.0f} {warm_ms:>7.0f}")
        page_first, page_next = first_page_ms(folder, cache)
        print(f"{largest:>6} serve's list page: first request {page_first:.0f} ms, the next {page_next:.0f} ms")


if __name__ == "__main__":
    main()

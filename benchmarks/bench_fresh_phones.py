"""What a fresh phone costs the browser tests: Chromium's processor time and the wall time for `--phones` new
browser contexts in a row, each opening the app, waiting until its Python answers the pages, then showing one
more page. Run with the tests' Chromium flags (`tests/browsers.py`) and again without the ones `--without`
names, in turn, `--rounds` times each, a new Chromium each time. Medians.

Run from the repository root, alone on the machine (Chromium's time is read from /proc for every Chromium
process here, each process with the children it has reaped); needs npm once for the runtime, Playwright and
Debian's Chromium:

    .venv/bin/python benchmarks/bench_fresh_phones.py [--phones 4] [--rounds 3] [--without --js-flags=--liftoff-only]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(ROOT / "tests"))

from bench_app import GINSCORE, serve_folder  # noqa: E402
from browsers import CHROMIUM, CHROMIUM_FLAGS  # noqa: E402

SUB = "/app/"


def chromium_seconds() -> float:
    """Processor seconds of every Chromium process now running, with the children each has reaped."""
    total = 0.0
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as command:
                if b"chrom" not in command.read().split(b"\0")[0]:
                    continue
            with open(f"/proc/{pid}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += sum(int(field) for field in fields[11:15]) / os.sysconf("SC_CLK_TCK")
    return total


def phones(url: str, flags: list[str], count: int) -> tuple[float, float]:
    """Wall and Chromium seconds for `count` fresh phones, one after another."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=flags)
        began, spent = time.monotonic(), chromium_seconds()
        for _ in range(count):
            context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
            page = context.new_page()
            for hash in ("", "#/check"):
                page.goto(url + hash)
                page.locator('#page[aria-busy="false"]').wait_for(timeout=60000)
            used = chromium_seconds() - spent  # so far, read while this phone's renderer still runs
            context.close()
        wall = time.monotonic() - began
        browser.close()
    return wall, used


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--phones", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--without", action="append", default=None,
                        help="a flag of tests/browsers.py to leave out in the other runs (default: --js-flags=--liftoff-only)")
    args = parser.parse_args()
    without = args.without or ["--js-flags=--liftoff-only"]
    kinds = {"the tests' flags": CHROMIUM_FLAGS, "without " + " ".join(without): [f for f in CHROMIUM_FLAGS if f not in without]}
    with tempfile.TemporaryDirectory(prefix="ginscore-phones-") as folder:
        subprocess.run([GINSCORE, "app", os.path.join(folder, SUB.strip("/"))], check=True, stdout=subprocess.DEVNULL)
        server, _ = serve_folder(Path(folder))
        url = f"http://127.0.0.1:{server.server_port}{SUB}"
        times: dict[str, list[tuple[float, float]]] = {kind: [] for kind in kinds}
        for _ in range(args.rounds):
            for kind, flags in kinds.items():
                times[kind].append(phones(url, flags, args.phones))
        server.shutdown()
    print(f"{args.phones} fresh phones in a row, {args.rounds} rounds, medians:")
    for kind, runs in times.items():
        wall, used = statistics.median(run[0] for run in runs), statistics.median(run[1] for run in runs)
        print(f"  {kind}: {wall:.1f} s wall, {used:.1f} s of Chromium's processor time")


if __name__ == "__main__":
    main()

"""Time the chance to win a game: the solver in-process, and `ginscore odds` as a whole command against
`ginscore show --json` on the same file; `advise` with the game against `advise` without.

Run from the repository root:

    .venv/bin/python benchmarks/bench_odds.py [--repeats 7]

- Solve: the whole table from 0 - 0, standard to 100 (both `next_dealer` rules) and Oklahoma to 150, the
  built-in model of each, the solver's cache cleared each time; the median and the best CPU time of the repeats.
- Commands: a match in play (the first five hands of sample_matches/standard.toml) in a folder beside the
  three samples; each command run as a subprocess with the `ginscore` next to this Python, interleaved; the
  median wall time and the median CPU time (user + system) of the child.
- advise: the same 11 cards at the default samples, with and without `--match`; the same medians.
- The pad's check page of the same match, in-process through Starlette's TestClient: the live answer (no game)
  and Check (with the game's columns), the same 11 cards; the median wall and CPU time of a request.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from ginscore.files.builtin_model import baseline
from ginscore.game.odds import chance_to_win, dealer_table
from ginscore.game.rulebook import PRESETS, Rules

ROOT = Path(__file__).resolve().parent.parent
GINSCORE = str(Path(sys.executable).parent / "ginscore")
HAND = "3h 4h 5h Ks Kc Kd 7c 8c 9c 2d Qs".split()


def solve_times(rules: Rules, repeats: int) -> list[float]:
    model = baseline(rules)
    times = []
    for _ in range(repeats):
        dealer_table.cache_clear()
        started = time.process_time()  # CPU time: on a shared machine, wall time counts the others' work too
        chance_to_win(model, rules.target, rules.next_dealer, (0, 0), 0)
        times.append(time.process_time() - started)
    return times


def run_child(args: list[str]) -> tuple[float, float]:
    """(wall, CPU) seconds of one run of `ginscore ARGS`."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run([GINSCORE, *args], check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def compare(cases: dict[str, list[str]], repeats: int) -> dict[str, tuple[float, float]]:
    found: dict[str, list[tuple[float, float]]] = {name: [] for name in cases}
    for _ in range(repeats):
        for name, args in cases.items():
            found[name].append(run_child(args))
    return {name: (statistics.median(w for w, _ in runs), statistics.median(c for _, c in runs)) for name, runs in found.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args()
    print(f"Python {sys.version.split()[0]} on {os.uname().machine}, {os.cpu_count()} CPUs; load {os.getloadavg()[0]:.1f}")
    print("solve from 0 - 0, CPU ms (median, best):")
    for name, rules in [("standard to 100, winner deals", PRESETS["standard"]),
                        ("standard to 100, alternate", Rules(next_dealer="alternate")),
                        ("oklahoma to 150", PRESETS["oklahoma"])]:
        times = solve_times(rules, args.repeats)
        print(f"  {name}: {statistics.median(times) * 1000:.1f}, {min(times) * 1000:.1f}")
    folder = Path(tempfile.mkdtemp())
    for sample in ("standard.toml", "oklahoma.toml", "counts_only.toml"):
        shutil.copy(ROOT / "sample_matches" / sample, folder / sample)
    from ginscore import load_match, save_match

    match = load_match(str(folder / "standard.toml"))
    halfway = folder / "halfway.toml"
    save_match(str(halfway), match.with_hands(match.hands[:5]))
    commands = compare({"show --json": ["show", str(halfway), "--json"], "odds": ["odds", str(halfway)],
                        "odds --json": ["odds", str(halfway), "--json"]}, args.repeats)
    print("whole commands, s (median wall, median CPU):")
    for name, (wall, cpu) in commands.items():
        print(f"  {name}: {wall:.3f}, {cpu:.3f}")
    base_wall, base_cpu = commands["show --json"]
    print(f"  odds / show --json: {commands['odds'][0] / base_wall:.2f} wall, {commands['odds'][1] / base_cpu:.2f} CPU")
    advice = compare({"advise": ["advise", *HAND, "--seed", "1"],
                      "advise --match": ["advise", *HAND, "--seed", "1", "--match", str(halfway), "--player", "Tom"]},
                     max(3, args.repeats // 2))
    print("advise at the default samples, s (median wall, median CPU):")
    for name, (wall, cpu) in advice.items():
        print(f"  {name}: {wall:.3f}, {cpu:.3f}")
    print(f"  with the game / without: {advice['advise --match'][0] / advice['advise'][0]:.2f} wall, "
          f"{advice['advise --match'][1] / advice['advise'][1]:.2f} CPU")
    print("the pad's check page, 11 cards, ms (median wall, median CPU):")
    for name, (wall, cpu) in check_page_times(folder, max(3, args.repeats // 2)).items():
        print(f"  {name}: {wall * 1000:.0f}, {cpu * 1000:.0f}")
    shutil.rmtree(folder)


def check_page_times(folder: Path, repeats: int) -> dict[str, tuple[float, float]]:
    import re

    from starlette.testclient import TestClient

    from ginscore.web.asgi import create_app

    token = "t" * 32
    cards = " ".join(HAND)
    found: dict[str, list[tuple[float, float]]] = {"live answer": [], "Check, with the game": []}
    with TestClient(create_app(str(folder), token, ["127.0.0.1:8000"]), base_url="http://127.0.0.1:8000") as client:
        client.get(f"/?token={token}")
        page = client.get("/m/halfway.toml/check").text
        field = re.search(r'name="csrf" value="([^"]+)"', page)
        assert field
        form = {"csrf": field.group(1), "cards": cards}
        for _ in range(repeats):
            for name, url, data in (("live answer", "/m/halfway.toml/check/live", form),
                                    ("Check, with the game", "/m/halfway.toml/check", {**form, "action": "check", "seed": "1"})):
                wall, cpu = time.perf_counter(), time.process_time()
                assert client.post(url, data=data).status_code == 200
                found[name].append((time.perf_counter() - wall, time.process_time() - cpu))
    return {name: (statistics.median(w for w, _ in runs), statistics.median(c for _, c in runs)) for name, runs in found.items()}


if __name__ == "__main__":
    main()

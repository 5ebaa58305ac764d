"""Make the built-in model of a hand's outcome: ginscore/game/data/outcomes.json, and scored.json beside it.

Simulates hands of each preset (standard, tournament, oklahoma) with `ginscore.game.simulate`'s two policies, in
chunks of 500 hands, each chunk from its own seed, and writes what decided each hand (who knocked, the two counts,
big gin, a spade up-card), counted. The seed, the policies and the first chunk's counts are written in the file;
tests/test_baseline.py makes that chunk again and compares. scored.json holds each preset's hands scored under
the preset's own rules, so that a chance under a preset costs no scoring at start-up; `--scored` makes it alone
from the outcomes.json there is.

    .venv/bin/python benchmarks/make_outcomes.py               # 20,000 hands a preset, on 2 processes
    .venv/bin/python benchmarks/make_outcomes.py --hands 40000 --processes 1
    .venv/bin/python benchmarks/make_outcomes.py --scored
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter
from multiprocessing import Pool
from pathlib import Path

from ginscore.files.builtin_model import scored_data
from ginscore.game.baseline import CHUNK, SEED, Knock, simulate_chunk
from ginscore.game.rulebook import PRESETS
from ginscore.game.simulate import POLICIES

OUT = Path(__file__).resolve().parent.parent / "ginscore" / "game" / "data" / "outcomes.json"
SCORED = OUT.with_name("scored.json")


def _chunk(job: tuple[str, int, int]) -> tuple[str, int, Counter[Knock]]:
    preset, seed, chunk = job
    return preset, chunk, simulate_chunk(preset, seed, chunk)


def rows(counted: Counter[Knock]) -> list[list[object]]:
    """The counts as the file holds them: each record's fields, then its count, in order."""
    return [[*knock.as_list(), count] for knock, count in sorted(counted.items())]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=20_000, help="hands a preset, rounded up to chunks of 500")
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--scored", action="store_true", help="only score the shipped hands again (scored.json)")
    args = parser.parse_args()
    if args.scored:
        write_scored()
        return
    chunks = -(-args.hands // CHUNK)
    jobs = [(preset, args.seed, chunk) for preset in PRESETS for chunk in range(chunks)]
    started = time.perf_counter()
    totals: dict[str, Counter[Knock]] = {preset: Counter() for preset in PRESETS}
    first: dict[str, Counter[Knock]] = {}
    with Pool(args.processes) as pool:
        for preset, chunk, counted in pool.imap_unordered(_chunk, jobs):
            totals[preset].update(counted)
            if chunk == 0:
                first[preset] = counted
    data = {
        "about": "simulated hands of gin, counted by what decided them: [knocker, knocker_deadwood, "
        "opponent_deadwood, big_gin, spade_upcard, hands]; made by benchmarks/make_outcomes.py",
        "seed": args.seed,
        "chunk_hands": CHUNK,
        "policies": [{"name": p.name, "knock_at": p.knock_at, "description": p.description} for p in POLICIES],
        "policy_choice": "each player of each hand plays one policy, drawn at random",
        "presets": {
            preset: {
                "hands": chunks * CHUNK,
                "chunks": chunks,
                "rules": PRESETS[preset].to_dict(),
                "knocks": rows(totals[preset]),
                "first_chunk": rows(first[preset]),
            }
            for preset in PRESETS
        },
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(data, separators=(",", ":")) + "\n", encoding="utf-8")
    took = time.perf_counter() - started
    print(f"wrote {args.out}: {chunks * CHUNK} hands a preset, {len(PRESETS)} presets, in {took:.0f} s")
    if args.out == OUT:
        write_scored()


def write_scored() -> None:
    SCORED.write_text(json.dumps(scored_data(PRESETS), separators=(",", ":")) + "\n", encoding="utf-8")
    print(f"wrote {SCORED}")


if __name__ == "__main__":
    main()

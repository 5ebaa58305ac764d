"""Time ginscore's meld solver on seeded random hands.

Run from the repository root:

    .venv/bin/python benchmarks/bench_solver.py [--hands 20000] [--seed 1]

It times, in one process, `min_deadwood` on 10-card hands (uniform and meld-rich) and
`min_after_discard` on 11-card hands, as microseconds per hand: the median and the mean of
several timed passes over one batch, after a warm-up pass that fills the solver's tables.
The first pass with cold tables is timed apart, in a fresh process per case. The naive
oracle of the tests runs on a sample of the same hands, and so do OpenSpiel and RLCard when
they can be imported (here, or in the interpreter given by --peer-python); neither is a
dependency of ginscore.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(1, str(ROOT / "tests"))

from ginscore.cards import DECK, Card, Hand  # noqa: E402

CASES = ("10 uniform", "10 meld-rich", "11 uniform")
LABELS = {
    "10 uniform": "min_deadwood, 10 cards, uniform",
    "10 meld-rich": "min_deadwood, 10 cards, meld-rich",
    "11 uniform": "min_after_discard, 11 cards, uniform",
}
TARGETS = {"10 uniform": 15.0, "10 meld-rich": 40.0, "11 uniform": 30.0}
EARLIER_PEERS = {  # µs/hand, measured earlier on this machine
    "OpenSpiel": {"10 uniform": 1.8, "10 meld-rich": 6.1, "11 uniform": 28.6},
    "RLCard": {"10 uniform": 29.0, "10 meld-rich": 117.0, "11 uniform": 385.0},
}


# --- hands -----------------------------------------------------------------------------------


def meld_rich(rng: random.Random) -> list[Card]:
    """10 cards from 5 or 6 adjacent ranks in all four suits."""
    width = rng.choice((5, 6))
    low = rng.randint(1, 14 - width)
    return rng.sample([c for c in DECK if low <= c.rank < low + width], 10)


def make_hands(count: int, seed: int) -> dict[str, list[list[Card]]]:
    """The same hands for every run with the same count and seed, in any process."""
    rng = random.Random(seed)
    return {
        "10 uniform": [rng.sample(DECK, 10) for _ in range(count)],
        "10 meld-rich": [meld_rich(rng) for _ in range(count)],
        "11 uniform": [rng.sample(DECK, 11) for _ in range(count)],
    }


# --- timing ----------------------------------------------------------------------------------


def passes(function: Callable, items: Sequence, repeats: int) -> list[float]:
    """µs per item of each of `repeats` timed passes over `items`; the collector is off, as in timeit."""
    results = []
    gc.disable()
    try:
        for _ in range(repeats):
            start = time.perf_counter()
            for item in items:
                function(item)
            results.append((time.perf_counter() - start) / len(items) * 1e6)
    finally:
        gc.enable()
    return results


def summary(times: list[float]) -> dict[str, float]:
    return {"median": statistics.median(times), "mean": statistics.fmean(times)}


def our_functions():
    from ginscore.melds import min_after_discard, min_deadwood

    return {"10 uniform": min_deadwood, "10 meld-rich": min_deadwood, "11 uniform": min_after_discard}


def time_ours(hands: dict[str, list[list[Card]]], repeats: int) -> dict[str, dict[str, float]]:
    from ginscore.melds import solve

    functions = our_functions()
    results = {}
    for case in CASES:
        masks = [Hand.of(hand).mask for hand in hands[case]]
        passes(functions[case], masks, 1)  # warm-up: fill the lazy tables
        results[case] = summary(passes(functions[case], masks, repeats))
    eleven = [tuple(hand) for hand in hands["11 uniform"][: max(1, len(hands["11 uniform"]) // 10)]]
    passes(solve, eleven, 1)
    results["solve 11"] = summary(passes(solve, eleven, repeats))
    return results


def cold_worker(case: str, count: int, seed: int) -> dict[str, float]:
    """In a fresh process: the first call, and the first pass over the hands, with empty tables."""
    hands = [Hand.of(hand).mask for hand in make_hands(count, seed)[case]]
    import ginscore.melds as melds

    function = our_functions()[case]
    first_call = passes(function, hands[:1], 1)[0]
    first_pass = passes(function, hands[1:], 1)[0]
    tables = {
        "runs": len(melds._RUNS),
        "discards": len(melds._DISCARDS),
        "set choices": len(melds._SET_CHOICES),
    }
    return {"first_call": first_call, "first_pass": first_pass, "tables": tables}


def time_cold(count: int, seed: int) -> dict[str, dict]:
    results = {}
    for case in CASES:
        command = [sys.executable, __file__, "--cold-worker", case, "--hands", str(count), "--seed", str(seed)]
        output = subprocess.run(command, check=True, capture_output=True, text=True).stdout
        results[case] = json.loads(output)
    return results


def time_oracle(hands: dict[str, list[list[Card]]], sample: int) -> dict[str, dict]:
    import oracle

    from ginscore.melds import min_after_discard, min_deadwood

    functions = {
        "10 uniform": oracle.min_deadwood,
        "10 meld-rich": oracle.min_deadwood,
        "11 uniform": oracle.min_after_discard,
    }
    results = {}
    for case in CASES:
        size = sample if case.startswith("10") else max(1, sample // 4)
        chosen = hands[case][:size]
        start = time.perf_counter()
        answers = [functions[case](hand) for hand in chosen]
        per_hand = (time.perf_counter() - start) / len(chosen) * 1e6
        if case.startswith("10"):
            ours = [min_deadwood(Hand.of(hand).mask) for hand in chosen]
        else:
            ours = []
            for hand in chosen:
                best, discards, big_gin = min_after_discard(Hand.of(hand).mask)
                ours.append((best, set(Hand(discards)), big_gin))
        results[case] = {"hands": len(chosen), "us": per_hand, "agree": answers == ours}
    return results


# --- OpenSpiel and RLCard ----------------------------------------------------------------------


def peer_functions() -> dict[str, dict[str, tuple[Callable, Callable]]]:
    """For each importable peer and case: (convert a hand of ours, the peer's function)."""
    found: dict[str, dict[str, tuple[Callable, Callable]]] = {}
    try:
        import pyspiel
    except ImportError:
        pass
    else:
        utils = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)
        index = {utils.card_string(i): i for i in range(52)}

        def to_openspiel(hand: list[Card]) -> list[int]:
            return [index[("T" if c.rank == 10 else c.rank.label) + c.suit.letter] for c in hand]

        def openspiel_after_discard(hand: list[int]) -> tuple[int, list[int]]:
            # OpenSpiel's own 11-card MinDeadwood keeps its best 11-card meld group and drops the
            # highest deadwood card, which can miss the best discard; try every discard instead.
            values = [utils.min_deadwood(hand[:i] + hand[i + 1 :]) for i in range(len(hand))]
            best = min(values)
            return best, [i for i, value in enumerate(values) if value == best]

        found["OpenSpiel"] = {
            "10 uniform": (to_openspiel, utils.min_deadwood),
            "10 meld-rich": (to_openspiel, utils.min_deadwood),
            "11 uniform": (to_openspiel, openspiel_after_discard),
            "11 shortcut": (to_openspiel, utils.min_deadwood),
        }
    try:
        from rlcard.games.base import Card as RLCard
        from rlcard.games.gin_rummy.utils import melding
        from rlcard.games.gin_rummy.utils import utils as rl_utils
    except ImportError:
        pass
    else:

        def to_rlcard(hand: list[Card]) -> list:
            return [RLCard(c.suit.letter.upper(), "T" if c.rank == 10 else c.rank.label) for c in hand]

        def rlcard_deadwood(hand: list) -> int:
            clusters = melding.get_best_meld_clusters(hand)
            return rl_utils.get_deadwood_count(hand, clusters[0] if clusters else [])

        def rlcard_after_discard(hand: list) -> tuple[int, list]:
            values = [rlcard_deadwood(hand[:i] + hand[i + 1 :]) for i in range(len(hand))]
            best = min(values)
            return best, [i for i, value in enumerate(values) if value == best]

        found["RLCard"] = {
            "10 uniform": (to_rlcard, rlcard_deadwood),
            "10 meld-rich": (to_rlcard, rlcard_deadwood),
            "11 uniform": (to_rlcard, rlcard_after_discard),
        }
    return found


def our_answer(case: str, hand: list[Card]):
    """Ours, in the shape the peer functions answer: deadwood, or (deadwood, indices of best discards)."""
    from ginscore.melds import min_after_discard, min_deadwood

    mask = Hand.of(hand).mask
    if case.startswith("10"):
        return min_deadwood(mask)
    best, discards, _ = min_after_discard(mask)
    if case == "11 shortcut":
        return best
    return best, [i for i, card in enumerate(hand) if card.bit & discards]


def time_peers_here(hands: dict[str, list[list[Card]]], sample: int, repeats: int) -> dict[str, dict]:
    results: dict[str, dict] = {}
    for peer, cases in peer_functions().items():
        results[peer] = {}
        for case, (convert, function) in cases.items():
            chosen = hands[case.split()[0] + " uniform" if case == "11 shortcut" else case][:sample]
            items = [convert(hand) for hand in chosen]
            passes(function, items[: max(1, sample // 10)], 1)
            results[peer][case] = summary(passes(function, items, repeats))
            answers = [function(item) for item in items]
            results[peer][case]["agree"] = sum(
                answers[i] == our_answer(case, hand) for i, hand in enumerate(chosen)
            )
            results[peer][case]["hands"] = len(chosen)
    return results


def time_peers(args, hands) -> tuple[dict[str, dict], str]:
    results = time_peers_here(hands, args.peer_hands, args.repeats)
    where = "this interpreter"
    if args.peer_python and len(results) < 2:
        command = [
            args.peer_python,
            __file__,
            "--peer-worker",
            "--hands",
            str(args.hands),
            "--seed",
            str(args.seed),
            "--peer-hands",
            str(args.peer_hands),
            "--repeats",
            str(args.repeats),
        ]
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        done = subprocess.run(command, capture_output=True, text=True, env=env)
        if done.returncode == 0:
            for peer, cases in json.loads(done.stdout).items():
                results.setdefault(peer, cases)
            where = args.peer_python
        else:
            print(f"--peer-python failed: {done.stderr.strip().splitlines()[-1:]}", file=sys.stderr)
    return results, where


# --- report ----------------------------------------------------------------------------------


def report(args) -> None:
    hands = make_hands(args.hands, args.seed)
    print(
        f"ginscore meld solver: {args.hands} hands per case, seed {args.seed}, {args.repeats} timed passes"
        f" after a warm-up; Python {platform.python_version()} on {platform.machine()}"
    )
    print("µs per hand, median of the passes (mean in brackets); hands are bitmasks built beforehand")
    ours = time_ours(hands, args.repeats)
    for case in CASES:
        med, mean = ours[case]["median"], ours[case]["mean"]
        verdict = "within" if med <= TARGETS[case] else "OVER"
        print(f"  {LABELS[case]:<40} {med:7.2f} ({mean:.2f})   target <= {TARGETS[case]:g}: {verdict}")
    s = ours["solve 11"]
    eleven = max(1, args.hands // 10)
    print(f"  {'solve(), 11 cards, uniform (' + str(eleven) + ' hands)':<40} {s['median']:7.2f} ({s['mean']:.2f})")

    print("\nfirst pass with cold tables, a fresh process per case (tables fill lazily):")
    for case, cold in time_cold(args.hands, args.seed).items():
        tables = ", ".join(f"{k} {v}" for k, v in cold["tables"].items())
        print(
            f"  {LABELS[case]:<40} first call {cold['first_call']:7.1f} µs, then {cold['first_pass']:6.2f}"
            f" µs/hand over the rest of the first pass (tables after: {tables})"
        )

    sample = min(args.oracle_hands, args.hands)
    print("\nnaive oracle (tests/oracle.py) on the first hands of the same batches, once each:")
    for case, result in time_oracle(hands, sample).items():
        ratio = result["us"] / ours[case]["median"]
        agree = "agrees" if result["agree"] else "DISAGREES"
        print(
            f"  {LABELS[case]:<40} {result['us']:9.1f} µs/hand on {result['hands']} hands,"
            f" oracle/ours = {ratio:,.0f}x, {agree} with ours"
        )

    peers, where = time_peers(args, hands)
    sample = min(args.peer_hands, args.hands)
    if peers:
        print(f"\npeers on the first {sample} hands of the same batches (run in {where}), µs per hand:")
    else:
        print("\npeers: neither pyspiel nor rlcard imports here (see --peer-python)")
    for peer in ("OpenSpiel", "RLCard"):
        if peer not in peers:
            earlier = " / ".join(f"{EARLIER_PEERS[peer][c]:g}" for c in CASES)
            print(f"  {peer}: not importable; measured earlier on this machine: {earlier}")
            continue
        for case in (*CASES, "11 shortcut"):
            if case not in peers[peer]:
                continue
            result = peers[peer][case]
            ours_case = "11 uniform" if case == "11 shortcut" else case
            ratio = result["median"] / ours[ours_case]["median"]
            earlier = f"(earlier: {EARLIER_PEERS[peer][case]:g})" if case in CASES else "           "
            print(
                f"  {peer + ', ' + case:<24} {result['median']:8.2f} ({result['mean']:.2f})"
                f"   peer/ours = {ratio:5.2f}   {earlier}   same answer as ours on"
                f" {result['agree']}/{result['hands']}"
            )
    if peers:
        print("  11 uniform: the peer's 10-card function on each of the 11 discards (least deadwood and")
        print("  every best discard); 11 shortcut: OpenSpiel's own 11-card MinDeadwood (least deadwood only)")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=20000, help="hands per case (default 20000)")
    parser.add_argument("--seed", type=int, default=1, help="random seed for the hands (default 1)")
    parser.add_argument("--repeats", type=int, default=7, help="timed passes per case (default 7)")
    parser.add_argument("--oracle-hands", type=int, default=400, help="hands for the oracle (default 400)")
    parser.add_argument("--peer-hands", type=int, default=2000, help="hands for OpenSpiel/RLCard (default 2000)")
    parser.add_argument("--peer-python", help="an interpreter that can import pyspiel and/or rlcard")
    parser.add_argument("--cold-worker", choices=CASES, help=argparse.SUPPRESS)
    parser.add_argument("--peer-worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.hands < 2:
        parser.error("--hands must be at least 2")
    if args.cold_worker:
        print(json.dumps(cold_worker(args.cold_worker, args.hands, args.seed)))
    elif args.peer_worker:
        hands = make_hands(args.hands, args.seed)
        print(json.dumps(time_peers_here(hands, args.peer_hands, args.repeats)))
    else:
        report(args)


if __name__ == "__main__":
    main()

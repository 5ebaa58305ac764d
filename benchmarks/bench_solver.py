"""Time ginscore's meld solver against OpenSpiel and RLCard, interleaved in one process on the same unseen hands.

Run from the repository root:

    .venv/bin/python benchmarks/bench_solver.py [--hands 10000] [--rounds 5] [--seed 1]
    .venv/bin/python benchmarks/bench_solver.py --peer-python /tmp/peers-venv/bin/python

ginscore is pure Python with no dependencies, so with --peer-python the whole benchmark runs in
that interpreter (whose venv has `open_spiel` and/or `rlcard`), with ginscore imported from this
checkout: every figure comes from one process. Each round draws new hands, never timed before, and
times every contestant on them in turn, the order rotating from round to round; a ratio is taken
within a round, and the report gives the median over the rounds. One untimed round first warms
everyone up. The first pass with empty tables is timed apart, in a fresh process per case. The
naive oracle of the tests checks a sample of the hands.
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
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(1, str(ROOT / "tests"))

from ginscore.game.cards import DECK, Card, Hand  # noqa: E402
from ginscore.game.melds import first_arrangement, min_after_discard, min_deadwood  # noqa: E402

CASES = {
    "10 uniform": "least deadwood, 10 cards, uniform",
    "10 meld-rich": "least deadwood, 10 cards, meld-rich",
    "10 arranged": "one least arrangement, 10 cards, uniform",
    "11 uniform": "every best discard, 11 cards, uniform",
}
TARGET = 1.0  # issue 10: ginscore at most the time of OpenSpiel's C++ (and of RLCard)
def as_is(answer: object) -> object:
    return answer


Contestant = tuple[Callable[[list[Card]], object], Callable[[object], object], Callable[[object], object]]
"""(convert a hand before the clock starts, the timed function, its answer in our terms)."""


# --- hands -----------------------------------------------------------------------------------


def meld_rich(rng: random.Random) -> list[Card]:
    """10 cards from 5 or 6 adjacent ranks in all four suits: runs and sets fight over cards."""
    width = rng.choice((5, 6))
    low = rng.randint(1, 14 - width)
    return rng.sample([c for c in DECK if low <= c.rank < low + width], 10)


def make_hands(case: str, count: int, seed: int) -> list[list[Card]]:
    """Fresh hands for one case and one round: each round has its own seed."""
    rng = random.Random(f"{seed}/{case}")
    if case == "10 meld-rich":
        return [meld_rich(rng) for _ in range(count)]
    return [rng.sample(DECK, 11 if case.startswith("11") else 10) for _ in range(count)]


# --- the contestants -------------------------------------------------------------------------


def ours() -> dict[str, Contestant]:
    def mask(hand: list[Card]) -> int:
        return Hand.of(hand).mask

    def discards(answer) -> tuple[int, frozenset[Card]]:
        return answer[0], frozenset(Hand(answer[1]))

    def arranged(answer) -> int:
        return Hand(answer[1]).value

    return {
        "10 uniform": (mask, min_deadwood, as_is),
        "10 meld-rich": (mask, min_deadwood, as_is),
        "10 arranged": (mask, first_arrangement, arranged),
        "11 uniform": (mask, min_after_discard, discards),
    }


def openspiel() -> dict[str, Contestant] | None:
    try:
        import pyspiel
    except ImportError:
        return None
    utils = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)
    index = {utils.card_string(i): i for i in range(52)}
    card_of = {i: next(c for c in DECK if ("T" if c.rank == 10 else c.rank.label) + c.suit.letter == name) for name, i in index.items()}

    def convert(hand: list[Card]) -> list[int]:
        return [index[("T" if c.rank == 10 else c.rank.label) + c.suit.letter] for c in hand]

    def after_discard(hand: list[int]) -> tuple[int, list[int]]:
        # OpenSpiel's own 11-card MinDeadwood keeps its best 11-card meld group and drops the highest
        # deadwood card, which can miss the best discard (see README): try every discard instead.
        values = [utils.min_deadwood(hand[:i] + hand[i + 1 :]) for i in range(11)]
        best = min(values)
        return best, [card for card, value in zip(hand, values) if value == best]

    def arranged(hand: list[int]) -> tuple[list[int], list[list[int]]]:
        return hand, utils.best_meld_group(hand)

    def deadwood_left(answer) -> int:
        hand, melds = answer
        melded = {card for meld in melds for card in meld}
        return sum(card_of[c].value for c in hand if c not in melded)

    def discards(answer) -> tuple[int, frozenset[Card]]:
        return answer[0], frozenset(card_of[c] for c in answer[1])

    return {
        "10 uniform": (convert, utils.min_deadwood, as_is),
        "10 meld-rich": (convert, utils.min_deadwood, as_is),
        "10 arranged": (convert, arranged, deadwood_left),
        "11 uniform": (convert, after_discard, discards),
    }


def rlcard() -> dict[str, Contestant] | None:
    try:
        from rlcard.games.base import Card as RLCard
        from rlcard.games.gin_rummy.utils import melding
        from rlcard.games.gin_rummy.utils import utils as rl_utils
    except ImportError:
        return None
    ours_of = {("T" if c.rank == 10 else c.rank.label, c.suit.letter.upper()): c for c in DECK}

    def convert(hand: list[Card]) -> list:
        return [RLCard(c.suit.letter.upper(), "T" if c.rank == 10 else c.rank.label) for c in hand]

    def deadwood(hand: list) -> int:
        clusters = melding.get_best_meld_clusters(hand)
        return rl_utils.get_deadwood_count(hand, clusters[0] if clusters else [])

    def after_discard(hand: list) -> tuple[int, list]:
        values = [deadwood(hand[:i] + hand[i + 1 :]) for i in range(11)]
        best = min(values)
        return best, [card for card, value in zip(hand, values) if value == best]

    def discards(answer) -> tuple[int, frozenset[Card]]:
        return answer[0], frozenset(ours_of[(c.rank, c.suit)] for c in answer[1])

    return {
        "10 uniform": (convert, deadwood, as_is),
        "10 meld-rich": (convert, deadwood, as_is),
        "10 arranged": (convert, deadwood, as_is),  # get_best_meld_clusters lays out the hand on the way
        "11 uniform": (convert, after_discard, discards),
    }


# --- timing ----------------------------------------------------------------------------------


def timed_pass(function: Callable, items: list) -> tuple[float, list]:
    """µs per item of one pass, and the answers; the collector is off, as in timeit."""
    gc.disable()
    try:
        start = time.perf_counter()
        answers = [function(item) for item in items]
        elapsed = time.perf_counter() - start
    finally:
        gc.enable()
    return elapsed / len(items) * 1e6, answers


def race(contestants: dict[str, dict[str, Contestant]], hands: int, rounds: int, seed: int) -> dict:
    """For each case and contestant: µs per hand of each round, and the hands whose answer differs from ours."""
    results: dict = {case: {name: {"us": [], "differ": 0} for name in contestants} for case in CASES}
    names = list(contestants)
    for number in range(rounds + 1):  # round 0 warms everyone up and is not reported
        for case in CASES:
            batch = make_hands(case, hands, seed * 1000 + number)
            order = names[number % len(names) :] + names[: number % len(names)]
            answers = {}
            for name in order:
                convert, function, in_our_terms = contestants[name][case]
                items = [convert(hand) for hand in batch]
                us, raw = timed_pass(function, items)
                answers[name] = [in_our_terms(answer) for answer in raw]
                if number:
                    results[case][name]["us"].append(us)
            for name in names:
                if number:
                    results[case][name]["differ"] += sum(a != b for a, b in zip(answers[name], answers["ginscore"]))
    return results


def cold_worker(case: str, hands: int, seed: int) -> dict:
    """In a fresh process: the first call, then the rest of the first pass, with the solver's tables empty."""
    convert, function, _ = ours()[case]
    items = [convert(hand) for hand in make_hands(case, hands, seed * 1000 + 999)]
    first, _ = timed_pass(function, items[:1])
    rest, _ = timed_pass(function, items[1:])
    warm, _ = timed_pass(function, items[1:])
    return {"first_call": first, "first_pass": rest, "second_pass": warm}


def time_cold(hands: int, seed: int) -> dict[str, dict]:
    results = {}
    for case in CASES:
        command = [sys.executable, __file__, "--cold-worker", case, "--hands", str(hands), "--seed", str(seed)]
        results[case] = json.loads(subprocess.run(command, check=True, capture_output=True, text=True).stdout)
    return results


def check_oracle(sample: int, seed: int) -> dict[str, tuple[int, int]]:
    """How many of a sample of fresh hands the naive oracle of the tests answers as we do."""
    import oracle

    found = {}
    for case in ("10 uniform", "10 meld-rich", "11 uniform"):
        batch = make_hands(case, sample if case.startswith("10") else max(1, sample // 4), seed * 1000 + 998)
        if case.startswith("10"):
            agree = sum(oracle.min_deadwood(h) == min_deadwood(Hand.of(h).mask) for h in batch)
        else:
            agree = 0
            for hand in batch:
                best, chosen, big_gin = min_after_discard(Hand.of(hand).mask)
                agree += oracle.min_after_discard(hand) == (best, set(Hand(chosen)), big_gin)
        found[case] = (agree, len(batch))
    return found


# --- report ----------------------------------------------------------------------------------


def report(args) -> None:
    contestants: dict[str, dict[str, Contestant]] = {"ginscore": ours()}
    for name, peer in (("OpenSpiel", openspiel()), ("RLCard", rlcard())):
        if peer is not None:
            contestants[name] = peer
    print(
        f"ginscore meld solver: {args.rounds} rounds of {args.hands} new hands per case, seed {args.seed};"
        f" Python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} CPUs, in {sys.executable}"
    )
    peers = [name for name in contestants if name != "ginscore"]
    if not peers:
        print("peers: neither pyspiel nor rlcard imports in this interpreter: give --peer-python to race them")
    print("µs per hand, median over the rounds (min-max); the ratio is ginscore's time over the peer's, per round")
    results = race(contestants, args.hands, args.rounds, args.seed)
    for case, label in CASES.items():
        print(f"  {label}")
        for name in contestants:
            times = results[case][name]["us"]
            line = f"    {name:<10} {statistics.median(times):8.2f} ({min(times):.2f}-{max(times):.2f})"
            if name != "ginscore":
                ratios = [a / b for a, b in zip(results[case]["ginscore"]["us"], times)]
                ratio = statistics.median(ratios)
                verdict = "met" if ratio <= TARGET else "MISSED"
                differ = results[case][name]["differ"]
                line += f"   ginscore/{name} = {ratio:.2f} (target <= {TARGET:g}: {verdict}); answers differ on {differ} of {args.hands * args.rounds}"
            print(line)
    print("  10 arranged: ginscore first_arrangement, OpenSpiel best_meld_group, RLCard get_best_meld_clusters")
    print("  11 uniform: a peer's 10-card solver on each of the 11 discards (least deadwood and every best discard)")

    print("\nfirst pass with empty tables, a fresh process per case (µs per hand):")
    for case, cold in time_cold(args.hands, args.seed).items():
        print(
            f"  {CASES[case]:<40} first call {cold['first_call']:7.1f}, rest of the first pass"
            f" {cold['first_pass']:6.2f}, second pass {cold['second_pass']:6.2f}"
        )

    print("\nnaive oracle (tests/oracle.py) on fresh hands:")
    for case, (agree, total) in check_oracle(args.oracle_hands, args.seed).items():
        print(f"  {CASES[case]:<40} agrees with ginscore on {agree} of {total}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=10000, help="new hands per case and round (default 10000)")
    parser.add_argument("--rounds", type=int, default=5, help="timed rounds (default 5)")
    parser.add_argument("--seed", type=int, default=1, help="random seed for the hands (default 1)")
    parser.add_argument("--oracle-hands", type=int, default=400, help="hands the oracle checks (default 400)")
    parser.add_argument("--peer-python", help="run everything in this interpreter, which imports pyspiel and/or rlcard")
    parser.add_argument("--cold-worker", choices=CASES, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.hands < 2 or args.rounds < 1:
        parser.error("--hands must be at least 2 and --rounds at least 1")
    if args.cold_worker:
        print(json.dumps(cold_worker(args.cold_worker, args.hands, args.seed)))
    elif args.peer_python:
        options = ["--hands", args.hands, "--rounds", args.rounds, "--seed", args.seed, "--oracle-hands", args.oracle_hands]
        sys.exit(subprocess.run([args.peer_python, __file__, *map(str, options)]).returncode)
    else:
        report(args)


if __name__ == "__main__":
    main()

"""The built-in model of a hand's outcome: simulated hands kept as what decided them, scored under any rules.

Each simulated hand is kept as a `Knock`: who knocked (from the dealer's view), the two counts, big gin, and
whether the up-card was a spade. Those do not depend on the bonuses, so the same hands give the outcome
distribution under any gin bonus, undercut bonus, tie rule or doubling (`rescored`). They do depend on how the
hands were played: the knock limit, Oklahoma and big gin; `play_of` names the shipped set of hands whose play
matches the rules (or the nearest one); it lives with the presets (`rulebook`), so that a chance from the
shipped hands, already scored, imports nothing of this module.

The hands are simulated in chunks of `CHUNK` hands, each from its own seed (`chunk_seed`), so that any chunk can
be made again alone and compared, and the chunks can be made side by side.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from .cards import Suit
from .outcomes import DEAD, DEALER, NON_DEALER, OutcomeCounts
from .rulebook import PRESETS, Rules, play_of, same_play
from .scoring import score_counts

__all__ = ["CHUNK", "SEED", "Knock", "chunk_seed", "play_of", "rescored", "same_play", "simulate_chunk"]

CHUNK = 500
"""Hands simulated from one seed."""
SEED = 30
"""The seed of the shipped data."""


@dataclass(frozen=True, order=True)
class Knock:
    """What decided a simulated hand, whatever the bonuses: who knocked and the counts; `dead` when nobody did."""

    knocker: str
    """`dealer`, `non_dealer`, or `dead`."""
    knocker_deadwood: int = 0
    opponent_deadwood: int = 0
    """The opponent's count after lay-offs (their own count against gin)."""
    big_gin: bool = False
    spade: bool = False
    """The up-card was a spade (it doubles the hand where spades double)."""

    def as_list(self) -> list[object]:
        """The record as the data file holds it."""
        return [self.knocker, self.knocker_deadwood, self.opponent_deadwood, self.big_gin, self.spade]


def chunk_seed(seed: int, preset: str, chunk: int) -> str:
    """The seed of one chunk of a preset's hands."""
    return f"{seed}:{preset}:{chunk}"


def simulate_chunk(preset: str, seed: int, chunk: int, hands: int = CHUNK) -> Counter[Knock]:
    """One chunk of a preset's simulated hands, counted by what decided them."""
    rules = PRESETS[preset]
    import random  # only to simulate: a chance from the shipped hands costs no import of the simulator

    from .simulate import simulate_hand

    rng = random.Random(chunk_seed(seed, preset, chunk))
    counted: Counter[Knock] = Counter()
    for _ in range(hands):
        hand = simulate_hand(rules, rng)
        if hand.result is None or hand.knocker is None:
            counted[Knock(DEAD)] += 1
            continue
        result = hand.result
        counted[
            Knock(
                hand.knocker,
                result.knocker_deadwood,
                result.opponent_deadwood,
                result.result == "big_gin",
                hand.upcard.suit == Suit.SPADES,
            )
        ] += 1
    return counted


def rescored(knocks: dict[Knock, int], rules: Rules) -> OutcomeCounts:
    """The hands' outcomes from the dealer's view, scored under `rules`.

    Big gin scores as gin where the rules have none; a count above these rules' knock limit is scored as if the
    knock were legal (the hands were played under other rules: `play_of` says which).
    """
    results: list[tuple[str, int]] = []
    for knock, count in knocks.items():
        if knock.knocker == DEAD:
            results += [(DEAD, 0)] * count
            continue
        big_gin = knock.big_gin and rules.big_gin
        multiplier = 2 if knock.spade and rules.oklahoma and rules.spades_double else 1
        limit = max(knock.knocker_deadwood, 10)
        result = score_counts(knock.knocker_deadwood, knock.opponent_deadwood, rules, limit, multiplier, big_gin)
        if result.winner is None:
            side = DEAD
        elif result.winner == "knocker":
            side = knock.knocker
        else:
            side = NON_DEALER if knock.knocker == DEALER else DEALER
        results += [(side, 0 if side == DEAD else result.points)] * count
    return OutcomeCounts.of(results)

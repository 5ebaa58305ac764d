"""Advice for the player to move: which card to discard, whether to knock now, and what it is worth.

The opponent's hand is unknown, so it is drawn from the unseen cards under a stated model:

- `deal`: the cards the opponent is known to hold, plus the rest drawn uniformly from the unseen
  cards. When there are no more possible hands than samples asked for, each is taken once (exact).
- `improved`: a `deal` hand, then the opponent's turns so far, each drawing an unseen card and
  keeping the ten with the least deadwood (ties at random), never throwing a card they are known
  to hold.

For each discard that may knock, every spread within the knock limit is scored against every
opponent hand exactly as `score` scores a given spread (the opponent's own melds and lay-offs from
`best_layoff`, the points from `score_counts`). The spread to lay down is the one with the highest
mean: the knocker spreads before seeing the opponent's cards. Outs are the unseen cards that, drawn
next, let the ten cards kept knock or go gin.
"""

from __future__ import annotations

import hashlib
import math
import random
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from itertools import combinations

from ..errors import CardListError, InputError
from .cards import DECK, Card, Hand, format_cards, require_count
from .draws import below, choice, sample
from .estimate import mean_interval, wilson
from .layoffs import best_layoff, first_layoffs
from .melds import Arrangement, arrangements, bits_of, min_after_discard, min_deadwood
from .rulebook import Rules
from .scoring import HandResult, score_counts

MODELS = ("deal", "improved")
FRESH_STOCK = 31
"""Cards in the stock after the deal and the up-card."""
MID_HAND_STOCK = 17
"""The stock assumed when none is given: halfway from a fresh stock to the last two cards (or all
the unseen cards outside the opponent's hand, when fewer)."""
MAX_SAMPLES = 1_000_000
_PROGRESS_EVERY = 100


@dataclass(frozen=True)
class Outs:
    """Unseen cards that, drawn next, let the hand knock (gin included) or go gin."""

    knock: tuple[Card, ...]
    gin: tuple[Card, ...]


@dataclass(frozen=True)
class StandardErrors:
    """The standard error of each share and of the expected points, when the hands were sampled."""

    win: float
    undercut: float
    tie: float
    expected_points: float


@dataclass(frozen=True)
class Intervals:
    """95% intervals, when the hands were sampled: Wilson's for each share, the normal one for the points."""

    win: tuple[float, float]
    undercut: tuple[float, float]
    tie: tuple[float, float]
    expected_points: tuple[float, float]


@dataclass(frozen=True)
class KnockValue:
    """What knocking with one spread is worth against the model's opponent hands."""

    spread: Arrangement
    """The melds and deadwood to lay down."""
    win: float
    """Share of opponent hands where the knocker wins (knock, gin or big gin)."""
    undercut: float
    """Share where the opponent undercuts."""
    tie: float
    """Share where the counts are equal and nobody scores (only with `undercut_on_tie` off)."""
    expected_points: float
    """Mean points from the knocker's side: negative when undercuts cost more than wins bring."""
    errors: StandardErrors | None
    """None when every opponent hand was enumerated, or fewer than two were sampled."""
    intervals: Intervals | None = None
    """None when every opponent hand was enumerated, or fewer than two were sampled."""


@dataclass(frozen=True)
class Option:
    """One discard of an 11-card hand."""

    discard: Card
    deadwood: int
    """The least deadwood of the ten cards kept."""
    can_knock: bool
    gin: bool
    knock: KnockValue | None
    """The value of knocking now with the best spread; None when this discard cannot knock."""
    outs: Outs


@dataclass(frozen=True)
class Advice:
    """The answer for a hand of 11 cards (options) or of 10 (deadwood and outs)."""

    cards: tuple[Card, ...]
    knock_limit: int
    multiplier: int
    """2 when a spade up-card doubles the hand."""
    unseen: int
    """Cards in neither the hand, the seen cards nor the opponent's known cards."""
    model: str
    samples: int
    """Opponent hands evaluated (0 for 10 cards: nothing is scored)."""
    exact: bool
    """Whether every possible opponent hand was enumerated once."""
    seed: int
    turns: int
    """Under `improved`, the opponent's turns so far (drawing and keeping their best ten)."""
    stock: int
    """Cards in the stock: as given, or assumed (`MID_HAND_STOCK`, or fewer when fewer are unseen)."""
    stock_assumed: bool
    options: tuple[Option, ...] = ()
    """For 11 cards, one per card, best first."""
    recommended: Option | None = None
    """The option that may knock with the highest expected points; None when none may knock."""
    big_gin: bool = False
    """Whether the 11 cards are big gin under the rules."""
    big_gin_value: KnockValue | None = None
    worlds: tuple[int, ...] = ()
    """With `keep_worlds`, the opponent hands the options were scored against, as masks, in order."""
    world_counts: tuple[int, ...] = ()
    """With `keep_worlds`, each of those hands' own least deadwood, in the same order."""
    pool: tuple[int, ...] = ()
    """With `keep_worlds`, the unseen cards (as bits): the opponent's hand and the stock come from them."""
    upcard: Card | None = None
    deadwood: int | None = None
    """For 10 cards, the least deadwood."""
    best: Arrangement | None = None
    """For 10 cards, one arrangement with the least deadwood."""
    outs: Outs | None = None
    """For 10 cards, the outs."""


ProgressCallback = Callable[[int, int], None]


def advise(
    cards: tuple[Card, ...],
    rules: Rules,
    *,
    seed: int | None = None,
    seen: tuple[Card, ...] = (),
    opponent_took: tuple[Card, ...] = (),
    stock: int | None = None,
    upcard: Card | None = None,
    model: str = "improved",
    samples: int = 2000,
    progress: ProgressCallback | None = None,
    keep_worlds: bool = False,
) -> Advice:
    """Advise on a hand of 11 cards (what to discard, whether to knock) or of 10 (the outs). Without a `seed`,
    one is drawn (and kept in the advice, so that the run can be repeated)."""
    if seed is None:
        seed = random.SystemRandom().randrange(1_000_000)
    require_count(cards, (10, 11), "a hand to advise on")
    hand, seen_hand, took = Hand.of(cards), Hand.of(seen), Hand.of(opponent_took)
    _refuse_overlap(hand, seen_hand, "in your hand", "seen")
    _refuse_overlap(hand, took, "in your hand", "taken by the opponent")
    _refuse_overlap(seen_hand, took, "seen", "taken by the opponent")
    if len(took) > 10:
        raise CardListError(f"the opponent holds 10 cards, but {len(took)} were given as taken by them")
    if model not in MODELS:
        raise InputError(f"unknown model {model!r}: choose deal or improved", field="model")
    if not 1 <= samples <= MAX_SAMPLES:
        raise InputError(f"the samples must be from 1 to {MAX_SAMPLES}, not {samples}", field="samples")
    if upcard is not None and not (hand | took).mask & upcard.bit:
        seen_hand = seen_hand | Hand.of((upcard,))  # face up on the discard pile: never drawn from the stock
    pool = [card.bit for card in DECK if not (hand | seen_hand | took).mask & card.bit]
    need = 10 - len(took)
    if need > len(pool):
        raise InputError(
            f"the opponent needs {need} more cards but only {len(pool)} are unseen: check the cards seen and taken",
            field="seen",
        )
    most = min(FRESH_STOCK, len(pool) - need)
    if stock is not None and not 0 <= stock <= most:
        raise InputError(
            f"a stock of {stock} is impossible: with {len(pool)} unseen cards and {need} of them in the opponent's hand, "
            f"the stock holds from 0 to {most}",
            field="stock",
        )
    limit, multiplier = rules.knock_limit_for(upcard), rules.multiplier_for(upcard)
    in_stock = min(MID_HAND_STOCK, most) if stock is None else stock
    # Cards the opponent drew and threw away are on the discard pile; only the unseen ones can be drawn here.
    turns = min(opponent_turns(in_stock, len(cards)), len(pool) - need) if model == "improved" else 0
    exact = turns == 0 and math.comb(len(pool), need) <= samples
    if len(cards) == 10:
        best = next(arrangements(hand))
        outs = find_outs(hand.mask, pool, limit)
        return Advice(
            cards, limit, multiplier, len(pool), model, 0, True, seed, turns, in_stock, stock is None,
            deadwood=best.deadwood, best=best, outs=outs,
        )
    planned = math.comb(len(pool), need) if exact else samples
    base = Advice(cards, limit, multiplier, len(pool), model, planned, exact, seed, turns, in_stock, stock is None)
    drawn = opponent_hands(pool, took.mask, need, turns, samples, exact, random.Random(seed))
    hands: Iterator[tuple[int, int]] = ((world, min_deadwood(world)) for world in drawn)
    if keep_worlds:
        kept = tuple(hands)
        base = replace(base, worlds=tuple(world for world, _ in kept), world_counts=tuple(own for _, own in kept),
                       pool=tuple(pool), upcard=upcard)
        hands = iter(kept)
    return _eleven(base, hand, pool, rules, hands, progress)


def hand_seed(faces: Iterable[str], upcard: Card | None) -> int:
    """The seed a hand's opponent hands are drawn with, made from its cards' text (in any order) and the up-card:
    the live check, Check, a reload and the review give the same figures for the same hand."""
    digest = hashlib.sha256(" ".join([*sorted(faces), "up", str(upcard or "")]).encode()).digest()
    return int.from_bytes(digest[:4], "big") % 1_000_000


def _refuse_overlap(first: Hand, second: Hand, first_name: str, second_name: str) -> None:
    both = first & second
    if both:
        raise CardListError(f"{format_cards(both.sorted())} cannot be both {first_name} and {second_name}")


def opponent_turns(stock: int, hand_size: int) -> int:
    """The opponent's share of the draws from the stock so far.

    With 11 cards the player has just drawn, so the opponent has had half the draws (rounded
    down); with 10 the opponent has just played, so half rounded up.
    """
    draws = FRESH_STOCK - stock
    return (draws + (hand_size == 10)) // 2


def opponent_hands(
    pool: list[int], took: int, need: int, turns: int, samples: int, exact: bool, rng: random.Random
) -> Iterator[int]:
    """The opponent hands of the model, as masks: every one once when `exact`, else `samples` drawn with `rng`."""
    if exact:
        for combo in combinations(pool, need):
            yield took | sum(combo)
        return
    bits = rng.getrandbits
    for _ in range(samples):
        hand = took | sum(sample(bits, pool, need))
        if turns:
            rest = [bit for bit in pool if not hand & bit]
            for drawn in sample(bits, rest, turns):
                hand = keep_best_ten(hand | drawn, took, rng)
        yield hand


def keep_best_ten(hand: int, took: int, rng: random.Random) -> int:
    """Eleven cards less one that leaves the least deadwood (ties at random), never a card in `took`."""
    _, best, _ = min_after_discard(hand)
    allowed = best & ~took
    if allowed:  # drawn as `choice` draws from the list of these cards, lowest first, without the list
        for _ in range(below(rng.getrandbits, allowed.bit_count())):
            allowed &= allowed - 1
        return hand ^ (allowed & -allowed)
    free = list(bits_of(hand & ~took))
    counts = [min_deadwood(hand ^ bit) for bit in free]
    least = min(counts)
    return hand ^ choice(rng.getrandbits, [bit for bit, count in zip(free, counts) if count == least])


def find_outs(kept: int, pool: list[int], limit: int) -> Outs:
    """The unseen cards that, drawn to the ten kept, let them knock or go gin after the best discard."""
    counts = [(bit, min_after_discard(kept | bit)[0]) for bit in pool]
    return Outs(
        tuple(Hand(sum(bit for bit, count in counts if count <= limit)).sorted()),
        tuple(Hand(sum(bit for bit, count in counts if count == 0)).sorted()),
    )


class _Tally:
    """The results of one spread over the opponent hands."""

    __slots__ = ("spread", "melds", "deadwood", "gin", "big_gin", "net", "squares", "wins", "undercuts", "ties")

    def __init__(self, spread: Arrangement, big_gin: bool = False):
        self.spread = spread
        self.melds = tuple(sorted(meld.mask for meld in spread.melds))
        self.deadwood = spread.deadwood
        self.gin = not spread.deadwood_cards
        self.big_gin = big_gin
        self.net = self.squares = self.wins = self.undercuts = self.ties = 0

    def add(self, result: HandResult, times: int = 1) -> None:
        """`result` met `times` times."""
        net = result.net
        self.net += net * times
        self.squares += net * net * times
        if result.winner == "knocker":
            self.wins += times
        elif result.winner == "opponent":
            self.undercuts += times
        else:
            self.ties += times

    def value(self, count: int, exact: bool) -> KnockValue:
        win, undercut, tie = self.wins / count, self.undercuts / count, self.ties / count
        mean = self.net / count
        if exact or count < 2:  # nothing to estimate, or no way to estimate it
            return KnockValue(self.spread, win, undercut, tie, mean, None)
        variance = (self.squares - count * mean * mean) / (count - 1)
        error = math.sqrt(max(variance, 0.0) / count)
        errors = StandardErrors(_share_error(win, count), _share_error(undercut, count), _share_error(tie, count), error)
        intervals = Intervals(
            wilson(self.wins, count), wilson(self.undercuts, count), wilson(self.ties, count), mean_interval(mean, error)
        )
        return KnockValue(self.spread, win, undercut, tie, mean, errors, intervals)


def _share_error(share: float, count: int) -> float:
    return math.sqrt(share * (1 - share) / count)


def _eleven(
    base: Advice, hand: Hand, pool: list[int], rules: Rules, hands: Iterator[tuple[int, int]],
    progress: ProgressCallback | None,
) -> Advice:
    """The options of eleven cards, each spread that may knock scored against the opponent hands `hands` (each
    with its own least deadwood)."""
    limit, multiplier = base.knock_limit, base.multiplier
    discards = hand.sorted()
    tallies: dict[Card, list[_Tally]] = {}
    for card in discards:
        kept = hand.mask ^ card.bit
        if min_deadwood(kept) <= limit:
            tallies[card] = [_Tally(spread) for spread in arrangements(kept, limit)]
    big_gin = rules.big_gin and min_deadwood(hand.mask) == 0
    big = _Tally(next(arrangements(hand, 0)), big_gin=True) if big_gin else None
    every = [t for group in tallies.values() for t in group] + ([big] if big else [])
    if not every:  # nothing may knock: no opponent hand is needed
        base = replace(base, samples=0, exact=True)
        hands = iter(())
    # The cards that could be laid off first onto each spread's melds: an opponent holding none lays off nothing.
    reach = {melds: first_layoffs(melds) for melds in sorted({t.melds for t in every if not t.gin})}
    # Each world's counts are tallied first; each spread then adds up its results once for each count met.
    owns: Counter[int] = Counter()
    after: dict[tuple[int, ...], Counter[int]] = {melds: Counter() for melds in reach}
    reaching = list(reach.items())
    count = 0
    for opponent, own in hands:
        owns[own] += 1
        for melds, cards in reaching:
            after[melds][best_layoff(melds, opponent, own)[0] if opponent & cards else own] += 1
        count += 1
        if progress is not None and count % _PROGRESS_EVERY == 0:
            progress(count, base.samples)
    results: dict[tuple[int, int, bool], HandResult] = {}
    for tally in every:
        for opponent_count, times in (owns if tally.gin else after[tally.melds]).items():
            key = (tally.deadwood, opponent_count, tally.big_gin)
            result = results.get(key)
            if result is None:
                result = results[key] = score_counts(*key[:2], rules, limit, multiplier, tally.big_gin)
            tally.add(result, times)
    exact = base.exact
    options = []
    for card in discards:
        kept = hand.mask ^ card.bit
        deadwood = min_deadwood(kept)
        knock = None
        if card in tallies:
            best = max(tallies[card], key=lambda t: (t.net, -t.deadwood))
            knock = best.value(count, exact)
        options.append(Option(card, deadwood, deadwood <= limit, deadwood == 0, knock, find_outs(kept, pool, limit)))
    options.sort(key=_rank)
    knockable = [o for o in options if o.knock is not None]
    return replace(
        base,
        samples=count,
        options=tuple(options),
        recommended=knockable[0] if knockable else None,
        big_gin=big_gin,
        big_gin_value=big.value(count, exact) if big else None,
    )


def _rank(option: Option) -> tuple:
    """Best first: knocks by expected points, then the rest by deadwood, then by outs."""
    if option.knock is not None:
        return (0, -option.knock.expected_points, option.deadwood, option.discard)
    return (1, option.deadwood, -len(option.outs.knock), -len(option.outs.gin), option.discard)


@dataclass(frozen=True)
class Play:
    """What to do with 11 cards: the one recommendation the text and the JSON both give."""

    kind: str
    """`big_gin`, `gin`, `knock`, or `keep` when no discard may knock."""
    option: Option | None
    """The discard: the one to knock with, or (for `keep`) the one that keeps the least deadwood; None for big gin."""
    value: KnockValue | None
    """What the play is worth; None for `keep`."""


def recommendation(advice: Advice) -> Play | None:
    """The play with the highest expected points: big gin when it is worth at least the best knock; None for 10 cards."""
    if not advice.options:
        return None
    best = advice.recommended
    big = advice.big_gin_value if advice.big_gin else None
    if big is not None and (best is None or best.knock is None or big.expected_points >= best.knock.expected_points):
        return Play("big_gin", None, big)
    if best is None or best.knock is None:
        return Play("keep", advice.options[0], None)
    return Play("gin" if best.gin else "knock", best, best.knock)

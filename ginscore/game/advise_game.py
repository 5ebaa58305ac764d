"""Advice that weighs the match: each discard's chance to win the game if you knock now, and if you play on.

Both come from the opponent hands `advise` already sampled (its worlds). Knocking now: in each world the knock
scores (you score k, or you are undercut and the opponent scores k', or nobody scores), and the chance to win the
game from the new scores, the next dealer following the rules, is exact (`odds`). Its mean over the worlds is the
chance; the outcomes weighed are listed, so that anyone can recompute it. Playing on: in each of the first
`rollouts` worlds the rest of the stock is shuffled from the unseen cards and the hand is played out by the
simulator (`simulate.play_out`): you play its eager policy (you knock at your next chance), the opponent one of
its two policies drawn at random, as in the built-in model; the game's chance is then taken from the hand's end.
Each world is played out twice, from the same shuffle: against a careless opponent, who knocks by its policy
alone, even into the undercut your low count sets; and against a careful one, who sees your cards and never
knocks into an undercut. A real opponent lies between the two; the careful figure, the one least kind to playing
on, is the one the advice goes by. Each chance has the normal interval of a mean.

The shuffles and the opponent's policies are drawn once for the hand and every discard is played on from them
(common random numbers), as every discard's knock meets the same opponent hands: two discards then differ by
what they do, not by their luck, and `estimate.difference_interval` gives the error of a difference with the
luck they share taken out. The two opponents play alike until the careless one knocks into an undercut, so the
careful one is played out on its own only where the careless one did that. The one play the advice ends in is
`one_play`'s; the JSON, `advice_json`'s.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from .advise import Advice
from .cards import Card
from .estimate import mean_interval
from .layoffs import best_layoff, first_layoffs
from .melds import Arrangement
from .odds import chance_to_win
from .outcomes import Outcomes
from .rulebook import Rules
from .scoring import score_counts
from .simulate import POLICIES, POLICY, STOCK_LEFT, Ending, Policy, Position, careful, play_out

ROLLOUTS = 100
"""Worlds played out for each discard that may knock, by default."""
YOU, OPPONENT = "you", "opponent"


@dataclass(frozen=True)
class GameState:
    """The game the hand is played in, from the adviser's side: the scores before this hand and who dealt it."""

    mine: int
    theirs: int
    dealing: bool
    """Whether you dealt this hand."""
    target: int
    next_dealer: str
    """The rules' `next_dealer`: `winner` or `alternate`."""


@dataclass(frozen=True)
class WeighedOutcome:
    """One way knocking now ended in the sampled worlds."""

    winner: str | None
    """`you`, `opponent`, or None when nobody scored."""
    points: int
    share: float
    """The share of the worlds that ended so."""
    chance: float
    """Your chance to win the game from the scores it leaves."""


@dataclass(frozen=True)
class GameChoice:
    """One discard that may knock: its chance to win the game by knocking now and by playing on."""

    discard: Card
    knock_now: float
    knock_interval: tuple[float, float] | None
    outcomes: tuple[WeighedOutcome, ...]
    play_on: float
    """Playing on against a careful opponent, who never knocks into an undercut."""
    play_on_interval: tuple[float, float] | None
    rollouts: int
    play_on_careless: float
    """Playing on against a careless opponent, who knocks by its policy alone, undercut or not."""
    play_on_careless_interval: tuple[float, float] | None
    knock_values: tuple[float, ...] = field(default=(), repr=False, compare=False)
    """Knocking now's chance in each of advise's worlds, in their order (its mean is `knock_now`)."""
    play_on_values: tuple[float, ...] = field(default=(), repr=False, compare=False)
    """Playing on's chance in each world played out, the first `rollouts` of the same worlds, in order; one value
    when the hand is dead after any discard."""

    @property
    def knocks(self) -> bool:
        """Whether knocking now wins the game at least as often as playing on against the careful opponent."""
        return self.knock_now >= self.play_on


@dataclass(frozen=True)
class GameAdvice:
    """The match's side of the advice: each knocking discard's chances, the best play for the game, and a word where
    it differs from the hand's own advice."""

    state: GameState
    now: float
    """Your chance to win the game before this hand ends, the model's own."""
    choices: tuple[GameChoice, ...]
    best: GameChoice | None
    """The choice whose better play wins the game most often."""
    hand_best: Card | None = None
    """The hand's own advice: the discard it recommends, when one can knock."""

    @property
    def differs(self) -> str | None:
        """One plain sentence when the game's best play is not the hand's."""
        return self.differs_words()

    def differs_words(self, face: Callable[[str], str] = str) -> str | None:
        """`differs`, each card through `face` (a phone's `7♣`): play on where the hand says knock, or knock with
        another discard."""
        best, hand_best = self.best, self.hand_best
        if best is None or hand_best is None:
            return None
        if not best.knocks:
            return (
                f"Play on: knocking now wins the game {best.knock_now:.0%} of the time, and playing on "
                f"{best.play_on:.0%}; the points a knock brings now matter less than the risk or the gin it gives up."
            )
        if best.discard != hand_best:
            theirs = next((choice for choice in self.choices if choice.discard == hand_best), None)
            against = f" against {theirs.knock_now:.0%}" if theirs else ""
            return (
                f"Knock with {face(str(best.discard))} rather than {face(str(hand_best))}: it wins the game more often "
                f"({best.knock_now:.0%}{against}), though it scores fewer points on average."
            )
        return None


def weigh_game(
    advice: Advice, rules: Rules, model: Outcomes, state: GameState, rollouts: int = ROLLOUTS, seed: int | None = None
) -> GameAdvice:
    """The chances to win the game of each discard `advice` may knock with (it must keep its worlds)."""
    rng = random.Random(advice.seed if seed is None else seed)
    floor = min(state.mine, state.theirs)

    def chance(mine: int, theirs: int, winner: str | None) -> float:
        dealer_is_me = state.dealing
        if winner is not None:
            dealer_is_me = (winner == YOU) if state.next_dealer == "winner" else not state.dealing
        return chance_to_win(model, state.target, state.next_dealer, (mine, theirs), 0 if dealer_is_me else 1, floor)

    hand_mask = sum(card.bit for card in advice.cards)
    owns = list(advice.world_counts)
    shuffles = _shuffles(advice, rollouts, rng)
    choices = []
    for option in advice.options:
        if option.knock is None:
            continue
        weighed, knock_values = _knock_now(option.knock.spread, advice, rules, owns, state, chance)
        total = len(advice.worlds)
        knock_now, knock_interval = _mean([(w.chance, w.share * total) for w in weighed], total)
        if advice.exact:  # every possible opponent hand taken once: knocking now is exact, a point with no error
            knock_values = (knock_now,)
        played, careless = _play_on(hand_mask ^ option.discard.bit, option.discard.bit, shuffles, advice, rules, state,
                                    chance)
        play_on, play_interval = _mean([(p, 1) for p in played], len(played))
        loose, loose_interval = _mean([(p, 1) for p in careless], len(careless))
        choices.append(
            GameChoice(
                option.discard, knock_now, knock_interval, weighed, play_on, play_interval, len(played), loose,
                loose_interval, knock_values, tuple(played),
            )
        )
    now = chance(state.mine, state.theirs, None)
    best = max(choices, key=lambda c: max(c.knock_now, c.play_on), default=None)
    hand_best = advice.recommended.discard if advice.recommended is not None else None
    return GameAdvice(state, now, tuple(choices), best, hand_best)


Chance = Callable[[int, int, str | None], float]
"""Your chance to win the game from your score, the opponent's, and who won the hand (None: nobody scored)."""


def _knock_now(
    spread: Arrangement, advice: Advice, rules: Rules, owns: list[int], state: GameState, chance: Chance
) -> tuple[tuple[WeighedOutcome, ...], tuple[float, ...]]:
    """Knocking now with `spread` in each of advice's worlds (`owns`: each world's own count): the outcomes met,
    most often first, and the chance each world leaves, in the worlds' order."""
    per_world = _counts(tuple(sorted(meld.mask for meld in spread.melds)), not spread.deadwood_cards, advice.worlds,
                        owns)
    outcome_of: dict[int, tuple[str | None, int]] = {}
    counted: Counter[tuple[str | None, int]] = Counter()
    for count, n in Counter(per_world).items():
        knocked = score_counts(spread.deadwood, count, rules, advice.knock_limit, advice.multiplier)
        who = None if knocked.winner is None else (YOU if knocked.winner == "knocker" else OPPONENT)
        outcome_of[count] = (who, knocked.points)
        counted[(who, knocked.points)] += n
    total = len(per_world)
    weighed = []
    left: dict[tuple[str | None, int], float] = {}
    for (who, points), n in sorted(counted.items(), key=lambda item: (-item[1], str(item[0][0]), item[0][1])):
        mine = state.mine + (points if who == YOU else 0)
        theirs = state.theirs + (points if who == OPPONENT else 0)
        left[(who, points)] = chance(mine, theirs, who)
        weighed.append(WeighedOutcome(who, points, n / total, left[(who, points)]))
    return tuple(weighed), tuple(left[outcome_of[count]] for count in per_world)


def _play_on(
    kept: int, discard: int, shuffles: list[tuple[int, list[int], Policy]], advice: Advice, rules: Rules,
    state: GameState, chance: Chance,
) -> tuple[list[float], list[float]]:
    """Playing on after `discard` from each shared shuffle: the chance each leaves against the careful opponent and
    against the careless one, in the shuffles' order (one value, nobody scoring, when the hand is dead now)."""
    if advice.stock <= STOCK_LEFT:  # a discard now leaves the stock's last two cards: the hand is dead
        dead = [chance(state.mine, state.theirs, None)]
        return dead, dead
    played: list[float] = []
    careless: list[float] = []
    for world, stock, policy in shuffles:
        loose = _play(kept, world, stock, discard, rules, advice, policy)
        careless.append(_ended(loose, state, chance))
        if loose.knocker == 1 and (loose.result is None or loose.result.winner != "knocker"):
            # the careless opponent knocked into an undercut (or a tie), where the careful one holds on: its hand
            # goes another way from there, so it is played out on its own
            played.append(_ended(_play(kept, world, stock, discard, rules, advice, careful(policy)), state, chance))
        else:  # the careful opponent never met a knock it would refuse: the same hand, the same end
            played.append(careless[-1])
    return played, careless


def _shuffles(advice: Advice, rollouts: int, rng: random.Random) -> list[tuple[int, list[int], Policy]]:
    """The play-on shuffles every discard of the hand is played out from (common random numbers): for each of the
    first `rollouts` worlds, the rest of the unseen cards shuffled into the stock and the opponent's policy drawn;
    none when a discard now would leave the stock's last two cards."""
    if advice.stock <= STOCK_LEFT:
        return []
    shuffles = []
    for world in advice.worlds[:rollouts]:
        rest = [bit for bit in advice.pool if not world & bit]
        rng.shuffle(rest)
        shuffles.append((world, rest[: advice.stock], rng.choice(POLICIES)))
    return shuffles


def _play(kept: int, world: int, stock: list[int], discard: int, rules: Rules, advice: Advice, opponent: Policy) -> Ending:
    """The hand played out after `discard`: you (player 0) eager, the opponent (1) by `opponent`, moving next."""
    position = Position([kept, world], list(stock), discard, 1)
    return play_out(position, rules, advice.upcard, advice.knock_limit, (POLICY["eager"], opponent))


def _counts(melds: tuple[int, ...], gin: bool, worlds: tuple[int, ...], owns: list[int]) -> list[int]:
    """The opponent's count in each world after lay-offs onto `melds` (none against gin): a world holding none of
    the cards that could be laid off first on them keeps its own count."""
    if gin:
        return owns
    reach = first_layoffs(melds)
    return [best_layoff(melds, world, own)[0] if world & reach else own for world, own in zip(worlds, owns)]


def _ended(ending: Ending, state: GameState, chance: Chance) -> float:
    """Your chance to win the game from the scores a played-out hand leaves (you are player 0, the mover 1)."""
    result = ending.result
    if result is None or result.winner is None:
        return chance(state.mine, state.theirs, None)
    mine_won = (ending.knocker == 0) == (result.winner == "knocker")
    mine = state.mine + (result.points if mine_won else 0)
    theirs = state.theirs + (0 if mine_won else result.points)
    return chance(mine, theirs, YOU if mine_won else OPPONENT)


def _mean(values: list[tuple[float, float]], count: int) -> tuple[float, tuple[float, float] | None]:
    """The mean of weighted values and its interval (None below two values)."""
    if not count:
        return 0.0, None
    mean = sum(v * w for v, w in values) / count
    if count < 2:
        return mean, None
    variance = sum(w * (v - mean) ** 2 for v, w in values) / (count - 1)
    low, high = mean_interval(mean, math.sqrt(variance / count))
    return mean, (max(0.0, low), min(1.0, high))

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
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from .advise import Advice
from .cards import Card
from .estimate import mean_interval
from .layoffs import best_layoff
from .melds import min_deadwood
from .odds import chance_to_win
from .outcomes import Outcomes
from .rulebook import Rules
from .scoring import score_counts
from .simulate import POLICIES, POLICY, STOCK_LEFT, Ending, Position, careful, play_out

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
    choices = []
    for option in advice.options:
        if option.knock is None:
            continue
        spread = option.knock.spread
        melds = tuple(sorted(meld.mask for meld in spread.melds))
        gin = not spread.deadwood_cards
        counted: Counter[tuple[str | None, int]] = Counter()
        for world in advice.worlds:
            count = min_deadwood(world) if gin else best_layoff(melds, world)[0]
            knocked = score_counts(spread.deadwood, count, rules, advice.knock_limit, advice.multiplier)
            who = None if knocked.winner is None else (YOU if knocked.winner == "knocker" else OPPONENT)
            counted[(who, knocked.points)] += 1
        total = sum(counted.values())
        weighed = []
        for (who, points), n in sorted(counted.items(), key=lambda item: (-item[1], str(item[0][0]), item[0][1])):
            mine = state.mine + (points if who == YOU else 0)
            theirs = state.theirs + (points if who == OPPONENT else 0)
            weighed.append(WeighedOutcome(who, points, n / total, chance(mine, theirs, who)))
        knock_now, knock_interval = _mean([(w.chance, w.share * total) for w in weighed], total)
        kept = hand_mask ^ option.discard.bit
        played: list[float] = []
        careless: list[float] = []
        for world in advice.worlds[:rollouts] if advice.stock > STOCK_LEFT else ():
            rest = [bit for bit in advice.pool if not world & bit]
            rng.shuffle(rest)
            policy = rng.choice(POLICIES)
            for opponent, chances in ((careful(policy), played), (policy, careless)):
                position = Position([kept, world], rest[: advice.stock], option.discard.bit, 1)
                ending = play_out(position, rules, advice.upcard, advice.knock_limit, (POLICY["eager"], opponent))
                chances.append(_ended(ending, state, chance))
        if advice.stock <= STOCK_LEFT:  # a discard now leaves the stock's last two cards: the hand is dead
            played = careless = [chance(state.mine, state.theirs, None)]
        play_on, play_interval = _mean([(p, 1) for p in played], len(played))
        loose, loose_interval = _mean([(p, 1) for p in careless], len(careless))
        choices.append(
            GameChoice(
                option.discard, knock_now, knock_interval, tuple(weighed), play_on, play_interval, len(played), loose,
                loose_interval,
            )
        )
    now = chance(state.mine, state.theirs, None)
    best = max(choices, key=lambda c: max(c.knock_now, c.play_on), default=None)
    hand_best = advice.recommended.discard if advice.recommended is not None else None
    return GameAdvice(state, now, tuple(choices), best, hand_best)


def _ended(ending: Ending, state: GameState, chance: Callable[[int, int, str | None], float]) -> float:
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


def game_dict(game: GameAdvice) -> dict:
    """`advise --match --json`'s `game` object: the state, and for each discard that may knock its chances, with the
    outcomes weighed for knocking now (who scores, the points, the share of worlds, the chance they leave)."""
    state = game.state
    return {
        "scores": {"you": state.mine, "opponent": state.theirs},
        "you_dealt": state.dealing,
        "target": state.target,
        "next_dealer": state.next_dealer,
        "chance_now": game.now,
        "options": [
            {
                "discard": str(choice.discard),
                "knock_now": choice.knock_now,
                "knock_now_interval": list(choice.knock_interval) if choice.knock_interval else None,
                "play_on": choice.play_on,
                "play_on_interval": list(choice.play_on_interval) if choice.play_on_interval else None,
                "rollouts": choice.rollouts,
                "play_on_careless": choice.play_on_careless,
                "play_on_careless_interval": (
                    list(choice.play_on_careless_interval) if choice.play_on_careless_interval else None
                ),
                "best": "knock" if choice.knocks else "play_on",
                "outcomes": [
                    {"winner": o.winner, "points": o.points, "share": o.share, "chance": o.chance}
                    for o in choice.outcomes
                ],
            }
            for choice in game.choices
        ],
        "best": None if game.best is None else {
            "discard": str(game.best.discard), "play": "knock" if game.best.knocks else "play_on"
        },
        "differs": game.differs,
    }

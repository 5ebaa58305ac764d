"""The review of a match: every knock recorded with the knocker's eleven cards, judged by the game chance it cost.

For each such hand, at the scores before it, the knocker's options are weighed exactly as `advise --match` weighs
them: `advise` draws the opponent hands from the eleven cards (its defaults, the seed made from the hand as the
live check makes it, `hand_seed`), and `weigh_game` gives each discard that may knock its chance to win the game by
knocking now and by playing on. The option taken (the knock, gin or big gin laid down, with its discard and
spread) is set against the best option; the difference, in percentage points, is the chance lost, judged by
`JUDGEMENTS`. Where the chance lost is within its error (the 95% interval of the difference reaches 0) the hand
is `close` and counts no error. The difference's error is worked out world by world: every option of a hand is
weighed against the same opponent hands and played on from the same shuffles (common random numbers), so the
luck of the draw that two options share cancels out of it.

What is exact and what is sampled: the chance to win the game from a given score is exact for the model
(`game.odds`). Knocking now is its mean over the opponent hands drawn (exact when every possible hand was taken
once); playing on is its mean over the hands played out to their end (always sampled). Both carry an interval.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from types import MappingProxyType

from ..game.advise import Advice, advise, hand_seed
from ..game.advise_game import GameAdvice, GameChoice, GameState, weigh_game
from ..game.cards import Card
from ..game.estimate import gap_interval
from ..game.melds import Arrangement
from ..game.odds import MAX_SPAN, solvable
from ..game.outcomes import Outcomes
from ..game.rulebook import Rules
from .records import HandRecord, person_key
from .scored import spread_text
from .tally import HandLine, Sheet

JUDGEMENTS = (("blunder", 10.0), ("mistake", 5.0), ("inaccuracy", 2.0))
"""Each judgement and the chance lost, in percentage points of the game, from which it is given (below the last:
none). A gin game to 100 swings by about 10 points of chance on an average hand's score (25 points, a quarter of
the target), so a tenth of that is noise, half of it a mistake and all of it a blunder."""
KINDS = ("none", "close", "inaccuracy", "mistake", "blunder")
"""Every judgement a reviewed hand may get, the least first."""


def judgement(lost: float) -> str:
    """The judgement of a chance lost, in percentage points: `none` under the least threshold."""
    return next((name for name, least in JUDGEMENTS if lost >= least), "none")


def points(lost: float) -> str:
    """A chance lost in words, to the whole point: `1 point`, `11 points`."""
    return f"{lost:.0f} point{'' if round(lost) == 1 else 's'}"


@dataclass(frozen=True)
class Choice:
    """One option the knocker had: a discard, then knock now or play on, and its chance to win the game."""

    discard: Card
    knocks: bool
    chance: float
    interval: tuple[float, float] | None
    """The 95% interval of `chance`; None when it is exact."""
    sampled: int
    """How many samples the chance is a mean of: opponent hands for a knock, hands played out for playing on;
    0 when it is exact."""
    gin: bool = False
    """Whether knocking after this discard is gin."""
    values: tuple[float, ...] = field(default=(), repr=False, compare=False)
    """The samples `chance` is the mean of, world by world in advise's order (`GameChoice.knock_values` or
    `play_on_values`); one value when it is exact."""

    @property
    def play(self) -> str:
        """`gin`, `knock` or `play on`."""
        return ("gin" if self.gin else "knock") if self.knocks else "play on"

    def words(self, face: Callable[[str], str] = str) -> str:
        """`knocking, discarding the K♠`, `going gin, discarding the K♠` or `playing on, discarding the K♠`."""
        play = ("going gin" if self.gin else "knocking") if self.knocks else "playing on"
        return f"{play}, discarding the {face(str(self.discard))}"


@dataclass(frozen=True)
class HandReview:
    """One recorded knock, reviewed; or why it cannot be (`reason`)."""

    number: int
    knocker: str
    reason: str | None = None
    """Why the hand is not reviewable (its cards or its discard not recorded); None when it is reviewed."""
    kind: str = "knock"
    """`knock`, `gin` or `big gin`: what was laid down."""
    deadwood: int = 0
    """The knocker's deadwood as laid down."""
    spread: str = ""
    scores: tuple[int, int] = (0, 0)
    """The knocker's score and the opponent's before the hand, in the game in play."""
    dealt: bool = False
    """Whether the knocker dealt the hand."""
    seed: int = 0
    taken: Choice | None = None
    best: Choice | None = None
    choices: tuple[Choice, ...] = ()
    """Every option weighed, as `advise --match` weighs them: each discard that may knock, knocking and playing on."""
    lost: float = 0.0
    """The chance lost, in percentage points: best − taken, never negative."""
    close: bool = False
    """Whether the chance lost is within its error (its 95% interval reaches 0): no error is counted."""
    lost_interval: tuple[float, float] | None = None
    """The 95% interval of the chance lost, in percentage points, from the two options' samples world by world;
    None when nothing was lost or both figures are exact."""
    samples: int = 0
    """Opponent hands drawn; `exact` when every possible one was taken once."""
    exact: bool = False

    @property
    def reviewed(self) -> bool:
        return self.reason is None

    @property
    def judgement(self) -> str:
        """`none`, `close`, `inaccuracy`, `mistake` or `blunder`."""
        found = judgement(self.lost)
        return "close" if found != "none" and self.close else found

    @property
    def counted(self) -> float:
        """The chance lost that counts in the player's totals: none for a close hand."""
        return 0.0 if self.close else self.lost

    def taken_words(self, face: Callable[[str], str] = str) -> str:
        """`knocking with 9`, `going gin` or `going big gin`."""
        if self.kind == "knock":
            return f"knocking with {self.deadwood}"
        return f"going {self.kind}"

    def words(self, face: Callable[[str], str] = str) -> str:
        """The hand in a sentence: what it cost and what was best."""
        if self.reason is not None:
            return f"hand {self.number}: not reviewed: {self.reason}"
        taken = self.taken_words(face)
        if self.kind == "big gin":
            return f"hand {self.number}: {taken}: nothing scores more, and nothing can undercut it"
        best = self.best
        if best is None or self.lost <= 0 or best == self.taken:
            return f"hand {self.number}: {taken} was the best play"
        if self.judgement == "none":
            return (f"hand {self.number}: {taken} was as good as the best play ({best.words(face)}) within "
                    f"{points(self.lost)} of game chance")
        if self.judgement == "close":
            return (f"hand {self.number}: {taken} was close to the best play ({best.words(face)}): "
                    f"{points(self.lost)} of game chance, within the estimates' error")
        return (f"hand {self.number}: {taken} gave away {points(self.lost)} of game chance; "
                f"{best.words(face)}, was best")


@dataclass(frozen=True)
class PlayerReview:
    """One player's knocks, summed."""

    player: str
    hands: int
    """Hands reviewed (the player knocked with the eleven cards recorded)."""
    total: float
    """Chance lost over them, in percentage points, close hands counting none."""
    counts: Mapping[str, int]
    """How many hands got each judgement of `KINDS`, read-only."""
    worst: HandReview | None
    """The hand that lost the most, when one lost any."""

    @property
    def mean(self) -> float:
        return self.total / self.hands if self.hands else 0.0


@dataclass(frozen=True)
class Review:
    """A match's review: each knock, each player's sums, and, when nothing could be reviewed, why."""

    hands: tuple[HandReview, ...]
    players: tuple[PlayerReview, ...]
    nothing: str | None
    """Said when no hand could be reviewed: what to record next time."""


NOTHING = ("nothing to review: no knock has the knocker's eleven cards recorded. Next time record the knocker's "
           "cards with the card discarded face down (`record --cards \"...\" --discard CARD`, or 11 cards in the "
           "Record form), and each knock is judged by the game chance it cost")


Reviewer = Callable[["Sheet", Outcomes, Sequence[int]], Iterable["HandReview"]]
"""How a sheet's knocks are reviewed, each given by its line's index, in their order: one after another in this
process (`each_here`), or on every core (`cli/cores.py`)."""


def review(sheet: Sheet, outcomes: Outcomes, progress: Callable[[int, int], None] | None = None,
           each: Reviewer | None = None) -> Review:
    """The review of `sheet`'s knocks, the chances solved from `outcomes` (the model `advise --match` uses: the
    table's), each knock reviewed by `each` (`each_here` unless given). `progress` is told the hands done as they
    are, with the number of hands."""
    match, lines = sheet.match, sheet.lines
    knocks = [index for index, line in enumerate(lines) if line.knocker is not None]
    if progress is not None:
        progress(0, len(lines))
    hands = []
    for index, found in zip(knocks, (each or each_here)(sheet, outcomes, knocks)):
        hands.append(found)
        if progress is not None:
            progress(index + 1, len(lines))
    if progress is not None:
        progress(len(lines), len(lines))
    players = tuple(_player(name, [hand for hand in hands if hand.knocker == name]) for name in match.players)
    nothing = None if any(hand.reviewed for hand in hands) else NOTHING
    return Review(tuple(hands), players, nothing)


def each_here(sheet: Sheet, outcomes: Outcomes, knocks: Sequence[int]) -> Iterator[HandReview]:
    """The knocks of the lines `knocks` reviewed one after another, in this process."""
    return (hand_at(sheet, outcomes, index) for index in knocks)


def hand_at(sheet: Sheet, outcomes: Outcomes, index: int) -> HandReview:
    """The knock of line `index` (0-based) reviewed at the scores before it."""
    line = sheet.lines[index]
    knocker = line.knocker or ""
    return review_hand(line, sheet.match.hands[index], sheet.match.rules, outcomes, _scores_before(sheet, index, knocker))


def _scores_before(sheet: Sheet, index: int, knocker: str) -> tuple[int, int]:
    """The knocker's and the opponent's scores in the game in play before hand `index` (0-based)."""
    match = sheet.match
    other = match.other(knocker)
    if index == 0:
        return 0, 0
    previous = sheet.lines[index - 1]
    if match.hollywood and previous.column_totals:
        target = match.rules.target
        game = next((totals for totals in previous.column_totals if max(totals.values()) < target),
                    previous.column_totals[-1])
        return game[knocker], game[other]
    return previous.totals[knocker], previous.totals[other]


def review_hand(
    line: HandLine, record: HandRecord, rules: Rules, outcomes: Outcomes, scores: tuple[int, int]
) -> HandReview:
    """One knock reviewed at `scores` (the knocker's, the opponent's), or why it cannot be."""
    knocker = line.knocker or ""
    scored = line.scored
    if scored is None or record.cards is None:
        return HandReview(line.number, knocker, "the knocker's cards were not recorded, only the counts")
    spread = scored.spread
    laid = [card for meld in spread.meld_cards() for card in meld] + list(spread.deadwood_cards)
    if scored.discard is None and len(laid) == 10:
        return HandReview(line.number, knocker, "the knocker's ten cards were recorded without the card discarded "
                                                "face down, so the other discards cannot be weighed")
    if not solvable(rules.target, scores):
        return HandReview(line.number, knocker, f"the chance to win is solved up to {MAX_SPAN} points from the lower "
                                                f"score, and this game is to {rules.target} from {min(scores)}")
    eleven = tuple(laid) + (() if scored.discard is None else (scored.discard,))
    upcard = _upcard(record)
    seed = hand_seed([str(card) for card in eleven], upcard)
    state = GameState(scores[0], scores[1], line.dealer == knocker, rules.target, rules.next_dealer)
    kind = "gin" if not spread.deadwood_cards else "knock"
    text = spread_text(spread)
    base = HandReview(line.number, knocker, None, kind, spread.deadwood, text, scores, state.dealing, seed)
    if scored.discard is None:  # eleven cards in melds: big gin, which nothing beats and nothing undercuts
        return replace(base, kind="big gin")
    advice, game = weigh(eleven, rules, outcomes, state, seed, upcard)
    choices = tuple(choice for found in game.choices for choice in _choices(found, advice))
    taken = next((choice for choice in choices if choice.discard == scored.discard and choice.knocks), None)
    if taken is None:
        return replace(base, reason=f"advise finds no knock discarding the {scored.discard}")
    taken = _as_laid(taken, advice, spread, rules, outcomes, state)
    best, lost, interval = _loss(taken, choices)
    return replace(base, taken=taken, best=best, choices=choices, lost=lost, close=_within(interval),
                   lost_interval=interval, samples=advice.samples, exact=advice.exact)


def judge(taken: Choice, choices: tuple[Choice, ...]) -> tuple[Choice, float, bool]:
    """The best of the options (the one taken where none is ahead of it), the chance lost against it in percentage
    points (never negative), and whether that loss is within its error (`close`: its 95% interval reaches 0)."""
    best, lost, interval = _loss(taken, choices)
    return best, lost, _within(interval)


def _loss(taken: Choice, choices: tuple[Choice, ...]) -> tuple[Choice, float, tuple[float, float] | None]:
    """`judge`'s best and chance lost, with the loss's interval (`lost_interval`; None when nothing is lost)."""
    best = max(choices, key=lambda choice: choice.chance, default=taken)
    if taken.chance >= best.chance:
        return taken, 0.0, None
    return best, (best.chance - taken.chance) * 100, lost_interval(best, taken)


def _within(interval: tuple[float, float] | None) -> bool:
    """Whether a chance lost is within its error: its interval reaches 0."""
    return interval is not None and interval[0] <= 0


def lost_interval(best: Choice, taken: Choice) -> tuple[float, float] | None:
    """The 95% interval of `best`'s chance less `taken`'s, in percentage points; None when both are exact (see
    `gap_interval`: world by world where both have samples, the luck they share taken out)."""
    found = gap_interval((best.chance, best.interval, best.values), (taken.chance, taken.interval, taken.values))
    return None if found is None else (found[0] * 100, found[1] * 100)


def weigh(
    eleven: tuple[Card, ...], rules: Rules, outcomes: Outcomes, state: GameState, seed: int, upcard: Card | None
) -> tuple[Advice, GameAdvice]:
    """`advise --match` at its defaults for these eleven cards at `state`: the hand's advice and the game's side."""
    advice = advise(eleven, rules, seed=seed, upcard=upcard, keep_worlds=True)
    return advice, weigh_game(advice, rules, outcomes, state)


def _choices(found: GameChoice, advice: Advice) -> tuple[Choice, Choice]:
    knock_sampled = 0 if advice.exact else advice.samples
    option = next(option for option in advice.options if option.discard == found.discard)
    gin = option.knock is not None and not option.knock.spread.deadwood_cards
    return (
        Choice(found.discard, True, found.knock_now, None if advice.exact else found.knock_interval, knock_sampled, gin,
               found.knock_values),
        Choice(found.discard, False, found.play_on, found.play_on_interval, found.rollouts,
               values=found.play_on_values),
    )


def _as_laid(
    taken: Choice, advice: Advice, spread: Arrangement, rules: Rules, outcomes: Outcomes, state: GameState
) -> Choice:
    """The knock taken with the spread actually laid down: where it is not the spread `advise` lays down for that
    discard, its chance by knocking now is weighed for that spread, against the same opponent hands."""
    option = next(option for option in advice.options if option.discard == taken.discard)
    if option.knock is None or _melds(option.knock.spread) == _melds(spread):
        return taken
    laid = replace(option, knock=replace(option.knock, spread=spread))
    game = weigh_game(replace(advice, options=(laid,)), rules, outcomes, state, rollouts=0)
    found = game.choices[0]
    return replace(taken, chance=found.knock_now, interval=None if advice.exact else found.knock_interval,
                   gin=not spread.deadwood_cards, values=found.knock_values)


def _melds(spread: Arrangement) -> frozenset[int]:
    return frozenset(meld.mask for meld in spread.melds)


def _upcard(record: HandRecord) -> Card | None:
    from ..game.cards import parse_card

    return None if record.upcard is None else parse_card(record.upcard)


def _player(name: str, hands: list[HandReview]) -> PlayerReview:
    reviewed = [hand for hand in hands if hand.reviewed]
    counts = MappingProxyType({kind: sum(1 for hand in reviewed if hand.judgement == kind) for kind in KINDS})
    worst = max(reviewed, key=lambda hand: hand.counted, default=None)
    if worst is not None and worst.counted <= 0:
        worst = None
    return PlayerReview(name, len(reviewed), sum(hand.counted for hand in reviewed), counts, worst)


@dataclass(frozen=True)
class FolderReview:
    """The reviews of a folder's matches, and each player's sums over all of them."""

    files: tuple[tuple[str, Review], ...]
    """Each match file's name and its review."""
    players: tuple[PlayerReview, ...]
    """Each player who knocked in any match (one person however their name was typed), most hands reviewed first."""
    worst_files: Mapping[str, str]
    """The file of each player's worst hand."""


def over_folder(files: Iterable[tuple[str, Review]]) -> FolderReview:
    """Each player's sums over the reviews of many matches: their hands from every file, as one player's."""
    files = tuple(files)
    names: dict[str, str] = {}
    hands: dict[str, list[tuple[str, HandReview]]] = {}
    for file, found in files:
        for hand in found.hands:
            key = person_key(hand.knocker)
            names.setdefault(key, hand.knocker)
            hands.setdefault(key, []).append((file, hand))
    players, worst_files = [], {}
    for key, theirs in hands.items():
        player = _player(names[key], [hand for _, hand in theirs])
        players.append(player)
        if player.worst is not None:
            worst_files[player.player] = next(file for file, hand in theirs if hand is player.worst)
    players.sort(key=lambda player: (-player.hands, person_key(player.player)))
    return FolderReview(files, tuple(players), MappingProxyType(worst_files))

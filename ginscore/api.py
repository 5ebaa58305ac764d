"""ginscore as a library: the exact meld solver and knock scorer, for programs such as bots and game environments.

Everything here is re-exported by the `ginscore` package, which imports this module on first use
so that the command line starts fast. docs/API.md shows each function at work; its examples run as
tests. Errors are `GinscoreError`s: `InputError` (also a `ValueError`) for text that is not cards,
the wrong number of cards or an unknown rule; `IllegalHandError` for a hand that cannot be played
so, such as a knock over the limit or a card in both hands.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date
from typing import Any

# The names the library offers are listed once, in `ginscore.__all__`; those this module only passes on from
# below say so (`X as X`).
from .errors import GinscoreError as GinscoreError
from .errors import IllegalHandError as IllegalHandError
from .errors import InputError as InputError
from .errors import MatchFileError as MatchFileError
from .game.cards import Card, Hand, parse_card, parse_cards, parse_spread, require_count
from .game.melds import Arrangement
from .game.melds import solve as _solve
from .game.rulebook import PRESETS as PRESETS
from .game.rulebook import Rules, override_knobs, preset, with_upcard
from .game.scoring import ScoredKnock, knock_dict, score_cards
from .match.records import Match
from .match.standings import Standings

Cards = str | Iterable[Card | str]
"""Cards as text (`"3h 4h 5h"`, commas allowed) or as any iterable of `Card`s or card strings."""


@dataclass(frozen=True)
class Solved:
    """A hand of 10 or 11 cards laid out with the least deadwood."""

    cards: tuple[Card, ...]
    """The hand, in the order given."""
    deadwood: int
    """The least deadwood; for 11 cards, after the best discard."""
    melds: tuple[Hand, ...]
    """The runs and sets of one best arrangement (of the ten cards kept, for 11)."""
    deadwood_cards: Hand
    """The cards of that arrangement in no meld."""
    discards: tuple[Card, ...]
    """For 11 cards, every discard that leaves the least deadwood, highest value first; empty for 10."""
    big_gin: bool
    """For 11 cards, whether all eleven meld."""


@dataclass(frozen=True)
class Knock:
    """One knock scored under the rules, with both spreads and the lay-offs."""

    result: str
    """`knock`, `undercut`, `gin`, `big_gin`, or `tie` (equal counts where ties are not undercuts)."""
    winner: str | None
    """`"knocker"`, `"opponent"`, or None when nobody scores."""
    points: int
    """What the winner scores, after any doubling."""
    knocker_deadwood: int
    """The knocker's count: the deadwood of their spread."""
    opponent_deadwood: int
    """The opponent's count after their own melds and lay-offs."""
    knocker_spread: Arrangement
    """The knocker's melds and deadwood: the spread given, or the best legal one."""
    opponent_spread: Arrangement | None
    """The opponent's own melds and deadwood, without the cards laid off; None when only their count was given."""
    layoffs: Hand | None
    """The cards the opponent laid off onto the knocker's melds; None when only their count was given."""
    discard: Card | None
    """The card the knocker discarded face down, for an 11-card hand."""
    knock_limit: int
    """The most deadwood this knock could have."""
    multiplier: int
    """2 when a spade up-card doubles the hand (Oklahoma), else 1."""
    scored: ScoredKnock = field(repr=False, compare=False)
    """The core's result, for `as_dict`."""

    def as_dict(self) -> dict[str, Any]:
        """The same JSON-ready object as `ginscore score --json`."""
        return knock_dict(self.scored)


def solve(cards: Cards) -> Solved:
    """Lay out a hand of 10 or 11 cards with the least deadwood, exactly."""
    hand = _cards(cards)
    require_count(hand, (10, 11), "a hand to solve")
    solution = _solve(hand)
    best = solution.best
    return Solved(hand, solution.deadwood, best.melds, best.deadwood_cards, solution.discards, solution.big_gin)


def score_knock(
    knocker: Cards,
    opponent: Cards | int,
    *,
    rules: str | Rules = "standard",
    upcard: Card | str | None = None,
    discard: Card | str | None = None,
) -> Knock:
    """Score a knock from the knocker's 10 or 11 cards and the opponent's 10 (or their count after lay-offs).

    Knocker's cards typed as groups separated by `|` are the spread they laid down, used as given;
    otherwise their best legal spread is found. `rules` is a preset's name or a `Rules`; `upcard`
    is the up-card (knock card), whose value is the knock limit under whatever rules are given, as
    `ginscore score --upcard` does; `discard` names the card discarded face down when the knocker's
    11 cards are given.
    """
    up = _card(upcard)
    if isinstance(knocker, str):
        knocker_cards, groups = parse_spread(knocker)
    else:
        knocker_cards, groups = _cards(knocker), None
    scored = score_cards(
        knocker_cards,
        opponent if isinstance(opponent, int) else _cards(opponent),
        with_upcard(preset(rules) if isinstance(rules, str) else rules, up),
        upcard=up,
        discard=_card(discard),
        groups=groups,
    )
    result, response = scored.result, scored.response
    return Knock(
        result=result.result,
        winner=result.winner,
        points=result.points,
        knocker_deadwood=result.knocker_deadwood,
        opponent_deadwood=result.opponent_deadwood,
        knocker_spread=scored.spread,
        opponent_spread=response.spread if response else None,
        layoffs=response.layoffs if response else None,
        discard=scored.discard,
        knock_limit=result.knock_limit,
        multiplier=result.multiplier,
        scored=scored,
    )


def rules(name: str = "standard", **overrides: Any) -> Rules:
    """A preset (`standard`, `tournament` or `oklahoma`) with knobs overridden, each checked: `rules("standard", gin_bonus=25)`."""
    return override_knobs(preset(name), overrides)


def load_match(path: str) -> Match:
    """Read a match file; a missing, unreadable or inconsistent file raises `MatchFileError` listing every problem."""
    from .files.reading import load

    return load(path)[0]


def save_match(path: str, match: Match) -> None:
    """Write a match file atomically, holding the lock that `ginscore` writers take turns with.

    A missing file is created. A file that is there must read as a match file: one that does not
    (another kind of file, a broken or hand-edited one with unknown keys) raises `MatchFileError`
    listing its problems, as the commands refuse it, and is left as it was. A note with a control
    character raises `InputError`, as the commands refuse it. When the file holds this match with
    other hands, only the hand blocks that changed are rewritten, as `ginscore record` does, so
    comments elsewhere in it are kept.
    """
    from .files.changes import put

    put(path, match)


@dataclass(frozen=True)
class Odds:
    """Each player's chance to win the game in play, and where the model came from."""

    players: tuple[str, str]
    chance: dict[str, float]
    """Player -> chance to win the game in play; the two add up to 1 (1 and 0 once it is over)."""
    scores: dict[str, int]
    """Each player's total in the game in play."""
    next_dealer: str | None
    """Who deals the next hand; None once the match is over."""
    target: int
    finished: bool
    source: str
    """Where the model came from: `the built-in model for standard rules, and 214 hands of 3 matches in this folder with these rules`."""
    history_hands: int
    prior_hands: int
    games: tuple[dict[str, float], ...]
    """Each game's chances: one game, or three on a Hollywood sheet."""


def odds(path: str, history: str | None = None, prior: int = 200) -> Odds:
    """Each player's chance to win the game in play in a match file, solved exactly from a model of how hands end:
    the built-in simulated hands counted as `prior` hands, and the hands of the match files in `history` (by
    default the file's own folder) played by the same rules. `prior=0` with no such hands raises `RefusedError`."""
    from .files.table import match_odds

    found = match_odds(path, history, prior)
    now, sheet, model = found.now, found.sheet, found.model
    return Odds(
        sheet.match.players, now.chance, now.scores, None if sheet.finished else sheet.next_dealer,
        sheet.match.rules.target, now.finished, model.source, model.history_hands, model.prior_hands,
        tuple(game.chance for game in found.games),
    )


def standings(folder: str, since: date | str | None = None, until: date | str | None = None) -> Standings:
    """The club's standings over the match files in `folder` (those directly in it, as `serve` counts them): every player's Glicko-2 rating, best
    first, with their figures, and how well the ratings predicted each game (`docs/standings.md`). `since` and
    `until` (a `date` or `"YYYY-MM-DD"`, both days included) keep the games that ended in that window, and the
    ratings are computed over those games alone. A file that cannot be read is left out; a folder that does not
    exist raises `MissingFileError`."""
    import os

    from .errors import MissingFileError
    from .files.standings_source import folder_games
    from .files.stats_cache import cache_folder
    from .match.standings import parse_day, window_of
    from .match.standings import standings as standings_of

    if not os.path.isdir(folder):
        raise MissingFileError(folder)
    first = parse_day(since, "since") if isinstance(since, str) else since
    last = parse_day(until, "until") if isinstance(until, str) else until
    window_of(first, last)
    return standings_of(folder_games(folder, cache_folder()).sheets, first, last)


def _cards(cards: Cards) -> tuple[Card, ...]:
    if isinstance(cards, str):
        return parse_cards(cards)
    hand = tuple(card if isinstance(card, Card) else parse_card(card) for card in cards)
    if len(Hand.of(hand)) != len(hand):
        return parse_cards([str(card) for card in hand])  # names the card given twice
    return hand


def _card(card: Card | str | None) -> Card | None:
    return parse_card(card) if isinstance(card, str) else card

"""The spread a knocker laid down, when the cards alone allow two that score differently.

Given cards without `|`, a knock is scored with the spread best for the knocker, which may block lay-offs at the
cost of more deadwood; the knocker may have laid down the least-deadwood spread instead. `choices` gives the two
in one shape for every front end: `play` asks which, a page offers both, the API's preview lists them, and
`record` says which was scored and how to give the other. The choice goes back as the entry's `spread`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..game.scoring import HandResult, ScoredKnock
from .entry import DERIVED
from .scored import laid_down


@dataclass(frozen=True)
class SpreadChoice:
    """One spread the knocker could have laid down: as `record`'s `cards` and `discard`, and what it scores."""

    name: str
    """`best` or `lowest`, as the entry's `spread` takes it."""
    cards: str
    """The spread grouped with `|`; an 11-card hand's discard is its own group, named again by `discard`."""
    discard: str | None
    scored: ScoredKnock

    @property
    def result(self) -> HandResult:
        return self.scored.result

    def as_json(self) -> dict[str, Any]:
        """The choice as the API's preview gives it, in a hand's shape: `cards` and `discard` that `record` takes,
        and under `derived` what they score."""
        result = self.result
        return {
            "cards": self.cards,
            "discard": self.discard,
            DERIVED: {
                "result": result.result,
                "winner": result.winner,
                "points": result.points,
                "deadwood": result.knocker_deadwood,
                "opponent_deadwood": result.opponent_deadwood,
            },
        }


def spread_of(scored: ScoredKnock, name: str = "best") -> SpreadChoice:
    """A scored knock's spread as a choice named `name`."""
    cards, discard = laid_down(scored)
    return SpreadChoice(name, cards, discard, scored)


def choices(scored: ScoredKnock | None) -> tuple[SpreadChoice, SpreadChoice] | None:
    """The least-deadwood spread and the best one, in that order, when they score differently; else None."""
    if scored is None or scored.lowest is None:
        return None
    return spread_of(scored.lowest, "lowest"), spread_of(scored, "best")


def gain_text(result: HandResult, knocker: str, opponent: str) -> str:
    """Who scores what, in words: `Ann scores 48`, `Bob scores 11 (undercut)`."""
    if result.winner is None:
        return "nobody scores"
    name = knocker if result.winner == "knocker" else opponent
    kind = "" if result.result == "knock" else f" ({result.result.replace('_', ' ')})"
    return f"{name} scores {result.points}{kind}"


def other_spread_note(scored: ScoredKnock, knocker: str, opponent: str) -> str | None:
    """When the knocker's best spread was scored and the least-deadwood one scores differently: one line that
    says which was scored and how to record the other, with its option in backquotes; else None."""
    both = choices(scored)
    if both is None:
        return None
    low = both[0]
    option = f'--cards "{low.cards}"' + (f" --discard {low.discard}" if low.discard else "")
    return (
        f"Scored the spread best for {knocker} ({scored.result.knocker_deadwood} deadwood, "
        f"{gain_text(scored.result, knocker, opponent)}); with the least-deadwood spread "
        f"({low.result.knocker_deadwood} deadwood), {gain_text(low.result, knocker, opponent)}: "
        f"to record that one, give `{option}`"
    )

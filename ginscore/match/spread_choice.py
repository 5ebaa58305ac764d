"""The spread a knocker laid down, when the cards alone allow two that score differently.

Given cards without `|`, a knock is scored with the spread best for the knocker, which may block lay-offs at the
cost of more deadwood; the knocker may have laid down the least-deadwood spread instead. `play` asks which;
`record` says which was scored and how to give the other.
"""

from __future__ import annotations

from ..game.scoring import HandResult, ScoredKnock
from .records import spread_text


def laid_down(scored: ScoredKnock) -> tuple[str, str | None]:
    """A knocker's spread as typed cards, grouped with `|`, and the card discarded face down (its own group)."""
    cards = spread_text(scored.spread)
    if scored.discard is None:
        return cards, None
    return f"{cards} | {scored.discard}", str(scored.discard)


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
    low = scored.lowest
    if low is None:
        return None
    cards, discard = laid_down(low)
    option = f'--cards "{cards}"' + (f" --discard {discard}" if discard else "")
    return (
        f"Scored the spread best for {knocker} ({scored.result.knocker_deadwood} deadwood, "
        f"{gain_text(scored.result, knocker, opponent)}); with the least-deadwood spread "
        f"({low.result.knocker_deadwood} deadwood), {gain_text(low.result, knocker, opponent)}: "
        f"to record that one, give `{option}`"
    )

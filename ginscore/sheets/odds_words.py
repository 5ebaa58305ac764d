"""The words of a chance to win a game, shared by the terminal, `show` and the pad's scoreboard."""

from __future__ import annotations


def percent(chance: float) -> str:
    """A chance in whole percent; never 0% or 100% unless it is certain: `<1%`, `>99%`."""
    if chance >= 1.0:
        return "100%"
    if chance <= 0.0:
        return "0%"
    shown = round(chance * 100)
    if shown < 1:
        return "<1%"
    if shown > 99:
        return ">99%"
    return f"{shown}%"


def chance_line(name: str, chance: float) -> str:
    """`Ann 73% to win this game`."""
    return f"{name} {percent(chance)} to win this game"


def chances_text(chance: dict[str, float]) -> str:
    """Both players in a line, the likelier first: `Ann 73% to win this game, Bob 27%`."""
    (first, p), (second, q) = sorted(chance.items(), key=lambda item: -item[1])
    return f"{chance_line(first, p)}, {second} {percent(q)}"


def both_chances(chance: dict[str, float]) -> str:
    """Both players, as a scoreboard says them: `Ann 73% to win this game, Bob 27%`, or when the two round alike
    `Ann and Bob even: 50% each to win this game`, so that a level game never reads as one player's."""
    (first, p), (second, q) = sorted(chance.items(), key=lambda item: -item[1])
    if percent(p) == percent(q):
        return f"{first} and {second} even: {percent(p)} each to win this game"
    return chances_text(chance)


CHANCE_BASIS = "each player's chance to reach the target first, worked out from how those hands ended: an estimate, not a certainty"
"""What a chance is, said after where its model came from."""

"""What `check` and `score` print: a hand's melds and verdict, a knock's spreads, lay-offs and result."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.console import Console
from rich.text import Text

from ..game.cards import Hand, parse_card, parse_cards
from ..game.melds import Arrangement
from ..sheets.words import RESULT_WORDS
from .console import card_text, cards_text, is_fancy, labelled_rows, print_wrapped, spread_text

if TYPE_CHECKING:  # scoring stays out of `check`'s start-up, the checker out of `show`'s
    from ..game.check import Answer
    from ..game.scoring import HandResult, ScoredKnock


def check_report(answer: Answer, limit: int, out: Console) -> None:
    """The hand checker's answer, as a few labelled lines (`check.plain_report` is its piped twin)."""
    fancy = is_fancy(out)
    rows: list[tuple[str, Text | str]] = [("hand", cards_text(parse_cards(answer.cards), fancy))]
    if answer.discards:
        rows.append(("discard", Text(" or ").join(card_text(c, fancy) for c in parse_cards(answer.discards))))
    spread = Arrangement(tuple(Hand.parse(meld) for meld in answer.melds), Hand.of(map(parse_card, answer.deadwood_cards)))
    rows.append(("melds", spread_text(spread, fancy)))
    rows.append(("deadwood", str(answer.deadwood)))
    from ..game.check import verdict

    words = verdict(answer.deadwood, answer.big_gin, limit, "≤" if fancy else "<=")
    style = "bold green" if answer.deadwood == 0 else "green" if answer.deadwood <= limit else "yellow"
    rows.append(("verdict", Text(words, style=style)))
    out.print(labelled_rows(rows))


def result_text(result: HandResult, knocker: str = "knocker", opponent: str = "opponent") -> Text:
    """E.g. `undercut: opponent scores 17`."""
    name = {"knocker": knocker, "opponent": opponent, None: None}[result.winner]
    return outcome(result.result, name, result.points, result.multiplier)


def outcome(result: str, winner: str | None, points: int, multiplier: int, where: str = "") -> Text:
    """A hand's result in words, with who scores what."""
    if winner is None:
        return Text(RESULT_WORDS[result])
    doubled = " (doubled: spade up-card)" if multiplier > 1 else ""
    return Text.assemble((RESULT_WORDS[result], "bold"), f": {winner} scores {points}{doubled}{where}")


def score_report(
    scored: ScoredKnock,
    out: Console,
    knocker: str = "knocker",
    opponent: str = "opponent",
    with_result: bool = True,
    explain_lowest: bool = True,
) -> None:
    """Both spreads, the lay-offs, both counts and (unless told not to) the result of one knock, and (unless told
    not to) what the least-deadwood spread would have given, when the best spread is another."""
    fancy = is_fancy(out)
    result = scored.result
    discard = Text.assemble(" (discarded ", card_text(scored.discard, fancy), ")") if scored.discard else ""
    rows: list[tuple[str, Text | str]] = [
        (knocker, Text.assemble(spread_text(scored.spread, fancy), discard)),
        *_response_rows(scored, opponent, fancy),
        ("counts", f"{knocker} {result.knocker_deadwood}, {opponent} {result.opponent_deadwood} (knock limit {result.knock_limit})"),
    ]
    if with_result:
        rows.append(("result", result_text(result, knocker, opponent)))
    out.print(labelled_rows(rows))
    if scored.lowest is not None and explain_lowest:
        low = scored.lowest
        laid = low.response.layoffs if low.response else None
        print_wrapped(
            out,
            Text.assemble(
                f"\nThis spread is not the lowest count: it gives {_the(knocker)} more. The best lowest-count spread, ",
                spread_text(low.spread, fancy),
                f", lets {_the(opponent)} lay off ",
                cards_text(laid.sorted(), fancy) if laid else "nothing",
                " and gives ",
                result_text(low.result, knocker, opponent),
                ".",
            ),
        )


def print_prose(out: Console, text: str) -> None:
    """A line of prose as `print_wrapped` prints it, except that a command or option in backquotes is never
    split across lines on a terminal, so that it can be copied whole."""
    if not out.is_terminal:
        out.print(text, soft_wrap=True)
        return
    import re
    import textwrap

    glued = re.sub(r"`[^`]*`", lambda command: command.group().replace(" ", "\0"), text)
    wrapped = textwrap.fill(glued, out.width, break_on_hyphens=False, break_long_words=False)
    out.print(wrapped.replace("\0", " "), soft_wrap=True)


def _the(role: str) -> str:
    """`the knocker` in a sentence, or a player's name as it is."""
    return f"the {role}" if role in ("knocker", "opponent") else role


def _response_rows(scored: ScoredKnock, opponent: str, fancy: bool) -> list[tuple[str, Text | str]]:
    response = scored.response
    if response is None:
        return []
    layoffs = cards_text(response.layoffs.sorted(), fancy) if response.layoffs else "none"
    return [(opponent, spread_text(response.spread, fancy)), ("lay-offs", layoffs)]


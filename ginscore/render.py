"""What a person sees: Rich text for the terminal, plain text when piped. The only module that imports rich."""

from __future__ import annotations

import os
from collections.abc import Iterable
from typing import TYPE_CHECKING

from rich.console import Console
from rich.text import Text

from .cards import Card
from .melds import Arrangement, Solution

if TYPE_CHECKING:  # scoring and rules stay out of `check`'s start-up
    from rich.table import Table

    from .rules import Rules
    from .scoring import HandResult, ScoredKnock


def console(stderr: bool = False) -> Console:
    """A console that colours only a terminal, and never when NO_COLOR is set."""
    return Console(stderr=stderr, highlight=False, no_color="NO_COLOR" in os.environ, soft_wrap=True)


def card_text(card: Card, fancy: bool) -> Text:
    """A card as `10♣` in colour on a terminal, as canonical `10c` otherwise."""
    if not fancy:
        return Text(str(card))
    return Text(card.symbol_text, style="bold red" if card.suit.is_red else "bold")


def cards_text(cards: Iterable[Card], fancy: bool, sep: str = " ") -> Text:
    return Text(sep).join(card_text(card, fancy) for card in cards)


def spread_text(spread: Arrangement, fancy: bool) -> Text:
    """Melds then deadwood, separated by `|` as a person would type them."""
    groups = [cards_text(meld, fancy) for meld in spread.meld_cards()]
    if spread.deadwood_cards:
        groups.append(Text.assemble("(", cards_text(spread.deadwood_cards.sorted(), fancy), ")", style="dim"))
    return Text(" | ").join(groups) if groups else Text("-")


def _rows(table_rows: list[tuple[str, Text | str]]) -> Text:
    """Labelled lines; built by hand so that piped output has no trailing spaces."""
    width = max(len(label) for label, _ in table_rows) + 2
    return Text("\n").join(Text.assemble((label.ljust(width), "bold"), value) for label, value in table_rows)


def check_report(solution: Solution, limit: int, out: Console) -> None:
    """The hand checker's answer, as a few labelled lines."""
    fancy = out.is_terminal
    rows: list[tuple[str, Text | str]] = [("hand", cards_text(solution.cards, fancy))]
    if solution.discards:
        rows.append(("discard", Text(" or ").join(card_text(c, fancy) for c in solution.discards)))
    rows.append(("melds", spread_text(solution.best, fancy)))
    rows.append(("deadwood", str(solution.deadwood)))
    rows.append(("verdict", verdict_text(solution, limit)))
    out.print(_rows(rows))


def verdict_text(solution: Solution, limit: int) -> Text:
    if solution.big_gin:
        return Text("big gin: all 11 cards meld", style="bold green")
    if solution.deadwood == 0:
        return Text("gin", style="bold green")
    if solution.deadwood <= limit:
        return Text(f"can knock ({solution.deadwood} ≤ {limit})", style="green")
    if limit == 0:
        return Text("cannot knock: gin only", style="yellow")
    return Text(f"cannot knock ({solution.deadwood} > {limit})", style="yellow")


_RESULT_WORDS = {
    "knock": "knock",
    "undercut": "undercut",
    "gin": "gin",
    "big_gin": "big gin",
    "tie": "tie: equal counts, nobody scores",
    "cancelled": "cancelled",
}


def result_text(result: HandResult, knocker: str = "knocker", opponent: str = "opponent") -> Text:
    """E.g. `undercut: opponent scores 17`."""
    word = _RESULT_WORDS[result.result]
    if result.winner is None:
        return Text(word)
    name = knocker if result.winner == "knocker" else opponent
    doubled = " (doubled: spade up-card)" if result.multiplier > 1 else ""
    return Text.assemble((word, "bold"), f": {name} scores {result.points}{doubled}")


def score_report(scored: ScoredKnock, out: Console) -> None:
    """Both spreads, the lay-offs, both counts and the result of one knock."""
    fancy = out.is_terminal
    result = scored.result
    discard = f" (discarded {scored.discard})" if scored.discard else ""
    rows: list[tuple[str, Text | str]] = [
        ("knocker", Text.assemble(spread_text(scored.spread, fancy), discard)),
        ("opponent", spread_text(scored.response.spread, fancy)),
        ("lay-offs", cards_text(scored.response.layoffs.sorted(), fancy) if scored.response.layoffs else "none"),
        ("counts", f"knocker {result.knocker_deadwood}, opponent {result.opponent_deadwood} (limit {result.knock_limit})"),
        ("result", result_text(result)),
    ]
    out.print(_rows(rows))
    if scored.lowest is not None:
        low = scored.lowest
        out.print(
            Text.assemble(
                "\nThis spread is not the lowest count: it gives the knocker more. The best lowest-count spread, ",
                spread_text(low.spread, fancy),
                f", lets the opponent lay off {low.response.layoffs or 'nothing'} and gives ",
                result_text(low.result),
                ".",
            )
        )


def rules_table(names: list[str], out: Console) -> None:
    """Presets side by side, one knob a row."""
    from .rules import KNOBS, PRESETS

    table = _table(out)
    table.add_column("knob")
    for name in names:
        table.add_column(name)
    for knob in KNOBS:
        table.add_row(knob, *(_knob_value(PRESETS[name], knob) for name in names))
    out.print(table)
    out.print(Text("\nOverride any knob: --rules standard --set gin_bonus=25 --set undercut_bonus=20", style="dim"))


def _table(out: Console, **kwargs: object) -> Table:
    """A table with lines on a terminal and none when piped."""
    from rich import box
    from rich.table import Table

    return Table(show_edge=False, header_style="bold", box=box.SIMPLE_HEAD if out.is_terminal else None, **kwargs)


def rules_detail(name: str, rules: Rules, out: Console) -> None:
    """One preset (with any overrides): every knob, its value and what it means."""
    from .rules import KNOBS, describe

    table = _table(out, title=f"{name} rules", title_justify="left")
    table.add_column("knob")
    table.add_column("value")
    table.add_column("meaning", style="dim")
    for knob in KNOBS:
        table.add_row(knob, _knob_value(rules, knob), describe(knob))
    out.print(table)


def _knob_value(rules: Rules, knob: str) -> str:
    value = getattr(rules, knob)
    if knob == "big_gin_bonus" and not value:
        return "off"
    if knob == "knock_limit" and rules.oklahoma:
        return "up-card"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)

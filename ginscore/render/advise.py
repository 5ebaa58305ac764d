"""What `advise` prints: the advice in a line, the model it assumes, and every discard in a table."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from rich.console import Console
from rich.text import Text

from ..game.advise import recommendation
from ..game.cards import Hand
from ..game.melds import Arrangement
from .console import card_text, cards_text, is_fancy, labelled_rows, new_table, print_wrapped, spread_text

if TYPE_CHECKING:
    from ..game.advise import Advice, KnockValue, Option, Outs, ProgressCallback
    from ..game.cards import Card

SHOW_AFTER = 0.5
"""A run expected to take longer than this many seconds gets a progress bar on a terminal."""


@contextmanager
def progress_bar(out: Console) -> Iterator[ProgressCallback | None]:
    """A progress callback for `advise`: a bar appears on a terminal once the run looks longer than half a second."""
    if not out.is_terminal:
        yield None
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    start = time.monotonic()
    shown: list[tuple[Progress, object]] = []

    def update(done: int, total: int) -> None:
        if not shown:
            elapsed = time.monotonic() - start
            if elapsed * total / max(done, 1) <= SHOW_AFTER:
                return
            bar = Progress(
                TextColumn("opponent hands"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                console=out, transient=True,
            )
            bar.start()
            shown.append((bar, bar.add_task("hands", total=total)))
        bar, task = shown[0]
        bar.update(task, completed=done)  # type: ignore[arg-type]

    try:
        yield update
    finally:
        for bar, _ in shown:
            bar.stop()


def advice_report(advice: Advice, out: Console, wide: bool = False, label: str = "advice") -> None:
    """The advice: a headline with the whole spread to lay down, the model, and for 11 cards a table of every
    discard, narrow enough for the terminal (`wide` adds each knock's melds and ranges), then only the notes
    that apply to what is shown. `label` names the headline: `for points` when the game's advice follows and
    has the last word."""
    fancy = is_fancy(out)
    rows: list[tuple[str, Text | str]] = [("hand", cards_text(advice.cards, fancy))]
    if advice.outs is not None:
        assert advice.best is not None and advice.deadwood is not None
        rows += [
            ("melds", spread_text(advice.best, fancy)),
            ("deadwood", str(advice.deadwood)),
            ("outs", outs_text(advice.outs, advice.unseen, advice.knock_limit, fancy)),
            ("chance", f"each of the {advice.unseen} unseen cards is taken as equally likely to come next"),
        ]
        out.print(labelled_rows(rows))
        return
    rows += headline(advice, fancy, label)
    rows += model_rows(advice)
    out.print(labelled_rows(rows))
    out.print()
    out.print(options_table(advice, out, wide))
    print_wrapped(out, Text("\n" + "\n".join(footer(advice, wide))))


def footer(advice: Advice, wide: bool) -> list[str]:
    """What the columns shown mean, and how sure the figures are: only the lines that apply."""
    lines = []
    if advice.samples:
        ties = any(o.knock is not None and o.knock.tie for o in advice.options)
        shares = "win, undercut, tie" if ties else "win, undercut"
        lines.append(f"{shares}: shares of the opponent hands; points: the mean from your side.")
        if advice.exact:
            lines.append("Exact: every hand the opponent could hold under the model above, each once.")
        elif advice.samples < 2:
            lines.append("One sample gives no error estimate: a rough guess under the model above; take more with --samples.")
        else:
            ranges = "The ranges and ± are" if wide else "The ranges in the advice and ± are"
            lines.append(f"{ranges} 95% intervals: an estimate under the model above, not a certainty.")
    lines.append("outs: unseen cards that, drawn next, let the ten kept knock / go gin.")
    if advice.samples and not wide:
        lines.append("--wide shows each discard's melds and ranges; --json gives every figure.")
    return lines


def headline(advice: Advice, fancy: bool, label: str = "advice") -> list[tuple[str, Text | str]]:
    """What to play, and what it is worth: the one recommendation `--json` gives too, in a row named `label`."""
    play = recommendation(advice)
    assert play is not None  # 11 cards
    if play.kind == "big_gin" and play.value is not None:
        return [
            (label, Text.assemble(("big gin", "bold green"), ": lay down all 11 cards, ", spread_text(play.value.spread, fancy))),
            ("worth", worth_text(play.value, advice.multiplier, advice.samples)),
        ]
    option = play.option
    assert option is not None
    if play.kind == "keep" or play.value is None:
        return [
            (label, Text.assemble(
                ("no discard may knock", "yellow"), ": discard ", card_text(option.discard, fancy),
                f" to keep the least deadwood ({option.deadwood})",
            )),
            ("outs", outs_named(option.outs.knock, advice.knock_limit, fancy)),
        ]
    action = ("go gin", "bold green") if play.kind == "gin" else ("knock", "bold")
    return [
        (label, Text.assemble("discard ", card_text(option.discard, fancy), " and ", action, ": ", spread_text(play.value.spread, fancy))),
        ("worth", worth_text(play.value, advice.multiplier, advice.samples)),
    ]


def outs_named(cards: tuple[Card, ...], limit: int, fancy: bool) -> Text:
    """The outs of the discard kept, named: `7 unseen cards would let you knock: Ac Ad ...`."""
    act = "go gin" if limit == 0 else "knock"
    if not cards:
        return Text(f"no unseen card would let you {act} next")
    many = "1 unseen card" if len(cards) == 1 else f"{len(cards)} unseen cards"
    return Text.assemble(f"{many} would let you {act}: ", cards_text(cards, fancy))


def worth_text(value: KnockValue, multiplier: int, samples: int = 0) -> str:
    """Expected points and the shares, each with its 95% interval when sampled; below two samples, a word
    that there is no error estimate."""
    ranges = value.intervals
    points = f"{_points(value.expected_points)} points a hand"
    if ranges is not None:
        points += f" (±{(ranges.expected_points[1] - ranges.expected_points[0]) / 2:.1f})"
    parts = [
        points,
        f"win {_share(value.win, ranges.win if ranges else None)}",
        f"undercut {_share(value.undercut, ranges.undercut if ranges else None)}",
    ]
    if value.tie:
        parts.append(f"tie {_share(value.tie, ranges.tie if ranges else None)}")
    doubled = " (doubled: spade up-card)" if multiplier > 1 else ""
    alone = " (1 sample: no error estimate)" if samples == 1 else ""
    return ", ".join(parts) + doubled + alone


def model_rows(advice: Advice) -> list[tuple[str, Text | str]]:
    """The model in words (what was drawn, from what, what was assumed, and the seed), or that none ran."""
    if not advice.samples:
        return [("model", "none ran: no discard may knock, so no opponent hand was needed")]
    if advice.exact:
        drawn = f"every one of the {advice.samples} hands the opponent could hold (exact), each once,"
    else:
        drawn = f"{advice.samples} opponent {'hand' if advice.samples == 1 else 'hands'} drawn at random"
    rows: list[tuple[str, Text | str]] = [("model", f"{advice.model}: {drawn} from {advice.unseen} unseen cards")]
    if advice.model == "improved":
        stock = f"{advice.stock} cards" + (" (assumed mid-hand: give --stock)" if advice.stock_assumed else "")
        rows.append(("stock", stock))
        rows.append(("opponent", f"drew {advice.turns} cards since the deal, keeping their best ten each turn"))
    rows.append(("seed", str(advice.seed)))
    return rows


def options_table(advice: Advice, out: Console, wide: bool = False) -> object:
    """One row a discard, best first; `wide` adds the melds of each knock and the ranges of its figures."""
    fancy = is_fancy(out)
    ties = any(o.knock is not None and o.knock.tie for o in advice.options)
    knocks = advice.samples > 0
    scored = (*(("melds",) if wide else ()), "win", "undercut", *(("tie",) if ties else ()), "points") if knocks else ()
    table = new_table(out)
    for heading in ("discard", "deadwood", *scored, "outs"):
        table.add_column(
            heading, justify="right" if heading in ("deadwood", "points", "outs") else "left", no_wrap=heading != "melds"
        )
    for option in advice.options:
        cells = _knock_cells(option, ties, fancy, wide) if knocks else []
        table.add_row(card_text(option.discard, fancy), str(option.deadwood), *cells, _outs_count(option.outs))
    return table


def _knock_cells(option: Option, ties: bool, fancy: bool, wide: bool) -> list[Text | str]:
    knock = option.knock
    if knock is None:
        return [Text("cannot knock", style="dim"), *([""] if wide else []), "", *([""] if ties else []), ""]
    ranges = knock.intervals if wide else None
    cells: list[Text | str] = []
    if wide:
        cells.append(spread_text(Arrangement(knock.spread.melds, Hand()), fancy))  # the deadwood column has the rest
    cells += [_share(knock.win, ranges.win if ranges else None), _share(knock.undercut, ranges.undercut if ranges else None)]
    if ties:
        cells.append(_share(knock.tie, ranges.tie if ranges else None))
    points = _points(knock.expected_points)
    if ranges is not None:
        points += f" ±{(ranges.expected_points[1] - ranges.expected_points[0]) / 2:.1f}"
    cells.append(Text(points, style="green" if knock.expected_points > 0 else "magenta"))
    return cells


def outs_text(outs: Outs, unseen: int, limit: int, fancy: bool) -> Text:
    """The outs to knock and to gin, each with the chance that the next card is one of them."""
    parts = []
    for name, cards in (("to knock", outs.knock), ("to gin", outs.gin)):
        if name == "to knock" and limit == 0:
            continue
        if cards:
            chance = f" ({len(cards)} of {unseen} unseen, {len(cards) / unseen:.1%} the next card)"
            parts.append(Text.assemble(f"{name}: ", cards_text(cards, fancy), chance))
        else:
            parts.append(Text(f"{name}: none"))
    return Text("; ").join(parts)


def _outs_count(outs: Outs) -> str:
    return f"{len(outs.knock)} / {len(outs.gin)}"


def _share(share: float, interval: tuple[float, float] | None = None) -> str:
    """A share, with its 95% interval as a range when there is one: `0.0% (0.0–1.9%)`."""
    if interval is None:
        return f"{share:.1%}"
    low, high = interval
    return f"{share:.1%} ({low * 100:.1f}–{high:.1%})"


def _points(points: float) -> str:
    return f"{points:+.1f}"

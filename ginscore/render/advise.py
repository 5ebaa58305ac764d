"""What `advise` prints: the advice in a line, the model it assumes, and every discard in a table."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from rich.console import Console
from rich.text import Text

from ..game.cards import Hand
from ..game.melds import Arrangement
from .console import card_text, cards_text, is_fancy, labelled_rows, new_table, spread_text
from .hand import print_wrapped

if TYPE_CHECKING:
    from ..game.advise import Advice, KnockValue, Option, Outs, ProgressCallback

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


def advice_report(advice: Advice, out: Console) -> None:
    """The advice: a headline, the model, and for 11 cards a table of every discard."""
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
    rows += headline(advice, fancy)
    rows += model_rows(advice)
    out.print(labelled_rows(rows))
    out.print()
    out.print(options_table(advice, out))
    print_wrapped(out, Text(
        "\nwin, undercut: shares of the opponent hands; points: the mean from your side"
        + (", exact over every hand." if advice.exact else f"; one standard error is {_largest_errors(advice)}.")
        + "\nouts: unseen cards that, drawn next, let the ten kept knock / go gin."
        + "\nThis is an estimate under the model above, not a certainty."
    ))


def headline(advice: Advice, fancy: bool) -> list[tuple[str, Text | str]]:
    """What to play, and what it is worth."""
    best = advice.recommended
    if advice.big_gin and advice.big_gin_value is not None:
        big = advice.big_gin_value
        if best is None or best.knock is None or big.expected_points >= best.knock.expected_points:
            return [
                ("advice", Text.assemble(("big gin", "bold green"), ": lay down all 11 cards, ", spread_text(big.spread, fancy))),
                ("worth", worth_text(big, advice.multiplier)),
            ]
    if best is None or best.knock is None:
        keep = advice.options[0]
        return [(
            "advice",
            Text.assemble(
                ("no discard may knock", "yellow"), ": discard ", card_text(keep.discard, fancy),
                f" to keep the least deadwood ({keep.deadwood}); {len(keep.outs.knock)} unseen cards would let you "
                + ("go gin" if advice.knock_limit == 0 else "knock") + " next",
            ),
        )]
    action = ("go gin", "bold green") if best.gin else ("knock", "bold")
    return [
        ("advice", Text.assemble("discard ", card_text(best.discard, fancy), " and ", action, ": ", spread_text(best.knock.spread, fancy))),
        ("worth", worth_text(best.knock, advice.multiplier)),
    ]


def worth_text(value: KnockValue, multiplier: int) -> str:
    """Expected points and the shares, each with its standard error when sampled."""
    errors = value.errors
    parts = [
        f"{_points(value.expected_points)} points a hand" + (f" (±{errors.expected_points:.1f})" if errors else ""),
        f"win {_share(value.win, errors.win if errors else None)}",
        f"undercut {_share(value.undercut, errors.undercut if errors else None)}",
    ]
    if value.tie:
        parts.append(f"tie {_share(value.tie, errors.tie if errors else None)}")
    doubled = " (doubled: spade up-card)" if multiplier > 1 else ""
    return ", ".join(parts) + doubled


def model_rows(advice: Advice) -> list[tuple[str, Text | str]]:
    """The opponent model in words: what was drawn, from what, what was assumed, and the seed."""
    if not advice.samples:
        return [("model", "none needed: no discard may knock")]
    if advice.exact:
        drawn = f"every one of the {advice.samples} hands the opponent could hold (exact), each once,"
    else:
        drawn = f"{advice.samples} opponent hands drawn at random"
    rows: list[tuple[str, Text | str]] = [("model", f"{advice.model}: {drawn} from {advice.unseen} unseen cards")]
    if advice.model == "improved":
        stock = f"{advice.stock} cards" + (" (assumed mid-hand: give --stock)" if advice.stock_assumed else "")
        rows.append(("stock", stock))
        rows.append(("opponent", f"drew {advice.turns} cards since the deal, keeping their best ten each turn"))
    rows.append(("seed", str(advice.seed)))
    return rows


def options_table(advice: Advice, out: Console) -> object:
    """One row a discard, best first."""
    fancy = is_fancy(out)
    ties = any(o.knock is not None and o.knock.tie for o in advice.options)
    knocks = advice.samples > 0
    scored = ("melds", "win", "undercut", *(("tie",) if ties else ()), "points") if knocks else ()
    table = new_table(out)
    for heading in ("discard", "deadwood", *scored, "outs"):
        table.add_column(
            heading, justify="right" if heading in ("deadwood", "points", "outs") else "left", no_wrap=heading != "melds"
        )
    for option in advice.options:
        cells = _knock_cells(option, ties, fancy) if knocks else []
        table.add_row(card_text(option.discard, fancy), str(option.deadwood), *cells, _outs_count(option.outs))
    return table


def _knock_cells(option: Option, ties: bool, fancy: bool) -> list[Text | str]:
    knock = option.knock
    if knock is None:
        return [Text("cannot knock", style="dim"), "", "", *([""] if ties else []), ""]
    melds = spread_text(Arrangement(knock.spread.melds, Hand()), fancy)  # the deadwood column has the rest
    cells: list[Text | str] = [melds, _share(knock.win), _share(knock.undercut)]
    if ties:
        cells.append(_share(knock.tie))
    points = _points(knock.expected_points)
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


def _largest_errors(advice: Advice) -> str:
    errors = [o.knock.errors for o in advice.options if o.knock is not None and o.knock.errors is not None]
    shares = max((max(e.win, e.undercut, e.tie) for e in errors), default=0.0)
    points = max((e.expected_points for e in errors), default=0.0)
    return f"at most {points:.1f} points and {shares:.1%} on a share"


def _outs_count(outs: Outs) -> str:
    return f"{len(outs.knock)} / {len(outs.gin)}"


def _share(share: float, error: float | None = None) -> str:
    return f"{share:.1%}" + (f" ±{error:.1%}" if error else "")


def _points(points: float) -> str:
    return f"{points:+.1f}"

"""What a person sees: Rich text for the terminal, plain text when piped. The only module that imports rich."""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from rich.console import Console
from rich.text import Text

from .cards import Card
from .melds import Arrangement, Solution

if TYPE_CHECKING:  # scoring and rules stay out of `check`'s start-up
    from rich.table import Table

    from .match import Game, HandLine, Sheet
    from .rules import Rules
    from .scoring import HandResult, ScoredKnock
    from .stats import PairStats


def console() -> Console:
    """A console that colours only a terminal, and never when NO_COLOR is set.

    Piped output is not squeezed into 80 columns: a wide score sheet stays one line a hand.
    """
    stream = sys.stdout
    if hasattr(stream, "reconfigure") and not _speaks_utf8(stream):
        stream.reconfigure(errors="replace")  # a symbol the terminal lacks becomes '?', never a traceback
    out = _console(no_color="NO_COLOR" in os.environ, soft_wrap=True)
    if not out.is_terminal:
        out = _console(file=_TrimmedLines(stream), width=160, no_color="NO_COLOR" in os.environ, soft_wrap=True)
    return out


def _console(**options: Any) -> Console:
    """A rich console that reads no markup and highlights nothing: names and typed cards print as typed."""
    return Console(markup=False, highlight=False, **options)


class _TrimmedLines:
    """A stream that drops the spaces rich pads table rows with, so piped text has no trailing blanks."""

    def __init__(self, stream: Any):
        self.stream = stream

    def write(self, text: str) -> int:
        self.stream.write(re.sub(r"[ \t]+(?=\n)", "", text))
        return len(text)

    def flush(self) -> None:
        self.stream.flush()

    def isatty(self) -> bool:
        return False

    @property
    def encoding(self) -> str:
        return getattr(self.stream, "encoding", None) or "utf-8"


def _speaks_utf8(stream: object) -> bool:
    return "utf" in (getattr(stream, "encoding", None) or "").lower()


def is_fancy(out: Console) -> bool:
    """Suit symbols and colour: only on a terminal that can show them."""
    return out.is_terminal and _speaks_utf8(out.file)


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
    fancy = is_fancy(out)
    rows: list[tuple[str, Text | str]] = [("hand", cards_text(solution.cards, fancy))]
    if solution.discards:
        rows.append(("discard", Text(" or ").join(card_text(c, fancy) for c in solution.discards)))
    rows.append(("melds", spread_text(solution.best, fancy)))
    rows.append(("deadwood", str(solution.deadwood)))
    rows.append(("verdict", verdict_text(solution, limit, fancy)))
    out.print(_rows(rows))


def verdict_text(solution: Solution, limit: int, fancy: bool) -> Text:
    if solution.big_gin:
        return Text("big gin: all 11 cards meld", style="bold green")
    if solution.deadwood == 0:
        return Text("gin", style="bold green")
    if solution.deadwood <= limit:
        at_most = "≤" if fancy else "<="
        return Text(f"can knock ({solution.deadwood} {at_most} {limit})", style="green")
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
    name = {"knocker": knocker, "opponent": opponent, None: None}[result.winner]
    return _outcome(result.result, name, result.points, result.multiplier)


def _outcome(result: str, winner: str | None, points: int, multiplier: int, where: str = "") -> Text:
    """A hand's result in words, with who scores what."""
    if winner is None:
        return Text(_RESULT_WORDS[result])
    doubled = " (doubled: spade up-card)" if multiplier > 1 else ""
    return Text.assemble((_RESULT_WORDS[result], "bold"), f": {winner} scores {points}{doubled}{where}")


def score_report(
    scored: ScoredKnock, out: Console, knocker: str = "knocker", opponent: str = "opponent", with_result: bool = True
) -> None:
    """Both spreads, the lay-offs, both counts and (unless told not to) the result of one knock."""
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
    out.print(_rows(rows))
    if scored.lowest is not None:
        low = scored.lowest
        laid = low.response.layoffs if low.response else None
        out.print(
            Text.assemble(
                f"\nThis spread is not the lowest count: it gives {_the(knocker)} more. The best lowest-count spread, ",
                spread_text(low.spread, fancy),
                f", lets {_the(opponent)} lay off ",
                cards_text(laid.sorted(), fancy) if laid else "nothing",
                " and gives ",
                result_text(low.result, knocker, opponent),
                ".",
            )
        )


def _the(role: str) -> str:
    """`the knocker` in a sentence, or a player's name as it is."""
    return f"the {role}" if role in ("knocker", "opponent") else role


def _response_rows(scored: ScoredKnock, opponent: str, fancy: bool) -> list[tuple[str, Text | str]]:
    response = scored.response
    if response is None:
        return []
    layoffs = cards_text(response.layoffs.sorted(), fancy) if response.layoffs else "none"
    return [(opponent, spread_text(response.spread, fancy)), ("lay-offs", layoffs)]


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


def _table(out: Console, **kwargs: Any) -> Table:
    """A table with lines on a terminal and none when piped."""
    from rich import box
    from rich.table import Table

    return Table(
        show_edge=False, header_style="bold", box=box.SIMPLE_HEAD if out.is_terminal else None,
        collapse_padding=out.is_terminal, **kwargs
    )


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


_RESULT_STYLES = {"gin": "bold green", "big_gin": "bold green", "undercut": "bold magenta", "cancelled": "dim", "tie": "dim"}


def sheet_view(sheet: Sheet, out: Console) -> None:
    """The score sheet: one row a hand, the running totals of each game, boxes, bonuses and who deals next."""
    match = sheet.match
    a, b = match.players
    table = _table(out, title=_sheet_title(sheet), title_justify="left")
    # Six game columns do not fit a narrow terminal beside the rest: the dealer and counts give way.
    narrow = match.hollywood and out.width < 110
    headings = ("#", "knocker", "result", "points") if narrow else ("#", "dealer", "knocker", "result", "counts", "points")
    for heading in headings:
        table.add_column(heading, justify="right" if heading in ("#", "points") else "left", no_wrap=True)
    for index in range(len(sheet.games)):
        prefix = f"G{index + 1} " if match.hollywood else ""
        table.add_column(f"{prefix}{a}", justify="right", no_wrap=True)
        table.add_column(f"{prefix}{b}", justify="right", no_wrap=True)
    for line in sheet.lines:
        counts = "" if line.knocker_deadwood is None else f"{line.knocker_deadwood} / {line.opponent_deadwood}"
        points = f"{line.winner} {line.points}" if line.winner else ""
        if line.multiplier > 1 and line.winner:
            points += " ×2"
        cells = []
        for index, column in enumerate(line.column_totals):
            entered = index in line.columns
            for name in (a, b):
                shown = str(column[name]) if entered or not match.hollywood else ""
                cells.append(Text(shown, style="bold" if entered and name == line.winner else ""))
        result = Text(_RESULT_WORDS[line.result].split(":")[0], style=_RESULT_STYLES.get(line.result, ""))
        if narrow:
            table.add_row(str(line.number), line.knocker or "", result, points, *cells)
        else:
            table.add_row(str(line.number), line.dealer, line.knocker or "", result, counts, points, *cells)
    out.print(table)
    for index, game in enumerate(sheet.games):
        label = f"Game {index + 1}: " if match.hollywood else ""
        out.print(Text.assemble((label, "bold"), _game_summary(game, match.rules)))
    if sheet.finished:
        if match.hollywood:
            final = sheet.summed("final")
            out.print(_verdict(sheet.winner, final, sheet.margin, "over the three games"))
    else:
        out.print(Text.assemble(("Next dealer: ", "bold"), sheet.next_dealer))


def _sheet_title(sheet: Sheet) -> str:
    from .rules import changes_from

    match = sheet.match
    kind = "Hollywood, " if match.hollywood else ""
    preset, changes = changes_from(match.rules, match.preset)
    changes = [change for change in changes if not change.startswith("target=")]  # the target is named anyway
    changed = f" with {', '.join(changes)}" if changes else ""
    return f"{match.players[0]} vs {match.players[1]} ({kind}{preset} rules{changed}, target {match.rules.target})"


def _game_summary(game: Game, rules: Rules) -> Text:
    a, b = game.players
    boxes = f"boxes {a} {game.boxes[a]}, {b} {game.boxes[b]}"
    if not game.finished:
        return Text(f"{a} {game.totals[a]}, {b} {game.totals[b]} ({boxes}); first to {rules.target}")
    lines = [Text(f"{game.reached} reached {rules.target}. {boxes[0].upper()}{boxes[1:]}.")]
    for name in game.players:
        bonus = game.bonuses[name]
        parts = [f"{game.totals[name]} points"]
        if bonus["game"]:
            kind = "shutout bonus (the other player scored nothing)" if game.shutout and rules.shutout == "flat" else "game bonus"
            parts.append(f"{bonus['game']} {kind}")
        if bonus["boxes"]:
            parts.append(f"{bonus['boxes']} for boxes")
        if bonus["shutout"]:
            parts.append(f"{bonus['shutout']} for the shutout (total doubled)")
        lines.append(Text(f"  {name}: {' + '.join(parts)} = {game.final[name]}"))
    lines.append(_verdict(game.winner, game.final, game.margin, level_note=f"({game.reached} reached the target)"))
    if game.winner != game.reached and game.final[a] != game.final[b]:
        lines.append(
            Text(
                f"  Note: {game.reached} reached the target first, but {game.winner} has the higher final total "
                "after the bonuses.",
                style="yellow",
            )
        )
    return Text("\n").join(lines)


def _verdict(winner: str | None, final: dict[str, int], margin: int, where: str = "", level_note: str = "") -> Text:
    """`Ann wins by 12.`, or the level totals when neither final total is higher."""
    where = f" {where}" if where else ""
    if winner is None:
        totals = ", ".join(f"{name} {total}" for name, total in final.items())
        note = f" {level_note}" if level_note else ""
        return Text(f"  Final totals are level{where}: {totals}{note}.")
    return Text.assemble("  ", (f"{winner} wins by {margin}", "bold green"), f"{where}.")


def hand_view(line: HandLine, sheet: Sheet, out: Console) -> None:
    """What `record` prints: the hand's result, its cards when known, and the running score."""
    out.print(Text.assemble((f"Hand {line.number}: ", "bold"), _line_result(line)))
    if line.scored is not None and line.knocker is not None:
        score_report(line.scored, out, line.knocker, sheet.match.other(line.knocker), with_result=False)
    elif line.knocker is not None:
        out.print(_rows([("counts", f"{line.knocker} {line.knocker_deadwood}, {sheet.match.other(line.knocker)} {line.opponent_deadwood}")]))
    out.print(Text.assemble(("Score: ", "bold"), sheet.score_text()))
    for index, game in enumerate(sheet.games):
        if game.finished and line.number == game.hands[-1]:
            label = f"Game {index + 1} is over: " if sheet.match.hollywood else "The game is over: "
            out.print(Text.assemble((label, "bold"), _game_summary(game, sheet.match.rules)))
    if not sheet.finished:
        out.print(Text.assemble(("Next dealer: ", "bold"), sheet.next_dealer))


def describe_line(line: HandLine) -> str:
    """A hand in a few words, e.g. `Bob knocked, knock: Bob scores 22`."""
    if line.result == "cancelled":
        return "cancelled"
    return f"{line.knocker} knocked, {_line_result(line).plain}"


def totals_change(before: Sheet, after: Sheet, number: int, out: Console) -> None:
    """What `edit` prints: the hand as it now stands, and the totals before and after."""
    out.print(Text.assemble((f"Hand {number} is now: ", "bold"), describe_line(after.lines[number - 1])))
    for label, sheet in (("before", before), ("after", after)):
        out.print(Text.assemble((f"Totals {label}: ", "bold"), sheet.score_text()))
    if not after.finished:
        out.print(Text.assemble(("Next dealer: ", "bold"), after.next_dealer))


def _line_result(line: HandLine) -> Text:
    if line.result == "cancelled":
        return Text("cancelled: nobody scores, the same dealer deals again")
    columns = f" (games {', '.join(str(i + 1) for i in line.columns)})" if len(line.columns) > 1 else ""
    return _outcome(line.result, line.winner, line.points, line.multiplier, columns)


_STAT_ROWS = (
    ("games won", "games_won"),
    ("net margin", "margin"),
    ("hands won", "hands_won"),
    ("gins", "gins"),
    ("undercuts given", "undercuts_given"),
    ("undercuts suffered", "undercuts_suffered"),
    ("average hand won", "average_hand"),
    ("biggest hand", "biggest_hand"),
    ("knocks", "knocks"),
    ("knocked in (share of hands)", "knock_rate"),
    ("average knock count", "average_knock_count"),
    ("cards laid off", "layoffs"),
    ("average deadwood when losing*", "average_deadwood_when_losing"),
)


def stats_view(pairs: list[PairStats], files: int, out: Console) -> None:
    """One table a pair of players: each figure side by side."""
    if not pairs:
        out.print("No matches found.")
        return
    for pair in pairs:
        data = pair.as_dict()
        title = f"{pair.players[0]} vs {pair.players[1]}: {_count(pair.matches, 'match', 'matches')}, {_count(pair.games, 'game', 'games')} finished, {_count(pair.hands, 'hand', 'hands')}"
        table = _table(out, title=title, title_justify="left")
        table.add_column("")
        for name in pair.players:
            table.add_column(name, justify="right")
        for label, key in _STAT_ROWS:
            values = [data["by_player"][name][key] for name in pair.players]
            table.add_row(label, *(_stat_text(key, value) for value in values))
        out.print(table)
    out.print(Text(f"{_count(files, 'file', 'files')} read. * hands recorded with cards only.", style="dim"))


def _stat_text(key: str, value: object) -> str:
    if value is None:
        return "-"
    if key == "knock_rate" and isinstance(value, float):
        return f"{value:.0%}"
    if key == "margin" and isinstance(value, int) and value > 0:
        return f"+{value}"
    return str(value)


_KIND_MARKS = {"knock": "K", "undercut": "U", "gin": "G", "big_gin": "B", "tie": "T", "cancelled": "×"}
_PLAYER_MARKS = (("●", "bold cyan"), ("▲", "bold yellow"))


def chart_view(sheet: Sheet, out: Console, height: int = 12) -> None:
    """Both players' running totals hand by hand, with each hand's kind marked under it."""
    match = sheet.match
    lines = sheet.lines
    out.print(Text.assemble(("Running totals: ", "bold"), *_chart_legend(match.players), f"; target {match.rules.target}"))
    if not lines:
        out.print("No hands yet.")
        return
    top = max(max(max(line.totals.values()) for line in lines), 1)
    step = 3
    label_width = len(str(top))
    rows = [[(" ", "")] * (len(lines) * step) for _ in range(height)]
    for index, line in enumerate(lines):
        column = index * step + 1
        levels = [round(line.totals[name] / top * (height - 1)) for name in match.players]
        for player, level in enumerate(levels):
            mark, style = _PLAYER_MARKS[player]
            if levels[0] == levels[1]:
                mark, style = "◆", "bold"
            rows[height - 1 - level][column] = (mark, style)
    for row_index, cells in enumerate(rows):
        level = height - 1 - row_index
        value = round(level / (height - 1) * top)
        label = str(value) if row_index % 3 == 0 or level == 0 else ""
        text = Text(f"{label:>{label_width}} ┤")
        for mark, style in cells:
            text.append(mark, style=style)
        out.print(text)
    axis = "─┬─" * len(lines)
    out.print(" " * label_width + " └" + axis)
    numbers = "".join(f"{line.number:^{step}}"[:step] for line in lines)
    out.print(" " * (label_width + 2) + numbers + "  hand")
    kinds = Text(" " * (label_width + 2))
    for line in lines:
        mark = _KIND_MARKS[line.result]
        kinds.append(f" {mark} ", style=_RESULT_STYLES.get(line.result, ""))
    kinds.append("  kind")
    out.print(kinds)
    out.print(Text("K knock, U undercut, G gin, B big gin, T tie, × cancelled", style="dim"))


def _chart_legend(players: tuple[str, str]) -> list[Text]:
    parts = []
    for name, (mark, style) in zip(players, _PLAYER_MARKS):
        parts += [Text(mark, style=style), Text(f" {name}   ")]
    parts.append(Text("◆ both"))
    return parts


def export_sheet(sheet: Sheet, kind: str, chart: bool = False) -> str:
    """The score sheet (and the chart) as SVG or HTML, through rich's own export of what `show` prints."""
    import io

    out = _console(record=True, width=120, force_terminal=True, color_system="truecolor", file=io.StringIO())
    sheet_view(sheet, out)
    if chart:
        out.print()
        chart_view(sheet, out)
    title = _sheet_title(sheet)
    if kind == "svg":
        return out.export_svg(title=title)
    return out.export_html(inline_styles=True)


def _count(number: int, one: str, many: str) -> str:
    return f"{number} {one if number == 1 else many}"

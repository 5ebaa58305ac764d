"""What `rules` prints: the presets side by side, or one preset knob by knob."""

from __future__ import annotations

from rich.console import Console
from rich.text import Text

from ..game.rulebook import Rules
from .console import new_table, print_wrapped


def rules_table(names: list[str], out: Console) -> None:
    """Presets side by side, one knob a row."""
    from ..game.rulebook import KNOBS, PRESETS

    table = new_table(out)
    table.add_column("knob")
    for name in names:
        table.add_column(name)
    for knob in KNOBS:
        table.add_row(knob, *(_knob_value(PRESETS[name], knob) for name in names))
    out.print(table)
    print_wrapped(out, Text("\nOverride any knob: --rules standard --set gin_bonus=25 --set undercut_bonus=20", style="dim"))


def rules_detail(name: str, rules: Rules, out: Console) -> None:
    """One preset (with any overrides): every knob, its value and what it means."""
    from ..game.rulebook import KNOBS, describe

    table = new_table(out, title=f"{name} rules", title_justify="left")
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


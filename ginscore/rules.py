"""The table's rules: every knob of RULES.md, the presets, and overrides typed as `K=V`."""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field, fields, replace
from typing import Any

from .cards import Card, Rank, Suit
from .errors import InputError


def _knob(default: Any, help: str, *, low: int = 0, high: int = 1000, choices: tuple[str, ...] = ()) -> Any:
    return field(default=default, metadata={"help": help, "low": low, "high": high, "choices": choices})


@dataclass(frozen=True)
class Rules:
    """Every knob that decides how a hand and a game are scored. Defaults are the standard preset."""

    knock_limit: int = _knob(10, "most deadwood a knock may have (0 is straight gin)", high=10)
    oklahoma: bool = _knob(False, "the up-card's value is the knock limit")
    oklahoma_ace: str = _knob("gin", "under Oklahoma, an ace up-card means gin only, or a knock at one", choices=("gin", "one"))
    spades_double: bool = _knob(False, "under Oklahoma, a spade up-card doubles the hand's points")
    gin_bonus: int = _knob(20, "bonus for gin, added to the opponent's count")
    big_gin_bonus: int = _knob(0, "bonus for big gin (all 11 cards meld); 0 or 'off' means no big gin")
    undercut_bonus: int = _knob(10, "bonus to the opponent for an undercut")
    undercut_on_tie: bool = _knob(True, "equal counts are an undercut (otherwise nobody scores)")
    target: int = _knob(100, "running total that ends the game", low=1, high=100000)
    game_bonus: int = _knob(100, "bonus to the player who reached the target")
    shutout: str = _knob("flat", "when the loser scored nothing: 'flat' bonus, 'double' the winner's total, or 'none'", choices=("flat", "double", "none"))
    shutout_bonus: int = _knob(200, "with shutout = 'flat', paid instead of the game bonus")
    box_bonus: int = _knob(20, "bonus for every box (hand won)")
    gin_boxes: int = _knob(1, "boxes a gin counts", high=10)
    undercut_boxes: int = _knob(1, "boxes an undercut counts", high=10)
    next_dealer: str = _knob("winner", "who deals the next hand", choices=("winner", "alternate"))

    @property
    def big_gin(self) -> bool:
        """Whether big gin is played at all."""
        return self.big_gin_bonus > 0

    def knock_limit_for(self, upcard: Card | None) -> int:
        """The knock limit of a hand; under Oklahoma it is the up-card's value."""
        if not self.oklahoma:
            if upcard is not None:
                raise InputError(
                    "the up-card sets the knock limit only under Oklahoma rules: use --rules oklahoma, or leave out --upcard"
                )
            return self.knock_limit
        if upcard is None:
            raise InputError("these rules use the knock card: give the up-card, e.g. --upcard 7h")
        if upcard.rank == Rank.ACE and self.oklahoma_ace == "gin":
            return 0
        return upcard.value

    def multiplier_for(self, upcard: Card | None) -> int:
        """How many times the hand's points count: 2 for a spade up-card when spades double."""
        doubled = self.oklahoma and self.spades_double and upcard is not None and upcard.suit == Suit.SPADES
        return 2 if doubled else 1

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, values: dict[str, Any]) -> Rules:
        """Rules from stored values; every knob must be present and valid."""
        missing = [name for name in KNOBS if name not in values]
        if missing:
            raise InputError(f"missing rule knob(s): {', '.join(missing)}")
        return apply_knobs(cls(), values)


KNOBS = {f.name: f for f in fields(Rules)}

PRESETS: dict[str, Rules] = {
    "standard": Rules(),
    "tournament": Rules(gin_bonus=25, big_gin_bonus=31, undercut_bonus=25, shutout="double", box_bonus=25),
    "oklahoma": Rules(
        oklahoma=True,
        spades_double=True,
        gin_bonus=25,
        undercut_bonus=25,
        target=150,
        box_bonus=25,
        undercut_boxes=2,
    ),
}


def preset(name: str) -> Rules:
    try:
        return PRESETS[name.lower()]
    except KeyError:
        raise InputError(f"unknown rules {name!r}: choose one of {', '.join(PRESETS)}") from None


def rules_from(preset_name: str, overrides: list[str]) -> Rules:
    """A preset with `K=V` overrides on top, e.g. `gin_bonus=25`."""
    values: dict[str, Any] = {}
    for item in overrides:
        name, sep, text = item.partition("=")
        if not sep:
            raise InputError(f"{item!r} is not a rule setting: write it as knob=value, e.g. gin_bonus=25")
        values[name.strip()] = text.strip()
    return apply_knobs(preset(preset_name), values)


def apply_knobs(base: Rules, values: dict[str, Any]) -> Rules:
    """`base` with the named knobs set, each value checked and converted (text or TOML values)."""
    changes = {}
    for name, raw in values.items():
        knob = KNOBS.get(name)
        if knob is None:
            raise InputError(f"unknown rule knob {name!r}: choose from {', '.join(KNOBS)}")
        changes[name] = _convert(knob, raw)
    return replace(base, **changes)


def _convert(knob: Any, raw: Any) -> Any:
    name, meta, kind = knob.name, knob.metadata, knob.type
    text = str(raw).strip().lower()
    if kind == "bool":
        if isinstance(raw, bool):
            return raw
        if text in ("true", "yes", "on", "1"):
            return True
        if text in ("false", "no", "off", "0"):
            return False
        raise InputError(f"{name} must be true or false, not {raw!r}")
    if kind == "str":
        if text not in meta["choices"]:
            raise InputError(f"{name} must be one of {', '.join(meta['choices'])}, not {raw!r}")
        return text
    if name == "big_gin_bonus" and text == "off":
        return 0
    span = f"from {meta['low']} to {meta['high']}"
    if isinstance(raw, int) and not isinstance(raw, bool):
        value = raw
    elif re.fullmatch(r"-?[0-9]+", text):
        value = int(text)
    else:
        raise InputError(f"{name} must be a whole number {span}, not {raw!r}")
    if isinstance(raw, (bool, float)) or not meta["low"] <= value <= meta["high"]:
        raise InputError(f"{name} must be a whole number {span}, not {raw!r}")
    return value


def check_limit(knock_limit: int | None, upcard: Card | None) -> int:
    """The limit `check` uses: 10, a limit given, or the up-card's under Oklahoma (an ace: gin only)."""
    if knock_limit is not None and upcard is not None:
        raise InputError("give --knock-limit or --upcard, not both")
    if upcard is not None:
        return PRESETS["oklahoma"].knock_limit_for(upcard)
    if knock_limit is None:
        return Rules().knock_limit
    return _convert(KNOBS["knock_limit"], knock_limit)


def describe(name: str) -> str:
    """The help line of a knob."""
    return KNOBS[name].metadata["help"]



def changes_from(rules: Rules, preset_name: str | None) -> tuple[str, list[str]]:
    """The preset these rules start from (standard if unknown) and each knob changed, as `knob=value`."""
    name = preset_name if preset_name in PRESETS else "standard"
    base = PRESETS[name]
    return name, [f"{knob}={_text(getattr(rules, knob))}" for knob in KNOBS if getattr(rules, knob) != getattr(base, knob)]


def rules_options(rules: Rules, preset_name: str | None) -> list[str]:
    """The `rules NAME` and `set K=V` options that rebuild these rules from a preset."""
    name, changes = changes_from(rules, preset_name)
    return [f"rules {name}", *(f"set {change}" for change in changes)]


def _text(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)

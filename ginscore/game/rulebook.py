"""The table's rules: every knob of RULES.md, the presets, and overrides typed as `K=V`."""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field, fields, replace
from typing import Any

from ..errors import GinscoreError, InputError, quote
from .cards import Card, Rank, Suit
from .numbers import read_whole


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
                raise InputError("the up-card sets the knock limit only under Oklahoma rules, and these are not: leave it out", field="upcard")
            return self.knock_limit
        if upcard is None:
            raise InputError("these rules use the knock card: give the up-card", field="upcard")
        if upcard.rank == Rank.ACE and self.oklahoma_ace == "gin":
            return 0
        return upcard.value

    def multiplier_for(self, upcard: Card | None) -> int:
        """How many times the hand's points count: 2 for a spade up-card when spades double."""
        doubled = self.oklahoma and self.spades_double and upcard is not None and upcard.suit == Suit.SPADES
        return 2 if doubled else 1

    def to_dict(self) -> dict[str, Any]:
        """Every knob by name, as a match file stores them."""
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
    """The preset of that name (any case); an unknown name is an `InputError`."""
    try:
        return PRESETS[name.lower()]
    except KeyError:
        raise InputError(f"unknown rules {quote(name)}: choose one of {', '.join(PRESETS)}") from None


def play_of(rules: Rules) -> str:
    """The preset whose play these rules share, and so whose simulated hands the built-in model takes: oklahoma
    for the up-card's limit, tournament for big gin, else standard."""
    if rules.oklahoma:
        return "oklahoma"
    return "tournament" if rules.big_gin else "standard"


def same_play(rules: Rules) -> bool:
    """Whether `play_of(rules)` plays exactly as these rules play: the same knock limit, up-card rule and big gin."""
    base = PRESETS[play_of(rules)]
    knobs = ("oklahoma", "oklahoma_ace") if rules.oklahoma else ("knock_limit", "oklahoma")
    return all(getattr(rules, k) == getattr(base, k) for k in knobs) and rules.big_gin == base.big_gin


def rules_from(preset_name: str, overrides: list[str]) -> Rules:
    """A preset with `K=V` overrides typed on top, e.g. `gin_bonus=25`."""
    try:
        base = preset(preset_name)
    except GinscoreError as error:
        raise error.about("rules") from None
    values: dict[str, Any] = {}
    for item in overrides:
        name, sep, text = item.partition("=")
        if not sep:
            raise InputError(f"{quote(item)} is not a rule setting: write the rule, an equals sign and its value, e.g. gin_bonus=25", field="set")
        values[name.strip()] = text
    try:
        return override_knobs(base, values)
    except GinscoreError as error:
        raise error.about("set") from None


def override_knobs(base: Rules, values: dict[str, Any]) -> Rules:
    """`base` with knobs set as a person gives them: text is read as `--set` reads it (`"25"`, `"off"`,
    `"true"`), and other values must have the type a match file holds."""
    read = {name: _from_text(_knob_named(name), raw.strip()) if isinstance(raw, str) else raw for name, raw in values.items()}
    return apply_knobs(base, read)


def judging_rules(preset_name: str, overrides: list[str], knock_limit: int | None, upcard: Card | None) -> Rules:
    """The rules a command that judges a hand uses: `--rules`, `--set`, `--knock-limit` and `--upcard`.

    `--knock-limit N` is `--set knock_limit=N`, and either is refused where the up-card sets the limit. An
    up-card turns on the up-card's limit (`oklahoma`) under whatever rules are chosen, and `--rules oklahoma`
    brings the rest of that preset.
    """
    typed = any(item.partition("=")[0].strip() == "knock_limit" for item in overrides)
    spelled = "knock_limit" if knock_limit is not None else "set" if typed else None
    if knock_limit is not None:
        overrides = [*overrides, f"knock_limit={knock_limit}"]
    rules = with_upcard(rules_from(preset_name, overrides), upcard)
    if spelled is not None and rules.oklahoma:
        if upcard is None:
            raise InputError("these rules use the knock card, so a knock limit does not apply: give the up-card", field=spelled)
        raise InputError("give a knock limit or the up-card, not both: the up-card sets the knock limit", field=spelled)
    return rules


def judged_rules(
    preset_name: str, overrides: list[str], knock_limit: int | None, upcard: str | None
) -> tuple[Rules, Card | None]:
    """`judging_rules` from the options as typed, with the up-card read: the command line's and the web's.

    A knob given twice (`--set` twice, or `--set knock_limit` beside `--knock-limit`) is refused, never settled
    by the order it was typed in.
    """
    from .cards import parse_card

    named = [item.partition("=")[0].strip() for item in overrides]
    for knob in dict.fromkeys(named):
        given = [item.strip() for item, name in zip(overrides, named) if name == knob]
        if knob == "knock_limit" and knock_limit is not None:
            given.append(f"knock_limit={knock_limit}")
        if len(given) > 1:
            raise InputError(f"{knob} is given twice, as {quote(given[0])} and {quote(given[1])}: give it once", field="set")
    try:
        card = None if upcard is None else parse_card(upcard)
    except GinscoreError as error:
        raise error.about("upcard") from None
    return judging_rules(preset_name, overrides, knock_limit, card), card


def with_upcard(rules: Rules, upcard: Card | None) -> Rules:
    """The rules a hand with this up-card is judged by: given an up-card, its value is the knock limit
    (`oklahoma` on) under whatever rules these are; the other knobs stay as they are."""
    return replace(rules, oklahoma=True) if upcard is not None and not rules.oklahoma else rules


def apply_knobs(base: Rules, values: dict[str, Any]) -> Rules:
    """`base` with the named knobs set to values as a match file holds them: numbers as TOML integers,
    true/false as TOML booleans, choices as strings; each is checked."""
    return replace(base, **{name: _checked(_knob_named(name), raw) for name, raw in values.items()})


def _knob_named(name: str) -> Any:
    knob = KNOBS.get(name)
    if knob is None:
        raise InputError(f"unknown rule knob {quote(name)}: choose from {', '.join(KNOBS)}")
    return knob


def _from_text(knob: Any, text: str) -> Any:
    """A knob's value typed as text (`--set`), as the value a match file would hold."""
    lowered, meta = text.lower(), knob.metadata
    if knob.type == "bool":
        words = {"true": True, "yes": True, "on": True, "1": True, "false": False, "no": False, "off": False, "0": False}
        if lowered not in words:
            raise InputError(f"{knob.name} must be true or false, not {quote(text)}")
        return words[lowered]
    if knob.type == "str":
        return lowered
    if knob.name == "big_gin_bonus" and lowered == "off":
        return 0
    shown = text
    try:
        number = read_whole(text, signed=True)
    except InputError:  # too many digits: quoted without its leading zeros, which would fill the quote
        number, shown = None, text.lstrip("0")
    if number is None:
        raise InputError(f"{knob.name} must be a whole number from {meta['low']} to {meta['high']}, not {quote(shown)}")
    return number


def _checked(knob: Any, raw: Any) -> Any:
    name, meta, kind = knob.name, knob.metadata, knob.type
    shown = quote(raw)
    if kind == "str":
        if raw not in meta["choices"]:
            raise InputError(f"{name} must be one of {', '.join(meta['choices'])}, not {shown}")
        return raw
    if name == "big_gin_bonus" and raw == "off":
        return 0
    if isinstance(raw, str):
        unquote = re.fullmatch(r"-?[0-9]+|true|false", raw.strip().lower()) is not None
        hint = ": in a match file, write it without quotes" if unquote else ""
        raise InputError(f"{name} must be {_KIND_WORDS[kind]}, not the string {shown}{hint}")
    span = f"from {meta['low']} to {meta['high']}"
    if kind == "bool":
        if not isinstance(raw, bool):
            raise InputError(f"{name} must be true or false, not {shown}")
        return raw
    if not isinstance(raw, int) or isinstance(raw, bool) or not meta["low"] <= raw <= meta["high"]:
        raise InputError(f"{name} must be a whole number {span}, not {shown}")
    return raw


_KIND_WORDS = {"bool": "true or false", "int": "a whole number"}


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

"""Tests of ginscore.game.rulebook: the presets table of RULES.md, overrides, bad input, and the Oklahoma knobs."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ginscore.errors import GinscoreError, IllegalHandError, InputError
from ginscore.game.cards import parse_card
from ginscore.game.rulebook import KNOBS, PRESETS, Rules, judging_rules, preset, rules_from
from ginscore.game.scoring import score_counts

# --- the presets table, knob by knob ---------------------------------------------------------

# The "knobs and presets" table of RULES.md. None marks a cell the table leaves open ("–", or the
# Oklahoma knock limit, which is the up-card's value rather than the knob).
TABLE = {
    #  knob:               (standard, tournament, oklahoma)
    "knock_limit": (10, 10, None),
    "oklahoma": (False, False, True),
    "oklahoma_ace": (None, None, "gin"),
    "spades_double": (False, False, True),
    "gin_bonus": (20, 25, 25),
    "big_gin_bonus": (0, 31, 0),
    "undercut_bonus": (10, 25, 25),
    "undercut_on_tie": (True, True, True),
    "target": (100, 100, 150),
    "game_bonus": (100, 100, 100),
    "shutout": ("flat", "double", "flat"),
    "shutout_bonus": (200, None, 200),
    "box_bonus": (20, 25, 25),
    "gin_boxes": (1, 1, 1),
    "undercut_boxes": (1, 1, 2),
    "next_dealer": ("winner", "winner", "winner"),
}
PRESET_NAMES = ("standard", "tournament", "oklahoma")


def test_the_presets_are_the_three_of_the_table():
    assert set(PRESETS) == set(PRESET_NAMES)


def test_the_table_covers_every_knob():
    assert set(TABLE) == set(KNOBS)


@pytest.mark.parametrize(
    "name, knob, expected",
    [
        (name, knob, values[i])
        for knob, values in TABLE.items()
        for i, name in enumerate(PRESET_NAMES)
        if values[i] is not None
    ],
)
def test_preset_knob(name, knob, expected):
    rules = preset(name)
    assert getattr(rules, knob) == expected
    assert type(getattr(rules, knob)) is type(expected)


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_every_preset_sets_every_knob(name):
    assert set(PRESETS[name].to_dict()) == set(KNOBS)


def test_big_gin_is_played_only_in_tournament():
    assert [preset(name).big_gin for name in PRESET_NAMES] == [False, True, False]


def test_rules_from_without_overrides_is_the_preset():
    for name in PRESET_NAMES:
        assert rules_from(name, []) == PRESETS[name]


# --- overrides ---------------------------------------------------------------------------------


def test_the_002_variant_gin_25_undercut_20():
    rules = rules_from("standard", ["gin_bonus=25", "undercut_bonus=20"])
    assert (rules.gin_bonus, rules.undercut_bonus) == (25, 20)
    changed = {k for k, v in rules.to_dict().items() if v != PRESETS["standard"].to_dict()[k]}
    assert changed == {"gin_bonus", "undercut_bonus"}
    assert PRESETS["standard"].gin_bonus == 20  # the preset itself is untouched
    assert score_counts(0, 7, rules, 10).points == 32
    assert score_counts(9, 7, rules, 10).points == 22


def test_straight_gin_knock_limit_0():
    rules = rules_from("standard", ["knock_limit=0"])
    assert rules.knock_limit == 0
    assert rules.knock_limit_for(None) == 0
    assert score_counts(0, 12, rules, rules.knock_limit_for(None)).result == "gin"
    with pytest.raises(IllegalHandError):
        score_counts(1, 12, rules, rules.knock_limit_for(None))


def test_target_250_and_an_undercut_bonus_of_20():
    rules = rules_from("oklahoma", ["target=250", "undercut_bonus=20"])
    assert (rules.target, rules.undercut_bonus) == (250, 20)
    assert rules.oklahoma and rules.spades_double  # the rest of the preset stays


@pytest.mark.parametrize("text", ["big_gin_bonus=off", "big_gin_bonus=0", "big_gin_bonus=OFF"])
def test_big_gin_bonus_off(text):
    rules = rules_from("tournament", [text])
    assert rules.big_gin_bonus == 0
    assert not rules.big_gin


def test_big_gin_bonus_can_be_switched_on_in_standard():
    rules = rules_from("standard", ["big_gin_bonus=31"])
    assert rules.big_gin and rules.big_gin_bonus == 31


@pytest.mark.parametrize(
    "text, knob, value",
    [
        ("undercut_on_tie=false", "undercut_on_tie", False),
        ("undercut_on_tie=no", "undercut_on_tie", False),
        ("spades_double=true", "spades_double", True),
        ("oklahoma_ace=one", "oklahoma_ace", "one"),
        ("shutout=none", "shutout", "none"),
        ("shutout=double", "shutout", "double"),
        ("next_dealer=alternate", "next_dealer", "alternate"),
        (" gin_bonus = 30 ", "gin_bonus", 30),
        ("knock_limit=10", "knock_limit", 10),
        ("target=1", "target", 1),
    ],
)
def test_override_values(text, knob, value):
    assert getattr(rules_from("standard", [text]), knob) == value


def test_a_later_override_wins():
    assert rules_from("standard", ["target=150", "target=250"]).target == 250


# --- bad input: InputError (exit status 2), and the message says what would do ------------------

BAD_INPUT = [
    # (preset, overrides, words the message must contain)
    ("vegas", [], ["'vegas'", "standard", "tournament", "oklahoma"]),
    ("standard", ["gin_bonsu=25"], ["'gin_bonsu'", *KNOBS]),
    ("standard", ["gin_bonus=abc"], ["gin_bonus", "'abc'", "whole number"]),
    ("standard", ["gin_bonus=2.5"], ["gin_bonus", "'2.5'", "whole number"]),
    ("standard", ["gin_bonus="], ["gin_bonus", "whole number"]),
    ("standard", ["shutout=triple"], ["shutout", "'triple'", "flat", "double", "none"]),
    ("standard", ["next_dealer=loser"], ["next_dealer", "'loser'", "winner", "alternate"]),
    ("oklahoma", ["oklahoma_ace=two"], ["oklahoma_ace", "'two'", "gin", "one"]),
    ("standard", ["undercut_on_tie=maybe"], ["undercut_on_tie", "'maybe'", "true", "false"]),
    ("standard", ["knock_limit=11"], ["knock_limit", "11", "from 0 to 10"]),
    ("standard", ["gin_bonus=-5"], ["gin_bonus", "-5", "from 0"]),
    ("standard", ["target=0"], ["target", "from 1"]),
    ("standard", ["gin_boxes=11"], ["gin_boxes", "from 0 to 10"]),
    ("standard", ["big_gin_bonus=on"], ["big_gin_bonus", "'on'"]),
    ("standard", ["gin_bonus25"], ["'gin_bonus25'", "an equals sign and its value"]),
    ("standard", ["gin_bonus"], ["'gin_bonus'", "an equals sign and its value"]),
]


@pytest.mark.parametrize("name, overrides, words", BAD_INPUT, ids=[" ".join([n, *o]) for n, o, _ in BAD_INPUT])
def test_bad_rules_input(name, overrides, words):
    with pytest.raises(InputError) as caught:
        rules_from(name, overrides)
    assert caught.value.exit_code == 2
    message = str(caught.value)
    for word in words:
        assert word in message


@pytest.mark.parametrize("text", ["gin_bonus=--5", "gin_bonus=²"])
def test_odd_digits_are_input_errors(text):
    with pytest.raises(InputError):
        rules_from("standard", [text])


# --- the Oklahoma knobs -----------------------------------------------------------------------

OKLAHOMA = PRESETS["oklahoma"]


@pytest.mark.parametrize(
    "upcard, limit",
    [("2h", 2), ("7h", 7), ("9s", 9), ("10c", 10), ("Jd", 10), ("Qs", 10), ("Kh", 10), ("Ac", 0)],
)
def test_oklahoma_knock_limit_is_the_up_card_value(upcard, limit):
    assert OKLAHOMA.knock_limit_for(parse_card(upcard)) == limit


def test_oklahoma_ace_one_knocks_at_one():
    rules = rules_from("oklahoma", ["oklahoma_ace=one"])
    assert rules.knock_limit_for(parse_card("Ah")) == 1
    assert rules.knock_limit_for(parse_card("7h")) == 7


def test_oklahoma_ace_gin_means_gin_only():
    assert OKLAHOMA.oklahoma_ace == "gin"
    limit = OKLAHOMA.knock_limit_for(parse_card("As"))
    assert limit == 0
    with pytest.raises(IllegalHandError):
        score_counts(1, 30, OKLAHOMA, limit)


def test_oklahoma_needs_the_up_card():
    with pytest.raises(InputError) as caught:
        OKLAHOMA.knock_limit_for(None)
    assert "up-card" in str(caught.value)


@pytest.mark.parametrize("name", ["standard", "tournament"])
def test_without_oklahoma_the_limit_is_the_knob(name):
    rules = preset(name)
    assert rules.knock_limit_for(None) == 10
    assert rules_from(name, ["knock_limit=4"]).knock_limit_for(None) == 4


@pytest.mark.parametrize("name", ["standard", "tournament"])
@pytest.mark.parametrize("upcard", ["3s", "As", "Kh"])
def test_without_oklahoma_an_up_card_is_refused_not_ignored(name, upcard):
    with pytest.raises(InputError) as caught:
        preset(name).knock_limit_for(parse_card(upcard))
    assert "Oklahoma" in str(caught.value)


@pytest.mark.parametrize(
    "name, overrides, upcard, multiplier",
    [
        ("oklahoma", [], "7s", 2),
        ("oklahoma", [], "As", 2),
        ("oklahoma", [], "Ks", 2),
        ("oklahoma", [], "7h", 1),
        ("oklahoma", [], "7c", 1),
        ("oklahoma", [], "7d", 1),
        ("oklahoma", [], None, 1),
        ("oklahoma", ["spades_double=false"], "7s", 1),
        ("standard", ["spades_double=true"], "7s", 1),  # spades double only under Oklahoma
        ("standard", [], "7s", 1),
        ("tournament", [], "Qs", 1),
        ("standard", ["oklahoma=true"], "7s", 1),
        ("standard", ["oklahoma=true", "spades_double=true"], "7s", 2),
    ],
)
def test_multiplier_for(name, overrides, upcard, multiplier):
    rules = rules_from(name, overrides)
    assert rules.multiplier_for(parse_card(upcard) if upcard else None) == multiplier


# --- storing every knob ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "rules",
    [
        *PRESETS.values(),
        rules_from("standard", ["gin_bonus=25", "undercut_bonus=20"]),
        rules_from("standard", ["knock_limit=0", "undercut_on_tie=false", "next_dealer=alternate"]),
        rules_from("oklahoma", ["oklahoma_ace=one", "target=250", "shutout=none"]),
        rules_from("tournament", ["big_gin_bonus=off"]),
    ],
)
def test_from_dict_of_to_dict_is_the_same_rules(rules):
    stored = rules.to_dict()
    assert set(stored) == set(KNOBS)
    assert Rules.from_dict(stored) == rules


knob_values = st.fixed_dictionaries(
    {
        "knock_limit": st.integers(0, 10),
        "oklahoma": st.booleans(),
        "oklahoma_ace": st.sampled_from(["gin", "one"]),
        "spades_double": st.booleans(),
        "gin_bonus": st.integers(0, 1000),
        "big_gin_bonus": st.integers(0, 1000),
        "undercut_bonus": st.integers(0, 1000),
        "undercut_on_tie": st.booleans(),
        "target": st.integers(1, 100000),
        "game_bonus": st.integers(0, 1000),
        "shutout": st.sampled_from(["flat", "double", "none"]),
        "shutout_bonus": st.integers(0, 1000),
        "box_bonus": st.integers(0, 1000),
        "gin_boxes": st.integers(0, 10),
        "undercut_boxes": st.integers(0, 10),
        "next_dealer": st.sampled_from(["winner", "alternate"]),
    }
)


@settings(max_examples=100, deadline=None)
@given(knob_values)
def test_any_valid_knobs_round_trip(values):
    rules = Rules.from_dict(values)
    assert rules.to_dict() == values
    assert Rules.from_dict(rules.to_dict()) == rules
    as_text = [f"{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in values.items()]
    assert rules_from("standard", as_text) == rules


def test_from_dict_with_a_missing_knob():
    stored = PRESETS["standard"].to_dict()
    del stored["undercut_bonus"]
    with pytest.raises(InputError) as caught:
        Rules.from_dict(stored)
    assert "undercut_bonus" in str(caught.value)


def test_from_dict_names_every_missing_knob():
    stored = PRESETS["oklahoma"].to_dict()
    del stored["target"], stored["box_bonus"]
    with pytest.raises(InputError) as caught:
        Rules.from_dict(stored)
    assert "target" in str(caught.value) and "box_bonus" in str(caught.value)


@pytest.mark.parametrize(
    "knob, value",
    [("gin_bonus", "lots"), ("shutout", "triple"), ("knock_limit", 12), ("undercut_on_tie", "perhaps"), ("gin_bonus", True)],
)
def test_from_dict_with_a_bad_value(knob, value):
    stored = PRESETS["standard"].to_dict() | {knob: value}
    with pytest.raises(InputError) as caught:
        Rules.from_dict(stored)
    assert knob in str(caught.value)


def test_from_dict_with_an_unknown_knob():
    stored = PRESETS["standard"].to_dict() | {"jokers": 2}
    with pytest.raises(GinscoreError) as caught:
        Rules.from_dict(stored)
    assert "'jokers'" in str(caught.value)


# --- the rules a command that judges a hand uses (issue 9), and knob types in a file (issue 8) ----------


@pytest.mark.parametrize(
    "name, overrides, knock_limit, upcard, expected",
    [
        ("standard", [], None, None, PRESETS["standard"]),
        ("standard", [], 4, None, rules_from("standard", ["knock_limit=4"])),
        ("standard", [], None, "7h", rules_from("standard", ["oklahoma=true"])),
        ("tournament", ["gin_bonus=30"], None, "2s", rules_from("tournament", ["gin_bonus=30", "oklahoma=true"])),
        ("oklahoma", [], None, "7h", PRESETS["oklahoma"]),
    ],
)
def test_judging_rules(name, overrides, knock_limit, upcard, expected):
    card = None if upcard is None else parse_card(upcard)
    assert judging_rules(name, overrides, knock_limit, card) == expected


def test_judging_rules_under_standard_with_an_upcard_doubles_no_spade():
    rules = judging_rules("standard", [], None, parse_card("7s"))
    assert (rules.knock_limit_for(parse_card("7s")), rules.multiplier_for(parse_card("7s"))) == (7, 1)


NOT_BOTH = "give a knock limit or the up-card, not both: the up-card sets the knock limit"
NO_UPCARD = "these rules use the knock card, so a knock limit does not apply: give the up-card"


@pytest.mark.parametrize(
    "name, upcard, message", [("standard", "7h", NOT_BOTH), ("oklahoma", "7h", NOT_BOTH), ("oklahoma", None, NO_UPCARD)]
)
def test_judging_rules_refuses_a_knock_limit_where_the_upcard_sets_it(name, upcard, message):
    with pytest.raises(InputError) as caught:
        judging_rules(name, [], 5, None if upcard is None else parse_card(upcard))
    assert str(caught.value) == message


@pytest.mark.parametrize(
    "knob, value",
    [("knock_limit", "10"), ("target", "250"), ("gin_bonus", "２５"), ("oklahoma", "true"), ("undercut_on_tie", 1), ("target", 150.0)],
)
def test_stored_knobs_must_have_their_toml_type(knob, value):
    stored = PRESETS["standard"].to_dict() | {knob: value}
    with pytest.raises(InputError) as caught:
        Rules.from_dict(stored)
    assert str(caught.value).startswith(f"{knob} must be ")


@pytest.mark.parametrize("text", ["target=２５０", "target=٢٥٠", "target=+250", "target=2_50", "knock_limit= 1 0"])
def test_set_takes_ascii_digits_only(text):
    with pytest.raises(InputError) as caught:
        rules_from("standard", [text])
    assert "must be a whole number" in str(caught.value)


def test_a_long_setting_is_quoted_short():
    with pytest.raises(InputError) as caught:
        rules_from("standard", ["target=" + "9" * 10_000 + "x"])
    assert str(caught.value) == "target must be a whole number from 1 to 100000, not '" + "9" * 40 + "…'"

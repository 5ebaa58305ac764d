"""`ginscore rules`: the presets side by side, one preset in full, and as JSON."""

from __future__ import annotations

import json

import pytest
from conftest import json_object, one_error_line

# RULES.md, "Knobs and presets": knob -> (standard, tournament, oklahoma), as `ginscore rules` shows them.
TABLE = {
    "knock_limit": ("10", "10", "up-card"),
    "oklahoma": ("false", "false", "true"),
    "spades_double": ("false", "false", "true"),
    "gin_bonus": ("20", "25", "25"),
    "big_gin_bonus": ("off", "31", "off"),
    "undercut_bonus": ("10", "25", "25"),
    "undercut_on_tie": ("true", "true", "true"),
    "target": ("100", "100", "150"),
    "game_bonus": ("100", "100", "100"),
    "shutout": ("flat", "double", "flat"),
    "box_bonus": ("20", "25", "25"),
    "gin_boxes": ("1", "1", "1"),
    "undercut_boxes": ("1", "1", "2"),
    "next_dealer": ("winner", "winner", "winner"),
}

# The same table as data, for `rules NAME --json`; knock_limit under Oklahoma is the up-card's, checked apart.
OKLAHOMA = {
    "oklahoma": True,
    "oklahoma_ace": "gin",
    "spades_double": True,
    "gin_bonus": 25,
    "big_gin_bonus": 0,
    "undercut_bonus": 25,
    "undercut_on_tie": True,
    "target": 150,
    "game_bonus": 100,
    "shutout": "flat",
    "shutout_bonus": 200,
    "box_bonus": 25,
    "gin_boxes": 1,
    "undercut_boxes": 2,
    "next_dealer": "winner",
}
STANDARD = {
    "knock_limit": 10,
    "oklahoma": False,
    "spades_double": False,
    "gin_bonus": 20,
    "big_gin_bonus": 0,
    "undercut_bonus": 10,
    "undercut_on_tie": True,
    "target": 100,
    "game_bonus": 100,
    "shutout": "flat",
    "shutout_bonus": 200,
    "box_bonus": 20,
    "gin_boxes": 1,
    "undercut_boxes": 1,
    "next_dealer": "winner",
}
TOURNAMENT = {
    "knock_limit": 10,
    "oklahoma": False,
    "spades_double": False,
    "gin_bonus": 25,
    "big_gin_bonus": 31,
    "undercut_bonus": 25,
    "undercut_on_tie": True,
    "target": 100,
    "game_bonus": 100,
    "shutout": "double",
    "box_bonus": 25,
    "gin_boxes": 1,
    "undercut_boxes": 1,
    "next_dealer": "winner",
}
EVERY_KNOB = set(STANDARD) | {"oklahoma_ace", "shutout_bonus"}


def test_rules_lists_the_presets_side_by_side(run):
    result = run("rules")
    assert result.exit_code == 0
    assert result.stderr == ""
    table = {}
    header = None
    for line in result.stdout.splitlines():
        words = line.split()
        if words[:1] == ["knob"]:
            header = words
        elif len(words) == 4:
            table[words[0]] = tuple(words[1:])
    assert header == ["knob", "standard", "tournament", "oklahoma"]
    for knob, values in TABLE.items():
        assert table.get(knob) == values, knob


def test_rules_json_without_a_name_gives_every_preset(run):
    result = run("rules", "--json")
    data = json_object(result)
    assert set(data) == {"standard", "tournament", "oklahoma"}
    assert {k: data["standard"][k] for k in STANDARD} == STANDARD
    assert {k: data["tournament"][k] for k in TOURNAMENT} == TOURNAMENT
    assert {k: data["oklahoma"][k] for k in OKLAHOMA} == OKLAHOMA


def test_rules_oklahoma_json_gives_every_knob(run):
    result = run("rules", "oklahoma", "--json")
    assert result.exit_code == 0
    assert result.stderr == ""
    data = json_object(result)
    assert EVERY_KNOB <= data.keys(), EVERY_KNOB - data.keys()
    assert {k: data[k] for k in OKLAHOMA} == OKLAHOMA
    assert "knock_limit" in data  # not used while oklahoma is true: the up-card decides


@pytest.mark.parametrize(("name", "expected"), [("standard", STANDARD), ("tournament", TOURNAMENT)])
def test_rules_name_json(run, name, expected):
    result = run("rules", name, "--json")
    assert result.exit_code == 0
    assert result.stderr == ""
    data = json_object(result)
    assert EVERY_KNOB <= data.keys()
    assert {k: data[k] for k in expected} == expected


def test_rules_one_preset_shows_every_knob_with_its_meaning(run):
    result = run("rules", "oklahoma")
    assert result.exit_code == 0
    assert result.stderr == ""
    first_words = {line.split()[0] for line in result.stdout.splitlines() if line.strip()}
    assert EVERY_KNOB <= first_words
    rows = {line.split()[0]: line.split()[1] for line in result.stdout.splitlines() if len(line.split()) > 2}
    assert rows["target"] == "150" and rows["undercut_boxes"] == "2" and rows["knock_limit"] == "up-card"
    assert "up-card" in result.stdout


def test_rules_with_overrides(run):
    data = json_object(run("rules", "standard", "--set", "gin_bonus=25", "--set", "undercut_bonus=20", "--json"))
    assert (data["gin_bonus"], data["undercut_bonus"], data["box_bonus"]) == (25, 20, 20)
    assert json_object(run("rules", "oklahoma", "--set", "target=250", "--json"))["target"] == 250


def test_rules_unknown_name_is_exit_2_and_lists_the_presets(run):
    result = run("rules", "nosuch")
    assert result.exit_code == 2
    line = one_error_line(result)
    assert "'nosuch'" in line
    for name in ("standard", "tournament", "oklahoma"):
        assert name in line


def test_rules_unknown_knob_is_exit_2_and_lists_the_knobs(run):
    result = run("rules", "standard", "--set", "nosuch=3")
    assert result.exit_code == 2
    line = one_error_line(result)
    assert "'nosuch'" in line
    for knob in EVERY_KNOB:
        assert knob in line


def test_rules_json_is_one_line(run):
    result = run("rules", "tournament", "--json")
    assert result.exit_code == 0
    assert result.stderr == ""
    assert result.stdout.count("\n") == 1
    json.loads(result.stdout)

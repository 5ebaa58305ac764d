"""A hand's fields, declared once in `HandEntry`'s metadata: every other list of them is made from it."""

from __future__ import annotations

from dataclasses import fields, replace

import pytest

from ginscore.cli.records import HAND_OPTIONS
from ginscore.errors import InputError
from ginscore.files.reading import FILE_KEYS, HAND_KEYS
from ginscore.game.rulebook import PRESETS
from ginscore.match.entry import HAND_FIELDS, HandEntry, about, fields_for
from ginscore.match.records import HandRecord, Match
from ginscore.match.scored import check_record, entry_of, make_record
from ginscore.web.fields import ENTERED
from ginscore.web.hand_pages import HAND_PLACES, KEPT

MATCH = Match(("Ann", "Bob"), PRESETS["standard"], "Ann")


def test_every_field_says_what_it_is():
    assert HAND_FIELDS == ("knocker", "cancelled", "cards", "discard", "opponent_cards", "deadwood", "opponent_deadwood",
                           "big_gin", "upcard", "note", "spread")
    for item in fields(HandEntry):
        said = about(item.name)
        assert said.doc and said.kind in ("text", "cards", "count", "flag") and set(said.ways) <= {"counts", "cards", "cancelled"}


def test_the_command_lines_options_are_the_fields():
    assert tuple(HAND_OPTIONS) == HAND_FIELDS
    for name, (_, option) in HAND_OPTIONS.items():
        assert option.param_decls == ("--" + name.replace("_", "-"),) and option.help == about(name).doc


def test_the_files_keys_are_the_fields_but_two():
    assert FILE_KEYS == {"cards": "knocker_cards", "deadwood": "knocker_deadwood"}
    assert {key: field.name for key, field in HAND_KEYS.items() if key != field.name} == {"knocker_cards": "cards", "knocker_deadwood": "deadwood"}


def test_each_way_of_entering_takes_its_fields():
    assert ENTERED == {way: fields_for(way) for way in ("counts", "cards", "cancelled")}
    assert fields_for("counts") == ("knocker", "deadwood", "opponent_deadwood", "big_gin", "upcard", "note")
    assert fields_for("cards") == ("knocker", "cards", "discard", "opponent_cards", "upcard", "note", "spread")
    assert fields_for("cancelled") == ("cancelled", "note")
    assert set(KEPT) == {*HAND_FIELDS, "how", "expected_hands"} - {"cards", "opponent_cards", "cancelled"}
    assert HAND_PLACES == tuple(name for name in HAND_FIELDS if name != "spread")


@pytest.mark.parametrize("entry", [
    HandEntry(knocker="a", deadwood=0, opponent_deadwood=20, big_gin=False, note="gin by the counts"),
    HandEntry(knocker="bob", cards="3h 4h 5h ks kc kd 7c 8c 9c 2d", opponent_cards="Qh Qd 5s 6s 7s Jc 4d 8h 2c Ac"),
    HandEntry(knocker="Ann", cards="7s 8s 9s 9c 10c Jc 5h 5d 5c 2d 9h", discard="9h", opponent_deadwood=24),
    HandEntry(cancelled=True, note="phone rang"),
])
def test_a_record_gives_back_the_entry_that_records_it_again(entry):
    record = make_record(MATCH, entry).record
    again = entry_of(record)
    assert make_record(MATCH, again).record == record
    assert (again.knocker, again.spread) == (record.knocker, None)


@pytest.mark.parametrize("given", [{"knocker": "Ann"}, {"cards": "3h"}, {"discard": "3h"}, {"opponent_cards": "3h"},
                                   {"deadwood": 0}, {"opponent_deadwood": 0}, {"big_gin": True}, {"upcard": "3h"},
                                   {"spread": "3h"}])
def test_a_cancelled_record_takes_none_of_the_fields_of_a_knock(given):
    with pytest.raises(InputError) as refused:
        check_record(replace(HandRecord(cancelled=True), **given))
    assert refused.value.field == "cancelled"
    check_record(HandRecord(cancelled=True, note="phone rang"))

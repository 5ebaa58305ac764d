"""`ginscore.match.players`: the names a new match offers, from the matches alone."""

from __future__ import annotations

from dataclasses import replace

from ginscore.game.rulebook import PRESETS
from ginscore.match.players import KnownPlayers, known_players, last_played
from ginscore.match.records import HandRecord, Match


def match(a: str, b: str, created: str, *recorded: str) -> Match:
    hands = tuple(HandRecord(knocker=a, deadwood=5, opponent_deadwood=20, recorded=time) for time in recorded)
    return Match((a, b), PRESETS["standard"], a, hands=hands, created=created)


def test_the_latest_players_come_first_and_the_last_pair_is_one_choice():
    old = match("Ann", "Bob", "2026-11-01T20:00:00+00:00", "2026-11-01T21:00:00+00:00")
    new = match("Cy", "ann", "2026-11-02T19:00:00+00:00")
    known = known_players((last_played(m), m) for m in (old, new))
    assert known == KnownPlayers(("Cy", "ann", "Bob"), ("Cy", "ann"))
    assert known.as_json() == {"names": ["Cy", "ann", "Bob"], "last_pair": ["Cy", "ann"]}


def test_a_match_is_as_recent_as_its_latest_hand():
    started_early = match("Ann", "Bob", "2026-11-01T20:00:00+00:00", "2026-11-03T21:00:00+00:00")
    started_late = match("Cy", "Dee", "2026-11-02T19:00:00+00:00")
    assert last_played(started_early) == "2026-11-03T21:00:00+00:00"
    assert last_played(replace(started_early, hands=())) == "2026-11-01T20:00:00+00:00"
    assert known_players((last_played(m), m) for m in (started_late, started_early)).last_pair == ("Ann", "Bob")


def test_no_matches_offer_no_one():
    assert known_players([]) == KnownPlayers()
    assert KnownPlayers().as_json() == {"names": [], "last_pair": None}

"""`ginscore.match.players`: the names a new match offers, from the matches alone."""

from __future__ import annotations

from ginscore.match.players import KnownPlayers, known_players


def test_the_latest_players_come_first_and_the_last_pair_is_one_choice():
    played = [("2026-11-01T21:00:00+00:00", ("Ann", "Bob")), ("2026-11-02T19:00:00+00:00", ("Cy", "ann"))]
    known = known_players(played)
    assert known == KnownPlayers(("Cy", "ann", "Bob"), ("Cy", "ann"))
    assert known.as_json() == {"names": ["Cy", "ann", "Bob"], "last_pair": ["Cy", "ann"]}
    assert known_players(reversed(played)) == known


def test_files_that_are_not_matches_offer_no_one():
    assert known_players([("2026-11-03T21:00:00+00:00", ()), ("2026-11-01T21:00:00+00:00", ("Ann", "Bob"))]).last_pair == ("Ann", "Bob")
    assert known_players([]) == KnownPlayers()
    assert KnownPlayers().as_json() == {"names": [], "last_pair": None}

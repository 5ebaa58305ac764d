"""Past nights: `new --at`, `record --at` and `play --at` stamp a paper sheet's match and hands with the night it
was played, and the standings place its games on that night; a moment in the future or before 1900 is refused."""

from __future__ import annotations

import json
import tomllib
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest
from conftest import one_error_line

from ginscore.errors import InputError
from ginscore.files import changes
from ginscore.files.reading import load
from ginscore.game.rulebook import PRESETS
from ginscore.match.entry import HandEntry, NewMatch
from ginscore.match.moments import past_moment

GIN = ["--knocker", "Ann", "--deadwood", "0", "--opponent-deadwood", "90"]
"""One hand that ends a standard game: Ann's gin, 90 + 25."""


def utc(text: str) -> str:
    """The stamp ginscore writes for a local date-time typed without an offset."""
    return datetime.fromisoformat(text).astimezone().astimezone(UTC).isoformat()


def stamps(path: Path) -> tuple[str, list[str]]:
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    return data["created"], [hand.get("recorded", "") for hand in data.get("hands", [])]


def test_new_and_record_at_write_those_stamps(run, tmp_path: Path):
    path = tmp_path / "jan-06.toml"
    started = run("new", path, "Ann", "Bob", "--at", "2026-01-06T19:30")
    assert (started.exit_code, started.stderr) == (0, "")
    assert started.stdout == f"Started {path}: a match of Ann and Bob, standard rules, target 100; Ann deals first.\n"
    knock = run("record", path, "--at", "2026-01-06T20:05+01:00", "--knocker", "Bob", "--deadwood", "4", "--opponent-deadwood", "30")
    assert (knock.exit_code, knock.stderr) == (0, "")
    assert knock.stdout.startswith("Hand 1: knock: Bob scores 26\n")
    gin = run("record", path, "--at", "2026-01-06T21:10:00Z", *GIN)
    assert gin.exit_code == 0 and "The game is over" in gin.stdout
    assert stamps(path) == (utc("2026-01-06T19:30"), ["2026-01-06T19:05:00+00:00", "2026-01-06T21:10:00+00:00"])


def test_standings_place_the_game_on_that_night(run, tmp_path: Path):
    club = tmp_path / "club"
    club.mkdir()
    for day, winner, loser in (("2026-01-06", "Ann", "Bob"), ("2026-01-13", "Bob", "Cy")):
        path = club / f"{day}.toml"
        assert run("new", path, winner, loser, "--at", day).exit_code == 0
        assert run("record", path, "--at", f"{day}T20:00+00:00", "--knocker", winner, "--deadwood", "0", "--opponent-deadwood", "90").exit_code == 0

    def standings(*window: str) -> dict:
        result = run("standings", club, "--json", "--no-cache", *window)
        assert (result.exit_code, result.stderr) == (0, "")
        return json.loads(result.stdout)

    night = standings("--since", "2026-01-06", "--until", "2026-01-06")
    assert night["games"] == 1 and [row["player"] for row in night["players"]] == ["Ann", "Bob"]
    assert [row["last_played"] for row in night["players"]] == ["2026-01-06"] * 2
    assert standings("--since", "2026-01-07", "--until", "2026-01-12")["games"] == 0
    later = standings("--since", "2026-01-13")
    assert later["games"] == 1 and {row["player"] for row in later["players"]} == {"Bob", "Cy"}
    text = run("standings", club, "--no-cache", "--until", "2026-01-06")
    assert text.exit_code == 0 and "2026-01-06" in text.stdout and "Cy" not in text.stdout


def test_a_day_alone_is_its_noon_in_the_local_zone(run, tmp_path: Path):
    path = tmp_path / "m.toml"
    assert run("new", path, "Ann", "Bob", "--at", "2026-01-06").exit_code == 0
    assert run("record", path, "--at", "2026-01-06", *GIN).exit_code == 0
    assert stamps(path) == (utc("2026-01-06T12:00"), [utc("2026-01-06T12:00")])


def test_a_day_alone_that_is_today_is_never_later_than_now():
    present = datetime(2026, 3, 1, 9, 15, tzinfo=UTC)
    today = present.astimezone().date().isoformat()
    moment = past_moment(today, present=present)
    assert moment <= present and moment.astimezone().date() == date.fromisoformat(today)


@pytest.mark.parametrize("when, words", [
    ("2099-01-06", "'2099-01-06' is in the future"),
    ("two hours from now", "is in the future"),  # made in the test: a parameter's id must be the same in every worker
    ("1899-12-31T12:00+00:00", "'1899-12-31T12:00+00:00' is before 1900"),
    ("1850-06-01", "'1850-06-01' is before 1900"),
    ("Tuesday", "'Tuesday' is not a date or a time"),
    ("2026-02-30", "'2026-02-30' is not a date or a time"),
    ("2026", "'2026' is not a date or a time"),
])
def test_at_is_refused_in_the_future_before_1900_or_when_no_date(run, played: Path, tmp_path: Path, when: str, words: str):
    if when == "two hours from now":
        when = (datetime.now(UTC) + timedelta(hours=2)).replace(microsecond=0).isoformat()
    before = played.read_bytes()
    result = run("record", played, "--at", when, "--knocker", "Ann", "--deadwood", "3", "--opponent-deadwood", "30")
    assert result.exit_code == 2
    line = one_error_line(result)
    assert line.startswith("error: --at: '") and words in line and "2026-01-06T19:30" in line
    assert played.read_bytes() == before
    fresh = tmp_path / "fresh.toml"
    started = run("new", fresh, "Ann", "Bob", "--at", when)
    assert started.exit_code == 2 and one_error_line(started) == line
    assert not fresh.exists()


def test_play_at_stamps_each_hand_a_second_after_the_one_before(run, tmp_path: Path):
    path = tmp_path / "m.toml"
    assert run("new", path, "Ann", "Bob", "--set", "target=50", "--at", "2026-01-06T19:30+00:00").exit_code == 0
    result = run("play", path, "--at", "2026-01-06T19:45+00:00", input="Ann\n4\n30\nc\nBob\n3\n8\nq\n")
    assert result.exit_code == 0, result.stderr
    assert stamps(path) == ("2026-01-06T19:30:00+00:00",
                            ["2026-01-06T19:45:00+00:00", "2026-01-06T19:45:01+00:00", "2026-01-06T19:45:02+00:00"])
    refused = run("play", path, "--at", "2099-01-01", input="Ann\n4\n30\n")
    assert refused.exit_code == 2 and refused.stderr.startswith("error: --at: '2099-01-01' is in the future")
    assert len(load(str(path))[0].hands) == 3


def test_the_next_game_at_a_past_night(run, tmp_path: Path):
    first, second = tmp_path / "jan-06.toml", tmp_path / "jan-06-2.toml"
    assert run("new", first, "Ann", "Bob", "--at", "2026-01-06T19:30+00:00").exit_code == 0
    assert run("record", first, "--at", "2026-01-06T20:00+00:00", *GIN).exit_code == 0
    result = run("new", second, "--next", first, "--at", "2026-01-06T20:30+00:00")
    assert (result.exit_code, result.stderr) == (0, "")
    assert stamps(second) == ("2026-01-06T20:30:00+00:00", [])


def test_the_service_stamps_the_moment_it_is_given(tmp_path: Path):
    path = str(tmp_path / "m.toml")
    night = datetime(2026, 1, 6, 19, 30, 15, 999, tzinfo=UTC)
    sheet = changes.start(path, NewMatch(["Ann", "Bob"], PRESETS["standard"], "standard"), at=night)
    assert sheet.match.created == "2026-01-06T19:30:15+00:00"
    change = changes.record(path, HandEntry(knocker="Ann", deadwood=0, opponent_deadwood=90), at=night + timedelta(minutes=5))
    assert change.match.hands[-1].recorded == "2026-01-06T19:35:15+00:00"
    later = changes.start(str(tmp_path / "now.toml"), NewMatch(["Ann", "Bob"], PRESETS["standard"], "standard"))
    assert later.match.created > "2026-12"


def test_past_moment_names_its_field():
    with pytest.raises(InputError) as refused:
        past_moment("soon", "when")
    assert refused.value.field == "when"


@pytest.mark.parametrize("command", ["new", "record", "play"])
def test_help_shows_at_with_an_example(run, command: str):
    result = run(command, "--help")
    assert result.exit_code == 0
    assert "--at WHEN" in result.stdout and "2026-01-06T19:30" in result.stdout

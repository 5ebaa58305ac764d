"""Time stamps checked where read: `validate` refuses a stamp that is no time (an impossible day, other text) with
its place; a finished game the standings cannot date is listed as skipped, with why, never dropped in silence. And
the standings' JSON gives the ratings as the ratings module computes them, with its tau and period."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest
from pages import signed_in

import ginscore
from ginscore.files.reading import load_file
from ginscore.match import ratings
from ginscore.match.moments import stamp_doubt
from ginscore.match.standings import SheetGames, sheet_games

IMPOSSIBLE = "2026-02-30T19:00:00+00:00"
GIN = ["--knocker", "Ann", "--deadwood", "0", "--opponent-deadwood", "90"]


def finished(run, path: Path, day: str = "2026-01-06") -> Path:
    """A finished match of one hand (Ann's gin), started and played on `day` at 19:30 and 20:00 UTC."""
    assert run("new", path, "Ann", "Bob", "--at", f"{day}T19:30+00:00").exit_code == 0
    assert run("record", path, "--at", f"{day}T20:00+00:00", *GIN).exit_code == 0
    return path


def restamped(path: Path, created: str | None, recorded: str | None) -> Path:
    """The file with its `created` and its hand's `recorded` set by hand (None: the key taken out)."""
    text = path.read_text(encoding="utf-8")
    for key, value in (("created", created), ("recorded", recorded)):
        text = re.sub(rf'^{key} = "[^"]*"\n', f'{key} = "{value}"\n' if value is not None else "", text, count=1, flags=re.M)
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("created, recorded, place, stamp", [
    ("2026-01-06T19:30:00+00:00", IMPOSSIBLE, "hands[1].recorded", IMPOSSIBLE),
    (IMPOSSIBLE, "2026-01-06T20:00:00+00:00", "created", IMPOSSIBLE),
    ("2026-01-06T19:30:00+00:00", "Tuesday", "hands[1].recorded", "Tuesday"),
])
def test_validate_refuses_a_stamp_that_is_no_time_naming_its_place(run, tmp_path: Path, created, recorded, place, stamp):
    path = restamped(finished(run, tmp_path / "m.toml"), created, recorded)
    before = path.read_bytes()
    result = run("validate", path)
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == f"{path}: {place}: {stamp_doubt(stamp)}\n"
    assert f"{place}: '{stamp}' is not a time" in result.stderr
    if stamp == IMPOSSIBLE:
        assert "(there is no day 2026-02-30)" in result.stderr
    shown = run("show", path)  # the score does not depend on a stamp: the file still opens
    assert shown.exit_code == 0 and shown.stderr == ""
    assert path.read_bytes() == before


def test_validate_names_every_stamp_that_is_no_time(run, tmp_path: Path):
    path = restamped(finished(run, tmp_path / "m.toml"), IMPOSSIBLE, "soon")
    result = run("validate", path)
    assert result.exit_code == 1
    assert [line.split(": ")[1] for line in result.stderr.splitlines()] == ["created", "hands[1].recorded"]


@pytest.mark.parametrize("stamp", ["", "2026-11-30T23:11:03+00:00", "2026-01-06", "2026-01-06T19:30", "2026-01-06T19:30:00Z"])
def test_a_time_or_no_stamp_is_no_doubt(stamp: str):
    assert stamp_doubt(stamp) is None


def test_validate_passes_the_samples_and_a_match_started_at_a_past_night(run, tmp_path: Path):
    path = finished(run, tmp_path / "m.toml")
    samples = sorted(str(p) for p in (Path(__file__).parent.parent / "sample_matches").glob("*.toml"))
    result = run("validate", path, *samples)
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout.splitlines()[0].startswith(f"{path}: ok (1 hand")


def undated_folder(run, tmp_path: Path, created: str | None, recorded: str | None) -> tuple[Path, Path]:
    """A club of two finished matches, the second (`b.toml`) with the stamps given."""
    club = tmp_path / "club"
    club.mkdir()
    finished(run, club / "a.toml")
    return club, restamped(finished(run, club / "b.toml", "2026-01-07"), created, recorded)


@pytest.mark.parametrize("created, recorded, why", [
    (None, None, "the game has no date: its last hand, hands[1], has no `recorded` and the match no `created`"),
    ("", "", "the game has no date: its last hand, hands[1], has no `recorded` and the match no `created`"),
    ("2026-01-07T19:30:00+00:00", IMPOSSIBLE, f"the game has no date: its last hand's time stamp, hands[1].recorded, is no time ('{IMPOSSIBLE}')"),
    (None, "Tuesday", "the game has no date: its last hand's time stamp, hands[1].recorded, is no time ('Tuesday')"),
])
def test_a_finished_game_with_no_date_is_skipped_and_said(run, tmp_path: Path, created, recorded, why):
    club, undated = undated_folder(run, tmp_path, created, recorded)
    result = run("standings", club, "--json", "--no-cache")
    assert result.exit_code == 1
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"{undated}: {why}") and lines[0].endswith("(skipped)")
    data = json.loads(result.stdout)
    assert data["files"] == 2 and data["games"] == 1
    assert len(data["skipped"]) == 1 and data["skipped"][0]["file"] == str(undated)
    assert data["skipped"][0]["reason"].startswith(why)
    text = run("standings", club, "--no-cache")
    assert text.exit_code == 1 and text.stderr == result.stderr
    assert "1 game in 2 files" in text.stdout


def test_a_skipped_game_is_said_with_the_cache_too(run, tmp_path: Path):
    club, undated = undated_folder(run, tmp_path, None, None)
    first, again = (run("standings", club, "--json") for _ in range(2))
    assert first.exit_code == again.exit_code == 1
    assert first.stdout == again.stdout and first.stderr == again.stderr
    assert json.loads(again.stdout)["skipped"][0]["file"] == str(undated)


def test_a_hollywood_sheets_games_with_no_date_are_each_skipped(run, tmp_path: Path):
    path = tmp_path / "h.toml"
    assert run("new", path, "Ann", "Bob", "--hollywood").exit_code == 0
    for _ in range(3):
        if run("record", path, *GIN).exit_code != 0:
            break
    restamped(path, "", None)
    text = re.sub(r'^recorded = "[^"]*"\n', "", path.read_text(encoding="utf-8"), flags=re.M)
    path.write_text(text, encoding="utf-8")
    games = sheet_games(load_file(str(path)).sheet)
    finished_games = sum(game.winner is not None for game in load_file(str(path)).sheet.games)
    assert games.games == () and len(games.undated) == finished_games >= 1
    assert all(reason.startswith("game ") for reason in games.undated)


def test_the_undated_games_survive_the_cache_record():
    games = SheetGames(undated=("the game has no date: ...",))
    assert SheetGames.from_record(games.as_record()) == games
    assert SheetGames.from_record({"games": [], "marks": []}) is None  # a row of an older shape is read again
    assert SheetGames.from_record({"games": [], "marks": [], "undated": [3]}) is None


def test_the_standings_page_lists_a_game_with_no_date(run, tmp_path: Path):
    club, _ = undated_folder(run, tmp_path, None, None)
    with signed_in(club) as client:
        page = client.get("/standings").text
    said = re.findall(r'<p class="skipped">(.*?)</p>', page, re.S)
    assert [html.unescape(line) for line in said] == [
        "Left out: b.toml: the game has no date: its last hand, hands[1], has no `recorded` and the match no `created` "
        'that is a time; add one, e.g. created = "2026-11-30T23:11:03+00:00".'
    ]


def test_the_json_gives_the_ratings_unrounded_with_tau_and_period(run, tmp_path: Path):
    club = tmp_path / "club"
    club.mkdir()
    for index, day in enumerate(("2026-01-06", "2026-01-06", "2026-01-13")):
        finished(run, club / f"m{index}.toml", day)
    result = run("standings", club, "--json", "--no-cache")
    assert (result.exit_code, result.stderr) == (0, "")
    data = json.loads(result.stdout)
    assert (data["tau"], data["period"], data["skipped"]) == (ratings.TAU, "day", [])
    table = ginscore.standings(str(club))
    walked = ratings.walk(ratings.Result(day, "ann", "bob", "ann") for day in ("2026-01-06", "2026-01-06", "2026-01-13"))
    for row, shown in zip(table.rows, data["players"], strict=True):
        rating = walked.ratings[row.player.casefold()]
        assert (shown["rating"], shown["rd"], shown["volatility"]) == (rating.rating, rating.rd, rating.volatility)
        assert (shown["rating"], shown["rd"]) == (row.rating.rating, row.rating.rd)
        assert shown["rating"] != round(shown["rating"], 1)
        assert [(point["rating"], point["rd"]) for point in shown["history"]] == [(r.rating, r.rd) for _, r in row.history]
    text = run("standings", club, "--no-cache").stdout
    assert f"{round(walked.ratings['ann'].rating)}?" in text  # the text still rounds

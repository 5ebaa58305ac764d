"""match/standings.py, files/standings_source.py and `ginscore.standings`: a folder of games over several days
rated as the paper's steps rate them (tests/test_ratings.py's own implementation), the window, one player under
any spelling, Hollywood's games one each, the figures, the cache, and `ginscore standings` on the command line."""

from __future__ import annotations

import json
import sqlite3
import unicodedata
from datetime import date
from pathlib import Path

import pytest
from conftest import json_object
from test_ratings import paper_walk

import ginscore
from ginscore.files.standings_source import folder_games
from ginscore.files.stats_cache import CACHE_NAME
from ginscore.files.storage import save
from ginscore.files.table import Table
from ginscore.game.rulebook import PRESETS
from ginscore.match.entry import HandEntry
from ginscore.match.ratings import expected_score
from ginscore.match.records import Match, new_id
from ginscore.match.scored import make_record
from ginscore.match.standings import SheetGames, day_of, sheet_games, standings_of_sheets
from ginscore.match.tally import add_hand, tally

ROOT = Path(__file__).resolve().parent.parent


def one_game(winner: str, loser: str, day: str, *, opponent: int = 80, hour: int = 20) -> Match:
    """A match of one hand: `winner` goes gin against `opponent` deadwood (over 100 with the bonus) on `day`; with an
    id of its own, as `new` writes, so that two such games of one evening are two matches, not copies of one."""
    stamp = f"{day}T{hour:02d}:00:00+00:00"
    match = Match((winner, loser), PRESETS["standard"], winner, created=stamp, preset="standard", id=new_id())
    match, _ = add_hand(match, make_record(match, HandEntry(knocker=winner, deadwood=0, opponent_deadwood=opponent), recorded=stamp))
    return match


DAYS = [
    ("2026-03-01", [("Ann", "Bob"), ("Ann", "Cy"), ("Bob", "Cy")]),
    ("2026-03-02", [("Cy", "Ann")]),  # Bob idle
    ("2026-03-04", [("Bob", "Ann"), ("Bob", "Ann"), ("Dee", "Cy")]),  # no game on the 3rd; Dee new
    ("2026-03-05", [("Ann", "Dee"), ("Cy", "Bob")]),
]


def write_days(folder: Path, days=DAYS) -> None:
    number = 0
    for day, games in days:
        for winner, loser in games:
            save(str(folder / f"m{number:03d}.toml"), one_game(winner, loser, day))
            number += 1


def test_a_folder_over_several_days_is_rated_as_the_papers_steps_to_1e_6(tmp_path):
    write_days(tmp_path)
    table = ginscore.standings(str(tmp_path))
    expected = paper_walk([games for _, games in DAYS])
    assert {row.player for row in table.rows} == set(expected)
    for row in table.rows:
        r, rd, sigma = expected[row.player]
        assert (row.rating.rating, row.rating.rd, row.rating.volatility) == pytest.approx((r, rd, sigma), abs=1e-6), row.player
    assert [row.rating.rating for row in table.rows] == sorted((row.rating.rating for row in table.rows), reverse=True)
    assert table.games == 9
    ann = table.row("ann")
    assert ann is not None and (ann.games, ann.won, ann.last_played) == (6, 3, "2026-03-05")
    assert [day for day, _ in ann.history] == ["2026-03-01", "2026-03-02", "2026-03-04", "2026-03-05"]


def test_since_and_until_rate_the_windows_games_alone(tmp_path):
    write_days(tmp_path)
    table = ginscore.standings(str(tmp_path), since="2026-03-02", until=date(2026, 3, 4))
    expected = paper_walk([games for day, games in DAYS if "2026-03-02" <= day <= "2026-03-04"])
    assert {row.player for row in table.rows} == set(expected) == {"Ann", "Bob", "Cy", "Dee"}
    for row in table.rows:
        assert (row.rating.rating, row.rating.rd, row.rating.volatility) == pytest.approx(tuple(expected[row.player]), abs=1e-6)
    assert (table.games, table.since, table.until) == (4, "2026-03-02", "2026-03-04")
    only_first = ginscore.standings(str(tmp_path), until="2026-03-01")
    assert {row.player: row.games for row in only_first.rows} == {"Ann": 2, "Bob": 2, "Cy": 2}
    assert ginscore.standings(str(tmp_path), since="2026-04-01").rows == ()


def test_a_games_day_is_its_last_hands_in_utc(tmp_path):
    # Recorded at 23:30 in New York on the 1st: the 2nd in UTC.
    assert day_of("2026-03-01T23:30:00-05:00") == "2026-03-02"
    assert day_of("2026-03-01T23:30:00") == "2026-03-01"
    assert day_of("not a time") is None
    stamp = "2026-03-01T23:30:00-05:00"
    match = Match(("Ann", "Bob"), PRESETS["standard"], "Ann", created="2026-02-27T10:00:00+00:00", preset="standard")
    for knocker, count, recorded in (("Bob", 10, "2026-02-27T10:05:00+00:00"), ("Ann", 80, stamp)):
        match, sheet = add_hand(match, make_record(match, HandEntry(knocker=knocker, deadwood=0, opponent_deadwood=count), recorded=recorded))
    games = sheet_games(sheet)
    assert [(g.day, g.winner) for g in games.games] == [("2026-03-02", "Ann")]
    assert [(m.day, m.player, m.kind) for m in games.marks] == [("2026-02-27", "Bob", "gin"), ("2026-03-02", "Ann", "gin")]


def test_names_equal_under_nfc_and_casefold_are_one_player(tmp_path):
    composed, decomposed = "Zoë", unicodedata.normalize("NFD", "ZOË")
    assert composed != decomposed
    sheets = [tally(one_game(composed, "Ann", "2026-03-01")), tally(one_game("Ann", decomposed, "2026-03-02")), tally(one_game("ann", "zoë", "2026-03-03"))]
    table = standings_of_sheets(sheets)
    assert [row.player for row in table.rows] == ["Ann", "Zoë"]  # the first spelling met in time
    assert {row.player: (row.games, row.won) for row in table.rows} == {"Ann": (3, 2), "Zoë": (3, 1)}
    odds = table.pair("ANN", unicodedata.normalize("NFD", "zoë"))
    assert odds is not None and (odds.head_to_head.wins, odds.head_to_head.losses) == (2, 1)


def test_each_game_of_a_hollywood_sheet_counts_one(tmp_path):
    stamp = "2026-03-01T20:00:00+00:00"
    match = Match(("Ann", "Bob"), PRESETS["standard"], "Ann", hollywood=True, created=stamp, preset="standard")
    sheet = tally(match)
    while not sheet.finished:
        match, sheet = add_hand(match, make_record(match, HandEntry(knocker="Ann", deadwood=0, opponent_deadwood=90), recorded=stamp))
    assert len(sheet.games) == 3
    table = standings_of_sheets([sheet])
    ann = table.row("Ann")
    assert ann is not None and (ann.games, ann.won) == (3, 3)
    assert table.games == 3
    assert ann.gins == len(match.hands)  # a hand counts once, however many games it went into


def test_the_figures_of_a_row(tmp_path):
    # Ann beats Bob by a gin; in the next match Bob undercuts Ann, then goes gin: each margin is the sheet's own.
    first = tally(one_game("Ann", "Bob", "2026-03-01", opponent=80))
    stamp = "2026-03-02T20:00:00+00:00"
    match = Match(("Ann", "Bob"), PRESETS["standard"], "Ann", created=stamp, preset="standard")
    match, second = add_hand(match, make_record(match, HandEntry(knocker="Ann", deadwood=9, opponent_deadwood=5), recorded=stamp))
    match, second = add_hand(match, make_record(match, HandEntry(knocker="Bob", deadwood=0, opponent_deadwood=90), recorded=stamp))
    table = standings_of_sheets([first, second])
    ann, bob = table.row("Ann"), table.row("Bob")
    assert ann is not None and bob is not None
    margins = (first.games[0].margin, second.games[0].margin)
    assert (ann.games, ann.won, ann.gins, ann.undercuts, ann.margin) == (2, 1, 1, 0, margins[0] - margins[1])
    assert (bob.games, bob.won, bob.gins, bob.undercuts, bob.margin) == (2, 1, 1, 1, margins[1] - margins[0])
    assert ann.average_margin == (margins[0] - margins[1]) / 2 and ann.win_share == 0.5
    data = ann.as_json()
    assert data["interval"] == [round(ann.rating.rating - 2 * ann.rating.rd, 1), round(ann.rating.rating + 2 * ann.rating.rd, 1)]
    assert data["provisional"] is True and data["last_played"] == "2026-03-02"


def test_two_players_who_never_met_have_odds_from_the_ratings(tmp_path):
    write_days(tmp_path, [("2026-03-01", [("Ann", "Bob"), ("Cy", "Dee")]), ("2026-03-02", [("Ann", "Bob"), ("Cy", "Dee"), ("Bob", "Dee")])])
    table = ginscore.standings(str(tmp_path))
    odds = table.pair("Ann", "Cy")
    assert odds is not None
    assert (odds.head_to_head.wins, odds.head_to_head.losses, odds.head_to_head.share) == (0, 0, None)
    ann, cy = table.row("Ann"), table.row("Cy")
    assert ann is not None and cy is not None
    assert odds.expected == pytest.approx(expected_score(ann.rating, cy.rating), abs=1e-12)
    assert odds.as_json()["head_to_head"]["interval"] == [0.025, 0.975]
    assert table.pair("Ann", "Nobody") is None and table.pair("Ann", "ANN") is None


def test_the_cache_remembers_and_never_believes_a_bad_row(tmp_path, monkeypatch):
    folder, cache = tmp_path / "games", tmp_path / "cache"
    folder.mkdir()
    write_days(folder)
    first = folder_games(str(folder), str(cache))
    with sqlite3.connect(cache / CACHE_NAME) as db:
        assert db.execute("SELECT count(*) FROM games").fetchone()[0] == 9  # Bob's two wins of the 4th: two ids, two rows
        db.execute("UPDATE games SET record = 'x ' || record")  # every checksum broken
    again = folder_games(str(folder), str(cache))
    assert again.sheets == first.sheets and again.files == 9
    assert SheetGames.from_record({"games": [["2026-03-01", "A", "B", "C", 5]], "marks": []}) is None  # a winner not playing
    assert SheetGames.from_record({"games": [], "marks": [["2026-03-01", "A", "knock"]]}) is None


def test_the_files_that_count_are_the_tables(tmp_path):
    save(str(tmp_path / "friday.toml"), one_game("Ann", "Bob", "2026-03-01"))
    save(str(tmp_path / "FRIDAY.toml"), one_game("Bob", "Ann", "2026-03-02"))  # the same name on a phone
    save(str(tmp_path / ".hidden.toml"), one_game("Cy", "Ann", "2026-03-02"))
    (tmp_path / "below").mkdir()
    save(str(tmp_path / "below" / "x.toml"), one_game("Dee", "Ann", "2026-03-02"))
    read = folder_games(str(tmp_path), None)
    table = Table(str(tmp_path))
    assert read.files == len(table.sheets()) == 1
    assert [error.path for error in read.skipped] == [str(tmp_path / "friday.toml")]  # sorted: FRIDAY first
    assert [(g.winner, g.day) for g in read.sheets[0].games] == [("Bob", "2026-03-02")]
    assert {row.player for row in ginscore.standings(str(tmp_path)).rows} == {"Ann", "Bob"}


def test_the_library_refuses_a_missing_folder_and_a_bad_day(tmp_path):
    with pytest.raises(ginscore.MatchFileError):
        ginscore.standings(str(tmp_path / "nope"))
    with pytest.raises(ginscore.InputError) as refused:
        ginscore.standings(str(tmp_path), since="2026-13-01")
    assert refused.value.field == "since"
    with pytest.raises(ginscore.InputError) as refused:
        ginscore.standings(str(tmp_path), since="2026-03-02", until="2026-03-01")
    assert refused.value.field == "until"


# The command line.


def test_standings_prints_the_table_best_first(run, tmp_path):
    write_days(tmp_path)
    result = run("standings", tmp_path)
    assert (result.exit_code, result.stderr) == (0, "")
    lines = result.stdout.splitlines()
    assert lines[0].split() == ["#", "player", "rating", "games", "won", "win", "%", "gins", "undercuts", "margin", "last", "played"]
    table = ginscore.standings(str(tmp_path))
    for place, row in enumerate(table.rows, start=1):
        words = lines[place].split()
        assert words[:2] == [str(place), row.player]
        assert words[2] == f"{row.rating.rating:.0f}?" and words[4] == f"{2 * row.rating.rd:.0f}"
        assert words[-1] == row.last_played
    assert "The ratings called" in result.stdout and "a coin flip calls 50%" in result.stdout
    assert "9 games in 9 files" in result.stdout


def test_standings_json_carries_the_prediction(run, tmp_path):
    write_days(tmp_path)
    data = json_object(run("standings", tmp_path, "--json"))
    table = ginscore.standings(str(tmp_path))
    assert data == {"files": 9, "skipped": [], "copies": [], **json.loads(json.dumps(table.as_json()))}
    prediction = data["prediction"]
    assert prediction["games"] == 9
    assert prediction["coin_flip"] == {"log_loss": 0.6931, "brier": 0.25, "called": 0.5}
    assert 0 < prediction["log_loss"] and 0 <= prediction["brier"] <= 1 and 0 <= prediction["called"] <= 1
    assert [p["player"] for p in data["players"]] == [row.player for row in table.rows]


def test_standings_windows_on_the_command_line(run, tmp_path):
    write_days(tmp_path)
    data = json_object(run("standings", tmp_path, "--since", "2026-03-04", "--json"))
    assert (data["since"], data["until"], data["games"]) == ("2026-03-04", None, 5)
    data = json_object(run("standings", tmp_path, "--until", "2026-03-01", "--json"))
    assert data["games"] == 3


@pytest.mark.parametrize(
    ("args", "option"),
    [
        (["--since", "2026-13-01"], "--since: '2026-13-01' is not a day: type it as YYYY-MM-DD, e.g. 2026-03-01"),
        (["--until", "yesterday"], "--until: 'yesterday' is not a day: type it as YYYY-MM-DD, e.g. 2026-03-01"),
        (["--since", "2026-3-1"], "--since: '2026-3-1' is not a day: type it as YYYY-MM-DD, e.g. 2026-03-01"),
        (["--since", "2026-03-02", "--until", "2026-03-01"], "--until: 2026-03-01 is before the start, 2026-03-02: give a day on or after it"),
    ],
)
def test_standings_refuses_a_bad_day(run, tmp_path, args, option):
    result = run("standings", tmp_path, *args)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == f"error: {option}\n"


def test_standings_skips_a_broken_file_and_says_so(run, tmp_path):
    write_days(tmp_path)
    (tmp_path / "broken.toml").write_text("players = [\n", encoding="utf-8")
    result = run("standings", tmp_path, "--json")
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert data["files"] == 9 and [item["file"] for item in data["skipped"]] == [str(tmp_path / "broken.toml")]
    assert data["skipped"][0]["reason"].startswith("not valid TOML")
    assert result.stderr.count("\n") == 1 and "broken.toml" in result.stderr and result.stderr.endswith("(skipped)\n")


def test_standings_of_a_folder_that_is_not_there(run, tmp_path):
    result = run("standings", tmp_path / "nope")
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == f"error: {tmp_path / 'nope'} is not a folder: give the folder of your match files, e.g. `ginscore standings ~/gin`\n"


def test_standings_of_an_empty_folder(run, tmp_path):
    result = run("standings", tmp_path)
    assert (result.exit_code, result.stdout, result.stderr) == (0, "No finished games found.\n", "")


def test_standings_of_the_samples(run):
    result = run("standings", ROOT / "sample_matches", "--json")
    assert (result.exit_code, result.stderr) == (0, "")
    data = json.loads(result.stdout)
    assert data["files"] == 3 and data["games"] == 3
    assert all(player["provisional"] for player in data["players"])

"""`ginscore.match.series`: a pair's series over hand-built sheets, every final worked out by hand from
RULES.md's standard knobs (gin 20, game 100, box 20, a shutout's flat 200 instead of the game bonus)."""

from __future__ import annotations

from ginscore.game.rulebook import PRESETS
from ginscore.match.entry import HandEntry
from ginscore.match.gives import match_gives
from ginscore.match.records import Match
from ginscore.match.scored import make_record
from ginscore.match.series import GameResult, Series, series_as_of, series_of
from ginscore.match.tally import Sheet, add_hand, tally
from ginscore.sheets.words import series_words, won_words


def played(players: tuple[str, str], *hands: tuple[str, int, int], preset: str = "standard", created: str = "") -> Sheet:
    match = Match(players, PRESETS[preset], players[0], preset=preset, created=created)
    sheet = tally(match)
    for knocker, mine, theirs in hands:
        match, sheet = add_hand(match, make_record(match, HandEntry(knocker=knocker, deadwood=mine, opponent_deadwood=theirs)))
    return sheet


def gives(sheets):
    return [match_gives(sheet) for sheet in sheets]


# Ann gins against 90: 110, then the flat shutout 200 and one box 20: 330 - 0.
ANN_SHUTS_OUT = (("Ann", 0, 90),)
# Ann knocks 5 against 15 (10), Bob gins against 90 (110): Bob 110 + 100 + 20 = 230, Ann 10 + 20 = 30.
BOB_WINS = (("Ann", 5, 15), ("Bob", 0, 90))


def test_a_series_counts_each_players_games_and_the_last_result():
    sheets = [played(("Ann", "Bob"), *ANN_SHUTS_OUT), played(("Ann", "Bob"), *BOB_WINS), played(("Bob", "Ann"), *ANN_SHUTS_OUT)]
    series = series_of(("Ann", "Bob"), gives(sheets))
    assert series.wins == (2, 1)
    assert series_words(series) == "Series: Ann 2 – Bob 1"
    assert series.games[0] == GameResult("Ann", (("Ann", 330), ("Bob", 0)), "standard")
    assert won_words(series.games[0].winner, dict(series.games[0].final)) == "Ann won 330 – 0"
    assert series.games[1].final == (("Ann", 30), ("Bob", 230))
    assert won_words(series.games[1].winner, dict(series.games[1].final)) == "Bob won 230 – 30"
    # the third sheet lists Bob first: the series keeps its own order of players
    assert series.games[2].final == (("Ann", 330), ("Bob", 0))
    assert series.last is not None and won_words(series.last.winner, dict(series.last.final)) == "Ann won 330 – 0"
    assert series.streak == ("Ann", 1)


def test_the_streak_counts_the_latest_wins_in_a_row():
    sheets = [played(("Ann", "Bob"), *BOB_WINS)] + [played(("Ann", "Bob"), *ANN_SHUTS_OUT) for _ in range(3)]
    assert series_of(("Ann", "Bob"), gives(sheets)).streak == ("Ann", 3)
    assert series_of(("Ann", "Bob"), gives(sheets[:1])).streak == ("Bob", 1)


def test_only_finished_games_between_the_same_two_players_count_in_any_case():
    open_game = played(("Ann", "Bob"), ("Ann", 5, 15))
    other_pair = played(("Ann", "Cy"), *ANN_SHUTS_OUT)
    shouted = played(("ANN", "bob"), *ANN_SHUTS_OUT)
    series = series_of(("Ann", "Bob"), gives([open_game, other_pair, shouted]))
    assert series.wins == (1, 0)
    assert series.games == (GameResult("Ann", (("Ann", 330), ("Bob", 0)), "standard"),)
    assert series_of(("Ann", "Bob"), gives([])) == Series(("Ann", "Bob"))
    assert series_of(("Ann", "Bob"), gives([])).streak is None


def test_mixed_rules_are_stated_and_the_json_carries_every_figure():
    sheets = [played(("Ann", "Bob"), *ANN_SHUTS_OUT), played(("Ann", "Bob"), ("Bob", 0, 90), preset="tournament")]
    series = series_of(("Ann", "Bob"), gives(sheets))
    assert series_words(series) == "Series: Ann 1 – Bob 1 (standard, tournament rules)"
    assert series.as_json() == {
        "players": ["Ann", "Bob"],
        "games": 2,
        "wins": {"Ann": 1, "Bob": 1},
        "drawn": 0,
        "streak": {"player": "Bob", "games": 1},
        "last": series.games[1].as_json(),
        "rules": ["standard", "tournament"],
    }
    assert series.games[1].winner == "Bob" and series.games[1].rules == "tournament"


def test_a_finished_sheets_result_is_worded_with_its_bonuses():
    sheet = played(("Ann", "Bob"), *BOB_WINS)
    assert won_words(sheet.winner, sheet.summed("final")) == "Bob won 230 – 30"
    assert won_words(None, {"Ann": 150, "Bob": 150}) == "drawn 150 – 150"


def test_a_game_sees_the_series_as_it_stood_after_it_not_the_games_played_later():
    hours = [f"2026-12-01T2{hour}:00:00Z" for hour in range(3)]
    first, second, third = (played(("Ann", "Bob"), *hands, created=hour) for hands, hour in zip((ANN_SHUTS_OUT, BOB_WINS, BOB_WINS), hours))
    sheets = [first, second, third]
    assert series_as_of(match_gives(first), gives(sheets)).wins == (1, 0)
    assert series_as_of(match_gives(second), gives(sheets)).wins == (1, 1)
    assert series_as_of(match_gives(third), gives(sheets)).wins == (1, 2) == series_of(("Ann", "Bob"), gives(sheets)).wins
    same_second = played(("Ann", "Bob"), *ANN_SHUTS_OUT, created=hours[1])
    assert series_as_of(match_gives(same_second), gives(sheets)).wins == (2, 0)  # started with the second: only the first is before it
    assert series_as_of(match_gives(played(("Ann", "Bob"), *BOB_WINS)), gives(sheets)).wins == (1, 2)  # no start time: every game given

"""The match core (no I/O): dealers, the game's end and its bonuses, refusals, and Hollywood columns.

Points are hand-computed from RULES.md. `win(name, p)` is a knock at 1 against p+1, worth p to the knocker.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from ginscore.cli.mend import next_match_command
from ginscore.errors import GameOverError, GinscoreError, IllegalHandError, InputError, RefusedError
from ginscore.game.rulebook import PRESETS, Rules
from ginscore.match.entry import HandEntry
from ginscore.match.records import HandRecord, Match
from ginscore.match.scored import make_record
from ginscore.match.tally import add_hand, game_over_message, replace_hand, sheet_dict, tally

STANDARD, TOURNAMENT, OKLAHOMA = PRESETS["standard"], PRESETS["tournament"], PRESETS["oklahoma"]
CANCELLED = HandRecord(cancelled=True)


def new(rules: Rules = STANDARD, dealer: str = "Ann", hollywood: bool = False) -> Match:
    return Match(("Ann", "Bob"), rules, dealer, hollywood=hollywood)


def knock(who: str, k: int, o: int, **extra) -> HandRecord:
    return HandRecord(knocker=who, deadwood=k, opponent_deadwood=o, **extra)


def win(who: str, points: int, **extra) -> HandRecord:
    """A knock at 1 against points+1: the knocker scores `points`.

    Ten cards count at most 98, so a bigger win is a standard gin (20 + the count) instead.
    """
    if points > 97:
        return knock(who, 0, points - 20, **extra)
    return knock(who, 1, points + 1, **extra)


def play(match: Match, *records: HandRecord):
    sheet = tally(match)
    for record in records:
        match, sheet = add_hand(match, record)
    return match, sheet


# --- who deals -------------------------------------------------------------------------------------


def test_the_winner_deals_next_and_a_cancelled_hand_is_dealt_again_by_the_same_dealer():
    _, sheet = play(
        new(dealer="Ann"),
        win("Bob", 10),  # Ann deals; Bob wins
        knock("Bob", 5, 3),  # Bob deals; Ann undercuts Bob: 5-3+10 = 12 to Ann
        CANCELLED,  # Ann deals; nobody scores
        win("Bob", 7),  # Ann deals again
    )
    assert [line.dealer for line in sheet.lines] == ["Ann", "Bob", "Ann", "Ann"]
    assert [line.winner for line in sheet.lines] == ["Bob", "Ann", None, "Bob"]
    assert sheet.lines[1].result == "undercut" and sheet.lines[1].points == 12
    assert sheet.next_dealer == "Bob"
    assert sheet.summed("totals") == {"Ann": 12, "Bob": 17}


def test_cancelled_hand_first_keeps_the_first_dealer():
    _, sheet = play(new(dealer="Bob"), CANCELLED, CANCELLED)
    assert [line.dealer for line in sheet.lines] == ["Bob", "Bob"]
    assert sheet.next_dealer == "Bob"
    assert [line.result for line in sheet.lines] == ["cancelled", "cancelled"]
    assert sheet.summed("totals") == {"Ann": 0, "Bob": 0}


def test_equal_counts_without_undercut_on_tie_score_nothing_and_the_dealer_deals_again():
    rules = replace(STANDARD, undercut_on_tie=False)
    _, sheet = play(new(rules, dealer="Ann"), win("Bob", 5), knock("Ann", 4, 4))
    tie = sheet.lines[1]
    assert (tie.dealer, tie.result, tie.winner, tie.points) == ("Bob", "tie", None, 0)
    assert sheet.next_dealer == "Bob"
    assert sheet.summed("totals") == {"Ann": 0, "Bob": 5}
    assert sheet.summed("boxes") == {"Ann": 0, "Bob": 1}


def test_equal_counts_are_an_undercut_by_default():
    _, sheet = play(new(), knock("Ann", 4, 4))
    line = sheet.lines[0]
    assert (line.result, line.winner, line.points) == ("undercut", "Bob", 10)  # 4-4+10
    assert sheet.next_dealer == "Bob"


def test_alternate_dealer_switches_after_every_scored_hand_but_not_after_a_cancelled_one():
    rules = replace(STANDARD, next_dealer="alternate")
    _, sheet = play(new(rules, dealer="Ann"), win("Ann", 5), win("Ann", 5), CANCELLED, win("Bob", 5), win("Bob", 5))
    assert [line.dealer for line in sheet.lines] == ["Ann", "Bob", "Ann", "Ann", "Bob"]
    assert sheet.next_dealer == "Ann"
    # under "winner" the same hands are dealt Ann, Ann, Ann, Ann, Bob
    _, winner_sheet = play(new(dealer="Ann"), win("Ann", 5), win("Ann", 5), CANCELLED, win("Bob", 5), win("Bob", 5))
    assert [line.dealer for line in winner_sheet.lines] == ["Ann", "Ann", "Ann", "Ann", "Bob"]
    assert winner_sheet.next_dealer == "Bob"


# --- the end of a game --------------------------------------------------------------------------------


def test_reaching_the_target_ends_the_game_with_game_and_box_bonuses():
    _, sheet = play(new(), win("Bob", 5), win("Ann", 40), win("Ann", 30))
    assert not sheet.finished and sheet.winner is None
    assert sheet_dict(sheet)["final"] == {"Ann": 70, "Bob": 5}  # equal to the totals while open
    _, sheet = play(new(), win("Bob", 5), win("Ann", 40), win("Ann", 30), win("Ann", 30))
    game = sheet.games[0]
    assert sheet.finished and game.reached == "Ann"
    assert game.totals == {"Ann": 100, "Bob": 5}
    assert game.boxes == {"Ann": 3, "Bob": 1}
    assert game.bonuses["Ann"] == {"game": 100, "boxes": 60, "shutout": 0}  # 3 x 20
    assert game.bonuses["Bob"] == {"game": 0, "boxes": 20, "shutout": 0}
    assert game.final == {"Ann": 260, "Bob": 25}  # 100+100+60, 5+20
    assert (game.winner, game.margin) == ("Ann", 235)


def test_exactly_reaching_the_target_or_passing_it_both_end_the_game():
    _, at = play(new(), win("Ann", 99))
    assert not at.finished
    _, over = play(new(), win("Ann", 99), win("Ann", 1))
    assert over.finished and over.games[0].totals["Ann"] == 100


def test_standard_flat_shutout_pays_200_instead_of_100():
    _, sheet = play(new(), win("Ann", 40), win("Ann", 30), win("Ann", 30))
    game = sheet.games[0]
    assert game.bonuses["Ann"] == {"game": 200, "boxes": 60, "shutout": 0}
    assert game.final == {"Ann": 360, "Bob": 0}  # 100+200+60
    assert game.margin == 360


def test_a_loser_whose_only_points_came_from_an_undercut_is_not_shut_out():
    _, sheet = play(new(), knock("Ann", 6, 5), win("Ann", 99))  # Bob undercuts: 6-5+10 = 11
    game = sheet.games[0]
    assert game.totals == {"Ann": 99, "Bob": 11}
    assert not game.finished
    _, sheet = play(new(), knock("Ann", 6, 5), win("Ann", 99), win("Ann", 1))
    assert sheet.games[0].bonuses["Ann"]["game"] == 100


def test_tournament_double_shutout_doubles_the_winners_final_after_bonuses():
    _, sheet = play(new(TOURNAMENT), win("Ann", 50), win("Ann", 50))
    game = sheet.games[0]
    # 100 points + 100 game + 2 boxes x 25 = 250, doubled = 500
    assert game.bonuses["Ann"] == {"game": 100, "boxes": 50, "shutout": 250}
    assert game.final == {"Ann": 500, "Bob": 0}
    assert sheet_dict(sheet)["bonuses"]["Ann"] == {"game": 100, "boxes": 50, "shutout": 250}


def test_tournament_without_a_shutout_is_not_doubled():
    _, sheet = play(new(TOURNAMENT), win("Bob", 5), win("Ann", 50), win("Ann", 50))
    game = sheet.games[0]
    assert game.final == {"Ann": 250, "Bob": 30}  # 100+100+50; 5+25


def test_shutout_none_pays_the_plain_game_bonus():
    _, sheet = play(new(replace(STANDARD, shutout="none")), win("Ann", 100))
    assert sheet.games[0].final == {"Ann": 220, "Bob": 0}  # 100+100+20


def test_oklahoma_gin_is_one_box_and_an_undercut_two():
    hands = [
        knock("Ann", 0, 10, upcard="Kh"),  # gin: 25+10 = 35, 1 box
        knock("Bob", 5, 3, upcard="Kh"),  # Ann undercuts: 5-3+25 = 27, 2 boxes
        knock("Ann", 2, 12, upcard="Kh"),  # knock: 12-2 = 10, 1 box
    ]
    _, sheet = play(new(OKLAHOMA), *hands)
    assert [line.result for line in sheet.lines] == ["gin", "undercut", "knock"]
    assert sheet.summed("totals") == {"Ann": 72, "Bob": 0}
    assert sheet.summed("boxes") == {"Ann": 4, "Bob": 0}
    _, sheet = play(new(OKLAHOMA), *hands, win("Ann", 78, upcard="Kh"))
    game = sheet.games[0]
    assert game.totals == {"Ann": 150, "Bob": 0}  # 72 + 78 reaches 150
    assert game.bonuses["Ann"] == {"game": 200, "boxes": 125, "shutout": 0}  # shutout 200; 5 boxes x 25
    assert game.final == {"Ann": 475, "Bob": 0}  # 150+200+125


def test_standard_gin_and_undercut_are_one_box_each():
    _, sheet = play(new(), knock("Ann", 0, 10), knock("Bob", 5, 3))
    assert sheet.summed("boxes") == {"Ann": 2, "Bob": 0}


def test_oklahoma_spade_upcard_doubles_points_not_boxes():
    _, sheet = play(new(OKLAHOMA), knock("Ann", 2, 10, upcard="5s"))
    line = sheet.lines[0]
    assert (line.points, line.multiplier) == (16, 2)  # (10-2) x 2
    assert sheet.summed("boxes") == {"Ann": 1, "Bob": 0}


def test_oklahoma_upcard_sets_the_knock_limit_and_an_ace_means_gin_only():
    match = new(OKLAHOMA)
    with pytest.raises(IllegalHandError, match=r"5 deadwood is over the knock limit of 4"):
        make_record(match, HandEntry(knocker="Ann", deadwood=5, opponent_deadwood=20, upcard="4h"))
    with pytest.raises(IllegalHandError, match=r"only gin may go down"):
        make_record(match, HandEntry(knocker="Ann", deadwood=1, opponent_deadwood=20, upcard="Ah"))
    record = make_record(match, HandEntry(knocker="Ann", deadwood=0, opponent_deadwood=20, upcard="Ah"))
    assert add_hand(match, record)[1].lines[0].result == "gin"
    one = new(replace(OKLAHOMA, oklahoma_ace="one"))
    assert add_hand(one, make_record(one, HandEntry(knocker="Ann", deadwood=1, opponent_deadwood=20, upcard="Ah")))[1].lines[0].points == 19


def test_the_player_who_reached_the_target_can_have_the_lower_final_total():
    # Bob wins 12 hands of 1 point: 12 + 12 boxes x 20 = 252.
    # Ann gins once against 80 (20+80 = 100) and reaches the target: 100 + 100 + 20 = 220.
    hands = [win("Bob", 1)] * 12 + [knock("Ann", 0, 80)]
    _, sheet = play(new(), *hands)
    game = sheet.games[0]
    assert sheet.finished
    assert game.reached == "Ann"
    assert game.totals == {"Ann": 100, "Bob": 12}
    assert game.final == {"Ann": 220, "Bob": 252}
    assert game.winner == "Bob" == sheet.winner
    assert game.margin == 32
    data = sheet_dict(sheet)
    assert (data["winner"], data["reached_target"], data["margin"]) == ("Bob", "Ann", 32)


def test_equal_finals_are_level_and_name_no_winner():
    # Ann: gin 20+80 = 100, + 100 game + 1 box x 20 = 220. Bob: 10 hands of 2 = 20, + 10 boxes x 20 = 220.
    # RULES.md: the higher final total wins; with equal totals there is none, though Ann reached the target.
    _, sheet = play(new(), *([win("Bob", 2)] * 10), knock("Ann", 0, 80))
    game = sheet.games[0]
    assert game.final == {"Ann": 220, "Bob": 220}
    assert game.reached == "Ann" and game.winner is None and game.margin == 0
    assert sheet.finished and sheet.winner is None


# --- refusals -------------------------------------------------------------------------------------------


def test_unknown_player_is_refused_and_the_players_are_named():
    with pytest.raises(InputError) as caught:
        make_record(new(), HandEntry(knocker="Zed", deadwood=3, opponent_deadwood=10))
    assert "'Zed'" in str(caught.value) and "Ann" in str(caught.value) and "Bob" in str(caught.value)


def test_player_names_match_case_insensitively():
    record = make_record(new(), HandEntry(knocker="  bOB ", deadwood=3, opponent_deadwood=10)).record
    assert record.knocker == "Bob"


def test_recording_after_the_game_is_over_is_refused_and_nothing_changes():
    match, sheet = play(new(), win("Ann", 100))
    assert sheet.finished
    before = match
    with pytest.raises(RefusedError) as caught:
        add_hand(match, win("Bob", 5))
    assert match == before and len(match.hands) == 1
    assert str(caught.value) == "the match is over (Ann reached 100), so no hand was recorded"
    assert isinstance(caught.value, GameOverError) and caught.value.match == match  # for the next game


def test_game_over_hint_rebuilds_changed_rules():
    match, sheet = play(new(replace(STANDARD, target=50)), win("Ann", 50))
    with pytest.raises(GameOverError) as caught:
        add_hand(match, win("Bob", 5))
    assert next_match_command(caught.value) == "ginscore new next-2.toml Ann Bob --rules standard --set target=50 --dealer Ann"
    assert next_match_command(caught.value, "friday.toml") == "ginscore new friday-2.toml --next friday.toml --dealer Ann"
    assert game_over_message(sheet) == "the match is over (Ann reached 50), so no hand was recorded"


def test_game_over_hint_for_hollywood_keeps_hollywood():
    match, sheet = play(new(hollywood=True), *([win("Ann", 100)] * 3))
    assert sheet.finished
    with pytest.raises(GameOverError) as caught:
        add_hand(match, win("Bob", 5))
    assert next_match_command(caught.value).endswith(" --hollywood --dealer Ann")
    assert "all three games are over" in game_over_message(sheet)


def test_illegal_knock_is_refused_with_the_count_and_the_limit():
    with pytest.raises(IllegalHandError, match=r"11 deadwood is over the knock limit of 10"):
        make_record(new(), HandEntry(knocker="Ann", deadwood=11, opponent_deadwood=30))
    with pytest.raises(IllegalHandError, match=r"illegal knock: 28 deadwood is over the knock limit of 10"):
        # 3h-5h and the kings; discarding Qh leaves 7c 9c Jd 2s = 28
        make_record(new(), HandEntry(knocker="Ann", cards="3h 4h 5h Ks Kc Kd 7c 9c Jd Qh 2s", opponent_cards="Qd Qc 5s 6s 7s Jc 4d 8h 2c Ac"))
    with pytest.raises(IllegalHandError, match=r"only gin may go down"):
        make_record(new(replace(STANDARD, knock_limit=0)), HandEntry(knocker="Ann", deadwood=1, opponent_deadwood=30))


def test_a_card_in_both_hands_is_refused():
    with pytest.raises(IllegalHandError, match=r"2d cannot be in both hands"):
        make_record(new(), HandEntry(knocker="Ann", cards="3h 4h 5h Ks Kc Kd 7c 8c 9c 2d", opponent_cards="2d Qd 5s 6s 7s Jc 4d 8h 2c Ac"))


@pytest.mark.parametrize(
    "options, error",
    [
        ({"knocker": "Ann"}, InputError),  # no cards, no counts
        ({"knocker": "Ann", "deadwood": 3}, InputError),  # only one count
        ({"knocker": "Ann", "cards": "3h 4h 5h Ks Kc Kd 7c 8c 9c 2d"}, InputError),  # no opponent
        ({"knocker": "Ann", "deadwood": 3, "opponent_cards": "Qd 5s 6s 7s Jc 4d 8h 2c Ac 9d"}, InputError),
        ({"knocker": "Ann", "deadwood": -1, "opponent_deadwood": 5}, InputError),
        ({"knocker": "Ann", "cancelled": True}, InputError),
        ({}, InputError),  # neither a knocker nor --cancelled
        ({"knocker": "Ann", "cards": "3h 4h 5h Ks Kc Kd 7c 8c 9c 2x", "opponent_deadwood": 5}, InputError),
        ({"knocker": "Ann", "deadwood": 2, "opponent_deadwood": 5, "upcard": "7h"}, InputError),  # not Oklahoma
    ],
)
def test_bad_records_are_refused(options, error):
    with pytest.raises(error):
        make_record(new(), HandEntry(**options))


def test_bad_card_error_names_its_field():
    with pytest.raises(InputError) as caught:
        make_record(new(), HandEntry(knocker="Ann", cards="3h 4h 5h Ks Kc Kd 7c 8c 9c 2d", opponent_cards="Kx 5s 6s 7s Jc 4d 8h 2c Ac 9d"))
    assert "'Kx' is not a card" in str(caught.value)
    assert caught.value.field == "opponent_cards"


def test_mixed_record_uses_the_knockers_cards_and_the_opponents_count():
    match = new()
    record = make_record(match, HandEntry(knocker="ann", cards="3h 4h 5h Ks Kc Kd 7c 8c 9c 2d 9h", opponent_deadwood=20))
    assert record.record.opponent_cards is None and record.record.opponent_deadwood == 20
    line = add_hand(match, record)[1].lines[0]
    # discard 9h, deadwood 2d = 2; the typed 20 is after lay-offs: 20-2 = 18
    assert (line.result, line.winner, line.points, line.knocker_deadwood, line.opponent_deadwood) == ("knock", "Ann", 18, 2, 20)


def test_cards_record_is_stored_in_canonical_notation():
    record = make_record(new(), HandEntry(knocker="Ann", cards="3H,4h 5♥ ks KC kd 7c 8c 9c 2D", opponent_cards="qd 5S 6s 7s JC 4d 8h 2c ac 9d")).record
    assert record.cards == "3h 4h 5h Ks Kc Kd 7c 8c 9c 2d"
    assert record.opponent_cards == "Qd 5s 6s 7s Jc 4d 8h 2c Ac 9d"


def test_big_gin_by_counts_under_tournament_and_refused_under_standard():
    match = new(TOURNAMENT)
    record = make_record(match, HandEntry(knocker="Ann", deadwood=0, opponent_deadwood=20, big_gin=True))
    line = add_hand(match, record)[1].lines[0]
    assert (line.result, line.points) == ("big_gin", 51)  # 31 + 20
    with pytest.raises(IllegalHandError, match="no big gin"):
        make_record(new(), HandEntry(knocker="Ann", deadwood=0, opponent_deadwood=20, big_gin=True))
    with pytest.raises(GinscoreError):
        make_record(match, HandEntry(knocker="Ann", deadwood=3, opponent_deadwood=20, big_gin=True))


def test_big_gin_from_cards_under_tournament():
    match = new(TOURNAMENT)
    record = make_record(match, HandEntry(knocker="Ann", cards="3h 4h 5h 6h Ks Kc Kd 7c 8c 9c 10c", opponent_cards="Qd 5s 6s 7s Jc 4d 8h 2c Ac 9d"))
    line = add_hand(match, record)[1].lines[0]
    # Qd 10 + 5s 6s 7s (run) + Jc 10 + 4d 4 + 8h 8 + 2c 2 + Ac 1 + 9d 9 = 44; big gin 31+44 = 75
    assert (line.result, line.points, line.opponent_deadwood) == ("big_gin", 75, 44)


def test_oklahoma_without_an_upcard_is_refused():
    with pytest.raises(InputError, match="up-card"):
        make_record(new(OKLAHOMA), HandEntry(knocker="Ann", deadwood=3, opponent_deadwood=20))
    problems: list = []
    tally(Match(("Ann", "Bob"), OKLAHOMA, "Ann", hands=(knock("Ann", 3, 20),)), problems)
    assert [number for number, _ in problems] == [1]


def test_replacing_a_hand_rescores_every_later_hand():
    match, sheet = play(new(), win("Ann", 10), win("Ann", 20), win("Bob", 5))
    assert [line.dealer for line in sheet.lines] == ["Ann", "Ann", "Ann"]
    match, sheet = replace_hand(match, 1, win("Bob", 10))
    assert [line.dealer for line in sheet.lines] == ["Ann", "Bob", "Ann"]
    assert [line.totals for line in sheet.lines] == [
        {"Ann": 0, "Bob": 10},
        {"Ann": 20, "Bob": 10},
        {"Ann": 20, "Bob": 15},
    ]


def test_replacing_a_hand_so_that_the_game_ends_earlier_is_refused():
    match, _ = play(new(), win("Ann", 10), win("Bob", 5))
    with pytest.raises(RefusedError, match="hand 2 comes after the end"):
        replace_hand(match, 1, win("Ann", 100))


def test_a_hand_after_the_end_of_the_match_is_a_problem_with_its_number():
    match = Match(("Ann", "Bob"), STANDARD, "Ann", hands=(win("Ann", 100), win("Bob", 5)))
    problems: list = []
    sheet = tally(match, problems)
    assert [number for number, _ in problems] == [2]
    assert len(sheet.lines) == 1


# --- Hollywood -------------------------------------------------------------------------------------------


def test_hollywood_first_win_in_game_1_second_in_1_and_2_third_in_all_three():
    _, sheet = play(
        new(hollywood=True),
        win("Ann", 10), win("Ann", 10), win("Ann", 10), win("Ann", 10),
        win("Bob", 10), win("Bob", 10), win("Bob", 10),
    )
    assert [line.columns for line in sheet.lines] == [(0,), (0, 1), (0, 1, 2), (0, 1, 2), (0,), (0, 1), (0, 1, 2)]
    assert [game.totals for game in sheet.games] == [
        {"Ann": 40, "Bob": 30},
        {"Ann": 30, "Bob": 20},
        {"Ann": 20, "Bob": 10},
    ]
    assert sheet.lines[-1].totals == {"Ann": 90, "Bob": 60}  # summed over the columns
    assert sheet.lines[-1].column_totals == tuple(game.totals for game in sheet.games)
    assert [game.boxes for game in sheet.games] == [
        {"Ann": 4, "Bob": 3},
        {"Ann": 3, "Bob": 2},
        {"Ann": 2, "Bob": 1},
    ]
    assert not sheet.finished


HOLLYWOOD_GAME = [
    win("Ann", 10),  # 1: game 1
    win("Ann", 10),  # 2: games 1, 2
    win("Ann", 80),  # 3: games 1, 2, 3; game 1 closes at 100, Bob shut out
    win("Bob", 5),  # 4: Bob had no score when game 1 closed: game 2 only
    win("Bob", 5),  # 5: games 2, 3
    win("Ann", 10),  # 6: games 2, 3; game 2 closes at 100 (Bob 10)
    win("Bob", 20),  # 7: game 3
    win("Ann", 10),  # 8: game 3 closes at 100 (Bob 25)
]


def test_hollywood_columns_close_one_by_one_and_the_match_ends_with_the_third():
    match = new(hollywood=True)
    _, sheet = play(match, *HOLLYWOOD_GAME[:3])
    assert [game.finished for game in sheet.games] == [True, False, False]
    assert not sheet.finished and sheet.winner is None
    _, sheet = play(match, *HOLLYWOOD_GAME[:6])
    assert [game.finished for game in sheet.games] == [True, True, False]
    assert not sheet.finished
    _, sheet = play(match, *HOLLYWOOD_GAME[:7])
    assert not sheet.finished  # still open: another hand is accepted
    done, sheet = play(match, *HOLLYWOOD_GAME)
    assert sheet.finished
    with pytest.raises(RefusedError):
        add_hand(done, win("Bob", 5))

    assert [line.columns for line in sheet.lines] == [(0,), (0, 1), (0, 1, 2), (1,), (1, 2), (1, 2), (2,), (2,)]
    one, two, three = sheet.games
    assert [one.hands, two.hands, three.hands] == [(1, 2, 3), (2, 3, 4, 5, 6), (3, 5, 6, 7, 8)]
    # game 1: Ann 10+10+80 = 100, Bob never scored: shutout 200; 3 boxes x 20
    assert one.totals == {"Ann": 100, "Bob": 0}
    assert one.bonuses["Ann"] == {"game": 200, "boxes": 60, "shutout": 0}
    assert one.final == {"Ann": 360, "Bob": 0}
    # game 2: Ann 10+80+10 = 100, Bob 5+5 = 10: game 100; boxes 3 and 2
    assert two.totals == {"Ann": 100, "Bob": 10}
    assert two.bonuses["Ann"]["game"] == 100
    assert two.final == {"Ann": 260, "Bob": 50}
    # game 3: Ann 80+10+10 = 100, Bob 5+20 = 25
    assert three.totals == {"Ann": 100, "Bob": 25}
    assert three.final == {"Ann": 260, "Bob": 65}
    assert [one.margin, two.margin, three.margin] == [360, 210, 195]
    assert sheet.summed("final") == {"Ann": 880, "Bob": 115}
    assert (sheet.winner, sheet.margin) == ("Ann", 765)


def test_hollywood_sheet_dict_has_three_columns():
    _, sheet = play(new(hollywood=True), *HOLLYWOOD_GAME[:6])
    data = sheet_dict(sheet)
    assert data["hollywood"] is True
    columns = data["columns"]
    assert len(columns) == 3
    for column in columns:
        assert {"totals", "boxes", "finished", "winner", "bonuses", "final", "margin", "hands"} <= set(column)
    assert [c["finished"] for c in columns] == [True, True, False]
    assert [c["winner"] for c in columns] == ["Ann", "Ann", None]
    assert columns[0]["final"] == {"Ann": 360, "Bob": 0}
    assert columns[1]["final"] == {"Ann": 260, "Bob": 50}
    assert columns[2]["final"] == columns[2]["totals"] == {"Ann": 90, "Bob": 5}
    assert [c["hands"] for c in columns] == [[1, 2, 3], [2, 3, 4, 5, 6], [3, 5, 6]]
    assert [hand["derived"]["columns"] for hand in data["hands"]] == [[1], [1, 2], [1, 2, 3], [2], [2, 3], [2, 3]]
    assert data["finished"] is False and data["winner"] is None


def test_a_plain_match_has_no_columns_key_and_one_game():
    _, sheet = play(new(), win("Ann", 10))
    assert "columns" not in sheet_dict(sheet) and len(sheet.games) == 1


def test_core_modules_import_no_terminal_libraries():
    import subprocess
    import sys

    code = "import sys, ginscore.match, ginscore.files.storage; print(sorted(m for m in ('typer', 'rich') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"

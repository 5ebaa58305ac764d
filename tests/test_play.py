"""`ginscore play`: guided entry driven through stdin, and the core loop `ginscore.match.play.play` with a fake table.

Points are worked out by hand from RULES.md; the card hand is the one `test_cli_match.py` uses.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
import time
from dataclasses import replace
from pathlib import Path

import pytest
from conftest import interruptible, json_object
from terminal import Session

from ginscore.errors import RefusedError
from ginscore.files import reading
from ginscore.game.rulebook import PRESETS
from ginscore.match.entry import HandEntry
from ginscore.match.play import HINT, StopPlay, Table, play
from ginscore.match.records import HandRecord, Match
from ginscore.match.scored import make_record
from ginscore.match.tally import add_hand, tally

GINSCORE = str(Path(sys.executable).with_name("ginscore"))

# Ann discards 9h and spreads 3h-5h, 7c-9c, the kings with 2d = 2; Bob has 5s-7s and 45 deadwood: Ann 43
ANN_CARDS = "3h 4h 5h Ks Kc Kd 7c 8c 9c 2d 9h"
BOB_CARDS = "Qh Qd 5s 6s 7s Jc 4d 8h 2c Ac"
WHO = "Who knocked? Ann (a), Bob (b), c cancelled: "


def ann_cards_question(name: str = "Ann") -> str:
    return f"{name}'s cards or count: "


def opponent_question(name: str = "Bob") -> str:
    return f"{name}'s cards or count after lay-offs: "


def opponent_count_question(name: str = "Bob") -> str:
    return f"{name}'s count after lay-offs: "


@pytest.fixture
def short(run, tmp_path) -> Path:
    """A standard match to 50, so that a whole game takes a few hands."""
    path = tmp_path / "m.toml"
    result = run("new", path, "Ann", "Bob", "--set", "target=50")
    assert result.exit_code == 0, result.stderr
    return path


def lines(*answers: str) -> str:
    return "".join(f"{answer}\n" for answer in answers)


def saved(path: Path) -> tuple[Match, object]:
    return reading.load(str(path))


def stopped(text: str, path: Path, hands: int) -> bool:
    """Whether `text` ends by saying how many hands are saved and how to carry on."""
    message = rf"\nStopped\. {hands} hands? (?:is|are) saved in {re.escape(str(path))}; run `ginscore play {re.escape(str(path))}` to carry on\.\n$"
    return re.search(message, text) is not None


# --- a whole game ---------------------------------------------------------------------------------------------

WHOLE_GAME = [
    "Ann", ANN_CARDS, BOB_CARDS,  # 1: Ann 43 with cards
    "cancelled",  # 2: dead hand, Ann deals again
    "bob", "3", "8",  # 3: Bob knocks 3 against 8: Bob 5
    "ANN", "2", "12",  # 4: Ann 10: 53 reaches 50
]


def test_play_a_whole_game_with_cards_and_counts(run, short):
    result = run("play", short, input=lines(*WHOLE_GAME, "Bob", "1", "2"))  # the last hand comes after the end
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""
    out = result.stdout
    assert out.startswith(f"{HINT}\n\nHand 1: Ann deals. Score: Ann 0, Bob 0.\n{WHO}")
    assert "Hand 1: knock: Ann scores 43" in out
    assert "Hand 2: Ann deals. Score: Ann 43, Bob 0." in out
    assert "Hand 2: cancelled: nobody scores, the same dealer deals again" in out
    assert "Hand 3: Ann deals. Score: Ann 43, Bob 0." in out  # the same dealer after a dead hand
    assert "Hand 3: knock: Bob scores 5" in out
    assert "Hand 4: Bob deals. Score: Ann 43, Bob 5." in out
    assert "Hand 4: knock: Ann scores 10" in out
    # Ann 53 + game 100 + 2 boxes x 20 = 193; Bob 5 + 20 = 25
    assert "  Ann: 53 points + 100 game bonus + 40 for boxes = 193" in out
    assert "Ann wins by 168." in out
    assert out.endswith(f"\nThe match is over. `ginscore show {short}` prints the whole sheet.\n")
    assert out.count(WHO) == 4  # nothing asked after the end
    match, sheet = saved(short)
    assert len(match.hands) == 4 and sheet.finished
    assert match.hands[0].cards == ANN_CARDS and match.hands[0].opponent_cards == BOB_CARDS
    assert match.hands[1].cancelled
    assert all(re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00", h.recorded) for h in match.hands)  # stamped when saved
    assert (match.hands[2].knocker, match.hands[2].deadwood, match.hands[2].opponent_deadwood) == ("Bob", 3, 8)
    assert sheet.summed("final") == {"Ann": 193, "Bob": 25}


def test_play_shows_the_running_score_after_each_hand(run, short):
    result = run("play", short, input=lines(*WHOLE_GAME[:3]))
    assert result.exit_code == 0
    out = result.stdout
    hand = out.index("Hand 1: knock: Ann scores 43")
    assert out.index("Score: Ann 43, Bob 0", hand) < out.index("Next dealer: Ann", hand)
    assert "lay-offs" in out[hand:]  # the scored hand with its spreads


# --- asked again ----------------------------------------------------------------------------------------------


def test_a_card_typo_is_asked_again_quoting_the_token_and_nothing_is_lost(run, short):
    typo = ANN_CARDS.replace("Kd", "4x")
    result = run("play", short, input=lines("Ann", typo, ANN_CARDS, BOB_CARDS.replace("Ac", "Ak"), BOB_CARDS))
    assert result.exit_code == 0 and result.stderr == ""
    out = result.stdout
    assert "'4x' is not a card: unknown suit 'x'" in out
    assert "'Ak' is not a card" in out
    assert out.count(WHO) == 2  # asked once for hand 1, then for hand 2 at the end of input: never again for the typo
    assert out.count(ann_cards_question()) == 2 and out.count(opponent_question()) == 2
    assert out.index("'4x' is not a card") < out.index(ann_cards_question(), out.index(ann_cards_question()) + 1)
    match, _ = saved(short)
    assert len(match.hands) == 1
    assert (match.hands[0].knocker, match.hands[0].cards, match.hands[0].opponent_cards) == ("Ann", ANN_CARDS, BOB_CARDS)


def test_an_unknown_player_is_asked_again(run, short):
    result = run("play", short, input=lines("Zed", "ann", "4", "30"))
    assert result.exit_code == 0 and result.stderr == ""
    out = result.stdout
    assert "'Zed' is not a player: type a or 1 for Ann, b or 2 for Bob, or c for a cancelled hand. Try again." in out
    assert out.count(WHO) == 3  # Zed, ann, then hand 2
    match, sheet = saved(short)
    assert [(h.knocker, h.deadwood, h.opponent_deadwood) for h in match.hands] == [("Ann", 4, 30)]
    assert sheet.summed("totals") == {"Ann": 26, "Bob": 0}


@pytest.mark.parametrize(
    "knocker, illegal, explained",
    [
        ("Bob", "15", "15"),  # a count over the limit of 10
        # Ann's cards: 3h-5h and the kings, then 9d 8s Jh Qd Js: 37 at best after discarding a ten
        ("Ann", "3h 4h 5h Ks Kc Kd 9d 8s Jh Qd Js", "37"),
    ],
)
def test_an_illegal_knock_is_explained_at_once_and_the_knockers_cards_asked_again(run, short, knocker, illegal, explained):
    # The knock is refused as soon as the knocker's cards or count are typed, before the opponent's are asked.
    result = run("play", short, input=lines(knocker, illegal, "3", "8"))
    assert result.exit_code == 0 and result.stderr == ""
    out = result.stdout
    refused = out.index("illegal knock")
    first_line = out[refused:].splitlines()[0]
    assert f"{explained} deadwood is over the knock limit of 10" in first_line and "Try again." in first_line
    assert out.count(ann_cards_question(knocker)) == 2
    assert out.index(ann_cards_question(knocker)) < refused < out.index("count after lay-offs")
    assert out.count("Hand 1: Ann deals. Score: Ann 0, Bob 0.") == 1
    match, _ = saved(short)
    assert [(h.knocker, h.deadwood, h.opponent_deadwood) for h in match.hands] == [(knocker, 3, 8)]


@pytest.mark.parametrize(
    "wrong, explained",
    [
        (BOB_CARDS.replace("Ac", "Kd"), "Kd cannot be in both hands: check what was typed. Try again."),  # Kd is Ann's
        (BOB_CARDS.replace(" Ac", ""), "the opponent's hand needs 10 cards, but 9 were given (Qh Qd 5s 6s 7s Jc 4d 8h 2c). Try again."),
        (BOB_CARDS.replace("Ac", "Qh"), "'Qh' is given twice: each card can be in a hand only once. Try again."),
    ],
)
def test_an_impossible_opponent_hand_asks_only_for_the_opponents_cards_again(run, short, wrong, explained):
    result = run("play", short, input=lines("Ann", ANN_CARDS, wrong, BOB_CARDS))
    assert result.exit_code == 0 and result.stderr == ""
    out = result.stdout
    assert f"{opponent_question()}  {explained}\n{opponent_question()}Hand 1: knock: Ann scores 43" in out
    assert out.count(WHO) == 2 and out.count(ann_cards_question()) == 1  # the knocker's cards are kept
    assert out.count("Hand 1: Ann deals.") == 1
    match, _ = saved(short)
    assert [(h.cards, h.opponent_cards) for h in match.hands] == [(ANN_CARDS, BOB_CARDS)]


# --- fewer keystrokes -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("ann, bob", [("a", "b"), ("1", "2"), ("A", "B"), (" ann ", "BOB")])
def test_a_knocker_is_picked_by_initial_number_or_name(run, short, ann, bob):
    result = run("play", short, input=lines(ann, "2", "12", bob, "3", "8"))
    assert result.exit_code == 0 and result.stderr == ""
    match, _ = saved(short)
    assert [(h.knocker, h.deadwood, h.opponent_deadwood) for h in match.hands] == [("Ann", 2, 12), ("Bob", 3, 8)]


def test_shared_initials_are_not_offered_and_numbers_still_work(run, tmp_path):
    path = tmp_path / "m.toml"
    assert run("new", path, "Ann", "Al").exit_code == 0
    result = run("play", path, input=lines("a", "2", "3", "8"))
    assert result.exit_code == 0 and result.stderr == ""
    who = "Who knocked? Ann (1), Al (2), c cancelled: "
    assert f"{who}  'a' is not a player: type 1 for Ann, 2 for Al, or c for a cancelled hand. Try again.\n{who}" in result.stdout
    match, _ = saved(path)
    assert [(h.knocker, h.deadwood) for h in match.hands] == [("Al", 3)]


def test_an_initial_that_is_a_command_letter_is_not_offered_and_a_full_name_wins(run, tmp_path):
    path = tmp_path / "m.toml"
    assert run("new", path, "Carl", "Q").exit_code == 0
    result = run("play", path, input=lines("c", "q", "1", "8"))  # c cancels; q is the player Q, not quit
    assert result.exit_code == 0 and result.stderr == ""
    assert "Who knocked? Carl (1), Q (2), c cancelled: " in result.stdout
    match, _ = saved(path)
    assert [(h.cancelled, h.knocker, h.deadwood, h.opponent_deadwood) for h in match.hands] == [
        (True, None, None, None),
        (False, "Q", 1, 8),
    ]


def test_both_counts_on_one_line_make_a_hand_in_seven_keystrokes(run, short):
    answers = lines("a", "4 23")
    assert len(answers) == 7
    result = run("play", short, input=answers)
    assert result.exit_code == 0 and result.stderr == ""
    out = result.stdout
    assert f"{WHO}{ann_cards_question()}Hand 1: knock: Ann scores 19\n" in out  # nothing more asked
    assert opponent_count_question() not in out
    match, _ = saved(short)
    assert [(h.knocker, h.deadwood, h.opponent_deadwood) for h in match.hands] == [("Ann", 4, 23)]


@pytest.mark.parametrize(
    "wrong, explained",
    [
        ("4 99", "a count of 99 is impossible: ten cards count from 0 to 98"),
        ("11 23", "illegal knock: 11 deadwood is over the knock limit of 10"),
        ("4 23 5", "'4 23 5' has 3 numbers: type the knocker's count, or both counts like 4 23, 4/23 or gin 30"),
        ("4//23", "'4//23' is not counts: type the knocker's count, or both counts like 4 23, 4/23 or gin 30"),
        ("", "type the cards, like 3h 4h 5h ..., a count like 7, or both counts like 4 23, 4/23 or gin 30"),
    ],
)
def test_impossible_counts_on_one_line_ask_that_line_again(run, short, wrong, explained):
    result = run("play", short, input=lines("a", wrong, "4 23"))
    assert result.exit_code == 0 and result.stderr == ""
    out = result.stdout
    assert f"{ann_cards_question()}  {explained}" in out
    assert out.count(ann_cards_question()) == 2 and out.count(WHO) == 2
    match, _ = saved(short)
    assert [(h.deadwood, h.opponent_deadwood) for h in match.hands] == [(4, 23)]


def test_after_the_knockers_count_the_opponent_is_asked_for_a_count_only(run, short):
    result = run("play", short, input=lines("b", "3", BOB_CARDS.replace("Bob", ""), "99", "8"))
    assert result.exit_code == 0 and result.stderr == ""
    out = result.stdout
    question = opponent_count_question("Ann")
    assert f"{ann_cards_question('Bob')}{question}" in out
    assert f"{question}  'Qh Qd 5s 6s 7s Jc 4d 8h 2c Ac' is not a count: with the knocker's count, type the opponent's as a number, like 23. Try again.\n" in out
    assert f"{question}  a count of 99 is impossible: ten cards count from 0 to 98. Try again.\n{question}Hand 1: knock: Bob scores 5" in out
    assert "cards (10) or their count" not in out
    match, _ = saved(short)
    assert [(h.knocker, h.deadwood, h.opponent_deadwood) for h in match.hands] == [("Bob", 3, 8)]


def test_a_spread_in_groups_that_no_discard_makes_legal_is_refused_at_once(run, short):
    not_a_meld = "3h 4h 6h | Ks Kc Kd | 7c 8c 9c | 2d 9h"
    over = "3h 4h 5h | Ks Kc Kd | 7c 8c | 9c Qd | Jh"  # 34 deadwood at best, discarding a face card
    good = "3h 4h 5h | Ks Kc Kd | 7c 8c 9c | 2d 9h"
    result = run("play", short, input=lines("a", not_a_meld, over, good, BOB_CARDS))
    assert result.exit_code == 0 and result.stderr == ""
    out = result.stdout
    question = ann_cards_question()
    assert f"{question}  '3h 4h 6h' is not a meld: a run is 3+ cards of one suit in sequence, a set 3 or 4 of one rank. Try again.\n{question}" in out
    assert f"{question}  illegal knock: 34 deadwood is over the knock limit of 10" in out
    assert out.count(question) == 3 and "Discarded face down: " in out


def test_a_discard_that_cannot_be_is_asked_again_alone(run, short):
    spread = "3h 4h 5h | Ks Kc Kd | 7c 8c 9c | 2d 9h"
    result = run("play", short, input=lines("a", spread, "Ac", "Ks", "9h", BOB_CARDS))
    assert result.exit_code == 0 and result.stderr == ""
    out = result.stdout
    discard = "Discarded face down: "
    assert f"{discard}  the discard Ac is not in the knocker's hand" in out
    assert f"{discard}  the discard Ks cannot be in the meld Ks Kc Kd. Try again.\n{discard}{opponent_question()}" in out
    assert out.count(ann_cards_question()) == 1
    assert "Hand 1: knock: Ann scores 43" in out
    assert saved(short)[0].hands[0].discard == "9h"


# --- notes ---------------------------------------------------------------------------------------------------


def test_note_at_any_question_is_kept_with_the_hand_and_shown_in_json(run, short):
    answers = lines(
        "note Ann's first knock", "a", "note at the club, rainy", ANN_CARDS, BOB_CARDS,  # the later note wins
        "b", "3", "note", "8",  # a bare 'note' is no note: it is refused as a count
        "C", "note   dealt twice  ",  # then the end of input: the note goes with the unfinished hand
    )
    result = run("play", short, input=answers)
    assert result.exit_code == 0 and result.stderr == ""
    out = result.stdout
    assert out.startswith(HINT + "\n")
    assert f"{WHO}  Note for this hand: Ann's first knock\n{WHO}" in out
    assert f"{ann_cards_question()}  Note for this hand: at the club, rainy\n{ann_cards_question()}" in out
    assert "'note' is not a count" in out
    match, _ = saved(short)
    assert [(h.knocker, h.note) for h in match.hands] == [("Ann", "at the club, rainy"), ("Bob", ""), (None, "")]
    shown = json_object(run("show", short, "--json"))
    assert [hand["note"] for hand in shown["hands"]] == ["at the club, rainy", "", ""]


def test_a_note_on_a_cancelled_hand(run, short):
    result = run("play", short, input=lines("note misdeal, 2 left in the stock", "c"))
    assert result.exit_code == 0 and result.stderr == ""
    match, _ = saved(short)
    assert [(h.cancelled, h.note) for h in match.hands] == [(True, "misdeal, 2 left in the stock")]


def test_a_player_called_note_is_picked_by_name(run, tmp_path):
    path = tmp_path / "m.toml"
    assert run("new", path, "Note", "Nora X").exit_code == 0
    result = run("play", path, input=lines("note", "2", "12", "note x", "note hi", "1", "2", "20"))
    assert result.exit_code == 0 and result.stderr == ""
    match, _ = saved(path)
    assert [(h.knocker, h.note) for h in match.hands] == [("Note", ""), ("Note", "hi")]


# --- stopping and carrying on -----------------------------------------------------------------------------------


def test_end_of_input_midway_keeps_every_complete_hand(run, short):
    result = run("play", short, input=lines(*WHOLE_GAME[:5], "3"))  # hand 3: Bob knocked with 3, then nothing
    assert result.exit_code == 0 and result.stderr == ""
    assert stopped(result.stdout, short, 2), result.stdout
    match, sheet = saved(short)
    assert len(match.hands) == 2 and match.hands[1].cancelled
    assert sheet.summed("totals") == {"Ann": 43, "Bob": 0}


def test_the_stop_message_counts_one_hand_in_the_singular(run, short):
    result = run("play", short, input=lines(*WHOLE_GAME[:3]))
    assert f"Stopped. 1 hand is saved in {short}" in result.stdout


def test_a_second_play_carries_on_where_the_first_stopped(run, short):
    first = run("play", short, input=lines(*WHOLE_GAME[:4]))
    assert first.exit_code == 0
    assert len(saved(short)[0].hands) == 2
    second = run("play", short, input=lines(*WHOLE_GAME[4:]))
    assert second.exit_code == 0 and second.stderr == ""
    assert second.stdout.startswith(f"{HINT}\n\nHand 3: Ann deals. Score: Ann 43, Bob 0.\n{WHO}")
    assert second.stdout.endswith(f"The match is over. `ginscore show {short}` prints the whole sheet.\n")
    match, sheet = saved(short)
    assert len(match.hands) == 4 and sheet.finished
    assert sheet.summed("totals") == {"Ann": 53, "Bob": 5}


def test_play_on_a_finished_match_asks_nothing(run, short):
    assert run("play", short, input=lines(*WHOLE_GAME)).exit_code == 0
    before = short.read_bytes()
    result = run("play", short, input=lines("Ann", "1", "2"))
    assert result.exit_code == 0 and result.stderr == ""
    assert WHO not in result.stdout and "The match is over" in result.stdout
    assert short.read_bytes() == before


@pytest.mark.parametrize("word", ["quit", "q", "QUIT"])
@pytest.mark.parametrize("at", [0, 1, 2])
def test_quit_stops_at_any_question_keeping_the_complete_hands(run, short, word, at):
    hand_2 = ["Bob", "3", "8"]
    result = run("play", short, input=lines("Ann", "2", "12", *hand_2[:at], word, "Ann", "1", "5"))
    assert result.exit_code == 0 and result.stderr == ""
    assert stopped(result.stdout, short, 1), result.stdout
    match, _ = saved(short)
    assert [(h.knocker, h.deadwood, h.opponent_deadwood) for h in match.hands] == [("Ann", 2, 12)]


@pytest.mark.parametrize("word", ["cancelled", "cancel", "dead", "C"])
def test_cancelled_records_a_dead_hand(run, short, word):
    result = run("play", short, input=lines(word))
    assert result.exit_code == 0
    assert "Hand 1: cancelled: nobody scores, the same dealer deals again" in result.stdout
    assert "Hand 2: Ann deals. Score: Ann 0, Bob 0." in result.stdout
    match, _ = saved(short)
    assert match.hands == (HandRecord(cancelled=True, recorded=match.hands[0].recorded),)
    assert ann_cards_question() not in result.stdout  # nothing more asked for a dead hand


UPCARD = "Up-card: "


@pytest.fixture
def oklahoma(run, tmp_path) -> Path:
    path = tmp_path / "ok.toml"
    assert run("new", path, "Ann", "Bob", "--rules", "oklahoma", "--set", "target=50").exit_code == 0
    return path


def test_oklahoma_asks_for_the_upcard_first(run, oklahoma):
    # 3s up-card: limit 3, spades double. Ann knocks 5 (over 3): refused at once; then 2 against 23: (23 - 2) x 2 = 42
    result = run("play", oklahoma, input=lines("3x", "3s", "a", "5", "2", "23"))
    assert result.exit_code == 0 and result.stderr == ""
    out = result.stdout
    hand_1 = f"\nHand 1: Ann deals. Score: Ann 0, Bob 0.\n{UPCARD}  '3x' is not a card: unknown suit 'x' (use c, d, h, s or ♣ ♦ ♥ ♠). Try again.\n{UPCARD}{WHO}"
    assert hand_1 in out  # known before the hand is played, so asked before who knocked
    assert "illegal knock: 5 deadwood is over the knock limit of 3" in out
    assert out.count(UPCARD) == 3  # twice for hand 1, then hand 2 at the end of input
    assert "Ann scores 42" in out
    match, sheet = saved(oklahoma)
    assert [(h.upcard, h.deadwood, h.opponent_deadwood) for h in match.hands] == [("3s", 2, 23)]
    assert sheet.lines[0].points == 42 and sheet.lines[0].multiplier == 2


def test_oklahoma_a_cancelled_hand_keeps_no_upcard(run, oklahoma):
    result = run("play", oklahoma, input=lines("7h", "c"))
    assert result.exit_code == 0 and result.stderr == ""
    assert "Hand 1: cancelled: nobody scores" in result.stdout
    match, _ = saved(oklahoma)
    assert [(h.cancelled, h.upcard) for h in match.hands] == [(True, None)]


def test_big_gin_by_count_asks_whether_all_eleven_were_melded(run, tmp_path):
    path = tmp_path / "t.toml"
    assert run("new", path, "Ann", "Bob", "--rules", "tournament").exit_code == 0
    # tournament: big gin 31 + Bob's 20 = 51; then a plain gin by count: 25 + 20 = 45
    result = run("play", path, input=lines("Ann", "0", "maybe", "y", "20", "Bob", "0", "", "20"))
    assert result.exit_code == 0 and result.stderr == ""
    question = "Big gin, all 11 melded? (y/N): "
    assert result.stdout.count(question) == 3
    assert "'maybe' is not an answer: type y or n" in result.stdout
    assert "Ann scores 51" in result.stdout and "Bob scores 45" in result.stdout
    match, _ = saved(path)
    assert [(h.knocker, h.big_gin) for h in match.hands] == [("Ann", True), ("Bob", False)]


def test_big_gin_with_both_counts_on_one_line_asks_only_whether_all_eleven_were_melded(run, tmp_path):
    path = tmp_path / "t.toml"
    assert run("new", path, "Ann", "Bob", "--rules", "tournament").exit_code == 0
    result = run("play", path, input=lines("a", "0 20", "y"))
    assert result.exit_code == 0 and result.stderr == ""
    assert f"{ann_cards_question()}Big gin, all 11 melded? (y/N): Hand 1: big gin: Ann scores 51\n" in result.stdout
    match, _ = saved(path)
    assert [(h.deadwood, h.opponent_deadwood, h.big_gin) for h in match.hands] == [(0, 20, True)]


def test_a_plain_match_does_not_ask_for_an_upcard(run, short):
    result = run("play", short, input=lines("Ann", "2", "12"))
    assert "Up-card" not in result.stdout


def test_eleven_cards_spread_in_groups_ask_for_the_discard(run, short):
    spread = "3h 4h 5h | Ks Kc Kd | 7c 8c 9c | 2d 9h"
    result = run("play", short, input=lines("Ann", spread, "9x", "9h", BOB_CARDS))
    assert result.exit_code == 0 and result.stderr == ""
    assert result.stdout.count("Discarded face down: ") == 2
    assert "Hand 1: knock: Ann scores 43" in result.stdout
    record = saved(short)[0].hands[0]
    assert record.discard == "9h" and record.cards == spread


def test_play_on_a_missing_file_is_one_error_line(run, tmp_path):
    result = run("play", tmp_path / "none.toml", input="Ann\n")
    assert result.exit_code == 1
    assert result.stdout == ""
    assert len(result.stderr.splitlines()) == 1 and "none.toml" in result.stderr
    assert not (tmp_path / "none.toml").exists()


def test_a_typo_with_square_brackets_is_quoted_not_a_crash(run, short):
    result = run("play", short, input=lines("Ann", "3h [/x] 5h", "2", "12"))  # the run fixture fails on a traceback
    assert result.exit_code == 0
    assert "'[/x]' is not a card" in result.stdout
    assert len(saved(short)[0].hands) == 1


def test_a_typo_with_a_markup_tag_is_quoted_as_typed(run, short):
    result = run("play", short, input=lines("Ann", "3h [bold]4h 5h", "2", "12"))
    assert "'[bold]4h' is not a card" in result.stdout


def test_ctrl_c_keeps_every_complete_hand(short):
    """A real process: one hand entered, then Ctrl-C while the next hand's questions are asked."""
    env = {**os.environ, "NO_COLOR": "1"}
    process = subprocess.Popen(
        [GINSCORE, "play", str(short)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
        preexec_fn=interruptible,
    )
    output = bytearray()

    def read() -> None:
        while chunk := os.read(process.stdout.fileno(), 4096):
            output.extend(chunk)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        process.stdin.write(lines("Ann", "2", "12", "Bob").encode())
        process.stdin.flush()
        waiting_for = ann_cards_question("Bob").encode()
        deadline = time.monotonic() + 30
        while waiting_for not in output and time.monotonic() < deadline:
            time.sleep(0.02)
        assert waiting_for in output, bytes(output)
        process.send_signal(signal.SIGINT)
        code = process.wait(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    reader.join(timeout=5)
    stderr = process.stderr.read().decode()
    assert code == 130, (code, stderr)
    assert "Traceback" not in stderr
    assert stopped(output.decode(), short, 1), bytes(output)
    match, _ = saved(short)
    assert [(h.knocker, h.deadwood, h.opponent_deadwood) for h in match.hands] == [("Ann", 2, 12)]


# --- the README's transcript --------------------------------------------------------------------------------------

QUESTION = re.compile(r"(?:Who knocked\?|Up-card|Discarded face down|Spread laid down|Big gin|[^\s']+'s (?:cards|count)).*?: ")


def test_the_readmes_play_transcript_is_what_play_prints(run, tmp_path, monkeypatch):
    """test_readme does not run `play` (it waits for a person): here the answers typed in the README's transcript are
    fed to it, and what it prints must be the transcript without them. An empty last answer is Ctrl-D."""
    from test_readme import console_commands

    shown = dict(console_commands())["ginscore play table.toml"]
    answers, printed = [], []
    for line in shown:
        question = QUESTION.match(line)
        if question and line[question.end():]:
            answers.append(line[question.end():])
            printed.append(question.group(0).rstrip() + " ")  # the answer and its Enter are the terminal's echo
        else:
            printed.append(line + "\n")
    monkeypatch.chdir(tmp_path)
    assert run("new", "table.toml", "Ann", "Bob").exit_code == 0
    result = run("play", "table.toml", input=lines(*answers))
    assert result.exit_code == 0 and result.stderr == ""
    assert [line.rstrip() for line in result.stdout.split("\n")] == [line.rstrip() for line in "".join(printed).split("\n")]
    assert len(answers) >= 8
    match, _ = saved(tmp_path / "table.toml")
    assert [h.note for h in match.hands if h.note]  # the transcript shows a note


# --- the core loop, no file -------------------------------------------------------------------------------------


class FakeTable:
    """Answers from a list (None once they run out), hands kept in memory."""

    def __init__(self, match: Match, answers: list[str]):
        self.match = match
        self.answers = list(answers)
        self.questions: list[str] = []
        self.offered: list[str] = []
        self.told: list[str] = []
        self.shown: list[int] = []
        self.commits = 0

    def ask(self, question: str, offered: str = "") -> str | None:
        self.questions.append(question)
        self.offered.append(offered)
        return self.answers.pop(0) if self.answers else None

    def commit(self, entry: HandEntry):
        self.commits += 1
        self.match, sheet = add_hand(self.match, make_record(self.match, entry))
        return self.match, sheet

    def table(self) -> Table:
        return Table(ask=self.ask, tell=self.told.append, show=lambda line, sheet: self.shown.append(line.number), commit=self.commit)


def short_match() -> Match:
    from dataclasses import replace

    return Match(("Ann", "Bob"), replace(PRESETS["standard"], target=50), "Ann")


def test_core_play_a_whole_game_in_memory():
    match = short_match()
    fake = FakeTable(match, WHOLE_GAME)
    sheet = play(match, tally(match), fake.table())
    assert sheet.finished and fake.answers == []
    assert fake.commits == 4 and fake.shown == [1, 2, 3, 4]
    assert [line.result for line in sheet.lines] == ["knock", "cancelled", "knock", "knock"]
    assert sheet.summed("totals") == {"Ann": 53, "Bob": 5}
    assert fake.match.hands[0].cards == ANN_CARDS
    assert fake.told[:2] == [HINT, "\nHand 1: Ann deals. Score: Ann 0, Bob 0."]
    assert fake.questions[:3] == [WHO, ann_cards_question(), opponent_question()]


def test_core_play_stops_at_the_end_of_the_answers_with_the_complete_hands_committed():
    match = short_match()
    fake = FakeTable(match, ["Ann", "2", "12", "Bob", "4x"])
    with pytest.raises(StopPlay):
        play(match, tally(match), fake.table())
    assert fake.commits == 1 and len(fake.match.hands) == 1
    assert any("'4x' is not a card" in text for text in fake.told)
    assert fake.questions[-2:] == [ann_cards_question("Bob"), ann_cards_question("Bob")]  # asked again, then no answer


def test_core_play_retries_an_illegal_hand_without_committing_it():
    match = short_match()
    fake = FakeTable(match, ["Ann", "11", "1", "30"])
    with pytest.raises(StopPlay):
        play(match, tally(match), fake.table())
    assert fake.commits == 1
    assert [(h.deadwood, h.opponent_deadwood) for h in fake.match.hands] == [(1, 30)]
    refusal = [text for text in fake.told if "illegal knock" in text]
    assert len(refusal) == 1 and "11 deadwood is over the knock limit of 10" in refusal[0]


def test_core_play_quit_raises_stop_before_anything_is_committed():
    match = short_match()
    fake = FakeTable(match, ["Ann", "2", "quit", "Bob", "1", "5"])
    with pytest.raises(StopPlay):
        play(match, tally(match), fake.table())
    assert fake.commits == 0 and fake.answers == ["Bob", "1", "5"]


def test_core_play_a_commit_that_is_refused_is_not_swallowed():
    """Someone else finished the game meanwhile: the refusal reaches the caller, nothing is lost silently."""
    match = short_match()
    fake = FakeTable(match, ["Ann", "2", "12"])

    def refuse(record: HandRecord):
        raise RefusedError("the match is over")

    table = fake.table()
    table.commit = refuse
    with pytest.raises(RefusedError):
        play(match, tally(match), table)


def test_core_play_a_counts_only_hand_asks_two_questions():
    match = short_match()
    fake = FakeTable(match, ["2", "4 23", "note late", "a", "3", "8"])
    with pytest.raises(StopPlay):
        play(match, tally(match), fake.table())
    assert fake.questions == [WHO, ann_cards_question("Bob"), WHO, WHO, ann_cards_question(), opponent_count_question(), WHO]
    assert [(h.knocker, h.deadwood, h.opponent_deadwood, h.note) for h in fake.match.hands] == [
        ("Bob", 4, 23, ""),
        ("Ann", 3, 8, "late"),
    ]


def test_core_play_oklahoma_asks_the_upcard_before_the_knocker():
    from dataclasses import replace

    match = Match(("Ann", "Bob"), replace(PRESETS["oklahoma"], target=50), "Ann")
    fake = FakeTable(match, ["Kh", "b", "9 30"])
    with pytest.raises(StopPlay):
        play(match, tally(match), fake.table())
    assert fake.questions == [UPCARD, WHO, ann_cards_question("Bob"), UPCARD]
    assert [(h.upcard, h.knocker, h.deadwood, h.opponent_deadwood) for h in fake.match.hands] == [("Kh", "Bob", 9, 30)]


# --- a refused answer offered again, help at any question, short questions ----------------------------------------


def test_core_play_offers_a_refused_answer_again_for_editing_and_nothing_else():
    match = short_match()
    typo = "3h 4h 5h Ks Kc 4x 7c 8c 9c 2d 9h"
    fake = FakeTable(match, ["Zed", "Ann", typo, "?", ANN_CARDS, "note late", BOB_CARDS])
    with pytest.raises(StopPlay):
        play(match, tally(match), fake.table())
    assert fake.questions[:8] == [WHO, WHO, ann_cards_question(), ann_cards_question(), ann_cards_question(), opponent_question(), opponent_question(), WHO]
    # the refused answer is offered once, when its question comes back; help, a note and a good answer offer nothing
    assert fake.offered[:8] == ["", "Zed", "", typo, "", "", "", ""]
    assert fake.match.hands[0].cards == ANN_CARDS and fake.match.hands[0].note == "late"


@pytest.mark.parametrize("answers, question, explained", [
    (["?"], WHO, "Type who knocked: their name, or a or 1 for Ann, b or 2 for Bob. Type c for a cancelled hand"),
    (["a", "help"], ann_cards_question(), "put | between the melds to give the spread laid down"),
    (["a", ANN_CARDS, "?"], opponent_question(), "Type the opponent's 10 cards, to work out the lay-offs, or their count after lay-offs"),
    (["a", "4", "?"], opponent_count_question(), "Type the opponent's count after lay-offs, like 23"),
])
def test_core_play_question_mark_explains_the_question_and_asks_it_again(answers, question, explained):
    match = short_match()
    fake = FakeTable(match, answers)
    with pytest.raises(StopPlay):
        play(match, tally(match), fake.table())
    assert fake.questions[-2:] == [question, question]
    assert explained in fake.told[-1] and "q stops" in fake.told[-1]
    assert "Try again" not in fake.told[-1]


def test_every_question_is_short_and_its_help_is_behind_a_question_mark():
    """At 60 columns each question fits on one line with room to start the answer, for names of 8 letters (before:
    66 to 76 characters); what it takes is told behind `?`."""
    from dataclasses import replace

    match = Match(("Henriett", "Benjamin"), replace(PRESETS["tournament"], target=200, oklahoma=True), "Benjamin")
    answers = ["?", "Kh", "?", "h", "?", "0", "?", "y", "?", "20"]
    fake = FakeTable(match, answers)
    with pytest.raises(StopPlay):
        play(match, tally(match), fake.table())
    asked = set(fake.questions)
    assert len(asked) == 5, asked  # the up-card, who, the cards, big gin, the count
    assert all(len(question) <= 55 for question in asked), sorted(asked, key=len)[-1]
    assert sum(1 for text in fake.told if "q stops" in text) == 5


# BEST_K's least-deadwood spread (2: A-2-3c, A-2-3h, the sixes) lets Bob lay off 4c 4h 5h and undercut for 11;
# spreading only A-2-3c and the sixes (8) lets off the 4c alone, and Ann wins 2. The same hand as test_cli_score's.
BEST_K, BEST_O = "Ac 6c 6h 3c 2s 6d 3h 2c Ah 2h", "2d 5s As 5h 3d 4c 3s 4d 4s 4h"


@pytest.mark.parametrize("choice, stored, result", [
    ("1", "Ac 2c 3c | Ah 2h 3h | 6c 6d 6h | 2s", "Hand 1: undercut: Bob scores 11"),
    ("2", "Ac 2c 3c | 6c 6d 6h | Ah 2h | 2s 3h", "Hand 1: knock: Ann scores 2"),
])
def test_play_asks_which_spread_was_laid_down_when_two_score_differently(run, short, choice, stored, result):
    out = run("play", short, input=lines("a", BEST_K, BEST_O, "3", choice)).stdout
    assert "These cards can be spread two ways that score differently. Which did Ann lay down?\n" in out
    assert "  1: Ac 2c 3c | Ah 2h 3h | 6c 6d 6h | 2s (2 deadwood): Bob scores 11 (undercut)\n" in out
    assert "  2: Ac 2c 3c | 6c 6d 6h | Ah 2h | 2s 3h (8 deadwood): Ann scores 2\n" in out
    assert "'3' is not one of the spreads: type 1 or 2. Try again." in out
    assert result in out
    record = saved(short)[0].hands[0]
    assert record.cards == stored and record.opponent_cards == BOB_CARDS.replace(BOB_CARDS, BEST_O)


def test_play_asks_nothing_more_when_the_best_spread_is_the_least_deadwood_one(run, short):
    out = run("play", short, input=lines("a", ANN_CARDS, BOB_CARDS)).stdout
    assert "spread two ways" not in out and "Spread laid down" not in out
    assert saved(short)[0].hands[0].cards == ANN_CARDS


def test_play_keeps_the_discard_of_the_spread_chosen_from_eleven_cards(run, short):
    eleven = BEST_K + " Kd"
    run("play", short, input=lines("a", eleven, BEST_O, "2"))
    record = saved(short)[0].hands[0]
    assert (record.cards, record.discard) == ("Ac 2c 3c | 6c 6d 6h | Ah 2h | 2s 3h | Kd", "Kd")


def test_a_long_question_wraps_at_words_keeping_the_space_for_the_answer():
    from ginscore.cli.prompt import wrapped_question

    question = "Who knocked? Maximiliane (m), Bartholomew (b), c cancelled: "
    assert wrapped_question(question, 80) == [question]
    assert wrapped_question(question, 40) == ["Who knocked? Maximiliane (m),", "Bartholomew (b), c cancelled: "]


def test_the_readline_hook_puts_the_offered_text_on_the_line():
    from ginscore.cli.prompt import offer

    class Editor:
        def __init__(self):
            self.inserted: list[str] = []

        def insert_text(self, text: str) -> None:
            self.inserted.append(text)

    editor = Editor()
    assert offer(editor, "") is None  # type: ignore[arg-type]
    hook = offer(editor, "3h 4x")  # type: ignore[arg-type]
    assert hook is not None
    hook()
    assert editor.inserted == ["3h 4x"]


def test_on_a_terminal_the_arrow_keys_edit_and_a_refused_answer_comes_back_to_edit(short):
    """A real pseudo-terminal, 60 columns: `Annn` is refused and offered again, so one Backspace and Enter make it
    `Ann`; then `4 3`, Left, `2` is `4 23`. Without line editing the first would be refused twice and the second
    would read '4 3\\x1b[D2'. Every line printed fits the 60 columns."""
    env = {"PATH": os.environ.get("PATH", ""), "NO_COLOR": "1", "TERM": "xterm", "INPUTRC": "/dev/null", "HOME": str(short.parent)}
    session = Session([GINSCORE, "play", str(short)], env, columns=60)
    try:
        session.until(b"c cancelled: ")
        session.type(b"Annn\r")
        session.until(b"Try again.")
        session.until(b"c cancelled: Annn")  # offered again, on the line
        session.type(b"\x7f\r")
        session.until(b"cards or count: ")
        session.type(b"4 3\x1b[D2\r")
        session.until(b"Hand 2: Ann deals")
        session.until(b"c cancelled: ")
        session.type(b"\x04")
    finally:
        status = session.finish()
    seen = session.seen
    assert status == 0, seen
    match, _ = saved(short)
    assert [(h.knocker, h.deadwood, h.opponent_deadwood) for h in match.hands] == [("Ann", 4, 23)]
    text = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]|\r", "", seen.decode("utf-8", "replace"))
    assert "'Annn' is not a player" in text
    assert "Stopped. 1 hand is saved" in text and " ".join(text.split()).endswith("to carry on.")
    printed = [line for line in text.split("\n") if str(short.parent) not in line]  # a path is one long word
    assert len(printed) > 20 and all(len(line.rstrip()) <= 60 for line in printed), max(printed, key=len)


# --- a refused answer left on the line, history per question, help that says q once ----------------------------


class GluingTable(FakeTable):
    """A terminal's line as readline gives it back: the offered text, then what was typed after it."""

    def __init__(self, match: Match, answers: list[str]):
        super().__init__(match, answers)
        self.took: list[tuple[str, str]] = []

    def ask(self, question: str, offered: str = "") -> str | None:
        typed = super().ask(question, offered)
        return None if typed is None else offered + typed

    def table(self) -> Table:
        return replace(super().table(), took=lambda question, answer: self.took.append((question, answer)), prefills=True)


@pytest.mark.parametrize("answers, hands, knocker", [
    (["Zed", "b", "3 20"], 1, "Bob"),  # `Zed` on the line, `b` typed: Bob, not `Zedb`
    (["Zed", "q"], 0, None),  # `q` typed after it stops, it is not refused as `Zedq`
    (["a", "3 2x", "3 20"], 1, "Ann"),  # a fresh count after a typo: `3 20`, not `3 2x3 20`
    (["a", "3h 4h 5h Ks Kc Kd 7c 8c 9c", " 2d", BOB_CARDS], 1, "Ann"),  # adding the missing card keeps the line whole
    (["a", "3 2x", " 20"], 0, None),  # typed after a space: added to the old text, refused whole (`3 2x 20`)
])
def test_core_play_typing_after_an_offered_answer_replaces_it_unless_the_whole_line_answers(answers, hands, knocker):
    match = short_match()
    fake = GluingTable(match, answers)
    with pytest.raises(StopPlay):
        play(match, tally(match), fake.table())
    assert len(fake.match.hands) == hands
    if hands:
        record = fake.match.hands[0]
        assert record.knocker == knocker
        assert (record.deadwood, record.opponent_deadwood) == ((3, 20) if record.cards is None else (None, None))
        assert record.cards in (None, "3h 4h 5h Ks Kc Kd 7c 8c 9c 2d")
    assert not any("Zedq" in text or "3 2x3" in text for text in fake.told), fake.told
    assert ("3 2x 20" in fake.offered) == (answers[-1] == " 20")  # refused whole, and offered whole again


def test_core_play_without_a_prefilled_line_takes_every_answer_whole():
    """Piped answers, or a terminal without readline: nothing is on the line, so an answer that starts with the
    refused one is typed whole and judged whole."""
    match = short_match()
    fake = FakeTable(match, ["Zed", "Zedb", "b", "3 2x", "3 2x3 20"])
    with pytest.raises(StopPlay):
        play(match, tally(match), fake.table())
    assert fake.match.hands == ()
    assert fake.offered == ["", "Zed", "Zedb", "", "3 2x", "3 2x3 20"]
    assert "  'Zedb' is not a player" in fake.told[3]


def test_core_play_keeps_only_the_answers_each_question_took_for_its_history():
    match = short_match()
    fake = GluingTable(match, ["Zed", "a", "3 2x", "3 20", "?", "b", "4 30"])
    with pytest.raises(StopPlay):
        play(match, tally(match), fake.table())
    assert fake.took == [(WHO, "a"), (ann_cards_question(), "3 20"), (WHO, "b"), (ann_cards_question("Bob"), "4 30")]


def test_every_help_line_says_q_stops_once():
    from dataclasses import replace

    match = Match(("Ann", "Bob"), replace(PRESETS["tournament"], oklahoma=True), "Bob")
    answers = ["?", "Kh", "?", "a", "?", "3h 4h 5h Ks Kc Kd 7c 8c 9c 2d 9h", "?", BOB_CARDS]
    fake = FakeTable(match, answers)
    with pytest.raises(StopPlay):
        play(match, tally(match), fake.table())
    helps = [text for text in fake.told if text.startswith("  Type")]
    assert len(helps) == 4, fake.told
    for text in helps:
        assert len(re.findall(r"\bq (?:stops|to stop)\b", text)) == 1, text


def test_on_a_terminal_typing_after_a_refused_answer_replaces_it_and_up_recalls_that_questions_answers(short):
    """A real pseudo-terminal: `Annn` is refused and left on the line; `b` typed after it is Bob. At Bob's count,
    `3 2x` is refused and `3 20` typed after it is the count. At the next "Who knocked?", Up recalls `b` (the
    knocker, not the count), and at Bob's count Up recalls `3 20`. Without a history per question, Up would give
    `3 20` at "Who knocked?", refused as a player."""
    env = {"PATH": os.environ.get("PATH", ""), "NO_COLOR": "1", "TERM": "xterm", "INPUTRC": "/dev/null", "HOME": str(short.parent)}
    session = Session([GINSCORE, "play", str(short)], env)
    up = b"\x1b[A"
    try:
        for wait, keys in ((b"c cancelled: ", b"Annn\r"), (b"c cancelled: Annn", b"b\r"), (b"Bob's cards or count: ", b"3 2x\r"),
                           (b"Bob's cards or count: 3 2x", b"3 20\r"), (b"Hand 2: Bob deals", b""), (b"c cancelled: ", up),
                           (b"b", b"\r"), (b"Bob's cards or count: ", up), (b"3 20", b"\r"), (b"Hand 3: Bob deals", b""),
                           (b"c cancelled: ", b"q\r")):
            session.until(wait)
            session.type(keys)
    finally:
        status = session.finish()
    seen = session.seen
    assert status == 0, seen
    match, _ = saved(short)
    assert [(h.knocker, h.deadwood, h.opponent_deadwood) for h in match.hands] == [("Bob", 3, 20), ("Bob", 3, 20)]
    text = seen.decode("utf-8", "replace")
    assert "'Annnb'" not in text and "is not a player" in text and "'3 20' is not a player" not in text
    assert "Stopped. 2 hands are saved" in re.sub(r"\x1b\[[0-9;?]*[A-Za-z]|\r", "", text)

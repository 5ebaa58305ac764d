"""`ginscore play`: guided entry driven through stdin, and the core loop `ginscore.play.play` with a fake table.

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
from pathlib import Path

import pytest

from ginscore import storage
from ginscore.errors import RefusedError
from ginscore.match import HandRecord, Match, add_hand, tally
from ginscore.play import StopPlay, Table, play
from ginscore.rules import PRESETS

GINSCORE = str(Path(sys.executable).with_name("ginscore"))

# Ann discards 9h and spreads 3h-5h, 7c-9c, the kings with 2d = 2; Bob has 5s-7s and 45 deadwood: Ann 43
ANN_CARDS = "3h 4h 5h Ks Kc Kd 7c 8c 9c 2d 9h"
BOB_CARDS = "Qh Qd 5s 6s 7s Jc 4d 8h 2c Ac"
WHO = "Who knocked? (Ann/Bob, or 'cancelled'; 'quit' to stop): "


def ann_cards_question(name: str = "Ann") -> str:
    return f"{name}'s cards (10 or 11, '|' between melds) or their count: "


def opponent_question(name: str = "Bob") -> str:
    return f"{name}'s cards (10) or their count after lay-offs: "


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
    return storage.load(str(path))


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
    assert out.startswith(f"\nHand 1: Ann deals. Score: Ann 0, Bob 0.\n{WHO}")
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
    assert match.hands[0].knocker_cards == ANN_CARDS and match.hands[0].opponent_cards == BOB_CARDS
    assert match.hands[1].cancelled
    assert (match.hands[2].knocker, match.hands[2].knocker_deadwood, match.hands[2].opponent_deadwood) == ("Bob", 3, 8)
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
    assert (match.hands[0].knocker, match.hands[0].knocker_cards, match.hands[0].opponent_cards) == ("Ann", ANN_CARDS, BOB_CARDS)


def test_an_unknown_player_is_asked_again(run, short):
    result = run("play", short, input=lines("Zed", "ann", "4", "30"))
    assert result.exit_code == 0 and result.stderr == ""
    out = result.stdout
    assert "unknown player 'Zed': the players are Ann and Bob" in out
    assert out.count(WHO) == 3  # Zed, ann, then hand 2
    match, sheet = saved(short)
    assert [(h.knocker, h.knocker_deadwood, h.opponent_deadwood) for h in match.hands] == [("Ann", 4, 30)]
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
    assert out.count(f"{knocker}'s cards (10 or 11") == 2
    assert out.index(f"{knocker}'s cards (10 or 11") < refused < out.index("their count after lay-offs")
    assert out.count("Hand 1: Ann deals. Score: Ann 0, Bob 0.") == 1
    match, _ = saved(short)
    assert [(h.knocker, h.knocker_deadwood, h.opponent_deadwood) for h in match.hands] == [(knocker, 3, 8)]


def test_cards_in_both_hands_are_refused_and_asked_again(run, short):
    clash = BOB_CARDS.replace("Ac", "Kd")  # Kd is in Ann's hand too
    result = run("play", short, input=lines("Ann", ANN_CARDS, clash))
    assert result.exit_code == 0
    assert "That hand cannot be recorded: Kd cannot be in both hands" in result.stdout
    assert result.stdout.count("Hand 1: Ann deals.") == 2
    assert saved(short)[0].hands == ()


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
    assert second.stdout.startswith(f"\nHand 3: Ann deals. Score: Ann 43, Bob 0.\n{WHO}")
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
    assert [(h.knocker, h.knocker_deadwood, h.opponent_deadwood) for h in match.hands] == [("Ann", 2, 12)]


@pytest.mark.parametrize("word", ["cancelled", "cancel", "dead", "C"])
def test_cancelled_records_a_dead_hand(run, short, word):
    result = run("play", short, input=lines(word))
    assert result.exit_code == 0
    assert "Hand 1: cancelled: nobody scores, the same dealer deals again" in result.stdout
    assert "Hand 2: Ann deals. Score: Ann 0, Bob 0." in result.stdout
    match, _ = saved(short)
    assert match.hands == (HandRecord(cancelled=True, recorded=match.hands[0].recorded),)
    assert ann_cards_question() not in result.stdout  # nothing more asked for a dead hand


def test_oklahoma_asks_for_the_upcard(run, tmp_path):
    path = tmp_path / "ok.toml"
    assert run("new", path, "Ann", "Bob", "--rules", "oklahoma", "--set", "target=50").exit_code == 0
    # 3s up-card: limit 3, spades double. Ann knocks 5 (over 3): refused at once; then 2 against 23: (23 - 2) x 2 = 42
    answers = lines("Ann", "3x", "3s", "5", "2", "23")
    result = run("play", path, input=answers)
    assert result.exit_code == 0 and result.stderr == ""
    out = result.stdout
    question = "Up-card (the knock card): "
    assert out.count(question) == 2
    assert "'3x' is not a card" in out
    assert "illegal knock: 5 deadwood is over the knock limit of 3" in out
    assert out.index(WHO) < out.index(question) < out.index(ann_cards_question())  # asked after the knocker
    assert "Ann scores 42" in out
    match, sheet = saved(path)
    assert [(h.upcard, h.knocker_deadwood, h.opponent_deadwood) for h in match.hands] == [("3s", 2, 23)]
    assert sheet.lines[0].points == 42 and sheet.lines[0].multiplier == 2


def test_big_gin_by_count_asks_whether_all_eleven_were_melded(run, tmp_path):
    path = tmp_path / "t.toml"
    assert run("new", path, "Ann", "Bob", "--rules", "tournament").exit_code == 0
    # tournament: big gin 31 + Bob's 20 = 51; then a plain gin by count: 25 + 20 = 45
    result = run("play", path, input=lines("Ann", "0", "maybe", "y", "20", "Bob", "0", "", "20"))
    assert result.exit_code == 0 and result.stderr == ""
    question = "Big gin, all 11 cards melded? (y/N): "
    assert result.stdout.count(question) == 3
    assert "'maybe' is not an answer: type y or n" in result.stdout
    assert "Ann scores 51" in result.stdout and "Bob scores 45" in result.stdout
    match, _ = saved(path)
    assert [(h.knocker, h.big_gin) for h in match.hands] == [("Ann", True), ("Bob", False)]


def test_a_plain_match_does_not_ask_for_an_upcard(run, short):
    result = run("play", short, input=lines("Ann", "2", "12"))
    assert "Up-card" not in result.stdout


def test_eleven_cards_spread_in_groups_ask_for_the_discard(run, short):
    spread = "3h 4h 5h | Ks Kc Kd | 7c 8c 9c | 2d 9h"
    result = run("play", short, input=lines("Ann", spread, "9x", "9h", BOB_CARDS))
    assert result.exit_code == 0 and result.stderr == ""
    assert result.stdout.count("The card discarded face down: ") == 2
    assert "Hand 1: knock: Ann scores 43" in result.stdout
    record = saved(short)[0].hands[0]
    assert record.discard == "9h" and record.knocker_cards == spread


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
        [GINSCORE, "play", str(short)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env
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
    assert [(h.knocker, h.knocker_deadwood, h.opponent_deadwood) for h in match.hands] == [("Ann", 2, 12)]


# --- the core loop, no file -------------------------------------------------------------------------------------


class FakeTable:
    """Answers from a list (None once they run out), hands kept in memory."""

    def __init__(self, match: Match, answers: list[str]):
        self.match = match
        self.answers = list(answers)
        self.questions: list[str] = []
        self.told: list[str] = []
        self.shown: list[int] = []
        self.commits = 0

    def ask(self, question: str) -> str | None:
        self.questions.append(question)
        return self.answers.pop(0) if self.answers else None

    def commit(self, record: HandRecord):
        self.commits += 1
        self.match, sheet = add_hand(self.match, record)
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
    assert fake.match.hands[0].knocker_cards == ANN_CARDS
    assert fake.told[0] == "\nHand 1: Ann deals. Score: Ann 0, Bob 0."
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
    assert [(h.knocker_deadwood, h.opponent_deadwood) for h in fake.match.hands] == [(1, 30)]
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

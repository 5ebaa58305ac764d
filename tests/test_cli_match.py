"""`new`, `record`, `show`, `undo`, `edit` and `validate`: the normal case and every refusal.

Each refused or failed command must leave the match file byte-for-byte as it was.
"""

from __future__ import annotations

import errno
import json
import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from conftest import json_object, one_error_line
from terminal import run_on_terminal

from ginscore.files import folder, reading
from ginscore.game.rulebook import KNOBS, PRESETS

ROOT = Path(__file__).resolve().parent.parent
GINSCORE = str(Path(sys.executable).with_name("ginscore"))

# Ann knocks: discards 9h, spreads 3h-5h, 7c-9c, the kings, 2d = 2; Bob has 5s-7s and 45 deadwood. 45-2 = 43
ANN_CARDS = "3h 4h 5h Ks Kc Kd 7c 8c 9c 2d 9h"
BOB_CARDS = "Qh Qd 5s 6s 7s Jc 4d 8h 2c Ac"


@pytest.fixture
def match_file(run, tmp_path) -> Path:
    path = tmp_path / "m.toml"
    result = run("new", path, "Ann", "Bob")
    assert result.exit_code == 0, result.stderr
    return path


@pytest.fixture
def played(run, match_file) -> Path:
    """Two hands: Ann 43 by cards, then Bob 8 by counts (Bob knocks 2 against 10)."""
    assert run("record", match_file, "--knocker", "Ann", "--cards", ANN_CARDS, "--opponent-cards", BOB_CARDS).exit_code == 0
    assert run("record", match_file, "--knocker", "bob", "--deadwood", "2", "--opponent-deadwood", "10").exit_code == 0
    return match_file


def hands_in(path: Path) -> int:
    return len(reading.load(str(path))[0].hands)


def refused(run, path: Path, args: list, code: int) -> str:
    """Run a command that must fail with `code`; the file must not change. Returns the one error line."""
    before = path.read_bytes()
    result = run([str(a) for a in args])
    assert result.exit_code == code, (result.exit_code, result.stdout, result.stderr)
    assert path.read_bytes() == before
    return one_error_line(result)


# --- new ------------------------------------------------------------------------------------------------------


def test_new_writes_a_match_with_every_knob(run, tmp_path):
    path = tmp_path / "m.toml"
    result = run("new", path, "Ann", "Bob")
    assert result.exit_code == 0
    assert result.stdout == f"Started {path}: a match of Ann and Bob, standard rules, target 100; Ann deals first.\n"
    assert result.stderr == ""
    match, sheet = reading.load(str(path))
    assert match.players == ("Ann", "Bob") and match.first_dealer == "Ann" and match.hands == ()
    assert match.rules == PRESETS["standard"]
    text = path.read_text()
    for knob in KNOBS:
        assert f"\n{knob} = " in text


def test_new_with_dealer_rules_and_settings(run, tmp_path):
    path = tmp_path / "m.toml"
    result = run("new", path, "Ann", "Bob", "--dealer", "bob", "--rules", "Oklahoma", "--set", "target=200", "--set", "gin_boxes=2")
    assert result.exit_code == 0, result.stderr
    assert result.stdout == f"Started {path}: a match of Ann and Bob, oklahoma rules, target 200; Bob deals first.\n"
    match, _ = reading.load(str(path))
    assert match.first_dealer == "Bob"
    assert match.rules == replace(PRESETS["oklahoma"], target=200, gin_boxes=2)


def test_new_hollywood(run, tmp_path):
    path = tmp_path / "m.toml"
    result = run("new", path, "Ann", "Bob", "--hollywood")
    assert result.exit_code == 0 and "Hollywood match" in result.stdout
    assert reading.load(str(path))[0].hollywood is True


def test_new_refuses_to_overwrite_without_force(run, played):
    line = refused(run, played, ["new", played, "Cy", "Di"], 1)
    assert line == f"error: {played} already exists: pick another name, or add --force to replace it"
    assert hands_in(played) == 2


def test_new_force_replaces_the_file(run, played):
    result = run("new", played, "Cy", "Di", "--force")
    assert result.exit_code == 0, result.stderr
    match, _ = reading.load(str(played))
    assert match.players == ("Cy", "Di") and match.hands == ()


@pytest.mark.parametrize(
    "args, message",
    [
        (["--rules", "bogus"], "unknown rules 'bogus': choose one of standard, tournament, oklahoma"),
        (["--set", "foo=1"], "unknown rule knob 'foo'"),
        (["--set", "target"], "'target' is not a rule setting"),
        (["--set", "target=-5"], "target must be"),
        (["--dealer", "Zed"], "--dealer: unknown player 'Zed': the players are Ann and Bob"),
    ],
)
def test_new_bad_options_exit_2_and_write_nothing(run, tmp_path, args, message):
    path = tmp_path / "m.toml"
    result = run(["new", str(path), "Ann", "Bob", *args])
    assert result.exit_code == 2
    assert message in one_error_line(result)
    assert not path.exists()


@pytest.mark.parametrize("players", [["Ann"], ["Ann", "ann"], ["Ann", "Bob", "Cy"], ["Ann", " "]])
def test_new_needs_two_different_names(run, tmp_path, players):
    path = tmp_path / "m.toml"
    result = run(["new", str(path), *players])
    assert result.exit_code == 2
    assert "two different player names" in one_error_line(result)
    assert not path.exists()


# --- record -------------------------------------------------------------------------------------------------


def lines_of(text: str) -> list[str]:
    return [line.rstrip() for line in text.splitlines()]


def test_record_cards(run, match_file):
    result = run("record", match_file, "--knocker", "ann", "--cards", ANN_CARDS, "--opponent-cards", BOB_CARDS)
    assert result.exit_code == 0 and result.stderr == ""
    lines = lines_of(result.stdout)
    assert lines[0] == "Hand 1: knock: Ann scores 43"
    for expected in [
        "Ann       3h 4h 5h | 7c 8c 9c | Kc Kd Ks | (2d) (discarded 9h)",
        "Bob       5s 6s 7s | (Ac 2c 4d 8h Jc Qd Qh)",
        "lay-offs  none",
        "counts    Ann 2, Bob 45 (knock limit 10)",
    ]:
        assert expected in lines
    assert lines[-2:] == ["Score: Ann 43, Bob 0", "Next dealer: Ann"]
    match, _ = reading.load(str(match_file))
    [hand] = match.hands
    assert (hand.knocker, hand.cards, hand.opponent_cards) == ("Ann", ANN_CARDS, BOB_CARDS)
    assert hand.recorded  # the time it was entered


# The least-deadwood spread (2: A-2-3c, A-2-3h, the sixes) lets Bob lay off 4c 4h 5h and undercut for 11; spreading
# only A-2-3c and the sixes (8) lets off the 4c alone, and Ann wins 2 (the hand test_cli_score.py works out).
BEST_K, BEST_O = "Ac 6c 6h 3c 2s 6d 3h 2c Ah 2h", "2d 5s As 5h 3d 4c 3s 4d 4s 4h"


def test_record_says_in_one_line_which_spread_it_scored_and_how_to_give_the_other(run, match_file):
    result = run("record", match_file, "--knocker", "Ann", "--cards", BEST_K, "--opponent-cards", BEST_O)
    assert result.exit_code == 0 and result.stderr == ""
    assert result.stdout.startswith("Hand 1: knock: Ann scores 2\n")
    note = (
        "Scored the spread best for Ann (8 deadwood, Ann scores 2); with the least-deadwood spread (2 deadwood), "
        'Bob scores 11 (undercut): to record that one, give `--cards "Ac 2c 3c | Ah 2h 3h | 6c 6d 6h | 2s"`\n'
    )
    assert note in result.stdout
    assert "not the lowest count" not in result.stdout  # the paragraph `score` prints is not repeated
    assert run("undo", match_file, "--yes").exit_code == 0
    again = run("record", match_file, "--knocker", "Ann", "--cards", "Ac 2c 3c | Ah 2h 3h | 6c 6d 6h | 2s", "--opponent-cards", BEST_O)
    assert again.stdout.startswith("Hand 1: undercut: Bob scores 11\n") and "Scored the spread" not in again.stdout


def test_record_with_eleven_cards_names_the_discard_of_the_other_spread(run, match_file):
    result = run("record", match_file, "--knocker", "a", "--cards", BEST_K + " Kd", "--opponent-cards", BEST_O)
    option = '`--cards "Ac 2c 3c | Ah 2h 3h | 6c 6d 6h | 2s | Kd" --discard Kd`'
    assert result.stdout.count(option) == 1
    assert run("undo", match_file, "--yes").exit_code == 0
    again = run("record", match_file, "--knocker", "a", "--cards", "Ac 2c 3c | Ah 2h 3h | 6c 6d 6h | 2s | Kd", "--discard", "Kd", "--opponent-cards", BEST_O)
    assert again.exit_code == 0 and again.stdout.startswith("Hand 1: undercut: Bob scores 11\n")


def test_record_counts(run, match_file):
    result = run("record", match_file, "--knocker", "Bob", "--deadwood", "6", "--opponent-deadwood", "31")
    assert result.exit_code == 0 and result.stderr == ""
    assert sorted(lines_of(result.stdout)) == sorted(
        ["Hand 1: knock: Bob scores 25", "counts  Bob 6, Ann 31", "Score: Ann 0, Bob 25", "Next dealer: Bob"]
    )
    [hand] = reading.load(str(match_file))[0].hands
    assert (hand.knocker, hand.deadwood, hand.opponent_deadwood, hand.cards) == ("Bob", 6, 31, None)


def test_record_gin_by_counts_and_undercut(run, match_file):
    result = run("record", match_file, "--knocker", "Bob", "--deadwood", "0", "--opponent-deadwood", "12")
    assert "Hand 1: gin: Bob scores 32" in result.stdout  # 20+12
    result = run("record", match_file, "--knocker", "Bob", "--deadwood", "7", "--opponent-deadwood", "3")
    assert "Hand 2: undercut: Ann scores 14" in result.stdout  # 7-3+10
    assert result.stdout.endswith("Score: Ann 14, Bob 32\nNext dealer: Ann\n")


def test_record_mixed_cards_and_opponent_count(run, match_file):
    result = run("record", match_file, "--knocker", "Ann", "--cards", ANN_CARDS, "--opponent-deadwood", "20")
    assert result.exit_code == 0, result.stderr
    assert "Hand 1: knock: Ann scores 18" in result.stdout  # 20-2
    [hand] = reading.load(str(match_file))[0].hands
    assert hand.cards == ANN_CARDS and hand.opponent_deadwood == 20 and hand.opponent_cards is None


def test_record_spread_with_groups_and_discard(run, match_file):
    result = run("record", match_file, "--knocker", "Ann", "--cards", "3h 4h 5h | Ks Kc Kd | 7c 8c 9c | 2d 9h",
                 "--discard", "9h", "--opponent-cards", BOB_CARDS)
    assert result.exit_code == 0, result.stderr
    assert "Hand 1: knock: Ann scores 43" in result.stdout


def test_record_cancelled(run, played):
    result = run("record", played, "--cancelled")
    assert result.exit_code == 0 and result.stderr == ""
    assert lines_of(result.stdout) == [
        "Hand 3: cancelled: nobody scores, the same dealer deals again",
        "Score: Ann 43, Bob 8",
        "Next dealer: Bob",
    ]


def test_record_oklahoma_needs_the_upcard_and_a_spade_doubles(run, tmp_path):
    path = tmp_path / "ok.toml"
    run("new", path, "Ann", "Bob", "--rules", "oklahoma")
    line = refused(run, path, ["record", path, "--knocker", "Ann", "--deadwood", "2", "--opponent-deadwood", "10"], 2)
    assert "--upcard" in line
    result = run("record", path, "--knocker", "Ann", "--deadwood", "2", "--opponent-deadwood", "10", "--upcard", "5s")
    assert result.exit_code == 0, result.stderr
    assert "Hand 1: knock: Ann scores 16 (doubled: spade up-card)" in result.stdout  # (10-2) x 2
    line = refused(run, path, ["record", path, "--knocker", "Ann", "--deadwood", "5", "--opponent-deadwood", "10", "--upcard", "4h"], 1)
    assert "5 deadwood is over the knock limit of 4" in line


@pytest.mark.parametrize("typed", ["a", "A", "1", "ann", "ANN"])
def test_record_takes_a_name_an_initial_or_a_number(run, match_file, typed):
    result = run("record", match_file, "--knocker", typed, "--deadwood", "2", "--opponent-deadwood", "10")
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith("Hand 1: knock: Ann scores 8")
    assert reading.load(str(match_file))[0].hands[0].knocker == "Ann"


def test_edit_and_new_take_an_initial_too(run, played, tmp_path):
    result = run("edit", played, "2", "--knocker", "a", "--deadwood", "2", "--opponent-deadwood", "10")
    assert result.exit_code == 0, result.stderr
    assert reading.load(str(played))[0].hands[1].knocker == "Ann"
    path = tmp_path / "d.toml"
    assert run("new", path, "Ann", "Bob", "--dealer", "2").exit_code == 0
    assert reading.load(str(path))[0].first_dealer == "Bob"


def test_an_ambiguous_initial_is_refused_naming_both_players(run, tmp_path):
    path = tmp_path / "aa.toml"
    assert run("new", path, "Ann", "Al").exit_code == 0
    line = refused(run, path, ["record", path, "--knocker", "a", "--deadwood", "2", "--opponent-deadwood", "10"], 2)
    assert line == "error: --knocker: 'a' could be Ann or Al: type the name"
    assert run("record", path, "--knocker", "2", "--deadwood", "2", "--opponent-deadwood", "10").stdout.startswith("Hand 1: knock: Al scores 8")


def test_record_unknown_player_lists_the_players(run, played):
    line = refused(run, played, ["record", played, "--knocker", "Zed", "--deadwood", "2", "--opponent-deadwood", "10"], 2)
    assert line == "error: --knocker: unknown player 'Zed': the players are Ann and Bob"


def test_record_illegal_knock_is_refused(run, played):
    line = refused(run, played, ["record", played, "--knocker", "Ann", "--deadwood", "11", "--opponent-deadwood", "30"], 1)
    assert line.startswith("error: --deadwood: illegal knock: 11 deadwood is over the knock limit of 10")
    line = refused(run, played, ["record", played, "--knocker", "Ann", "--cards", "3h 4h 5h Ks Kc Kd 7c 9c Jd Qs 2s",
                                 "--opponent-cards", BOB_CARDS], 1)
    assert "illegal knock: 28 deadwood" in line


def test_record_bad_card_exits_2(run, played):
    line = refused(run, played, ["record", played, "--knocker", "Ann", "--cards", ANN_CARDS, "--opponent-cards", "Kx 5s 6s 7s Jc 4d 8h 2c Ac 9d"], 2)
    assert line == "error: --opponent-cards: 'Kx' is not a card: unknown suit 'x' (use c, d, h, s or ♣ ♦ ♥ ♠)"


GOOD = ["--knocker", "Ann", "--deadwood", "2", "--opponent-deadwood", "10"]


@pytest.mark.parametrize(
    "args, code, message",
    [
        (["--knocker", "Ann", "--cards", ANN_CARDS, "--opponent-cards", "2d Qd 5s 6s 7s Jc 4d 8h 2c Ac"], 1, "2d cannot be in both hands"),
        (["--knocker", "Ann", "--cards", ANN_CARDS, "--opponent-cards", "Qd 5s 6s 7s Jc 4d 8h 2c Ac"], 2, "needs 10 cards"),
        (["--knocker", "Ann", "--cards", "3h 4h 5h Ks Kc Kd 7c 8c 9c", "--opponent-cards", BOB_CARDS], 2, "needs 10 or 11 cards"),
        (["--knocker", "Ann", "--cards", ANN_CARDS, "--deadwood", "2", "--opponent-deadwood", "10"], 2, "not both"),
        (["--knocker", "Ann", "--deadwood", "2"], 2, "--opponent-deadwood is missing: with the knocker's count, give the opponent's count after lay-offs"),
        (["--knocker", "Ann", "--opponent-deadwood", "2"], 2, "--deadwood is missing: give the knocker's cards, or both counts"),
        (["--knocker", "Ann", "--cards", ANN_CARDS], 2, "--opponent-cards is missing: give the opponent's cards or their count after lay-offs"),
        (["--knocker", "Ann", "--deadwood", "-2", "--opponent-deadwood", "10"], 2, "a count of -2 is impossible"),
        (["--knocker", "Ann", "--deadwood", "2", "--opponent-deadwood", "120"], 2, "a count of 120 is impossible"),
        (["--knocker", "Ann", "--cards", ANN_CARDS, "--discard", "Qs", "--opponent-cards", BOB_CARDS], 1, "the discard Qs is not in the knocker's hand"),
        (["--knocker", "Ann", "--deadwood", "0", "--opponent-deadwood", "10", "--big-gin"], 1, "no big gin"),
        (["--knocker", "Ann", "--deadwood", "2", "--opponent-deadwood", "10", "--upcard", "7h"], 2, "only under Oklahoma"),
        (["--cancelled", "--knocker", "Ann"], 2, "--cancelled: a cancelled hand takes no knocker"),
        ([], 2, "--knocker is missing: say who knocked"),
    ],
)
def test_record_refusals_leave_the_file_unchanged(run, played, args, code, message):
    line = refused(run, played, ["record", played, *args], code)
    assert message in line


def test_record_after_the_game_is_over_is_refused_with_a_hint(run, match_file):
    assert run("record", match_file, "--knocker", "Ann", "--deadwood", "0", "--opponent-deadwood", "40").exit_code == 0
    result = run("record", match_file, "--knocker", "Ann", "--deadwood", "0", "--opponent-deadwood", "40")
    assert "Hand 2: gin: Ann scores 60" in result.stdout  # 20+40, twice: 120
    assert "The game is over: Ann reached 100." in result.stdout
    assert "Next dealer" not in result.stdout
    line = refused(run, match_file, ["record", match_file, *GOOD], 1)
    free = match_file.with_name(match_file.stem + "-2.toml")
    assert line == (
        "error: the match is over (Ann reached 100), so no hand was recorded; "
        f"start the next one with: ginscore new {free} --next {match_file} --dealer Ann"
    )


def test_the_hinted_next_game_starts_with_the_rules_and_dealer_of_the_finished_one(run, tmp_path):
    path = tmp_path / "m.toml"
    run("new", path, "Ann", "Bob", "--rules", "tournament", "--set", "target=50")
    run("record", path, "--knocker", "Ann", "--deadwood", "0", "--opponent-deadwood", "30")
    (tmp_path / "m-2.toml").write_text("taken", encoding="utf-8")
    line = refused(run, path, ["record", path, *GOOD], 1)
    hint = line.partition("start the next one with: ginscore ")[2]
    assert hint == f"new {tmp_path / 'm-3.toml'} --next {path} --dealer Ann"  # the winner deals, as the rules say
    started = run(*hint.split())
    assert (started.exit_code, started.stderr) == (0, "")
    assert started.stdout == (f"Started {tmp_path / 'm-3.toml'}, the next game after {path}: a match of Ann and Bob, "
                              "tournament rules, target 50; Ann deals first.\n")
    before = json.loads(run("show", path, "--json").stdout)
    after = json.loads(run("show", tmp_path / "m-3.toml", "--json").stdout)
    assert after["rules"] == before["rules"] and after["hands"] == []


@pytest.mark.parametrize(
    "content",
    [
        b"this is = = not toml\n",
        b"format = 2\n",
        b"\xff\xfe binary",
        b"",
    ],
    ids=["not-toml", "wrong-format", "not-text", "empty"],
)
@pytest.mark.parametrize("command", [["record", *GOOD], ["edit", "1", *GOOD], ["undo", "--yes"]])
def test_a_broken_file_is_never_overwritten(run, tmp_path, content, command):
    path = tmp_path / "m.toml"
    path.write_bytes(content)
    line = refused(run, path, [command[0], path, *command[1:]], 1)
    assert line.startswith(f"error: {path}: ")


def test_a_corrupt_file_error_gives_the_parsers_line(run, played):
    text = played.read_text().replace("target = 100", "target = = 100")
    played.write_text(text)
    line = refused(run, played, ["record", played, *GOOD], 1)
    number = text.splitlines().index("target = = 100") + 1
    assert "not valid TOML" in line and f"line {number}" in line


def test_record_on_a_missing_file_creates_nothing(run, tmp_path):
    path = tmp_path / "none.toml"
    result = run(["record", str(path), *GOOD])
    assert result.exit_code == 1
    assert "no such file" in one_error_line(result)
    assert not path.exists()


def test_a_failed_write_is_one_line_and_leaves_the_file(run, played, monkeypatch):
    def full(*args):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(folder.os, "fsync", full)
    line = refused(run, played, ["record", played, *GOOD], 1)
    assert line == f"error: {played}: cannot write: the disk is full; nothing was changed"
    assert [p.name for p in played.parent.iterdir() if p.name.endswith(".tmp")] == []


# --- show ---------------------------------------------------------------------------------------------------


def test_show_prints_the_sheet(run, played):
    result = run("show", played)
    assert result.exit_code == 0 and result.stderr == ""
    lines = [line.rstrip() for line in result.stdout.splitlines()]
    assert lines[0] == "Ann vs Bob (standard rules, target 100)"
    assert lines[1].split() == ["#", "dealer", "knocker", "result", "counts", "points", "Ann", "Bob"]
    assert lines[2].split() == ["1", "Ann", "Ann", "knock", "2", "/", "45", "Ann", "43", "43", "0"]
    assert lines[3].split() == ["2", "Ann", "Bob", "knock", "2", "/", "10", "Bob", "8", "43", "8"]
    assert lines[4] == "Ann 43, Bob 8 (boxes Ann 1, Bob 1); first to 100"
    assert lines[5] == "Next dealer: Bob"
    assert lines[6].startswith("Chances: Ann ") and lines[6].count("%") == 2  # docs/odds.md; tests/test_cli_odds.py
    assert lines[7] == "(from the built-in model for standard rules, and 2 hands of 1 match in this folder with these rules)"
    assert len(lines) == 8


def test_show_a_finished_game_lists_each_bonus_final_and_margin(run):
    result = run("show", ROOT / "sample_matches" / "standard.toml")
    assert result.exit_code == 0
    tail = [line.rstrip() for line in result.stdout.splitlines()[-5:]]
    assert tail == [
        "Tom reached 100. Boxes Maria 4, Tom 4.",
        "  Maria: 64 points + 80 for boxes = 144",
        "  Tom: 103 points + 100 game bonus + 80 for boxes = 283",
        "  Tom wins by 139.",
        "Series: Maria 0 – Tom 1",  # the only match of Maria and Tom in sample_matches/
    ]
    assert "Next dealer" not in result.stdout


def test_show_says_plainly_when_the_player_who_reached_the_target_loses(run, match_file):
    for _ in range(12):  # Bob wins 12 hands of 1: 12 + 12 x 20 = 252
        run("record", match_file, "--knocker", "Bob", "--deadwood", "1", "--opponent-deadwood", "2")
    run("record", match_file, "--knocker", "Ann", "--deadwood", "0", "--opponent-deadwood", "80")  # 20+80 = 100
    result = run("show", match_file)
    assert "  Ann: 100 points + 100 game bonus + 20 for boxes = 220" in result.stdout
    assert "  Bob: 12 points + 240 for boxes = 252" in result.stdout
    assert "  Bob wins by 32." in result.stdout
    assert "Note: Ann reached the target first, but Bob has the higher final total after the bonuses." in result.stdout
    data = json_object(run("show", "--json", match_file))
    assert (data["winner"], data["margin"], data["final"]) == ("Bob", 32, {"Ann": 220, "Bob": 252})


def test_show_names_the_shutout_bonus(run):
    result = run("show", ROOT / "sample_matches" / "counts_only.toml")
    assert "shutout" in result.stdout.lower()


def test_show_json_has_every_key(run, played):
    data = json_object(run("show", "--json", played))
    assert {"players", "rules", "hands", "totals", "boxes", "next_dealer", "finished", "winner", "bonuses", "final", "margin"} <= set(data)
    assert data["players"] == ["Ann", "Bob"]
    assert data["rules"] == PRESETS["standard"].to_dict() and set(data["rules"]) == set(KNOBS)
    # each hand: the entry's fields as recorded (the names `record` takes), and what the sheet derives apart
    first, second = data["hands"]
    assert first == {
        "knocker": "Ann", "cancelled": False, "cards": first["cards"], "discard": None, "opponent_cards": first["opponent_cards"],
        "deadwood": None, "opponent_deadwood": None, "big_gin": False, "upcard": None, "note": "", "spread": None,
        "derived": {"number": 1, "dealer": "Ann", "result": "knock", "winner": "Ann", "points": 43, "deadwood": 2,
                    "opponent_deadwood": 45, "layoffs": first["derived"]["layoffs"], "columns": [1], "totals": {"Ann": 43, "Bob": 0}},
    }
    assert sorted(first["cards"].split()) == sorted(ANN_CARDS.split()) and isinstance(first["derived"]["layoffs"], list)
    assert second == {
        "knocker": "Bob", "cancelled": False, "cards": None, "discard": None, "opponent_cards": None,
        "deadwood": 2, "opponent_deadwood": 10, "big_gin": False, "upcard": None, "note": "", "spread": None,
        "derived": {"number": 2, "dealer": "Ann", "result": "knock", "winner": "Bob", "points": 8, "deadwood": 2,
                    "opponent_deadwood": 10, "layoffs": None, "columns": [1], "totals": {"Ann": 43, "Bob": 8}},
    }
    assert data["totals"] == {"Ann": 43, "Bob": 8}
    assert data["boxes"] == {"Ann": 1, "Bob": 1}
    assert data["next_dealer"] == "Bob"
    assert data["finished"] is False and data["winner"] is None
    assert {name: {k: v[k] for k in ("game", "boxes")} for name, v in data["bonuses"].items()} == {
        "Ann": {"game": 0, "boxes": 0}, "Bob": {"game": 0, "boxes": 0}}
    assert data["final"] == data["totals"]
    assert data["margin"] == 35


def test_show_json_cancelled_and_finished(run, played):
    run("record", played, "--cancelled")
    run("record", played, "--knocker", "Ann", "--deadwood", "0", "--opponent-deadwood", "40")  # 20+40 = 60: 103
    data = json_object(run("show", "--json", played))
    cancelled = data["hands"][2]
    assert (cancelled["knocker"], cancelled["cancelled"], cancelled["deadwood"], cancelled["opponent_deadwood"]) == (None, True, None, None)
    assert {k: cancelled["derived"][k] for k in ("result", "winner", "points", "deadwood", "opponent_deadwood", "dealer")} == {
        "result": "cancelled", "winner": None, "points": 0, "deadwood": None, "opponent_deadwood": None, "dealer": "Bob"}
    assert data["hands"][3]["derived"]["dealer"] == "Bob"  # same dealer after the cancelled hand
    assert data["finished"] is True and data["winner"] == "Ann"
    # Ann 103 + 100 game + 2 boxes x 20 = 243; Bob 8 + 20 = 28
    assert data["bonuses"]["Ann"]["game"] == 100 and data["bonuses"]["Ann"]["boxes"] == 40
    assert data["bonuses"]["Bob"]["game"] == 0 and data["bonuses"]["Bob"]["boxes"] == 20
    assert data["final"] == {"Ann": 243, "Bob": 28} and data["margin"] == 215


def _env_without_colour_settings() -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE")}
    env.update(TERM="xterm-256color", COLUMNS="120")
    return env


def test_show_piped_has_no_escapes_but_a_terminal_gets_colour(played):
    piped = subprocess.run([GINSCORE, "show", str(played)], capture_output=True, env=_env_without_colour_settings(), check=True)
    assert b"\x1b" not in piped.stdout and b"Ann vs Bob" in piped.stdout
    # the same command on a terminal does use escapes, so the check above can fail
    terminal = run_on_terminal([GINSCORE, "show", str(played)], _env_without_colour_settings(), stderr_too=False)
    assert terminal.returncode == 0
    assert b"\x1b[" in terminal.output


def test_show_missing_file(run, tmp_path):
    result = run("show", tmp_path / "none.toml")
    assert result.exit_code == 1
    assert "no such file" in one_error_line(result)


@pytest.mark.parametrize(
    "command",
    [["show"], ["record", "--knocker", "a", "--deadwood", "2", "--opponent-deadwood", "9"], ["edit", "1", "--cancelled"],
     ["undo", "--yes"], ["play"], ["validate"], ["stats"]],
    ids=lambda command: command[0],
)
def test_a_missing_match_file_with_a_close_name_suggests_it(run, tmp_path, command):
    assert run("new", tmp_path / "friday.toml", "Ann", "Bob").exit_code == 0
    (tmp_path / "notes.txt").write_text("fridays")
    typo = tmp_path / "frday.toml"
    result = run(command[0], typo, *command[1:])
    assert result.exit_code == 1
    assert result.stdout == "" or command[0] == "stats"
    suggestion = f"{typo}: no such file; did you mean {tmp_path / 'friday.toml'}?"
    assert suggestion in result.stderr.splitlines()[0], result.stderr
    assert not typo.exists()


def test_a_missing_match_file_with_no_close_name_says_how_to_start_one(run, tmp_path):
    assert run("new", tmp_path / "friday.toml", "Ann", "Bob").exit_code == 0
    result = run("show", tmp_path / "sunday.toml")
    assert one_error_line(result) == f"error: {tmp_path / 'sunday.toml'}: no such file: create a match with `ginscore new FILE PLAYER PLAYER`"


def test_an_error_wraps_at_words_but_never_inside_a_command():
    from ginscore.cli.command import wrap_keeping_commands

    line = "error: friday.toml: no such file: create a match with `ginscore new FILE PLAYER PLAYER`"
    wrapped = wrap_keeping_commands(line, 40)
    assert wrapped == "error: friday.toml: no such file: create\n  a match with\n  `ginscore new FILE PLAYER PLAYER`"
    assert wrap_keeping_commands(line, 200) == line
    assert "`ginscore new FILE PLAYER PLAYER`" in wrap_keeping_commands(line, 20)  # wider than the line: kept whole


# --- undo -------------------------------------------------------------------------------------------------


def test_undo_yes_removes_the_last_hand(run, played):
    result = run("undo", played, "--yes")
    assert result.exit_code == 0 and result.stderr == ""
    assert result.stdout == "Removed hand 2 (Bob knocked, knock: Bob scores 8). Score: Ann 43, Bob 0. Next dealer: Ann.\n"
    assert hands_in(played) == 1


def test_undo_asks_and_y_removes(run, played):
    result = run(["undo", str(played)], input="y\n")
    assert result.exit_code == 0
    assert "Remove hand 2 (Bob knocked, knock: Bob scores 8)? [y/N]" in result.stderr
    assert "Removed hand 2" in result.stdout
    assert hands_in(played) == 1


@pytest.mark.parametrize("answer", ["n\n", "\n", ""], ids=["no", "enter", "end-of-input"])
def test_undo_anything_but_yes_removes_nothing_and_exits_1(run, played, answer):
    before = played.read_bytes()
    result = run(["undo", str(played)], input=answer)
    assert result.exit_code == 1
    assert played.read_bytes() == before
    assert result.stdout == ""
    assert result.stderr.startswith("Remove hand 2 (Bob knocked, knock: Bob scores 8)? [y/N]: ")
    assert result.stderr.endswith("\nNothing removed.\n")


def test_undo_declined_through_a_pipe_says_so_on_stderr_and_exits_1(played):
    answered = subprocess.run([GINSCORE, "undo", str(played)], input="n\n", capture_output=True, text=True)
    assert answered.returncode == 1
    assert answered.stdout == ""
    assert answered.stderr == "Remove hand 2 (Bob knocked, knock: Bob scores 8)? [y/N]: \nNothing removed.\n"


def test_undo_with_no_terminal_and_no_yes_removes_nothing_and_exits_1(played):
    answered = subprocess.run([GINSCORE, "undo", str(played)], stdin=subprocess.DEVNULL, capture_output=True, text=True)
    assert (answered.returncode, answered.stdout) == (1, "")
    assert answered.stderr.endswith("Nothing removed.\n")
    assert hands_in(played) == 2


def test_undo_with_no_hands(run, match_file):
    line = refused(run, match_file, ["undo", match_file, "--yes"], 1)
    assert line == f"error: {match_file} has no hands to undo"


def test_undo_reopens_a_finished_game(run, played):
    run("record", played, "--knocker", "Ann", "--deadwood", "0", "--opponent-deadwood", "40")
    refused(run, played, ["record", played, *GOOD], 1)
    assert run("undo", played, "--yes").exit_code == 0
    assert run(["record", str(played), *GOOD]).exit_code == 0


# --- edit -------------------------------------------------------------------------------------------------


def test_edit_replaces_a_hand_and_shows_the_totals_before_and_after(run, played):
    recorded = reading.load(str(played))[0].hands[0].recorded
    result = run("edit", played, "1", "--knocker", "Bob", "--deadwood", "4", "--opponent-deadwood", "19")
    assert result.exit_code == 0 and result.stderr == ""
    assert result.stdout == (
        "Hand 1 is now: Bob knocked, knock: Bob scores 15\n"
        "Totals before: Ann 43, Bob 8\n"
        "Totals after: Ann 0, Bob 23\n"
        "Next dealer: Bob\n"
    )
    match, sheet = reading.load(str(played))
    assert match.hands[0].knocker == "Bob" and match.hands[0].recorded == recorded
    assert [line.dealer for line in sheet.lines] == ["Ann", "Bob"]  # hand 2 is now dealt by Bob


@pytest.mark.parametrize("number", ["0", "3", "99"])
def test_edit_out_of_range_exits_2(run, played, number):
    line = refused(run, played, ["edit", played, number, *GOOD], 2)
    assert line == f"error: there is no hand {number}: the hands are numbered 1 to 2"


@pytest.mark.parametrize(
    "args, code",
    [
        (["--knocker", "Ann", "--deadwood", "12", "--opponent-deadwood", "30"], 1),  # illegal knock
        (["--knocker", "Zed", "--deadwood", "2", "--opponent-deadwood", "30"], 2),  # unknown player
        (["--knocker", "Ann", "--cards", ANN_CARDS, "--opponent-cards", "Kx 5s 6s 7s Jc 4d 8h 2c Ac 9d"], 2),  # bad card
        (["--knocker", "Ann", "--deadwood", "0", "--opponent-deadwood", "90"], 1),  # ends the game before hand 2
    ],
)
def test_edit_refusals_leave_the_file_unchanged(run, played, args, code):
    refused(run, played, ["edit", played, "1", *args], code)


# --- validate -----------------------------------------------------------------------------------------------


def test_validate_a_good_file(run, played):
    result = run("validate", played)
    assert result.exit_code == 0 and result.stderr == ""
    assert result.stdout == f"{played}: ok (2 hands, in play)\n"


def test_validate_lists_every_problem_with_its_place(run, played, tmp_path):
    text = played.read_text()
    parts = text.split("[[hands]]")
    parts[1] = parts[1].replace('opponent_cards = "Qh', 'opponent_cards = "Kx')
    parts[2] = parts[2].replace("knocker_deadwood = 2", "knocker_deadwood = 12")
    bad = tmp_path / "bad.toml"
    bad.write_text("[[hands]]".join(parts))
    before = bad.read_bytes()
    result = run("validate", bad)
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr.splitlines() == [
        f"{bad}: hands[1].opponent_cards: 'Kx' is not a card: unknown suit 'x' (use c, d, h, s or ♣ ♦ ♥ ♠)",
        f"{bad}: hands[2].knocker_deadwood: illegal knock: 12 deadwood is over the knock limit of 10, so the hand goes on "
        "with the knocker's cards face up and nothing is scored",
    ]
    assert bad.read_bytes() == before


def test_validate_several_files_and_a_missing_one(run, played, tmp_path):
    wrong = tmp_path / "wrong.toml"
    wrong.write_text(played.read_text().replace("Ann = 43", "Ann = 44", 1))
    missing = tmp_path / "missing.toml"
    result = run("validate", played, wrong, missing)
    assert result.exit_code == 1
    assert result.stdout == f"{played}: ok (2 hands, in play)\n"
    assert result.stderr.splitlines() == [
        f"{wrong}: hands[1].totals: the file says Ann 44, Bob 0 but the hands add up to Ann 43, Bob 0",
        f"{missing}: no such file: create a match with `ginscore new FILE PLAYER PLAYER`",
    ]


def test_validate_all_good_files(run, played, tmp_path):
    other = tmp_path / "other.toml"
    run("new", other, "Cy", "Di")
    result = run("validate", played, other)
    assert result.exit_code == 0
    assert result.stdout.splitlines() == [f"{played}: ok (2 hands, in play)", f"{other}: ok (0 hands, in play)"]


# --- two writers at once ---------------------------------------------------------------------------------------


def test_two_record_commands_at_once_lose_no_hand(run, tmp_path):
    path = tmp_path / "m.toml"
    assert run("new", path, "Ann", "Bob", "--set", "target=100000").exit_code == 0
    loop = 'for n in 2 3 4 5 6 7 8 9 10 11; do "$0" record "$1" --knocker "$2" --deadwood 1 --opponent-deadwood $n >/dev/null || exit 1; done'
    writers = [subprocess.Popen(["sh", "-c", loop, GINSCORE, str(path), who], stderr=subprocess.PIPE, text=True) for who in ("Ann", "Bob")]
    for writer in writers:
        assert writer.wait(timeout=120) == 0, writer.stderr.read()
    match, sheet = reading.load(str(path))
    assert len(match.hands) == 20
    for who in ("Ann", "Bob"):
        assert [h.opponent_deadwood for h in match.hands if h.knocker == who] == list(range(2, 12))
    assert sheet.summed("totals") == {"Ann": 55, "Bob": 55}  # 1+2+...+10 each


def test_hollywood_record_and_show_json_columns(run, tmp_path):
    path = tmp_path / "h.toml"
    run("new", path, "Ann", "Bob", "--hollywood")
    for _ in range(2):
        result = run("record", path, "--knocker", "Ann", "--deadwood", "1", "--opponent-deadwood", "11")
    assert "Hand 2: knock: Ann scores 10 (games 1, 2)" in result.stdout  # the 2nd win goes in games 1 and 2
    data = json_object(run("show", "--json", path))
    assert [c["totals"] for c in data["columns"]] == [{"Ann": 20, "Bob": 0}, {"Ann": 10, "Bob": 0}, {"Ann": 0, "Bob": 0}]
    assert data["totals"] == {"Ann": 30, "Bob": 0}  # summed over the columns
    assert [h["derived"]["columns"] for h in data["hands"]] == [[1], [1, 2]]

"""Gaps acceptance testing found where commands meet each other: over-long numbers, `check -` on odd input, one
option given two ways, a command typed bare, long lines on a narrow terminal, and near misses."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import one_error_line
from test_show_width import fits, on_pty, prose

GINSCORE = str(Path(sys.executable).with_name("ginscore"))
KNOCK = "3h 4h 5h KS KC KD 7c 8c 9c 2d"
KNOCK_K, KNOCK_O = "7s 8s 9s 9c 10c Jc 5h 5d 5c 2d 9h", "Kh Kd Ks 6s Qc 8d 4c 2h Ac 9d"
HUGE = "9" * 5000
CUT = "'" + "9" * 39 + "…'"
"""A number of thousands of digits as a usage error quotes it."""


def usage_error(result) -> list[str]:
    """The two lines of a usage error (the error, then the hint); nothing on stdout, exit status 2."""
    assert result.exit_code == 2, result.stderr
    assert result.stdout == ""
    assert "Traceback" not in result.stderr
    return result.stderr.splitlines()


@pytest.fixture
def game(run, tmp_path) -> Path:
    path = tmp_path / "g.toml"
    assert run("new", path, "Ann", "Bob").exit_code == 0
    assert run("record", path, "--knocker", "Ann", "--deadwood", "4", "--opponent-deadwood", "20").exit_code == 0
    return path


# --- numbers too long to be any count -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "args, option, command",
    [
        (["record", "{game}", "--knocker", "Ann", "--deadwood", HUGE, "--opponent-deadwood", "3"], "--deadwood", "record"),
        (["check", KNOCK, "--knock-limit", HUGE], "--knock-limit", "check"),
        (["edit", "{game}", HUGE, "--cancelled"], "N", "edit"),
        (["advise", KNOCK, "--stock", HUGE], "--stock", "advise"),
        (["advise", KNOCK, "--seed", HUGE], "--seed", "advise"),
        (["advise", KNOCK, "--samples", HUGE], "--samples", "advise"),
        (["record", "{game}", "--knocker", "Ann", "--deadwood", "9" * 60, "--opponent-deadwood", "3"], "--deadwood", "record"),
    ],
)
def test_a_number_of_thousands_of_digits_is_one_short_line(run, game, args, option, command):
    before = game.read_bytes()
    result = run([arg.format(game=game) if arg == "{game}" else arg for arg in args])
    assert usage_error(result) == [
        f"error: {option}: {CUT} is too large a number (more than 18 digits)",
        f"try 'ginscore {command} --help'",
    ]
    assert game.read_bytes() == before


@pytest.mark.parametrize("digits", [HUGE, "9" * 60])
def test_a_knob_of_thousands_of_digits_is_one_short_line(run, digits):
    result = run("check", KNOCK, "--set", f"target={digits}")
    assert result.exit_code == 2
    assert one_error_line(result) == f"error: --set: target must be a whole number from 1 to 100000, not '{'9' * 40}…'"


def test_leading_zeros_do_not_count_as_digits(run):
    result = run("check", KNOCK, "--knock-limit", "0" * 30 + "7", "--json")
    assert result.exit_code == 0, result.stderr
    assert '"knock_limit": 7' in result.stdout


# --- check - : closed, not UTF-8, or a line far too long ---------------------------------------------------


def test_check_dash_with_standard_input_closed_is_one_line():
    done = subprocess.run([GINSCORE, "check", "-"], capture_output=True, text=True, preexec_fn=lambda: os.close(0), timeout=60)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr == "error: standard input is closed: pipe hands in, or give the cards as arguments\n"


def test_check_dash_names_the_line_and_offset_of_a_byte_that_is_not_utf8(run):
    result = run(["check", "-", "--json"], input=b"3h \xff4h\n" + KNOCK.encode() + b"\n")
    assert result.exit_code == 2
    assert result.stderr == "error: line 1: cannot read byte 0xff at offset 3 of the line: not UTF-8 text\n"
    assert '"deadwood": 2' in result.stdout and result.stdout.count("\n") == 1


def test_the_line_limit_counts_the_spaces_before_a_hand(run):
    result = run(["check", "-", "--json"], input=" " * 5000 + KNOCK + "\n" + " " * 900 + KNOCK + "\n")
    assert result.exit_code == 2
    assert result.stderr == "error: line 1: the line is far longer than any hand (more than 1000 characters): type 10 or 11 cards\n"
    assert '"deadwood": 2' in result.stdout and result.stdout.count("\n") == 1


def test_a_line_of_1000_characters_in_card_symbols_is_read(run):
    hand = "3♥ 4♥ 5♥ K♠ K♣ K♦ 7♣ 8♣ 9♣ 2♦"
    result = run(["check", "-", "--json"], input=hand.ljust(1000) + "\n")
    assert result.exit_code == 0, result.stderr
    assert '"deadwood": 2' in result.stdout


# --- one option, one meaning; one value, given once --------------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        ["check", KNOCK],
        ["score", "--cards", KNOCK_K, "--opponent-cards", KNOCK_O],
        ["advise", KNOCK, "Qs", "--samples", "10"],
    ],
)
def test_set_knock_limit_with_an_upcard_is_refused_like_its_shorthand(run, args):
    short = run(*args, "--knock-limit", "3", "--upcard", "5s")
    assert one_error_line(short) == "error: --knock-limit: give a knock limit or the up-card, not both: the up-card sets the knock limit"
    long = run(*args, "--set", "knock_limit=3", "--upcard", "5s")
    assert long.exit_code == short.exit_code == 2
    assert one_error_line(long) == "error: --set: give a knock limit or the up-card, not both: the up-card sets the knock limit"
    oklahoma = run(*args, "--set", "knock_limit=3", "--rules", "oklahoma")
    assert oklahoma.exit_code == 2
    assert one_error_line(oklahoma) == (
        "error: --set: these rules use the knock card, so a knock limit does not apply: give the up-card"
    )


@pytest.mark.parametrize(
    "args, message",
    [
        (["--set", "knock_limit=3", "--knock-limit", "7"], "--set: knock_limit is given twice, as 'knock_limit=3' and 'knock_limit=7'"),
        (["--set", "gin_bonus=20", "--set", "gin_bonus=30"], "--set: gin_bonus is given twice, as 'gin_bonus=20' and 'gin_bonus=30'"),
    ],
)
def test_a_knob_given_twice_is_refused(run, args, message):
    result = run("check", KNOCK, *args)
    assert result.exit_code == 2
    assert one_error_line(result) == f"error: {message}: give it once"


@pytest.mark.parametrize(
    "args, message",
    [
        (["--cards", KNOCK_K, "--knocker", KNOCK_K, "--opponent-cards", KNOCK_O], "--cards and --knocker are one option, given twice"),
        (["--cards", KNOCK_K, "--opponent-cards", KNOCK_O, "--opponent", KNOCK_O], "--opponent-cards and --opponent are one option, given twice"),
        (["--cards", KNOCK_K, "--opponent-cards", KNOCK_O, "--discard=9h", "--discard", "9h"], "--discard is given twice"),
    ],
)
def test_one_value_given_twice_is_refused(run, args, message):
    assert usage_error(run("score", *args)) == [f"error: {message}: give it once", "try 'ginscore score --help'"]


# --- a command typed bare ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "command, missing",
    [
        ("check", "CARDS..."),
        ("score", "--cards"),
        ("record", "FILE"),
        ("new", "FILE"),
        ("show", "FILE"),
        ("stats", "PATH..."),
        ("validate", "FILE..."),
        ("play", "FILE"),
        ("undo", "FILE"),
        ("edit", "FILE"),
        ("advise", "CARDS..."),
    ],
)
def test_a_command_with_no_arguments_is_the_missing_argument_error(run, command, missing):
    first, hint = usage_error(run(command))
    assert first.startswith(f"error: missing {missing} (")
    assert hint == f"try 'ginscore {command} --help'"


# --- long lines on a narrow terminal, one line each when piped ------------------------------------------------


def long_named_game(run, tmp_path) -> Path:
    path = tmp_path / "long.toml"
    assert run("new", path, "Christopher", "Elizabeth").exit_code == 0
    return path


def test_advise_rows_wrap_under_their_value_on_a_terminal(run):
    args = ["advise", "3h 4h 5h Ks Kc Kd 7c 8c 9c 2d Qs", "--seen", "Jd 6s", "--stock", "20", "--seed", "7", "--samples", "200"]
    piped = run(*args).stdout.splitlines()
    worth = next(line for line in piped if line.startswith("worth "))
    assert len(worth) > 60
    status, lines = on_pty(args, 60)
    assert status == 0
    fits(lines, 60)
    start = lines.index(next(line for line in lines if line.startswith("worth ")))
    assert lines[start + 1].startswith(" " * 10) and lines[start + 1][10] != " "
    assert prose(lines[start : start + 2]) == prose([worth])


def test_a_long_named_record_wraps_its_spread_on_a_terminal(run, tmp_path):
    path = long_named_game(run, tmp_path)
    status, lines = on_pty(["record", str(path), "--knocker", "Christopher", "--cards", KNOCK_K, "--opponent-cards", KNOCK_O], 60)
    assert status == 0
    fits(lines, 60)
    spread = lines.index(next(line for line in lines if line.startswith("Christopher  ")))
    assert lines[spread + 1] == " " * 13 + "(discarded 9♥)"


def test_undo_and_new_reports_wrap_on_a_terminal_and_stay_one_line_piped(run, tmp_path):
    path = long_named_game(run, tmp_path)
    assert run("record", path, "--knocker", "Christopher", "--cards", KNOCK_K, "--opponent-cards", KNOCK_O).exit_code == 0
    status, lines = on_pty(["undo", str(path), "--yes"], 60)
    assert status == 0
    fits(lines, 60)
    assert len(lines) > 1
    assert prose(lines) == (
        "Removed hand 1 (Christopher knocked, knock: Christopher scores 22). Score: Christopher 0, Elizabeth 0. "
        "Next dealer: Christopher."
    )
    assert run("record", path, "--knocker", "Christopher", "--cards", KNOCK_K, "--opponent-cards", KNOCK_O).exit_code == 0
    piped = run("undo", path, "--yes")
    assert piped.exit_code == 0 and piped.stderr == ""
    assert piped.stdout == prose(lines) + "\n"
    status, lines = on_pty(["new", str(tmp_path / "other.toml"), "Christopher", "Elizabeth"], 60)
    assert status == 0
    fits(lines, 60)
    assert len(lines) > 1


def test_the_rules_footer_wraps_on_a_terminal(run):
    status, lines = on_pty(["rules"], 60)
    assert status == 0
    fits(lines, 60)
    footer = run("rules").stdout.splitlines()[-1]
    assert footer == "Override any knob: --rules standard --set gin_bonus=25 --set undercut_bonus=20"
    assert prose(lines[-2:]) == footer


# --- near misses --------------------------------------------------------------------------------------------------


ACCENT = "'\u0301' is not a card: it is a combining accent (U+0301 combining acute accent); type the card without it"


def test_a_lone_combining_accent_is_named_as_one(run):
    result = run("check", "3h 4h 5h KS KC KD 7c 8c 9c", "\u0301")
    assert result.exit_code == 2
    assert one_error_line(result) == f"error: {ACCENT}"
    piped = run(["check", "-"], input=b"\xcc\x81\n")
    assert piped.exit_code == 2
    assert one_error_line(piped) == f"error: line 1: {ACCENT}"


def test_three_names_are_listed_in_words(run, tmp_path):
    result = run("new", tmp_path / "a.toml", "A", "B", "C")
    assert result.exit_code == 2
    assert one_error_line(result) == "error: give two different player names, e.g. Ann Bob (3 were given: 'A', 'B' and 'C')"
    assert not (tmp_path / "a.toml").exists()


def test_play_reads_a_count_of_thousands_of_digits_as_a_typo(run, game):
    before = game.read_bytes()
    result = run(["play", str(game)], input=f"a\n{HUGE}\n{HUGE} 3\nq\n")
    assert result.exit_code == 0, result.stderr
    too_large = f"'{'9' * 40}…' is too large a number (more than 18 digits). Try again."
    assert result.stdout.count(too_large) == 2, result.stdout
    assert game.read_bytes() == before

"""The library API: the names in `ginscore.__all__`, loaded lazily, agreeing with the CLI; docs/API.md and the
README's Python example run as doctests."""

from __future__ import annotations

import doctest
import json
import subprocess
import sys
import tempfile
import tomllib
from dataclasses import FrozenInstanceError, replace
from pathlib import Path

import oracle
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ginscore
from ginscore import (
    PRESETS,
    Hand,
    IllegalHandError,
    InputError,
    MatchFileError,
    Rules,
    load_match,
    parse_cards,
    rules,
    save_match,
    score_knock,
    solve,
)
from ginscore.game.cards import DECK

ROOT = Path(__file__).resolve().parent.parent
ANN = "3h 4h 5h Ks Kc Kd 7c 8c 9c 2d 9h"
BOB = "Qh Qd 5s 6s 7s Jc 4d 8h 2c Ac"


# --- the pages run ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("page", ["docs/API.md", "README.md"])
def test_the_pages_examples_run(page, monkeypatch, tmp_path):
    monkeypatch.chdir(ROOT)  # the API page reads sample_matches/
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))  # and writes a copy under a temporary folder
    outcome = doctest.testfile(str(ROOT / page), module_relative=False, optionflags=doctest.ELLIPSIS, verbose=False)
    assert outcome.failed == 0, f"{page}: {outcome.failed} example(s) failed, see the output above"
    assert outcome.attempted >= (30 if page == "docs/API.md" else 4)


def test_a_stale_example_would_fail(tmp_path):
    """The doctest above can fail: the README's example with a wrong number is caught."""
    text = (ROOT / "README.md").read_text(encoding="utf-8").replace("('knock', 'knocker', 22)", "('knock', 'knocker', 23)")
    page = tmp_path / "stale.md"
    page.write_text(text, encoding="utf-8")
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    test = doctest.DocTestParser().get_doctest(text, {}, "stale", str(page), 0)
    runner.run(test, out=lambda _: None)
    assert runner.summarize(verbose=False).failed == 1


# --- the package top level -------------------------------------------------------------------------------------


def test_every_name_in_all_is_there_and_documented():
    api = (ROOT / "docs" / "API.md").read_text(encoding="utf-8")
    for name in ginscore.__all__:
        value = getattr(ginscore, name)
        assert value is getattr(ginscore.api, name)
        assert name in dir(ginscore)
        if callable(value):
            assert value.__doc__, name
    for name in ("parse_cards", "solve", "score_knock", "rules", "PRESETS", "load_match", "save_match"):
        assert name in ginscore.__all__ and f"`{name}" in api


def test_an_unknown_name_is_an_attribute_error():
    with pytest.raises(AttributeError, match="module 'ginscore' has no attribute 'nothing_here'"):
        ginscore.nothing_here  # noqa: B018


def python(code: str) -> str:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    return done.stdout


def test_import_ginscore_loads_no_api_until_a_name_is_used():
    probe = "print(sorted(m for m in sys.modules if m.startswith('ginscore')))"
    out = python(f"import sys, ginscore\n{probe}\nginscore.score_knock\n{probe}")
    before, after = out.splitlines()
    assert before == "['ginscore', 'ginscore.version']"  # the version alone: nothing of the game
    assert "'ginscore.api'" in after and "'ginscore.game.scoring'" in after and "'ginscore.files.storage'" not in after


def test_star_import_gives_exactly_all():
    out = python("from ginscore import *\nprint(sorted(n for n in globals() if not n.startswith('__')))")
    assert out == f"{sorted(ginscore.__all__)}\n"


def test_the_package_is_typed():
    assert (ROOT / "ginscore" / "py.typed").is_file()
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "py.typed" in pyproject["tool"]["setuptools"]["package-data"]["ginscore"]


# --- solve -----------------------------------------------------------------------------------------------------


def test_solve_ten_and_eleven_cards():
    ten = solve("3h 4h 5h Ks Kc Kd 7c 8c 9c 2d")
    assert (ten.deadwood, ten.discards, ten.big_gin) == (2, (), False)
    assert [str(m) for m in ten.melds] == ["3h 4h 5h", "7c 8c 9c", "Kc Kd Ks"] and str(ten.deadwood_cards) == "2d"
    eleven = solve(ANN)
    assert (eleven.deadwood, [str(c) for c in eleven.discards]) == (2, ["9h"])
    assert Hand.of(eleven.cards) == Hand.parse(ANN)
    with pytest.raises(FrozenInstanceError):
        eleven.deadwood = 0  # type: ignore[misc]


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from(DECK), min_size=10, max_size=10, unique=True))
def test_solve_matches_the_naive_oracle_from_text_or_cards(hand):
    text = " ".join(str(card) for card in hand)
    assert solve(text).deadwood == solve(hand).deadwood == oracle.min_deadwood(hand)
    laid_out = solve(hand)
    assert sum(len(meld) for meld in laid_out.melds) + len(laid_out.deadwood_cards) == 10
    assert laid_out.deadwood_cards.value == laid_out.deadwood


@pytest.mark.parametrize(
    "cards, error, message",
    [
        ("3h 4h 5h", InputError, "a hand to solve needs 10 or 11 cards, but 3 were given"),
        ("3h 4h 5h Ks Kc Kd 7c 8c 9c 2x", InputError, "'2x' is not a card"),
        ("3h 3h 5h Ks Kc Kd 7c 8c 9c 2d", InputError, "'3h' is given twice"),
    ],
)
def test_solve_refuses_what_is_not_a_hand(cards, error, message):
    with pytest.raises(error, match=message):
        solve(cards)


def test_a_card_given_twice_as_card_objects_is_named():
    hand = [*parse_cards("3h 4h 5h Ks Kc Kd 7c 8c 9c"), parse_cards("4h")[0]]
    with pytest.raises(InputError, match="'4h' is given twice"):
        solve(hand)
    assert isinstance(InputError("x"), ValueError)


# --- score_knock -----------------------------------------------------------------------------------------------

CLI_CASES = [
    (["--knocker", ANN, "--opponent", BOB], {"knocker": ANN, "opponent": BOB}),
    (
        ["--knocker", "7s 8s 9s 9c 10c Jc 5h 5d 5c 2d 9h", "--opponent", "Kh Kd Ks 6s Qc 8d 4c 2h Ac 9d"],
        {"knocker": "7s 8s 9s 9c 10c Jc 5h 5d 5c 2d 9h", "opponent": "Kh Kd Ks 6s Qc 8d 4c 2h Ac 9d"},
    ),
    (
        ["--knocker", "10h Jh Qh Kh 7s 7c 7d Ac Ad 2c 2d", "--opponent", "9h 8h Kc Qd Js 5c 4d 3s 6s 10c"],
        {"knocker": "10h Jh Qh Kh 7s 7c 7d Ac Ad 2c 2d", "opponent": "9h 8h Kc Qd Js 5c 4d 3s 6s 10c"},
    ),
    (
        ["--knocker", "4h 4d 4c | 6h 6d 6c | 10s Js Qs | 8h Kd", "--discard", "Kd", "--opponent", "9s 9d 9c Jh Qh Kh 4s 6s Ks Ad", "--rules", "tournament"],
        {"knocker": "4h 4d 4c | 6h 6d 6c | 10s Js Qs | 8h Kd", "opponent": "9s 9d 9c Jh Qh Kh 4s 6s Ks Ad", "discard": "Kd", "rules": "tournament"},
    ),
    (
        ["--rules", "oklahoma", "--upcard", "5s", "--knocker", "3c 4c 5c 9d 9h 9s Jh Qh Kh 2d", "--opponent", "Ac 2c 6c 8d 8h Qs Qd 7s 6s 5d"],
        {"knocker": "3c 4c 5c 9d 9h 9s Jh Qh Kh 2d", "opponent": "Ac 2c 6c 8d 8h Qs Qd 7s 6s 5d", "rules": "oklahoma", "upcard": "5s"},
    ),
]


@pytest.mark.parametrize("argv, call", CLI_CASES)
def test_score_knock_agrees_with_score_json(run, argv, call):
    result = run("score", *argv, "--json")
    assert result.exit_code == 0 and result.stderr == ""
    knocker, opponent = call.pop("knocker"), call.pop("opponent")
    knock = score_knock(knocker, opponent, **call)
    assert knock.as_dict() == json.loads(result.stdout)
    data = knock.as_dict()
    assert (knock.result, knock.winner, knock.points) == (data["result"], data["winner"], data["points"])
    assert (knock.knocker_deadwood, knock.opponent_deadwood) == (data["knocker_deadwood"], data["opponent_deadwood"])
    assert knock.knocker_spread.card_lists() == data["knocker_melds"]
    assert knock.opponent_spread is not None and knock.opponent_spread.card_lists() == data["opponent_melds"]
    assert knock.layoffs is not None and [str(c) for c in knock.layoffs.sorted()] == data["layoffs"]


UPCARD_KNOCKER, UPCARD_OPPONENT = "3c 4c 5c 9d 9h 9s Jh Qh Kh 2d", "Kd Ks Kc 6s 7s 8d 4h 2h Ac 9c"


@pytest.mark.parametrize(
    "rules, upcard, limit, multiplier",
    [("standard", "5s", 5, 1), ("tournament", "7d", 7, 1), ("standard", "2h", 2, 1), ("oklahoma", "4s", 4, 2)],
)
def test_score_knock_takes_an_upcard_under_any_rules_as_score_does(run, rules, upcard, limit, multiplier):
    """`--upcard` turns on the up-card's limit under whatever rules are chosen (issue 9); so does `upcard=`."""
    argv = ["--cards", UPCARD_KNOCKER, "--opponent-cards", UPCARD_OPPONENT, "--rules", rules, "--upcard", upcard]
    result = run("score", *argv, "--json")
    assert result.exit_code == 0 and result.stderr == ""
    knock = score_knock(UPCARD_KNOCKER, UPCARD_OPPONENT, rules=rules, upcard=upcard)
    assert knock.as_dict() == json.loads(result.stdout)
    assert (knock.knock_limit, knock.multiplier) == (limit, multiplier)


def test_score_knock_an_ace_upcard_under_standard_rules_means_gin_only_as_score_says(run):
    argv = ["--cards", UPCARD_KNOCKER, "--opponent-cards", UPCARD_OPPONENT, "--upcard", "Ah"]
    result = run("score", *argv)
    with pytest.raises(IllegalHandError) as caught:
        score_knock(UPCARD_KNOCKER, UPCARD_OPPONENT, upcard="Ah")
    assert result.exit_code == 1 and result.stdout == ""
    assert caught.value.field == "cards"  # named as `score` and `record` name it: --cards
    assert result.stderr == f"error: --cards: {caught.value}\n"
    assert "2 deadwood where only gin may go down" in result.stderr  # a limit of 0 said as what it means


def test_score_knock_takes_text_cards_card_strings_or_hands_alike():
    by_text = score_knock(ANN, BOB)
    by_cards = score_knock(parse_cards(ANN), parse_cards(BOB))
    by_strings = score_knock(ANN.split(), BOB.split(), rules=PRESETS["standard"], discard=None)
    by_hands = score_knock(Hand.parse(ANN), Hand.parse(BOB))
    assert by_text == by_cards == by_strings == by_hands
    assert (by_text.result, by_text.winner, by_text.points, str(by_text.discard)) == ("knock", "knocker", 43, "9h")


def test_score_knock_against_a_count_gives_no_opponent_spread():
    knock = score_knock(ANN, 30, rules=rules(undercut_bonus=20))
    assert (knock.result, knock.points, knock.opponent_deadwood) == ("knock", 28, 30)
    assert knock.opponent_spread is None and knock.layoffs is None
    undercut = score_knock(ANN, 1, rules=rules(undercut_bonus=20))
    assert (undercut.result, undercut.winner, undercut.points) == ("undercut", "opponent", 21)  # 2 - 1 + 20


@pytest.mark.parametrize(
    "knocker, opponent, keywords, error, message",
    [
        ("3h 4h 5h Ks Kc Kd 7c 9c Jd Qh 2s", "Qd Qc 5s 6s 7s Jc 4d 8h 2c Ac", {}, IllegalHandError, "illegal knock: 28 deadwood is over the knock limit of 10"),
        (ANN, BOB.replace("Ac", "Kd"), {}, IllegalHandError, "Kd cannot be in both hands"),
        (ANN, BOB.replace(" Ac", ""), {}, InputError, "the opponent's hand needs 10 cards, but 9 were given"),
        (ANN, BOB, {"discard": "As"}, IllegalHandError, "the discard As is not in the knocker's hand"),
        (ANN, BOB, {"rules": "casual"}, InputError, "unknown rules 'casual'"),
        ("3c 4c 5c 9d 9h 9s Jh Qh Kh 2d", 30, {"rules": "oklahoma", "upcard": "Ac"}, IllegalHandError, "2 deadwood where only gin may go down"),
        ("3c 4c 5c 9d 9h 9s Jh Qh Kh 2d", 30, {"rules": "oklahoma", "upcard": "5x"}, InputError, "'5x' is not a card"),
    ],
)
def test_score_knock_refusals_are_ginscore_errors(knocker, opponent, keywords, error, message):
    with pytest.raises(error, match=message):
        score_knock(knocker, opponent, **keywords)


def test_a_knock_is_frozen():
    with pytest.raises(FrozenInstanceError):
        score_knock(ANN, BOB).points = 0  # type: ignore[misc]


# --- rules -----------------------------------------------------------------------------------------------------


def test_rules_is_a_preset_with_checked_overrides():
    assert rules() == PRESETS["standard"] == Rules()
    assert rules("OKLAHOMA") == PRESETS["oklahoma"]
    assert rules("standard", gin_bonus=25, undercut_bonus="20") == replace(Rules(), gin_bonus=25, undercut_bonus=20)
    assert rules("tournament", big_gin_bonus="off").big_gin is False
    with pytest.raises(InputError, match="knock_limit must be a whole number from 0 to 10, not 11"):
        rules(knock_limit=11)
    with pytest.raises(InputError, match="unknown rule knob 'gin'"):
        rules(gin=25)


# --- match files -----------------------------------------------------------------------------------------------


def test_load_and_save_round_trip(tmp_path):
    match = load_match(str(ROOT / "sample_matches" / "oklahoma.toml"))
    copy = tmp_path / "copy.toml"
    save_match(str(copy), match)
    assert load_match(str(copy)) == match
    noted = replace(match, note="played at the club")
    save_match(str(copy), noted)
    assert load_match(str(copy)).note == "played at the club"


def test_save_match_keeps_a_comment_when_only_the_hands_change(tmp_path):
    path = tmp_path / "m.toml"
    path.write_text("# kept: played at the club\n" + (ROOT / "sample_matches" / "standard.toml").read_text())
    match = load_match(str(path))
    shorter = match.with_hands(match.hands[:-1])
    save_match(str(path), shorter)
    assert path.read_text().startswith("# kept: played at the club\n")
    assert load_match(str(path)) == shorter
    save_match(str(path), replace(shorter, note="a new note"))
    assert load_match(str(path)).note == "a new note"


def test_save_match_refuses_a_match_that_does_not_score_and_leaves_the_file_alone(tmp_path):
    match = load_match(str(ROOT / "sample_matches" / "standard.toml"))
    path = tmp_path / "m.toml"
    save_match(str(path), match)
    before = path.read_bytes()
    broken = match.with_hands((replace(match.hands[0], knocker="Zed"), *match.hands[1:]))
    with pytest.raises(InputError, match="unknown player 'Zed'"):
        save_match(str(path), broken)
    assert path.read_bytes() == before


def test_load_match_reports_every_problem_with_its_place(tmp_path):
    path = tmp_path / "bad.toml"
    text = (ROOT / "sample_matches" / "standard.toml").read_text(encoding="utf-8")
    path.write_text(text.replace('first_dealer = "Tom"', 'first_dealer = "Zed"'), encoding="utf-8")
    with pytest.raises(MatchFileError) as caught:
        load_match(str(path))
    assert caught.value.problems and all(str(path) in line for line in str(caught.value).splitlines())


@pytest.mark.parametrize(
    "text, problem",
    [
        ("[project]\nname = 'mine'\n", "format: expected 1 or 2, found None; is this a ginscore match file?"),
        ("[x]\ny = 1\n", "format: expected 1 or 2, found None; is this a ginscore match file?"),
        (
            (ROOT / "sample_matches" / "standard.toml").read_text().replace("hollywood = false\n", 'hollywood = false\nvenue = "Club"\n', 1),
            "match.venue: unknown key (known: id, players, first_dealer, hollywood, preset, note)",
        ),
    ],
    ids=["pyproject", "other-toml", "unknown-key"],
)
def test_save_match_refuses_a_file_that_is_not_a_match_file_and_leaves_it_whole(tmp_path, text, problem):
    """As every command refuses it: nothing a person wrote is replaced or dropped without a word."""
    path = tmp_path / "pyproject.toml"
    path.write_text(text)
    match = load_match(str(ROOT / "sample_matches" / "standard.toml"))
    with pytest.raises(MatchFileError) as caught:
        save_match(str(path), match)
    assert caught.value.problems == [problem]
    assert path.read_text() == text
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pyproject.toml"]  # no lock file, no temporary file


def test_save_match_creates_a_missing_file(tmp_path):
    match = load_match(str(ROOT / "sample_matches" / "counts_only.toml"))
    path = tmp_path / "new.toml"
    save_match(str(path), match)
    assert load_match(str(path)) == match


def test_save_match_refuses_a_note_with_a_control_character_as_the_commands_do(tmp_path):
    match = load_match(str(ROOT / "sample_matches" / "counts_only.toml"))
    escaped = match.with_hands((replace(match.hands[0], note="\x1b[31mred"), *match.hands[1:]))
    path = tmp_path / "m.toml"
    with pytest.raises(InputError, match=r"a note cannot hold the control character '\\x1b' \(U\+001B\)"):
        save_match(str(path), escaped)
    with pytest.raises(InputError, match="control character"):
        save_match(str(path), replace(match, note="two\nlines"))
    assert list(tmp_path.iterdir()) == []

"""`ginscore new NEXT.toml --next FINISHED.toml`: the next game of a finished match, as the pages start it."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import one_error_line

from ginscore.cli.mend import free_name


@pytest.fixture
def finished(run, tmp_path) -> Path:
    path = tmp_path / "friday.toml"
    assert run("new", path, "Ann", "Bob", "--set", "target=20").exit_code == 0
    assert run("record", path, "--knocker", "Bob", "--deadwood", "0", "--opponent-deadwood", "30").exit_code == 0
    return path


def test_the_next_game_keeps_players_and_rules_and_the_winner_deals(run, finished, tmp_path):
    before = finished.read_bytes()
    result = run("new", tmp_path / "friday-2.toml", "--next", finished)
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout == (f"Started {tmp_path / 'friday-2.toml'}, the next game after {finished}: a match of Ann and Bob, "
                             "standard rules, target 20; Bob deals first.\n")
    assert finished.read_bytes() == before
    assert run("record", tmp_path / "friday-2.toml", "--knocker", "Ann", "--deadwood", "3", "--opponent-deadwood", "9").exit_code == 0


def test_dealer_names_another(run, finished, tmp_path):
    result = run("new", tmp_path / "n.toml", "--next", finished, "--dealer", "ann")
    assert result.exit_code == 0
    assert result.stdout.endswith("Ann deals first.\n")


@pytest.mark.parametrize("extra, named", [(["Ann", "Bob"], "players"), (["--rules", "standard"], "--rules"),
                                          (["--set", "target=50", "--hollywood"], "--set or --hollywood")])
def test_players_or_rules_with_next_are_bad_input(run, finished, tmp_path, extra, named):
    target = tmp_path / "n.toml"
    result = run("new", target, *extra, "--next", finished)
    assert result.exit_code == 2
    assert one_error_line(result) == f"error: --next: the next game takes its players and rules from {finished}: give no {named} with it"
    assert not target.exists()


def test_a_match_in_play_has_no_next_game(run, tmp_path):
    path = tmp_path / "m.toml"
    assert run("new", path, "Ann", "Bob").exit_code == 0
    result = run("new", tmp_path / "n.toml", "--next", path)
    assert result.exit_code == 1
    assert one_error_line(result) == f"error: {path} is still in play: finish it before the next game"
    assert not (tmp_path / "n.toml").exists()


def test_an_existing_file_is_never_replaced(run, finished, tmp_path):
    taken = tmp_path / "friday-2.toml"
    taken.write_text("mine", encoding="utf-8")
    result = run("new", taken, "--next", finished)
    assert result.exit_code == 1
    assert one_error_line(result) == f"error: {taken} already exists: pick another name"
    assert taken.read_text(encoding="utf-8") == "mine"


def test_no_players_and_no_next_says_both(run, tmp_path):
    result = run("new", tmp_path / "n.toml")
    assert result.exit_code == 2
    assert one_error_line(result) == "error: give two different player names, e.g. Ann Bob, or --next FINISHED for the next game of a match"


@pytest.mark.parametrize("name, taken, free", [
    ("friday.toml", [], "friday-2.toml"),
    ("friday.toml", ["friday-2.toml", "friday-3.toml"], "friday-4.toml"),
    ("friday-2.toml", [], "friday-3.toml"),
    ("club-2026-12-05.toml", [], "club-2026-12-05-2.toml"),
])
def test_the_free_name(tmp_path, name, taken, free):
    for other in taken:
        (tmp_path / other).write_text("", encoding="utf-8")
    assert free_name(str(tmp_path / name)) == str(tmp_path / free)

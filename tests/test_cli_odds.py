"""`ginscore odds`: the chance against a reference worked out here from the hands recorded, and its refusals."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import json_object, one_error_line
from test_odds import iterated

from ginscore.game.outcomes import Outcomes


def counts(*pairs: str) -> list[str]:
    knocker, deadwood, opponent = pairs
    return ["--knocker", knocker, "--deadwood", deadwood, "--opponent-deadwood", opponent]


@pytest.fixture
def table(run, tmp_path: Path) -> Path:
    """A folder of three matches: two to 30 points (five hands between them), and one to 100 with other rules."""
    first, second, other = tmp_path / "m1.toml", tmp_path / "m2.toml", tmp_path / "other.toml"
    assert run("new", first, "Ann", "Bob", "--set", "target=30").exit_code == 0
    assert run("new", second, "Ann", "Bob", "--set", "target=30", "--dealer", "Bob").exit_code == 0
    assert run("new", other, "Ann", "Bob").exit_code == 0
    steps = [
        (first, counts("Ann", "5", "12")),  # Ann deals and wins 7
        (first, counts("Bob", "3", "9")),  # Bob, not dealing, wins 6; Bob deals next
        (first, ["--cancelled"]),  # dead: Bob deals again
        (second, counts("Ann", "8", "5")),  # Bob deals; Ann is undercut: the dealer wins 3 + 10
        (second, counts("Ann", "0", "4")),  # Bob deals; Ann, not dealing, goes gin: 20 + 4
        (other, counts("Ann", "2", "50")),  # other rules: never counted
    ]
    for path, options in steps:
        result = run("record", path, *options)
        assert result.exit_code == 0, result.stderr
    return tmp_path


REFERENCE = Outcomes(1 / 5, ((7, 1 / 5), (13, 1 / 5)), ((6, 1 / 5), (24, 1 / 5)))
"""The five hands by the target-30 rules, from each hand's dealer's view, counted by hand above."""


def test_the_chance_from_the_table_alone_is_the_chain_of_its_own_hands(run, table):
    data = json_object(run("odds", table / "m1.toml", "--prior", "0", "--json"))
    reference = iterated(REFERENCE, 30, "winner")[(7, 6, 1)]  # Ann 7, Bob 6, Bob (player 1) to deal
    assert data["chance"]["Ann"] == pytest.approx(reference, abs=1e-9)
    assert data["chance"]["Ann"] + data["chance"]["Bob"] == pytest.approx(1.0, abs=1e-12)
    assert data["players"] == ["Ann", "Bob"]
    assert data["scores"] == {"Ann": 7, "Bob": 6}
    assert data["next_dealer"] == "Bob" and data["target"] == 30 and data["finished"] is False
    model = data["model"]
    assert (model["history_hands"], model["history_matches"], model["prior_hands"]) == (5, 2, 0)
    assert model["rules"]["target"] == 30
    assert model["source"] == "5 hands of 2 matches in this folder with these rules"  # what was counted, in words


def test_the_text_gives_both_chances_the_dealer_and_the_model(run, table):
    result = run("odds", table / "m1.toml")
    assert result.exit_code == 0 and result.stderr == ""
    first, dealer, source = result.stdout.splitlines()
    assert first.startswith("Ann ") and " to win this game, Bob " in first and first.endswith("(Ann 7, Bob 6, to 30)")
    assert dealer == "Bob deals next."
    assert source == "From the built-in model for standard rules, scored under these rules, and 5 hands of 2 matches in this folder with these rules."


def test_the_prior_weighs_the_built_in_model_and_another_folder_can_be_the_history(run, table, tmp_path_factory):
    alone = json_object(run("odds", table / "m1.toml", "--prior", "0", "--json"))["chance"]["Ann"]
    mixed = json_object(run("odds", table / "m1.toml", "--json"))
    assert mixed["model"]["prior_hands"] == 200 and mixed["model"]["history_hands"] == 5
    assert mixed["chance"]["Ann"] != pytest.approx(alone, abs=1e-6)
    empty = tmp_path_factory.mktemp("empty")
    built_in = json_object(run("odds", table / "m1.toml", "--history", empty, "--json"))
    assert built_in["model"]["history_hands"] == 0
    assert built_in["model"]["source"] == "the built-in model for standard rules, scored under these rules"


def test_a_finished_game_is_won_and_lost(run, table):
    path = table / "m1.toml"
    assert run("record", path, *counts("Ann", "0", "30")).exit_code == 0  # gin: 20 + 30
    data = json_object(run("odds", path, "--json"))
    assert data["chance"] == {"Ann": 1.0, "Bob": 0.0}
    assert data["finished"] is True and data["next_dealer"] is None
    result = run("odds", path)
    assert result.stdout.splitlines()[0] == "over: Ann reached 30 (Ann 57, Bob 6)"


def test_no_history_and_no_prior_is_refused_naming_the_prior(run, tmp_path):
    path = tmp_path / "new.toml"
    assert run("new", path, "Ann", "Bob", "--rules", "oklahoma").exit_code == 0
    result = run("odds", path, "--prior", "0")
    assert result.exit_code == 1
    assert one_error_line(result).startswith("error: --prior: with a prior of 0 the chance comes from this table's hands alone")
    result = run("odds", path, "--history", tmp_path / "nowhere")
    assert result.exit_code == 2
    assert one_error_line(result).startswith("error: --history: ")
    result = run("odds", path, "--prior", "-3")
    assert result.exit_code == 2
    assert one_error_line(result) == "error: --prior: the prior must be from 0 to 1000000 hands, not -3"


def test_hollywood_gives_each_game_in_play(run, tmp_path):
    path = tmp_path / "h.toml"
    assert run("new", path, "Ann", "Bob", "--hollywood").exit_code == 0
    assert run("record", path, *counts("Ann", "2", "30")).exit_code == 0
    assert run("record", path, *counts("Ann", "2", "30")).exit_code == 0
    data = json_object(run("odds", path, "--json"))
    games = data["games"]
    assert [g["scores"]["Ann"] for g in games] == [56, 28, 0]
    assert [g["exact"] for g in games] == [True, False, False]
    assert games[0]["chance"]["Ann"] > games[1]["chance"]["Ann"] > games[2]["chance"]["Ann"]
    assert data["chance"] == games[0]["chance"] and data["game"] == 1
    lines = run("odds", path).stdout.splitlines()
    assert [line.split(":")[0] for line in lines[:3]] == ["Game 1", "Game 2", "Game 3"]
    # once both have an entry in game 1, every win enters game 2: its chain is exact; game 3 still waits on Bob
    assert run("record", path, *counts("Bob", "2", "30")).exit_code == 0
    games = json_object(run("odds", path, "--json"))["games"]
    assert [g["scores"]["Bob"] for g in games] == [28, 0, 0]
    assert [g["exact"] for g in games] == [True, True, False]


def test_a_target_too_far_off_is_refused_by_odds_and_left_out_by_show(run, tmp_path):
    path = tmp_path / "long.toml"
    assert run("new", path, "Ann", "Bob", "--set", "target=5000").exit_code == 0
    result = run("odds", path)
    assert result.exit_code == 1
    assert one_error_line(result) == (
        "error: the chance is solved for targets up to 1000, at most 400 points from the lower score, "
        "and this game is to 5000"
    )
    shown = run("show", path)
    assert shown.exit_code == 0 and "Chances" not in shown.stdout
    assert json_object(run("show", path, "--json"))["odds"] is None

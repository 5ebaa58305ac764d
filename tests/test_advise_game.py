"""`advise --match`: the chance to win the game if you knock now, recomputed from the outcomes it lists and `odds`,
and playing on from hands played out."""

from __future__ import annotations

import pytest
from conftest import json_object, one_error_line

from ginscore.files.table import match_odds
from ginscore.game.odds import chance_to_win

HAND = ["3h", "4h", "5h", "Ks", "Kc", "Kd", "7c", "8c", "9c", "2d", "Qs"]


@pytest.fixture
def match(run, tmp_path):
    path = tmp_path / "m.toml"
    assert run("new", path, "Ann", "Bob").exit_code == 0
    assert run("record", path, "--knocker", "Bob", "--deadwood", "2", "--opponent-deadwood", "60").exit_code == 0
    return path


def test_knocking_now_is_the_mean_of_its_listed_outcomes_chances(run, match):
    data = json_object(run("advise", *HAND, "--match", match, "--player", "Bob", "--seed", "3", "--samples", "400",
                           "--rollouts", "20", "--json"))
    game = data["game"]
    assert game["scores"] == {"you": 58, "opponent": 0} and game["you_dealt"] is True and game["target"] == 100
    model = match_odds(str(match)).model.outcomes
    assert game["chance_now"] == pytest.approx(chance_to_win(model, 100, "winner", (58, 0), 0), abs=1e-12)
    options = {option["discard"]: option for option in game["options"]}
    assert set(options) == {"Qs", "2d"}  # the discards that may knock
    for option in options.values():
        outcomes = option["outcomes"]
        assert sum(o["share"] for o in outcomes) == pytest.approx(1.0)
        recomputed = 0.0
        for o in outcomes:
            mine = 58 + (o["points"] if o["winner"] == "you" else 0)
            theirs = 0 + (o["points"] if o["winner"] == "opponent" else 0)
            dealer = 0 if o["winner"] in ("you", None) else 1  # the winner deals; nobody scored: you deal again
            chance = chance_to_win(model, 100, "winner", (mine, theirs), dealer)
            assert o["chance"] == pytest.approx(chance, abs=1e-12)
            recomputed += o["share"] * chance
        assert option["knock_now"] == pytest.approx(recomputed, abs=1e-12)
        low, high = option["knock_now_interval"]
        assert low <= option["knock_now"] <= high
        assert option["rollouts"] == 20 and 0.0 <= option["play_on"] <= 1.0
        low, high = option["play_on_careless_interval"]  # the same worlds against an opponent who may be undercut
        assert low <= option["play_on_careless"] <= high
        assert option["best"] == ("knock" if option["knock_now"] >= option["play_on"] else "play_on")
    # the hand's own advice, unchanged beside the game's
    assert data["options"][0]["discard"] == "Qs"


def test_the_text_adds_the_game_under_the_hand(run, match):
    result = run("advise", *HAND, "--match", match, "--player", "Bob", "--seed", "3", "--samples", "300", "--rollouts", "10")
    assert result.exit_code == 0 and result.stderr == ""
    lines = result.stdout.splitlines()
    start = next(index for index, line in enumerate(lines) if line.startswith("For the game: "))
    assert lines[start].startswith("For the game: 58 to 0, first to 100, you dealt; your chance now ")
    assert lines[start + 1].startswith("  discard Qs: knock now ")
    assert lines[-1].startswith("Advice: ")  # the one play, last
    assert sum(line.startswith("Advice: ") for line in lines) == 1 and not any("Best for the game" in line for line in lines)


def test_weighing_the_game_needs_the_player_and_a_match_in_play(run, match):
    result = run("advise", *HAND, "--match", match)
    assert result.exit_code == 2
    assert one_error_line(result) == "error: --player is missing: say who you are in the match, e.g. --player Ann"
    result = run("advise", *HAND, "--player", "Ann")
    assert result.exit_code == 2
    assert one_error_line(result).startswith("error: --player: --player names you in a match")
    result = run("advise", *HAND, "--match", match, "--player", "Cy")
    assert result.exit_code == 2
    assert one_error_line(result).startswith("error: --player: unknown player 'Cy'")


def test_the_sentence_where_the_game_differs_names_both_discards_as_the_front_end_says_cards():
    from ginscore.game.advise_game import GameAdvice, GameChoice, GameState
    from ginscore.game.cards import parse_card
    from ginscore.web.picker import card_face

    def choice(code: str, knock_now: float, play_on: float) -> GameChoice:
        return GameChoice(parse_card(code), knock_now, None, (), play_on, None, 10, play_on, None)

    seven, queen = choice("7c", 0.62, 0.40), choice("Qs", 0.55, 0.41)
    state = GameState(80, 60, False, 100, "winner")
    game = GameAdvice(state, 0.6, (seven, queen), seven, parse_card("Qs"))
    said = "Knock with {} rather than {}: it wins the game more often (62% against 55%), though it scores fewer points on average."
    assert game.differs == said.format("7c", "Qs")
    assert game.differs_words(card_face) == said.format("7♣", "Q♠")
    assert GameAdvice(state, 0.6, (seven, queen), seven, parse_card("7c")).differs is None  # the same discard
    on = choice("7c", 0.30, 0.45)
    assert (GameAdvice(state, 0.6, (on,), on, parse_card("7c")).differs or "").startswith("Play on: knocking now wins the game 30%")

"""The chance to win the game on the pad's scoreboard and in the API's `show`, as `odds` gives it."""

from __future__ import annotations

import html
import re
from dataclasses import replace

from conftest import json_object
from test_web_pages import TOKEN, client, csrf, folder, new_match, record  # noqa: F401 (fixtures)

from ginscore.files.table import match_odds
from ginscore.sheets.odds_words import percent
from ginscore.web.picker import card_face


def test_the_scoreboard_gives_both_players_chances_the_likelier_first_with_the_model_one_tap_away(client, folder):  # noqa: F811
    new_match(client)
    assert record(client, "x.toml", how="counts", knocker="Bob", deadwood="3", opponent_deadwood="20").status_code == 303
    page = client.get("/m/x.toml").text
    expected = match_odds(str(folder / "x.toml"))
    bob = expected.now.chance["Bob"]
    assert bob > 0.5
    found = re.search(r'<details class="board-odds"><summary>([^<]*)</summary><p>From ([^:<]*):', page)
    assert found, page
    assert found.group(1) == f"Bob {percent(bob)} to win this game, Ann {percent(1 - bob)}"
    assert found.group(2) == expected.model.source
    assert page.index('<section class="board"') < page.index('class="board-odds"') < page.index('<table class="hands')
    assert found.group(0) in client.get("/m/x.toml/sheet").text  # the live sheet swaps in the same board
    assert "in this folder with these rules" in expected.model.source and "at this table" not in page
    assert "solved exactly" not in page and "an estimate, not a certainty" in page


def test_a_level_game_is_even_on_the_scoreboard_not_one_players(client):  # noqa: F811
    new_match(client)
    page = client.get("/m/x.toml").text
    found = re.search(r'<details class="board-odds"><summary>([^<]*)</summary>', page)
    assert found and found.group(1) == "Ann and Bob even: 50% each to win this game"


def test_a_finished_match_shows_no_chance(client, folder):  # noqa: F811
    assert 'class="board-odds"' not in client.get("/m/standard.toml").text


def test_the_api_s_show_carries_the_odds_as_odds_json_gives_them(client, folder):  # noqa: F811
    new_match(client)
    assert record(client, "x.toml", how="counts", knocker="Ann", deadwood="2", opponent_deadwood="30").status_code == 303
    data = client.get("/api/matches/x.toml", headers={"Authorization": f"Bearer {TOKEN}"}).json()
    expected = match_odds(str(folder / "x.toml")).as_dict()
    assert data["odds"] == expected
    assert data["odds"]["chance"]["Ann"] + data["odds"]["chance"]["Bob"] == 1.0


HAND = "3h 4h 5h Ks Kc Kd 7c 8c 9c 2d Qs"


def said_advice(answer: str) -> list[str]:
    """The words of each Advice line on a check page, each range in one piece, that a line may not break inside."""
    lines = re.findall(r'<p class="game-best"><strong>Advice:</strong> (.*?)</p>', answer)
    for line in lines:
        assert not re.search(r"\(\d+%–\d+%\)(?!</span>)", line), line
    return [re.sub(r'<span class="num">([^<]*)</span>', r"\1", line) for line in lines]


def test_the_match_s_check_weighs_the_game_as_advise_match_does_for_the_same_seed(client, folder, run):  # noqa: F811
    new_match(client)
    assert record(client, "x.toml", how="counts", knocker="Bob", deadwood="2", opponent_deadwood="60").status_code == 303
    page = client.get("/m/x.toml/check").text
    assert '<option value="Ann" selected>' in page  # Bob deals next: Ann is to play
    live = client.post("/m/x.toml/check/live", data={"csrf": csrf(page), "cards": HAND}).text
    assert "game-knock" not in live and "Which discard?" in live  # the live answer leaves the game to Check
    answer = client.post("/m/x.toml/check", data={"csrf": csrf(page), "cards": HAND, "action": "check",
                                                  "player": "Bob", "seed": "5"}).text
    data = json_object(run("advise", *HAND.split(), "--match", folder / "x.toml", "--player", "Bob", "--seed", "5",
                           "--json"))
    shown = dict(re.findall(r'<th scope="row">([^<]+)</th>[^\n]*?class="num game-knock" data-chance="([^"]+)"', answer))
    play_on = dict(re.findall(r'<th scope="row">([^<]+)</th>[^\n]*?class="num game-play-on" data-chance="([^"]+)"', answer))
    expected = {card_face(option["discard"]): option for option in data["game"]["options"]}
    assert set(shown) == set(play_on) == set(expected) == {"Q♠", "2♦"}  # the phone's cards, with their suits' glyphs
    for discard, option in expected.items():
        assert float(shown[discard]) == option["knock_now"]
        assert float(play_on[discard]) == option["play_on"]
    assert f"For the game, Bob now {data['game']['chance_now']:.0%} to win it." in answer
    # the one play the command line ends in, its cards said as the phone says them, and no second answer
    final = data["game"]["final"]
    faced = re.sub(r"\b(?:10|[2-9AJQK])[cdhs]\b", lambda card: card_face(card.group()), final["words"])
    assert said_advice(answer) == [html.escape(faced, quote=False)]
    assert "Best for the game" not in answer and "game-differs" not in answer and "Discard " not in answer
    if data["game"]["differs"]:
        differs = re.sub(r"\b(?:10|[2-9AJQK])[cdhs]\b", lambda card: card_face(card.group()), data["game"]["differs"])
        assert html.escape(differs, quote=False) not in answer
    starred = re.findall(r'<tr class="recommended"><th scope="row">([^<]+)</th>', answer)
    assert starred == [card_face(final["discard"])]  # the table's star on the same play
    assert "the same cards draw the same hands, so they give the same figures here each time" in answer
    assert "Seed" not in answer and "--seed" not in answer


def test_where_the_game_overrules_the_points_the_check_page_says_only_the_game_s_play(client, monkeypatch):  # noqa: F811
    """The hand's advice says knock with Q♠; the game's chances, made here to favour playing on beyond their error,
    turn it into one play: play on, discarding Q♠. The page says that once, with the star on its row."""
    from ginscore.web import hands

    real = hands.advise_for_game

    def playing_on_wins(*args, **kwargs):
        advice, weighed = real(*args, **kwargs)
        # no samples world by world: the figures' own intervals judge the gap
        choices = tuple(replace(choice, knock_now=0.40, knock_interval=(0.38, 0.42), play_on=0.55,
                                play_on_interval=(0.52, 0.58), knock_values=(), play_on_values=())
                        if str(choice.discard) == "Qs" else choice for choice in weighed.choices)
        chosen = next(choice for choice in choices if str(choice.discard) == "Qs")
        return advice, replace(weighed, choices=choices, best=chosen)

    monkeypatch.setattr(hands, "advise_for_game", playing_on_wins)
    new_match(client)
    page = client.get("/m/x.toml/check").text
    answer = client.post("/m/x.toml/check", data={"csrf": csrf(page), "cards": HAND, "action": "check"}).text
    assert said_advice(answer) == ["play on, discarding Q♠, for the game rather than the points: playing on wins it 55% (52%–58%), "
                      "knocking now 40% (38%–42%), beyond their error; the points a knock brings now matter less here."]
    assert "Discard Q♠." not in answer and "Best for the game" not in answer and "Knock with" not in answer
    assert re.findall(r'<tr class="recommended"><th scope="row">([^<]+)</th>', answer) == ["Q♠"]


def test_a_finished_match_s_check_gives_the_hand_s_advice_and_no_game(client):  # noqa: F811
    page = client.get("/m/standard.toml/check").text
    assert 'id="check-player"' not in page
    answer = client.post("/m/standard.toml/check", data={"csrf": csrf(page), "cards": HAND, "action": "check"}).text
    assert "Which discard?" in answer and '<th scope="row">Q♠</th>' in answer
    assert "game-knock" not in answer and "For the game" not in answer


def test_the_live_answer_and_check_give_the_same_figures_for_the_same_hand(client):  # noqa: F811
    """Both are estimates from drawn opponent hands; the pages draw them with the hand's own seed, so the live
    answer, Check and a Check again say the same figures for the same cards, in any order."""
    new_match(client)
    page = client.get("/m/x.toml/check").text
    live = client.post("/m/x.toml/check/live", data={"csrf": csrf(page), "cards": HAND}).text
    shuffled = " ".join(reversed(HAND.split()))
    answers = [client.post("/m/x.toml/check", data={"csrf": csrf(page), "cards": cards, "action": "check"}).text
               for cards in (HAND, shuffled)]

    def figures(answer: str) -> list[tuple[str, ...]]:
        return re.findall(r'<th scope="row">([^<]+)</th><td class="num">(\d+)</td><td class="num">([^<]+)</td><td class="num">([^<]+)</td>', answer)

    assert len(figures(live)) == 2  # Q♠ and 2♦ may knock
    assert figures(answers[0]) == figures(answers[1]) == figures(live)

"""The hand simulator (game/simulate.py) and the built-in model made from it (game/baseline.py)."""

from __future__ import annotations

import json
import random
from collections import Counter
from importlib import resources

import pytest

from ginscore.game.baseline import CHUNK, Knock, rescored, simulate_chunk
from ginscore.game.cards import DECK, Hand
from ginscore.game.melds import min_deadwood
from ginscore.game.outcomes import DEAD, DEALER, NON_DEALER
from ginscore.game.rulebook import PRESETS, Rules
from ginscore.game.scoring import score_cards, score_counts
from ginscore.game.simulate import POLICY, careful, simulate, simulate_hand


@pytest.mark.parametrize("preset", list(PRESETS))
def test_every_hand_is_dealt_from_one_deck_and_scored_as_score_scores_it(preset):
    rules = PRESETS[preset]
    for hand in simulate(rules, random.Random(3), 150):
        dealt = [hand.dealer_cards, hand.non_dealer_cards]
        assert [len(cards) for cards in dealt] == [10, 10]
        assert not dealt[0].mask & dealt[1].mask
        assert hand.upcard not in dealt[0] and hand.upcard not in dealt[1]
        if hand.result is None:
            assert hand.side == DEAD and hand.points == 0
            assert hand.draws == 31 - 2  # the stock's last two cards are never drawn
            continue
        knocker, opponent = hand.knocker_cards, hand.opponent_cards
        assert knocker is not None and opponent is not None
        assert len(knocker) == 11 and len(opponent) == 10 and not knocker.mask & opponent.mask
        upcard = hand.upcard if rules.oklahoma else None
        again = score_cards(tuple(knocker), tuple(opponent), rules, upcard=upcard).result
        assert again == hand.result
        by_counts = score_counts(
            again.knocker_deadwood, again.opponent_deadwood, rules, again.knock_limit, again.multiplier,
            again.result == "big_gin",
        )
        assert (by_counts.winner, by_counts.points) == (again.winner, again.points)
        winner = {"knocker": hand.knocker, "opponent": NON_DEALER if hand.knocker == DEALER else DEALER}
        assert hand.side == winner.get(again.winner or "", DEAD)
        assert hand.points == again.points


def test_the_policies_knock_when_they_say_they_do():
    rules = PRESETS["standard"]
    for hand in simulate(rules, random.Random(5), 200):
        if hand.result is None or hand.result.result == "big_gin":
            continue
        side = 0 if hand.knocker == DEALER else 1
        policy = POLICY[hand.policies[side]]
        assert hand.knocker_cards is not None
        least = min(min_deadwood(hand.knocker_cards.mask ^ card.bit) for card in hand.knocker_cards)
        assert least <= min(policy.knock_at, rules.knock_limit)


def test_the_cards_of_a_hand_stay_one_deck():
    for hand in simulate(PRESETS["oklahoma"], random.Random(11), 100):
        if hand.knocker_cards is None or hand.opponent_cards is None:
            continue
        held = hand.knocker_cards.mask | hand.opponent_cards.mask
        assert held & Hand.of(DECK).mask == held and held.bit_count() == 21


def shipped() -> dict:
    return json.loads(resources.files("ginscore.game").joinpath("data/outcomes.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("preset", list(PRESETS))
def test_the_shipped_model_s_first_chunk_is_made_again_exactly(preset):
    data = shipped()
    stored = data["presets"][preset]
    made = simulate_chunk(preset, data["seed"], 0)
    assert [[*knock.as_list(), n] for knock, n in sorted(made.items())] == stored["first_chunk"]
    assert stored["hands"] >= 20_000 and stored["hands"] == stored["chunks"] * CHUNK
    assert sum(row[-1] for row in stored["knocks"]) == stored["hands"]
    assert stored["rules"] == PRESETS[preset].to_dict()
    assert [p["name"] for p in data["policies"]] == list(POLICY)


def test_the_simulated_hands_are_scored_again_under_other_bonuses():
    knocks = Counter({Knock(DEALER, 4, 10): 3, Knock(NON_DEALER, 6, 6): 1, Knock(DEALER, 0, 12): 2, Knock(DEAD): 1})
    standard = rescored(knocks, PRESETS["standard"])
    # the non-dealer's 6 against 6 is an undercut: the dealer scores the bonus, 10
    assert dict(standard.dealer) == {6: 3, 10: 1, 32: 2} and dict(standard.non_dealer) == {} and standard.dead == 1
    tournament = rescored(knocks, PRESETS["tournament"])
    assert dict(tournament.dealer) == {6: 3, 25: 1, 37: 2}
    ties = rescored(Counter({Knock(NON_DEALER, 6, 6): 1}), Rules(undercut_on_tie=False))
    assert ties.dead == 1
    doubled = rescored(Counter({Knock(DEALER, 2, 9, spade=True): 1}), PRESETS["oklahoma"])
    assert dict(doubled.dealer) == {14: 1}


def test_a_careful_player_never_knocks_into_an_undercut_and_a_careless_one_does():
    rng = random.Random(11)
    careless = [simulate_hand(PRESETS["standard"], rng, (POLICY["eager"], POLICY["eager"])) for _ in range(150)]
    assert any(hand.result is not None and hand.result.winner != "knocker" for hand in careless)
    rng = random.Random(11)
    wary = (careful(POLICY["eager"]), careful(POLICY["eager"]))
    hands = [simulate_hand(PRESETS["standard"], rng, wary) for _ in range(150)]
    knocked = [hand for hand in hands if hand.result is not None]
    assert knocked and all(hand.result.winner == "knocker" for hand in knocked)

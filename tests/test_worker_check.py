"""The app's typed check (`pocket/worker.py` `check`), answered by the lean layers: the game's own rule for eleven
melded cards under standard rules, which pay no big gin (a gin with a discard), as `ginscore check` says it."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from ginscore.cli import app as cli
from ginscore.pocket import worker


def faces(cards: list[dict[str, object]]) -> list[object]:
    return [card["face"] for card in cards]


def test_eleven_melded_cards_under_standard_rules_are_a_gin_with_a_discard_and_ten_cards_melded():
    hand = "3h 4h 5h 6h Kc Kd Ks 7c 8c 9c 10c"
    said = json.loads(worker.check(hand))
    assert said["verdict"] == "Gin: every card melds"
    assert said["discards"] and said["deadwood"] == 0 and said["deadwood_cards"] == []
    assert sum(len(meld) for meld in said["melds"]) == 10  # the discard is not among the melds
    assert faces(said["discards"])[0] not in [card for meld in said["melds"] for card in faces(meld)]
    line = json.loads(CliRunner().invoke(cli, ["check", *hand.split(), "--json"], env={"NO_COLOR": "1"}).stdout)
    assert line["big_gin"] is False and line["deadwood"] == 0


def test_a_card_that_is_not_one_is_refused_in_the_solvers_words():
    assert json.loads(worker.check("3h 4h Xx")) == {"error": "'Xx' is not a card: unknown suit 'x' (use c, d, h, s or ♣ ♦ ♥ ♠)"}

"""The app's typed check (`pocket/worker.py` `check`), answered by the lean layers as the check page's HTML: the
game's own rule for eleven melded cards under standard rules, which pay no big gin (a gin with a discard), as
`ginscore check` says it."""

from __future__ import annotations

import json
import re

from typer.testing import CliRunner

from ginscore.cli import app as cli
from ginscore.pocket import worker


def faces(html: str) -> list[str]:
    return re.findall(r'<span class="card-chip(?: red)?">([^<]*)</span>', html)


def test_eleven_melded_cards_under_standard_rules_are_a_gin_with_a_discard_and_ten_cards_melded():
    hand = "3h 4h 5h 6h Kc Kd Ks 7c 8c 9c 10c"
    said = worker.check(hand)
    verdict = re.search(r'<p class="knock-verdict">Gin: every card melds, discarding (.*?)\.</p>', said)
    melds = re.search(r'<dd class="melds">(.*?)</dd>', said)
    assert verdict and melds, said
    assert '<dd class="deadwood"> <span class="deadwood-count">0</span>' in said  # no deadwood card, and none left
    assert len(faces(melds.group(1))) == 10  # the discard is not among the melds
    assert faces(verdict.group(1))[0] not in faces(melds.group(1))
    line = json.loads(CliRunner().invoke(cli, ["check", *hand.split(), "--json"], env={"NO_COLOR": "1"}).stdout)
    assert line["big_gin"] is False and line["deadwood"] == 0


def test_a_card_that_is_not_one_is_refused_in_the_solvers_words():
    assert worker.check("3h 4h Xx") == ('<div class="hand-check">\n<p class="error" role="alert">&#39;Xx&#39; is not a card: '
                                        "unknown suit &#39;x&#39; (use c, d, h, s or ♣ ♦ ♥ ♠)</p>\n</div>\n")

"""The standalone check page (/check) offers the up-card only under rules that use it (Oklahoma, where it sets the
knock limit), as a match's pages do, and judges by it only there."""

from __future__ import annotations

import re

from test_web_pages import client, csrf, folder  # noqa: F401 (fixtures)

from ginscore.web.picker import UPCARD_FIRST

FIVE = "3h 4h 5h Ks Kc Kd 7c 8c 9c 5d"
"""Three melds and 5 deadwood: a knock under a limit of 10, not under the 3♦'s 3."""


def verdict(answer: str) -> str:
    found = re.search(r'<p class="knock-verdict">([^<]*)', answer)
    assert found, answer
    return found.group(1).removesuffix(".")


def test_only_the_rules_that_use_the_up_card_offer_it(client):  # noqa: F811
    page = client.get("/check").text
    options = dict(re.findall(r'<option value="(standard|tournament|oklahoma)"([^>]*)>', page))
    assert options == {"standard": " selected", "tournament": "", "oklahoma": " data-upcard"}
    # the one up-card field, in the box the style shows only while an option marked data-upcard is chosen
    assert re.findall(r'<p class="([^"]*)"><label for="check-upcard">', page) == ["upcard-rule"]
    chosen = client.post("/check", data={"csrf": csrf(page), "rules": "oklahoma", "action": "check"}).text
    assert '<option value="oklahoma" data-upcard selected>' in chosen


def test_the_up_card_judges_only_under_the_rules_that_use_it(client):  # noqa: F811
    page = client.get("/check").text

    def live(**fields: str) -> str:
        response = client.post("/check/live", data={"csrf": csrf(page), "cards": FIVE, **fields})
        assert response.status_code == 200
        return verdict(response.text)

    assert live(rules="standard") == "You can knock: 5 deadwood, limit 10"
    assert live(rules="standard", upcard="3d") == "You can knock: 5 deadwood, limit 10"  # left picked, not offered
    assert live(rules="tournament", upcard="3d") == "You can knock: 5 deadwood, limit 10"
    assert live(rules="oklahoma", upcard="3d") == "You cannot knock: 5 deadwood, limit 3"
    assert live(rules="oklahoma") == UPCARD_FIRST

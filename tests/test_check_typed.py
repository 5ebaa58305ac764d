"""The app's typed check answers with serve's check page's own HTML (issue 55): one function makes the answer
(`sheets/hand_check.py`), the worker's lean layers before the pages are in, and the check page's route; the shell
inserts it as it is."""

from __future__ import annotations

import asyncio
import concurrent.futures
import re
from typing import Any
from urllib.parse import urlencode

import pytest

from ginscore.sheets.hand_check import HandCheck, hand_check_html

HANDS = [
    "3h 4h 5h 7c 8c 9c Kc Kd Ks 2d",  # a knock
    "3h 4h 5h 7c 8c 9c Kc Kd Ks 2d 9h",  # eleven: a knock, discarding
    "3h 4h 5h Ks Kc Kd 7c 8c 9c 10c Jc",  # eleven melded, standard rules: a gin with a discard
    "3h 4h 5h Ks Kc Kd 7c 8c 9c 10c",  # gin, beside the count
    "As 2c 4d 6h 8s 10c Qd Kh 3s 5c",  # no meld
    "Ah 2h 3h 4h 5h 6h 7h 8h 9h 10h Jh Qh",  # twelve: refused
]


def asked(pocket: Any, method: str, path: str, form: dict[str, str] | None = None) -> str:
    """A page from the worker's own app, the one serve runs, as the shell asks it."""
    body, kind = (urlencode(form), "application/x-www-form-urlencoded") if form else ("", "")
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        answer = pool.submit(asyncio.run, pocket.request(method, path, "", body, kind)).result(timeout=60)
    assert answer["status"] == 200, answer["body"][:400]
    return str(answer["body"].decode("utf-8"))


def test_the_typed_answer_is_the_check_pages_answer_to_the_byte(pocket: Any) -> None:
    page = asked(pocket, "GET", "/check")
    csrf = re.search(r'name="csrf" value="([^"]+)"', page)
    assert csrf
    for cards in HANDS:
        typed = pocket.check(cards)
        assert typed.startswith('<div class="hand-check">\n') and typed.endswith("</div>\n"), typed
        form = {"csrf": csrf.group(1), "cards": cards, "rules": "standard"}
        live = asked(pocket, "POST", "/check/live", form)
        assert live.startswith(typed), (cards, live, typed)  # the answer first, then advise's table for eleven
        checked = asked(pocket, "POST", "/check", {**form, "action": "check"})
        assert f'<div id="live-hand" aria-live="polite">\n{typed}' in checked, cards


def test_eleven_melded_cards_under_standard_rules_show_the_discard_out_of_the_melds_on_both(pocket: Any) -> None:
    typed = pocket.check("3h 4h 5h Ks Kc Kd 7c 8c 9c 10c Jc")
    assert '<p class="knock-verdict">Gin: every card melds, discarding <span class="card-chip">J♣</span> or ' in typed
    melds = re.search(r'<dd class="melds">(.*?)</dd>', typed)
    assert melds and "J♣" not in melds.group(1) and melds.group(1).count("card-chip") == 10
    assert '<span class="deadwood-count">0</span> <strong class="gin-mark">gin</strong>' in typed


def test_a_refusal_is_said_in_the_solvers_words_escaped_as_the_templates_escape() -> None:
    said = hand_check_html(HandCheck(error="'Xx' is not a card: <b> & \"so\""))
    assert said == ('<div class="hand-check">\n<p class="error" role="alert">&#39;Xx&#39; is not a card: &lt;b&gt; '
                    "&amp; &#34;so&#34;</p>\n</div>\n")


@pytest.mark.parametrize(("check", "expected"), [
    (None, ""),
    (HandCheck(waiting="3 picked: 7 more cards for a hand."),
     '<div class="hand-check">\n<p class="muted">3 picked: 7 more cards for a hand.</p>\n</div>\n'),
    (HandCheck(melds=(), deadwood_cards=("Ah", "Xx"), deadwood=1, verdict="You can knock: 1 deadwood, limit 10"),
     '<div class="hand-check">\n<p class="knock-verdict">You can knock: 1 deadwood, limit 10.</p>\n<dl class="answer">\n'
     '<dt>Melds</dt><dd class="melds">none</dd>\n<dt>Deadwood</dt><dd class="deadwood"><span class="card-chip red">A♥</span>'
     '<span class="card-chip">Xx</span> <span class="deadwood-count">1</span></dd>\n</dl>\n</div>\n'),
])
def test_nothing_picked_what_is_missing_and_no_meld_are_each_said(check: HandCheck | None, expected: str) -> None:
    assert hand_check_html(check) == expected
